import assert from "node:assert/strict";
import { test } from "node:test";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { SiblingIndex } from "../src/decode/parts-index.js";
import type { GrandSiblingScorer } from "../src/decode/parts-types.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { SiblingMaxMarginals } from "../src/decode/sibling-max-marginals.js";
import { SpanWindows } from "../src/decode/span-windows.js";
import { ThirdOrderDecoder } from "../src/decode/third-order.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { finish, mix } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";

const NEG = Number.NEGATIVE_INFINITY;
/** Score of an arc the mask prunes, in the full-mask reference runs: low enough that no best tree uses one. */
const PRUNED = -1e6;

/** Hashed part scores; arcs favour short lengths, so that the top-k masks are mostly short arcs. */
class HashScorer implements GrandSiblingScorer {
  constructor(readonly seed: number) {}
  private u(h: number): number {
    return finish(h) / 2147483648 - 1;
  }
  arc(h: number, m: number): number {
    return this.u(mix(mix(mix(this.seed, 1), h), m)) - 0.2 * Math.abs(h - m);
  }
  sib(h: number, s: number, m: number): number {
    return this.u(mix(mix(mix(mix(this.seed, 2), h), s), m));
  }
  grand(g: number, h: number, m: number): number {
    return this.u(mix(mix(mix(mix(this.seed, 3), g), h), m));
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return this.u(mix(mix(mix(mix(mix(this.seed, 4), g), h), s), m));
  }
}

/** The same scores on a full mask, with every arc the mask prunes (and its parts) heavily penalized. */
class PenalizedScorer implements GrandSiblingScorer {
  constructor(
    readonly inner: GrandSiblingScorer,
    readonly mask: ArcMask,
  ) {}
  private ok(h: number, m: number): boolean {
    return h === m || h < 0 || this.mask.allows(h, m);
  }
  arc(h: number, m: number): number {
    return this.ok(h, m) ? this.inner.arc(h, m) : PRUNED;
  }
  sib(h: number, s: number, m: number): number {
    return this.ok(h, m) && this.ok(h, s) ? this.inner.sib(h, s, m) : 0;
  }
  grand(g: number, h: number, m: number): number {
    return this.ok(g, h) && this.ok(h, m) ? this.inner.grand(g, h, m) : 0;
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return this.ok(g, h) && this.ok(h, m) && this.ok(h, s) ? this.inner.gsib(g, h, s, m) : 0;
  }
}

/** Each token's k best heads, plus the arcs of a random projective tree (long ones included) so a tree exists. */
function prunedMask(
  rng: Rng,
  n: number,
  scorer: GrandSiblingScorer,
  k: number,
  singleRoot: boolean,
): ArcMask {
  const mask = ArcMask.empty(n);
  for (let m = 1; m <= n; m++) {
    const hs: number[] = [];
    for (let h = 0; h <= n; h++) if (h !== m) hs.push(h);
    hs.sort((a, b) => scorer.arc(b, m) - scorer.arc(a, m));
    for (let i = 0; i < k; i++) mask.allow(hs[i]!, m);
  }
  const heads = new Int32Array(n + 1);
  const attach = (h: number, lo: number, hi: number): void => {
    for (let p = lo; p <= hi;) {
      const end = p + rng.int(hi - p + 1);
      const c = p + rng.int(end - p + 1);
      heads[c] = h;
      attach(c, p, c - 1);
      attach(c, c + 1, end);
      p = end + 1;
    }
  };
  if (singleRoot) {
    const c = 1 + rng.int(n);
    heads[c] = 0;
    attach(c, 1, c - 1);
    attach(c, c + 1, n);
  } else attach(0, 1, n);
  for (let m = 1; m <= n; m++) mask.allow(heads[m]!, m);
  return mask;
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(a));

test("span windows of a hand-made mask", () => {
  // Arcs 0→3, 3→1, 1→2, 3→4, 4→5: the single tree 3(1(2), 4(5)) under the root.
  const mask = ArcMask.fromHeads([-1, 3, 1, 0, 3, 4], 5);
  const index = new SiblingIndex();
  index.build(mask);
  const w = new SpanWindows();
  w.build(5, 1, index.mods, index.start, index.count);
  // 1 reaches 2 on its right, and arc 3→1 covers [1, 3]: C(1, 2) may exist, not C(1, 3).
  assert.equal(w.hiR[1], 2);
  // 3's left span may end at 2 (arc 3→1 covers [1, 3]: the bound is necessary, not exact) or at 1:
  // one window down to the boundary.
  assert.equal(w.loL[3], 1);
  // 4's right span may end at 5 = n (the boundary, taken into the window).
  assert.equal(w.hiR[4], 5);
  // 2 has no modifiers: no window.
  assert.equal(w.hiR[2], 2);
  assert.equal(w.loL[2], 2);
  // Spans (a, 5) need a ≥ 4 (arc 4→5); spans (a, 3) need a ≥ 1 (arc 3→1).
  assert.equal(w.aMin[5], 4);
  assert.equal(w.aMin[3], 1);
  assert.equal(w.full, false);
  w.build(5, 1, ...indexed(ArcMask.full(5)));
  assert.equal(w.full, true);
});

function indexed(mask: ArcMask): [Int32Array, Int32Array, Int32Array] {
  const index = new SiblingIndex();
  index.build(mask);
  return [index.mods, index.start, index.count];
}

test("on pruned masks every decoder agrees with the full chart (pruned arcs penalized), n = 12..30", () => {
  const rng = new Rng(31);
  for (const singleRoot of [true, false]) {
    const eisner = new EisnerDecoder({ singleRoot });
    const mm1 = new EisnerMaxMarginals({ singleRoot });
    const second = new SecondOrderDecoder();
    const mm2 = new SiblingMaxMarginals({ singleRoot });
    const third = new ThirdOrderDecoder();
    for (let t = 0; t < 10; t++) {
      const n = 12 + rng.int(t < 7 ? 19 : 9);
      const scorer = new HashScorer(rng.int(1 << 30));
      const mask = prunedMask(rng, n, scorer, 1 + (t % 3), singleRoot);
      const full = ArcMask.full(n);
      const pen = new PenalizedScorer(scorer, mask);
      const size = n + 1;
      const scores = new Float64Array(size * size);
      const penScores = new Float64Array(size * size);
      for (let h = 0; h <= n; h++) {
        for (let m = 1; m <= n; m++) {
          if (h === m) continue;
          scores[h * size + m] = scorer.arc(h, m);
          penScores[h * size + m] = pen.arc(h, m);
        }
      }
      const ctx = `singleRoot=${singleRoot} t=${t} n=${n}`;
      const d1 = eisner.decode(n, scores, mask);
      const f1 = eisner.decode(n, penScores, full);
      assert.ok(!d1.fallback && close(d1.score, f1.score), `${ctx}: first order ${d1.score} vs ${f1.score}`);
      const a1 = mm1.compute(n, scores, mask).marginals.slice(0, size * size);
      const b1 = mm1.compute(n, penScores, full).marginals;
      const a2 = mm2.compute(mask, scorer).marginals.slice(0, size * size);
      const b2 = mm2.compute(full, pen).marginals;
      for (let c = 0; c < size * size; c++) {
        if (mask.bits[c] !== 1) {
          assert.equal(a1[c], NEG);
          assert.equal(a2[c], NEG);
          continue;
        }
        // A forced arc may need a pruned arc in every tree: then the reference pays the penalty.
        assert.ok(b1[c]! < PRUNED / 2 ? a1[c] === NEG : close(a1[c]!, b1[c]!), `${ctx} cell ${c}: mm1`);
        assert.ok(b2[c]! < PRUNED / 2 ? a2[c] === NEG : close(a2[c]!, b2[c]!), `${ctx} cell ${c}: mm2`);
      }
      const d2 = second.decode(mask, scorer, { singleRoot });
      const f2 = second.decode(full, pen, { singleRoot });
      assert.ok(close(d2.score, f2.score), `${ctx}: second order ${d2.score} vs ${f2.score}`);
      assert.deepEqual(Array.from(d2.heads), Array.from(f2.heads), ctx);
      const d3 = third.decode(mask, scorer, { singleRoot });
      const f3 = third.decode(full, pen, { singleRoot });
      assert.ok(close(d3.score, f3.score), `${ctx}: third order ${d3.score} vs ${f3.score}`);
      assert.deepEqual(Array.from(d3.heads), Array.from(f3.heads), ctx);
    }
  }
});

test("visited spans and third-order tables grow about linearly with mostly short pruned masks", () => {
  const rng = new Rng(4);
  const third = new ThirdOrderDecoder();
  const w = new SpanWindows();
  const spans: number[] = [];
  const cells: number[] = [];
  for (const n of [25, 100, 400]) {
    let s = 0;
    let c = 0;
    for (let t = 0; t < 4; t++) {
      const scorer = new HashScorer(n * 10 + t);
      const mask = prunedMask(rng, n, scorer, 3, true);
      // Drop the random tree's long arcs again: keep arcs of length ≤ 6 and the root's.
      for (let h = 1; h <= n; h++) for (let m = 1; m <= n; m++) if (Math.abs(h - m) > 6) mask.remove(h, m);
      w.build(n, 1, ...indexed(mask));
      s += w.spans;
      third.decode(mask, scorer);
      c += third.tableCells;
    }
    spans.push(s);
    cells.push(c);
  }
  // Quadrupling n multiplies both by about 4 (16 for n² spans, 64 for n³ cells).
  assert.ok(spans[1]! / spans[0]! < 6 && spans[2]! / spans[1]! < 6, `spans ${spans.join(" ")}`);
  assert.ok(cells[1]! / cells[0]! < 6 && cells[2]! / cells[1]! < 6, `cells ${cells.join(" ")}`);
});
