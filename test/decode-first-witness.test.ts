import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { EisnerWitnessCounts } from "../src/decode/eisner-witness-counts.js";
import { treeScore } from "../src/decode/tree-predicates.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";

const EPS = 1e-9;
const NEG = Number.NEGATIVE_INFINITY;

/** Brute force: max-marginal of every arc and witness counts over projective trees. */
function brute(
  n: number,
  scores: Float64Array,
  mask: ArcMask | null,
  singleRoot: boolean,
): { mm: Float64Array; count: Int32Array; best: number } {
  const size = n + 1;
  const mm = new Float64Array(size * size).fill(NEG);
  const arg: Int32Array[] = [];
  let best = NEG;
  for (const heads of enumerateTrees(n, { mask, singleRoot, projective: true })) {
    const s = treeScore(heads, scores, n);
    if (s > best) best = s;
    for (let m = 1; m <= n; m++) {
      const a = heads[m]! * size + m;
      if (s > mm[a]!) {
        mm[a] = s;
        arg[a] = heads;
      }
    }
  }
  const count = new Int32Array(size * size);
  for (let a = 0; a < size * size; a++) {
    if (mm[a] === NEG) continue;
    const heads = arg[a]!;
    for (let m = 1; m <= n; m++) count[heads[m]! * size + m]!++;
  }
  return { mm, count, best };
}

for (const singleRoot of [true, false]) {
  test(`first-order witness counts and max-marginals equal brute force (singleRoot=${singleRoot})`, () => {
    const rng = new Rng(singleRoot ? 61 : 62);
    const wc = new EisnerWitnessCounts({ singleRoot });
    const em = new EisnerMaxMarginals({ singleRoot });
    let checked = 0;
    for (let n = 0; n <= 7; n++) {
      const reps = n <= 4 ? 20 : n === 5 ? 10 : n === 6 ? 4 : 2;
      for (let t = 0; t < reps; t++) {
        const size = n + 1;
        const ties = t % 5 === 4;
        const scores = new Float64Array(size * size);
        for (let i = 0; i < scores.length; i++) scores[i] = ties ? rng.int(3) : rng.next() * 10 - 5;
        let mask: ArcMask | null = null;
        if (t % 2 === 1) {
          mask = ArcMask.full(n);
          const p = 0.1 + 0.5 * rng.next();
          for (let h = 0; h <= n; h++)
            for (let m = 1; m <= n; m++) if (h !== m && rng.next() < p) mask.remove(h, m);
        }
        const input = scores.slice();
        if (mask !== null)
          for (let i = 0; i < input.length; i++) if (mask.bits[i] === 0) input[i] = Number.NaN;
        const got = wc.compute(n, input, mask);
        const want = brute(n, scores, mask, singleRoot);
        const ref = em.compute(n, input, mask);
        if (n === 0) {
          assert.equal(got.best, 0);
          continue;
        }
        assert.ok(got.best === want.best || Math.abs(got.best - want.best) < EPS, `n=${n}: best`);
        let finite = 0;
        let total = 0;
        for (let a = 0; a < size * size; a++) {
          const g = got.marginals[a]!;
          const w = want.mm[a]!;
          if (w === NEG) assert.equal(g, NEG);
          else {
            assert.ok(Math.abs(g - w) < EPS, `n=${n} arc ${a}: ${g} vs ${w}`);
            assert.ok(Math.abs(ref.marginals[a]! - g) < EPS);
            finite++;
          }
          if (!ties) assert.equal(got.counts[a], want.count[a], `n=${n} t=${t} count of arc ${a}`);
          total += got.counts[a]!;
          checked++;
        }
        assert.equal(got.parts, finite);
        assert.equal(total, finite * n);
        if (want.best > NEG) assert.ok(Math.abs(treeScore(got.heads, scores, n) - want.best) < EPS);
        else assert.ok(got.heads.every((h) => h === -1));
      }
    }
    assert.ok(checked > 1500, `checked ${checked}`);
  });
}

test("first-order witness counts on a longer sentence: totals and agreement with EisnerMaxMarginals", () => {
  const rng = new Rng(5);
  for (const singleRoot of [true, false]) {
    const wc = new EisnerWitnessCounts({ singleRoot });
    const em = new EisnerMaxMarginals({ singleRoot });
    for (const n of [30, 12, 45]) {
      const size = n + 1;
      const scores = new Float64Array(size * size);
      for (let i = 0; i < scores.length; i++) scores[i] = rng.next() * 10 - 5;
      const got = wc.compute(n, scores, null);
      const ref = em.compute(n, scores, null);
      assert.ok(Math.abs(got.best - ref.best) < 1e-8);
      let total = 0;
      for (let a = 0; a < size * size; a++) {
        const g = got.marginals[a]!;
        const r = ref.marginals[a]!;
        assert.ok(g === r || Math.abs(g - r) < 1e-8);
        total += got.counts[a]!;
      }
      assert.equal(total, got.parts * n);
      // The best tree is every arc's witness when it contains it: its arcs count at least n each.
      for (let m = 1; m <= n; m++) assert.ok(got.counts[got.heads[m]! * size + m]! >= n);
    }
  }
});
