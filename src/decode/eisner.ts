import type { ArcMask } from "../mask/arc-mask.js";
import { EisnerChart } from "./eisner-chart.js";
import { fallbackScores, usableTreeScore } from "./fallback-scores.js";
import type { DecodeResult, FirstOrderDecoder, FirstOrderOptions } from "./types.js";

/**
 * Eisner's O(n³) first-order projective decoder (Eisner 1996), by default with exactly one root child.
 * Keeps its chart between sentences, so one instance should not be shared between concurrent callers.
 */
export class EisnerDecoder implements FirstOrderDecoder {
  /** Always "eisner". */
  readonly name = "eisner" as const;
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly chart = new EisnerChart();
  private stack = new Int32Array(0);
  private fallback = new Float64Array(0);

  constructor(options: FirstOrderOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /** The best projective tree of n tokens using only usable arcs, or a fallback tree when there is none. */
  decode(n: number, scores: Float64Array, mask: ArcMask | null): DecodeResult {
    const heads = new Int32Array(n + 1);
    heads[0] = -1;
    if (n === 0) return { heads, score: 0, fallback: false };
    const size = n + 1;
    if (scores.length < size * size)
      throw new Error(`Eisner: scores has ${scores.length} cells, need ${size * size}`);
    let best = this.chart.inside(n, scores, mask, this.singleRoot);
    let fallback = false;
    if (!(best > Number.NEGATIVE_INFINITY)) {
      fallback = true;
      if (this.fallback.length < size * size) this.fallback = new Float64Array(this.chart.capacity ** 2);
      best = this.chart.inside(n, fallbackScores(n, scores, mask, this.fallback), null, this.singleRoot);
      if (!(best > Number.NEGATIVE_INFINITY)) {
        // Only reachable with NaN scores: return the right-branching chain.
        for (let m = 1; m <= n; m++) heads[m] = m - 1;
        return { heads, score: usableTreeScore(heads, n, scores, mask), fallback };
      }
    }
    this.backtrack(n, heads);
    return { heads, score: usableTreeScore(heads, n, scores, mask), fallback };
  }

  /** Reads the best tree out of the chart's back-pointers into heads. */
  private backtrack(n: number, heads: Int32Array): void {
    const size = n + 1;
    const chart = this.chart;
    const incBp = chart.incBp;
    const cmpBp = chart.cmpBp;
    // At most n incomplete and 2n + 1 complete items are ever on the stack, 3 ints each.
    if (this.stack.length < 3 * (3 * size + 2)) this.stack = new Int32Array(3 * (3 * chart.capacity + 2));
    const stack = this.stack;
    // Items are (kind, head, end): kind 0 = complete span, 1 = incomplete span (arc head→end).
    let sp = 0;
    if (this.singleRoot) {
      const r = chart.rootChild;
      heads[r] = 0;
      stack[sp++] = 0;
      stack[sp++] = r;
      stack[sp++] = 1;
      stack[sp++] = 0;
      stack[sp++] = r;
      stack[sp++] = n;
    } else {
      stack[sp++] = 0;
      stack[sp++] = 0;
      stack[sp++] = n;
    }
    while (sp > 0) {
      const e = stack[--sp]!;
      const h = stack[--sp]!;
      const kind = stack[--sp]!;
      if (kind === 1) {
        heads[e] = h;
        const r = incBp[h * size + e]!;
        const i = h < e ? h : e;
        const j = h < e ? e : h;
        // C(i, r) and C(j, r + 1).
        if (r > i) {
          stack[sp++] = 0;
          stack[sp++] = i;
          stack[sp++] = r;
        }
        if (r + 1 < j) {
          stack[sp++] = 0;
          stack[sp++] = j;
          stack[sp++] = r + 1;
        }
      } else if (h !== e) {
        const r = cmpBp[h * size + e]!;
        // I(h→r) and C(r, e).
        stack[sp++] = 1;
        stack[sp++] = h;
        stack[sp++] = r;
        if (r !== e) {
          stack[sp++] = 0;
          stack[sp++] = r;
          stack[sp++] = e;
        }
      }
    }
  }
}
