import assert from "node:assert/strict";
import { test } from "node:test";
import { pairedBootstrap } from "../src/eval/bootstrap.js";

test("paired bootstrap: identical systems differ by exactly 0 in every resample", () => {
  const c = [3, 5, 0, 7];
  const r = pairedBootstrap(c, c, [4, 6, 2, 9], 200);
  assert.deepEqual(r, { difference: 0, low: 0, high: 0, aBetter: 0 });
});

test("paired bootstrap: A better by 10% of every sentence gives 10 points in every resample", () => {
  const r = pairedBootstrap([2, 4, 1], [1, 2, 0], [10, 20, 10], 300);
  assert.equal(r.difference, 10);
  assert.equal(r.low, 10);
  assert.equal(r.high, 10);
  assert.equal(r.aBetter, 1);
});

test("paired bootstrap: two opposite one-token sentences (hand-worked distribution)", () => {
  // Resamples of 2 sentences from {s0: A right, B wrong; s1: A wrong, B right}: both s0 (p = 1/4)
  // gives +100, both s1 (1/4) gives −100, one of each (1/2) gives 0.
  const r = pairedBootstrap([1, 0], [0, 1], [1, 1], 4000);
  assert.equal(r.difference, 0);
  assert.equal(r.low, -100);
  assert.equal(r.high, 100);
  assert.ok(Math.abs(r.aBetter - 0.25) < 0.03, `aBetter ${r.aBetter}`);
  // Seeded: the same call gives the same result; another seed moves only the sampled share.
  assert.deepEqual(pairedBootstrap([1, 0], [0, 1], [1, 1], 4000), r);
  assert.notEqual(pairedBootstrap([1, 0], [0, 1], [1, 1], 4000, 0.95, 7).aBetter, r.aBetter);
});

test("paired bootstrap: the point difference is over the whole set, weighted by sentence length", () => {
  // A: 9/10 + 0/2 = 9/12; B: 8/10 + 2/2 = 10/12 → −8.33 points.
  const r = pairedBootstrap([9, 0], [8, 2], [10, 2], 100);
  assert.ok(Math.abs(r.difference - -100 / 12) < 1e-9);
  assert.ok(r.low <= r.difference && r.difference <= r.high);
});

test("paired bootstrap: mismatched arrays and bad settings are rejected", () => {
  assert.throws(() => pairedBootstrap([1], [1, 2], [2, 2]), RangeError);
  assert.throws(() => pairedBootstrap([1], [1], [2], 0), RangeError);
  assert.throws(() => pairedBootstrap([1], [1], [2], 10, 1), RangeError);
  // No sentences: no difference (not NaN).
  assert.deepEqual(pairedBootstrap([], [], [], 10), { difference: 0, low: 0, high: 0, aBetter: 0 });
});
