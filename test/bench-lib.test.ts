import assert from "node:assert/strict";
import { test } from "node:test";
import { median, pairedRatioNote, perRoundRatios } from "../bench/lib.js";

test("per-round ratios pair the rounds both variants ran; the note gives their median, range and the ratio of medians", () => {
  // A host that slows down threefold in the last round: each round's ratio stays 2 or 3.
  const a = [2, 4, 9];
  const b = [1, 2, 3, 5];
  assert.deepEqual(perRoundRatios(a, b), [2, 2, 3]);
  assert.equal(median(perRoundRatios(a, b)), 2);
  assert.equal(
    pairedRatioNote("A", a, "B", b),
    "A / B time: median of 3 per-round ratios 2.000 (range 2.000–3.000); ratio of medians 1.600",
  );
});
