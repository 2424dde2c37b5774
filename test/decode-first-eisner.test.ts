import assert from "node:assert/strict";
import { test } from "node:test";
import { bruteForceBest, enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { createFirstOrderDecoder } from "../src/decode/first-order-factory.js";
import { isProjective, isTree, rootChildren, treeScore } from "../src/decode/tree-predicates.js";
import { VineparseError } from "../src/errors.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";

const EPS = 1e-9;

/** Random arc scores; every third sentence uses small integers so that ties are common. */
function randomScores(rng: Rng, n: number, ties: boolean): Float64Array {
  const size = n + 1;
  const s = new Float64Array(size * size);
  for (let i = 0; i < s.length; i++) s[i] = ties ? rng.int(3) : rng.next() * 10 - 5;
  return s;
}

/** A random mask keeping each arc with probability p. */
function randomMask(rng: Rng, n: number, p: number): ArcMask {
  const mask = ArcMask.full(n);
  for (let h = 0; h <= n; h++) for (let m = 1; m <= n; m++) if (h !== m && rng.next() >= p) mask.remove(h, m);
  return mask;
}

/** Scores with NaN wherever the mask prunes an arc, so reading one would poison the result. */
function poison(scores: Float64Array, mask: ArcMask): Float64Array {
  const s = scores.slice();
  for (let i = 0; i < s.length; i++) if (mask.bits[i] === 0) s[i] = Number.NaN;
  return s;
}

function instances(n: number): number {
  return n <= 4 ? 40 : n === 5 ? 25 : n === 6 ? 10 : 4;
}

for (const singleRoot of [true, false]) {
  test(`Eisner (singleRoot=${singleRoot}) equals the best projective tree by brute force, full mask`, () => {
    const rng = new Rng(singleRoot ? 11 : 12);
    const dec = new EisnerDecoder({ singleRoot });
    for (let n = 1; n <= 7; n++) {
      for (let t = 0; t < instances(n); t++) {
        const scores = randomScores(rng, n, t % 3 === 0);
        const r = dec.decode(n, scores, t % 2 === 0 ? null : ArcMask.full(n));
        const best = bruteForceBest(n, scores, { singleRoot, projective: true })!;
        assert.equal(r.heads.length, n + 1);
        assert.equal(r.heads[0], -1);
        assert.ok(isTree(r.heads, n), `not a tree: ${r.heads}`);
        assert.ok(isProjective(r.heads, n), `not projective: ${r.heads}`);
        if (singleRoot) assert.equal(rootChildren(r.heads, n), 1);
        assert.equal(r.fallback, false);
        assert.ok(Math.abs(r.score - best.score) < EPS, `n=${n}: ${r.score} vs ${best.score}`);
        assert.ok(Math.abs(treeScore(r.heads, scores, n) - r.score) < EPS);
      }
    }
  });

  test(`Eisner (singleRoot=${singleRoot}) respects random masks and never reads pruned scores`, () => {
    const rng = new Rng(singleRoot ? 21 : 22);
    const dec = new EisnerDecoder({ singleRoot });
    let feasible = 0;
    let infeasible = 0;
    for (let n = 1; n <= 7; n++) {
      for (let t = 0; t < 2 * instances(n); t++) {
        const mask = randomMask(rng, n, 0.3 + 0.6 * rng.next());
        const scores = randomScores(rng, n, t % 3 === 0);
        const r = dec.decode(n, poison(scores, mask), mask);
        assert.ok(isTree(r.heads, n) && isProjective(r.heads, n), `bad tree ${r.heads}`);
        if (singleRoot) assert.equal(rootChildren(r.heads, n), 1);
        assert.ok(!Number.isNaN(r.score));
        const best = bruteForceBest(n, scores, { mask, singleRoot, projective: true });
        if (best !== null) {
          feasible++;
          assert.equal(r.fallback, false);
          for (let m = 1; m <= n; m++)
            assert.ok(mask.allows(r.heads[m]!, m), `pruned arc ${r.heads[m]}→${m}`);
          assert.ok(Math.abs(r.score - best.score) < EPS, `n=${n}: ${r.score} vs ${best.score}`);
        } else {
          infeasible++;
          assert.equal(r.fallback, true);
          // The fallback restores as few root/adjacent arcs as possible.
          const union = mask.clone();
          for (let m = 1; m <= n; m++) {
            union.allow(0, m);
            union.allow(m - 1, m);
            if (m < n) union.allow(m + 1, m);
          }
          let fewest = Number.POSITIVE_INFINITY;
          for (const h of enumerateTrees(n, { mask: union, singleRoot, projective: true })) {
            let c = 0;
            for (let m = 1; m <= n; m++) if (!mask.allows(h[m]!, m)) c++;
            if (c < fewest) fewest = c;
          }
          let used = 0;
          for (let m = 1; m <= n; m++) {
            if (!mask.allows(r.heads[m]!, m)) {
              used++;
              const h = r.heads[m]!;
              assert.ok(h === 0 || h === m - 1 || h === m + 1, `restored arc ${h}→${m} is not root/adjacent`);
            }
          }
          assert.equal(used, fewest);
        }
      }
    }
    assert.ok(feasible > 50 && infeasible > 20, `feasible ${feasible}, infeasible ${infeasible}`);
  });
}

test("Eisner treats -Infinity scores as pruned arcs", () => {
  const rng = new Rng(5);
  const dec = new EisnerDecoder();
  for (let t = 0; t < 60; t++) {
    const n = 1 + rng.int(6);
    const mask = randomMask(rng, n, 0.6);
    const scores = randomScores(rng, n, false);
    for (let i = 0; i < scores.length; i++) if (mask.bits[i] === 0) scores[i] = Number.NEGATIVE_INFINITY;
    const a = dec.decode(n, scores, null);
    const b = dec.decode(n, scores, mask);
    assert.deepEqual(a.heads, b.heads);
    assert.equal(a.fallback, b.fallback);
    assert.ok(Number.isFinite(a.score));
  }
});

test("Eisner handles n = 0, the empty mask, and large then small sentences with one workspace", () => {
  const dec = new EisnerDecoder();
  const r0 = dec.decode(0, new Float64Array(1), null);
  assert.deepEqual([...r0.heads], [-1]);
  assert.equal(r0.fallback, false);
  const n = 6;
  const empty = ArcMask.empty(n);
  const r = dec.decode(n, new Float64Array((n + 1) ** 2).fill(Number.NaN), empty);
  assert.equal(r.fallback, true);
  assert.equal(r.score, 0);
  assert.ok(isTree(r.heads, n) && isProjective(r.heads, n) && rootChildren(r.heads, n) === 1);
  const rng = new Rng(9);
  for (const len of [60, 3, 45, 7, 1, 80, 5]) {
    const scores = randomScores(rng, len, false);
    const out = dec.decode(len, scores, null);
    assert.ok(isTree(out.heads, len) && isProjective(out.heads, len) && rootChildren(out.heads, len) === 1);
    if (len <= 7)
      assert.ok(
        Math.abs(out.score - bruteForceBest(len, scores, { singleRoot: true, projective: true })!.score) <
          EPS,
      );
  }
});

test("Eisner finds a planted tree when its arcs dominate", () => {
  const dec = new EisnerDecoder();
  const n = 12;
  // 0→4, 4→2, 2→1, 2→3, 4→8, 8→6, 6→5, 6→7, 8→10, 10→9, 10→11, 11→12
  const gold = [-1, 2, 4, 2, 0, 6, 8, 6, 4, 10, 8, 10, 11];
  const scores = new Float64Array((n + 1) ** 2);
  for (let m = 1; m <= n; m++) scores[gold[m]! * (n + 1) + m] = 10;
  const r = dec.decode(n, scores, null);
  assert.deepEqual([...r.heads], gold);
  assert.equal(r.score, 10 * n);
});

test("the factory builds decoders by name and rejects unknown names", () => {
  assert.equal(createFirstOrderDecoder("eisner").name, "eisner");
  assert.equal(createFirstOrderDecoder("mst").name, "mst");
  assert.equal(createFirstOrderDecoder("mst", { singleRoot: false }).singleRoot, false);
  assert.equal(createFirstOrderDecoder("eisner").singleRoot, true);
  assert.throws(
    () => createFirstOrderDecoder("cky"),
    (e: unknown) => e instanceof VineparseError && e.code === "unknown-decoder",
  );
});
