import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { EisnerWitnessCounts } from "../src/decode/eisner-witness-counts.js";
import {
  alphaThreshold,
  firstOrderPruneMask,
  meanMaxMarginal,
  vinePruneMask,
  vineThreshold,
} from "../src/decode/max-marginal-pruning.js";
import { VineParser } from "../src/decode/vine-parser.js";
import {
  toVineStructure,
  VINE_LEFT,
  VINE_RIGHT,
  vineShortIndex,
  VineScores,
} from "../src/decode/vine-structure.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";
import { randomVineScores } from "./vine-brute.js";

const NEG = Number.NEGATIVE_INFINITY;

function randomMask(rng: Rng, n: number, p: number): ArcMask {
  const mask = ArcMask.full(n);
  for (let h = 0; h <= n; h++) for (let m = 1; m <= n; m++) if (h !== m && rng.next() < p) mask.remove(h, m);
  return mask;
}

test("vine pruning keeps exactly the parts reaching t_α, never a pruned arc, always the best structure", () => {
  const rng = new Rng(77);
  let cases = 0;
  let treesKept = 0;
  for (const singleRoot of [true, false]) {
    for (let n = 1; n <= 7; n++) {
      for (const b of [1, 2, 3]) {
        const parser = new VineParser({ band: b, singleRoot });
        const sc = new VineScores(b);
        for (let t = 0; t < 6; t++) {
          randomVineScores(rng, n, b, t === 5, sc);
          const input = t % 2 === 1 ? randomMask(rng, n, 0.3) : null;
          const mm = parser.maxMarginals(n, sc, input);
          let realizer: Int32Array | null = null;
          if (mm.best > NEG && n <= 6)
            for (const heads of enumerateTrees(n, { mask: input, singleRoot })) {
              const vh = toVineStructure(heads, n, b);
              let same = true;
              for (let m = 1; m <= n && same; m++) if (vh[m] !== mm.heads[m]) same = false;
              if (same) {
                realizer = heads;
                break;
              }
            }
          for (const alpha of [0, 0.3, 0.7, 0.95, 1]) {
            const th = vineThreshold(mm, alpha);
            const out = vinePruneMask(mm, th, input);
            if (mm.best === NEG) {
              assert.deepEqual(out.bits, input === null ? ArcMask.full(n).bits : input.bits);
              continue;
            }
            cases++;
            assert.ok(th <= mm.best);
            if (mm.parts > 0) assert.ok(th >= Math.min(mm.mean, mm.best) - 1e-9);
            const size = n + 1;
            for (let h = 0; h <= n; h++) {
              for (let m = 1; m <= n; m++) {
                if (h === m) {
                  assert.equal(out.bits[h * size + m], 0);
                  continue;
                }
                const allowed = input === null || input.allows(h, m);
                const kept = out.allows(h, m);
                if (!allowed) assert.ok(!kept, `pruned arc ${h}→${m} kept`);
                // The rule, recomputed.
                let v: number;
                let inBest: boolean;
                if (h === 0) {
                  v = mm.root[m]!;
                  inBest = mm.heads[m] === 0;
                } else if (Math.abs(h - m) <= b) {
                  v = mm.short[vineShortIndex(b, h, m)]!;
                  inBest = mm.heads[m] === h;
                } else {
                  const side = h < m ? 0 : 1;
                  v = mm.outer[2 * m + side]!;
                  inBest = mm.heads[m] === (side === 0 ? VINE_LEFT : VINE_RIGHT);
                }
                assert.equal(kept, allowed && ((v > NEG && v >= th) || inBest), `${h}→${m} α=${alpha}`);
                if (inBest && allowed) assert.ok(kept);
              }
            }
            // A tree whose vine structure is the best one survives entirely.
            if (realizer !== null) {
              for (let m = 1; m <= n; m++) assert.ok(out.allows(realizer[m]!, m));
              treesKept++;
            }
          }
        }
      }
    }
  }
  assert.ok(cases > 500);
  assert.ok(treesKept > 300);
});

test("t_α: α = 1 is the best score, α = 0 the mean, and larger α prunes more", () => {
  assert.equal(alphaThreshold(10, 4, 1), 10);
  assert.equal(alphaThreshold(10, 4, 0), 4);
  assert.equal(alphaThreshold(10, 4, 0.5), 7);
  // Clamped at the best score (rounding can lift a mean of equal values above it).
  assert.equal(alphaThreshold(1, 1 + 1e-15, 0), 1);
  assert.ok(Number.isNaN(meanMaxMarginal([NEG, NEG])));
  assert.equal(meanMaxMarginal([1, NEG, 3]), 2);
  const rng = new Rng(9);
  const n = 60;
  const b = 4;
  const parser = new VineParser({ band: b });
  const sc = randomVineScores(rng, n, b, false, new VineScores(b));
  // Distance-like structure: short arcs better than outer arcs on average.
  for (let i = 0; i < sc.outer.length; i++) sc.outer[i] = sc.outer[i]! - 3;
  const mm = parser.maxMarginals(n, sc, null);
  let prev = Infinity;
  for (const alpha of [0, 0.2, 0.5, 0.8, 1]) {
    const kept = vinePruneMask(mm, vineThreshold(mm, alpha), null).count();
    assert.ok(kept <= prev, `α=${alpha}: ${kept} > ${prev}`);
    assert.ok(kept >= n);
    prev = kept;
  }
  const out = ArcMask.empty(n);
  assert.equal(vinePruneMask(mm, vineThreshold(mm, 0.5), null, out), out);
});

test("first-order pruning keeps the arcs reaching t_α and the best tree", () => {
  const rng = new Rng(12);
  const em = new EisnerMaxMarginals();
  const wc = new EisnerWitnessCounts();
  for (const n of [1, 5, 20, 40]) {
    const size = n + 1;
    const scores = new Float64Array(size * size);
    for (let i = 0; i < scores.length; i++) scores[i] = rng.next() * 10 - 5;
    const input = randomMask(rng, n, 0.2);
    const r = wc.compute(n, scores, input);
    const e = em.compute(n, scores, input);
    if (r.best === NEG) continue;
    assert.ok(Math.abs(meanMaxMarginal(e.marginals, size * size) - r.mean) < 1e-8);
    for (const alpha of [0, 0.5, 1]) {
      const th = alphaThreshold(r.best, r.mean, alpha);
      const out = firstOrderPruneMask(n, r.marginals, th, r.heads);
      for (let m = 1; m <= n; m++) assert.ok(out.allows(r.heads[m]!, m));
      for (let h = 0; h <= n; h++)
        for (let m = 1; m <= n; m++) {
          if (out.allows(h, m)) assert.ok(input.allows(h, m));
          if (h !== m && r.marginals[h * size + m]! >= th) assert.ok(out.allows(h, m));
        }
    }
  }
});

test("with head-side outer arcs a long arc needs both of its outer arcs; the best structure survives", () => {
  const rng = new Rng(78);
  let cases = 0;
  let treesKept = 0;
  let cut = 0;
  for (const singleRoot of [true, false]) {
    for (let n = 2; n <= 8; n++) {
      for (const b of [1, 2]) {
        const parser = new VineParser({ band: b, singleRoot, headOuter: true });
        const sc = new VineScores(b);
        for (let t = 0; t < 6; t++) {
          randomVineScores(rng, n, b, false, sc);
          for (let i = 0; i < 2 * (n + 1); i++) sc.headOuter[i] = rng.next() * 8 - 5;
          const input = t % 2 === 1 ? randomMask(rng, n, 0.3) : null;
          const mm = parser.maxMarginals(n, sc, input);
          if (!(mm.best > NEG)) continue;
          // Trees whose vine structure is the best one, each long arc from its outer arc's partner.
          const realizers: Int32Array[] = [];
          if (n <= 6)
            for (const heads of enumerateTrees(n, { mask: input, singleRoot })) {
              const vh = toVineStructure(heads, n, b);
              let same = true;
              for (let m = 1; m <= n && same; m++) {
                if (vh[m] !== mm.heads[m]) same = false;
                else if (vh[m] === VINE_LEFT) same = heads[m] === mm.outerHead[2 * m];
                else if (vh[m] === VINE_RIGHT) same = heads[m] === mm.outerHead[2 * m + 1];
              }
              if (same) realizers.push(heads);
            }
          for (const alpha of [0, 0.3, 0.7, 1]) {
            const th = vineThreshold(mm, alpha);
            const out = vinePruneMask(mm, th, input);
            cases++;
            for (let m = 1; m <= n; m++) {
              let incoming = 0;
              for (let side = 0; side < 2; side++) {
                const inBest = mm.heads[m] === (side === 0 ? VINE_LEFT : VINE_RIGHT);
                const outerKept = inBest || (mm.outer[2 * m + side]! > NEG && mm.outer[2 * m + side]! >= th);
                for (let h = 1; h <= n; h++) {
                  if (Math.abs(h - m) <= b || (h < m ? 0 : 1) !== side) continue;
                  const allowed = input === null || input.allows(h, m);
                  const v = mm.headOuter[2 * h + 1 - side]!;
                  const rule =
                    allowed &&
                    ((outerKept && v > NEG && v >= th) || (inBest && h === mm.outerHead[2 * m + side]));
                  assert.equal(out.allows(h, m), rule, `${h}→${m} α=${alpha}`);
                  if (allowed && outerKept && !rule) cut++;
                }
              }
              for (let h = 0; h <= n; h++) if (out.allows(h, m)) incoming++;
              assert.ok(incoming > 0, `token ${m} has no head left`);
              for (let h = 0; h <= n; h++)
                if (input !== null && !input.allows(h, m)) assert.ok(!out.allows(h, m));
            }
            for (const heads of realizers) {
              for (let m = 1; m <= n; m++)
                assert.ok(out.allows(heads[m]!, m), `realizer arc ${heads[m]}→${m}`);
              treesKept++;
            }
          }
        }
      }
    }
  }
  assert.ok(cases > 200, `cases ${cases}`);
  assert.ok(treesKept > 50, `trees kept ${treesKept}`);
  assert.ok(cut > 50, `long arcs removed by a head-side outer arc alone: ${cut}`);
});
