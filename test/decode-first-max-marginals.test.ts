import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";

const EPS = 1e-9;
const NEG = Number.NEGATIVE_INFINITY;

/** Random arc scores; with `ties`, small integers so that ties are common. */
function randomScores(rng: Rng, n: number, ties: boolean): Float64Array {
  const size = n + 1;
  const s = new Float64Array(size * size);
  for (let i = 0; i < s.length; i++) s[i] = ties ? rng.int(3) : rng.next() * 10 - 5;
  return s;
}

/** Max-marginals by brute force: best projective tree score containing each arc. */
function bruteMarginals(
  n: number,
  scores: Float64Array,
  mask: ArcMask | null,
  singleRoot: boolean,
): Float64Array {
  const size = n + 1;
  const mm = new Float64Array(size * size).fill(NEG);
  for (const heads of enumerateTrees(n, { mask, singleRoot, projective: true })) {
    let s = 0;
    for (let m = 1; m <= n; m++) s += scores[heads[m]! * size + m]!;
    for (let m = 1; m <= n; m++) {
      const a = heads[m]! * size + m;
      if (s > mm[a]!) mm[a] = s;
    }
  }
  return mm;
}

for (const singleRoot of [true, false]) {
  test(`Eisner max-marginals (singleRoot=${singleRoot}) equal brute force, with and without masks`, () => {
    const rng = new Rng(singleRoot ? 51 : 52);
    const mm = new EisnerMaxMarginals({ singleRoot });
    const dec = new EisnerDecoder({ singleRoot });
    let checked = 0;
    for (let n = 1; n <= 7; n++) {
      const count = n <= 4 ? 30 : n === 5 ? 16 : n === 6 ? 6 : 3;
      for (let t = 0; t < count; t++) {
        const scores = randomScores(rng, n, t % 3 === 0);
        let mask: ArcMask | null = null;
        if (t % 2 === 1) {
          mask = ArcMask.full(n);
          const p = 0.4 + 0.5 * rng.next();
          for (let h = 0; h <= n; h++)
            for (let m = 1; m <= n; m++) if (h !== m && rng.next() >= p) mask.remove(h, m);
        }
        const input = scores.slice();
        if (mask !== null)
          for (let i = 0; i < input.length; i++) if (mask.bits[i] === 0) input[i] = Number.NaN;
        const got = mm.compute(n, input, mask);
        const want = bruteMarginals(n, scores, mask, singleRoot);
        let top = NEG;
        for (let i = 0; i < (n + 1) ** 2; i++) {
          const g = got.marginals[i]!;
          const w = want[i]!;
          if (w === NEG)
            assert.equal(g, NEG, `n=${n} arc ${Math.floor(i / (n + 1))}→${i % (n + 1)}: ${g} vs -Inf`);
          else
            assert.ok(
              Math.abs(g - w) < EPS,
              `n=${n} arc ${Math.floor(i / (n + 1))}→${i % (n + 1)}: ${g} vs ${w}`,
            );
          if (w > top) top = w;
          checked++;
        }
        if (top === NEG) assert.equal(got.best, NEG);
        else {
          assert.ok(Math.abs(got.best - top) < EPS);
          const r = dec.decode(n, input, mask);
          assert.ok(Math.abs(r.score - got.best) < EPS);
          for (let m = 1; m <= n; m++)
            assert.ok(Math.abs(got.marginals[r.heads[m]! * (n + 1) + m]! - got.best) < EPS);
        }
      }
    }
    assert.ok(checked > 1000);
  });
}

test("max-marginals reuse a caller's buffer and handle n = 0 and larger sentences", () => {
  const mm = new EisnerMaxMarginals();
  const dec = new EisnerDecoder();
  const out = new Float64Array(100 * 100);
  assert.equal(mm.compute(0, new Float64Array(1), null, out).best, 0);
  const rng = new Rng(3);
  for (const n of [40, 12, 70]) {
    const scores = randomScores(rng, n, false);
    const r = mm.compute(n, scores, null, out);
    assert.equal(r.marginals, out);
    const d = dec.decode(n, scores, null);
    assert.ok(Math.abs(r.best - d.score) < 1e-8);
    let max = NEG;
    for (let i = 0; i < (n + 1) ** 2; i++) {
      const v = r.marginals[i]!;
      if (v > max) max = v;
      assert.ok(v <= r.best + 1e-8);
    }
    assert.ok(Math.abs(max - r.best) < 1e-8);
    for (let m = 1; m <= n; m++) assert.ok(Math.abs(r.marginals[d.heads[m]! * (n + 1) + m]! - r.best) < 1e-8);
  }
  // A mask admitting no tree gives -Infinity everywhere.
  const none = mm.compute(3, new Float64Array(16), ArcMask.empty(3));
  assert.equal(none.best, NEG);
  assert.ok(none.marginals.every((v) => v === NEG));
});

for (const singleRoot of [true, false]) {
  test(`Eisner witness counts (singleRoot=${singleRoot}) equal the arcs of every arc's best tree, by brute force`, () => {
    const rng = new Rng(singleRoot ? 61 : 62);
    const mm = new EisnerMaxMarginals({ singleRoot });
    let checked = 0;
    for (let n = 1; n <= 7; n++) {
      const count = n <= 4 ? 25 : n === 5 ? 12 : n === 6 ? 5 : 2;
      for (let t = 0; t < count; t++) {
        const size = n + 1;
        const scores = randomScores(rng, n, false);
        let mask: ArcMask | null = null;
        if (t % 2 === 1) {
          mask = ArcMask.full(n);
          const p = 0.35 + 0.5 * rng.next();
          for (let h = 0; h <= n; h++)
            for (let m = 1; m <= n; m++) if (h !== m && rng.next() >= p) mask.remove(h, m);
        }
        // Best tree containing each arc (continuous scores: unique).
        const best = new Float64Array(size * size).fill(NEG);
        const witness: (Int32Array | null)[] = new Array(size * size).fill(null);
        for (const heads of enumerateTrees(n, { mask, singleRoot, projective: true })) {
          let s = 0;
          for (let m = 1; m <= n; m++) s += scores[heads[m]! * size + m]!;
          for (let m = 1; m <= n; m++) {
            const a = heads[m]! * size + m;
            if (s > best[a]!) {
              best[a] = s;
              witness[a] = heads;
            }
          }
        }
        const want = new Int32Array(size * size);
        let witnesses = 0;
        for (const tree of witness) {
          if (tree === null) continue;
          witnesses++;
          for (let m = 1; m <= n; m++) want[tree[m]! * size + m]!++;
        }
        mm.compute(n, scores, mask);
        const got = mm.witnessCounts();
        const ctx = `n=${n} t=${t}`;
        assert.equal(got.witnesses, witnesses, ctx);
        assert.deepEqual(Array.from(got.arcs.subarray(0, size * size)), Array.from(want), ctx);
        checked++;
      }
    }
    assert.ok(checked > 100);
  });
}

test("Eisner witness counts with ties: n arcs per witness, each arc in its own witness", () => {
  const rng = new Rng(63);
  for (const singleRoot of [true, false]) {
    const mm = new EisnerMaxMarginals({ singleRoot });
    for (let t = 0; t < 40; t++) {
      const n = 2 + rng.int(30);
      const size = n + 1;
      const r = mm.compute(n, randomScores(rng, n, true), null);
      const got = mm.witnessCounts();
      let total = 0;
      let finite = 0;
      for (let a = 0; a < size * size; a++) {
        total += got.arcs[a]!;
        if (r.marginals[a]! > NEG) {
          finite++;
          assert.ok(got.arcs[a]! >= 1);
        }
      }
      assert.equal(got.witnesses, finite);
      assert.equal(total, finite * n);
    }
  }
});
