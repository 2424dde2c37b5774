import assert from "node:assert/strict";
import { test } from "node:test";
import { bruteForceBest, enumerateTrees } from "../src/decode/brute-force.js";
import { ChuLiuEdmondsDecoder } from "../src/decode/chu-liu-edmonds.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { isProjective, isTree, rootChildren, treeScore } from "../src/decode/tree-predicates.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";

const EPS = 1e-9;

/** Random arc scores; with `ties`, small integers so that ties are common. */
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
  return n <= 4 ? 40 : n === 5 ? 25 : n === 6 ? 8 : 3;
}

for (const singleRoot of [true, false]) {
  test(`MST (singleRoot=${singleRoot}) equals the best arborescence by brute force, full mask`, () => {
    const rng = new Rng(singleRoot ? 31 : 32);
    const dec = new ChuLiuEdmondsDecoder({ singleRoot });
    for (let n = 1; n <= 7; n++) {
      for (let t = 0; t < instances(n); t++) {
        const scores = randomScores(rng, n, t % 3 === 0);
        const r = dec.decode(n, scores, t % 2 === 0 ? null : ArcMask.full(n));
        const best = bruteForceBest(n, scores, { singleRoot })!;
        assert.equal(r.heads[0], -1);
        assert.ok(isTree(r.heads, n), `not a tree: ${r.heads}`);
        if (singleRoot) assert.equal(rootChildren(r.heads, n), 1);
        assert.equal(r.fallback, false);
        assert.ok(Math.abs(r.score - best.score) < EPS, `n=${n}: ${r.score} vs ${best.score}`);
        assert.ok(Math.abs(treeScore(r.heads, scores, n) - r.score) < EPS);
      }
    }
  });

  test(`MST (singleRoot=${singleRoot}) respects random masks, never reads pruned scores, falls back minimally`, () => {
    const rng = new Rng(singleRoot ? 41 : 42);
    const dec = new ChuLiuEdmondsDecoder({ singleRoot });
    let feasible = 0;
    let infeasible = 0;
    for (let n = 1; n <= 7; n++) {
      for (let t = 0; t < 2 * instances(n); t++) {
        const mask = randomMask(rng, n, 0.15 + 0.6 * rng.next());
        const scores = randomScores(rng, n, t % 3 === 0);
        const r = dec.decode(n, poison(scores, mask), mask);
        assert.ok(isTree(r.heads, n), `bad tree ${r.heads}`);
        if (singleRoot) assert.equal(rootChildren(r.heads, n), 1);
        assert.ok(!Number.isNaN(r.score));
        const best = bruteForceBest(n, scores, { mask, singleRoot });
        if (best !== null) {
          feasible++;
          assert.equal(r.fallback, false);
          for (let m = 1; m <= n; m++)
            assert.ok(mask.allows(r.heads[m]!, m), `pruned arc ${r.heads[m]}→${m}`);
          assert.ok(Math.abs(r.score - best.score) < EPS, `n=${n}: ${r.score} vs ${best.score}`);
        } else {
          infeasible++;
          assert.equal(r.fallback, true);
          const union = mask.clone();
          for (let m = 1; m <= n; m++) {
            union.allow(0, m);
            union.allow(m - 1, m);
            if (m < n) union.allow(m + 1, m);
          }
          let fewest = Number.POSITIVE_INFINITY;
          for (const h of enumerateTrees(n, { mask: union, singleRoot })) {
            let c = 0;
            for (let m = 1; m <= n; m++) if (!mask.allows(h[m]!, m)) c++;
            if (c < fewest) fewest = c;
          }
          let used = 0;
          for (let m = 1; m <= n; m++) if (!mask.allows(r.heads[m]!, m)) used++;
          assert.equal(used, fewest);
        }
      }
    }
    assert.ok(feasible > 50 && infeasible > 20, `feasible ${feasible}, infeasible ${infeasible}`);
  });
}

test("MST score ≥ Eisner score, both valid, on random sentences up to 60 tokens", () => {
  const rng = new Rng(7);
  for (const singleRoot of [true, false]) {
    const mst = new ChuLiuEdmondsDecoder({ singleRoot });
    const eis = new EisnerDecoder({ singleRoot });
    for (let t = 0; t < 120; t++) {
      const n = 1 + rng.int(t < 60 ? 8 : 60);
      const scores = randomScores(rng, n, t % 4 === 0);
      const mask = t % 3 === 0 ? randomMask(rng, n, 0.5) : null;
      const a = mst.decode(n, scores, mask);
      const b = eis.decode(n, scores, mask);
      assert.ok(isTree(a.heads, n) && isTree(b.heads, n));
      assert.ok(isProjective(b.heads, n));
      if (singleRoot) assert.ok(rootChildren(a.heads, n) === 1 && rootChildren(b.heads, n) === 1);
      if (!a.fallback && !b.fallback)
        assert.ok(a.score >= b.score - EPS, `n=${n}: mst ${a.score} < eisner ${b.score}`);
      if (isProjective(a.heads, n) && !a.fallback && !b.fallback)
        assert.ok(Math.abs(a.score - b.score) < EPS);
    }
  }
});

test("single-root MST equals the best over root children of unconstrained MST with one root arc (n ≤ 40)", () => {
  const rng = new Rng(8);
  const single = new ChuLiuEdmondsDecoder();
  const free = new ChuLiuEdmondsDecoder({ singleRoot: false });
  for (let t = 0; t < 40; t++) {
    const n = 2 + rng.int(39);
    const scores = randomScores(rng, n, t % 5 === 0);
    // Make the root attractive so the unconstrained tree usually has several root children.
    for (let m = 1; m <= n; m++) scores[m] = scores[m]! + 4;
    const a = single.decode(n, scores, null);
    let best = Number.NEGATIVE_INFINITY;
    for (let r = 1; r <= n; r++) {
      const mask = ArcMask.full(n);
      for (let m = 1; m <= n; m++) if (m !== r) mask.remove(0, m);
      const b = free.decode(n, scores, mask);
      assert.equal(b.fallback, false);
      if (b.score > best) best = b.score;
    }
    assert.ok(Math.abs(a.score - best) < 1e-8, `n=${n}: ${a.score} vs ${best}`);
  }
});

test("MST recovers a planted non-projective tree and handles degenerate inputs", () => {
  const dec = new ChuLiuEdmondsDecoder();
  const n = 9;
  const gold = [-1, 3, 5, 0, 1, 3, 2, 9, 3, 4];
  const scores = new Float64Array((n + 1) ** 2);
  for (let m = 1; m <= n; m++) scores[gold[m]! * (n + 1) + m] = 5;
  const r = dec.decode(n, scores, null);
  assert.deepEqual([...r.heads], gold);
  assert.ok(!isProjective(r.heads, n));
  assert.deepEqual([...dec.decode(0, new Float64Array(1), null).heads], [-1]);
  const e = dec.decode(5, new Float64Array(36).fill(Number.NaN), ArcMask.empty(5));
  assert.equal(e.fallback, true);
  assert.ok(isTree(e.heads, 5) && rootChildren(e.heads, 5) === 1);
  assert.equal(e.score, 0);
  // Only root arcs allowed: single-root is infeasible, fallback chains the rest.
  const rootOnly = ArcMask.empty(4);
  for (let m = 1; m <= 4; m++) rootOnly.allow(0, m);
  const f = dec.decode(4, new Float64Array(25).fill(1), rootOnly);
  assert.equal(f.fallback, true);
  assert.ok(isTree(f.heads, 4) && rootChildren(f.heads, 4) === 1);
});
