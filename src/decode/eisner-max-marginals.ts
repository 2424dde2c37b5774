import type { ArcMask } from "../prune/arc-mask.js";
import { EisnerChart } from "./eisner-chart.js";
import type { FirstOrderOptions } from "./types.js";

const NEG = Number.NEGATIVE_INFINITY;

/** First-order projective max-marginals of one sentence. */
export interface MaxMarginals {
  /**
   * marginals[h * (n + 1) + m]: score of the best projective tree containing arc h→m; -Infinity for
   * arcs that are not usable or lie in no tree. Valid for n + 1 rows; may be longer (a reused buffer).
   */
  marginals: Float64Array;
  /** Score of the best tree (the largest max-marginal); -Infinity when the mask admits no tree. */
  best: number;
}

/**
 * Max-marginals of every arc under first-order projective parsing (single-rooted by default), by an
 * inside (Viterbi) and an outside max-sum pass over Eisner's chart, O(n³) at most and O(n²) memory, visiting
 * only the spans allowed arcs can reach (see `SpanWindows`), so a sparse mask costs far less: the
 * marginal of h→m is inside(I(h→m)) + outside(I(h→m)). This is what the vine-pruning cascade of Rush &
 * Petrov (2012) thresholds. Arcs the mask prunes are never read. There is no fallback: when the mask
 * admits no tree every marginal is -Infinity. Keeps its tables between sentences.
 */
export class EisnerMaxMarginals {
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly chart = new EisnerChart();
  private outInc = new Float64Array(0);
  private outCmp = new Float64Array(0);

  constructor(options: FirstOrderOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /** Computes the max-marginals of every arc into `out` (length ≥ (n + 1)², allocated when absent). */
  compute(n: number, scores: Float64Array, mask: ArcMask | null, out?: Float64Array): MaxMarginals {
    const size = n + 1;
    const cells = size * size;
    const marginals = out ?? new Float64Array(cells);
    if (marginals.length < cells)
      throw new Error(`max-marginals: output has ${marginals.length} cells, need ${cells}`);
    marginals.fill(NEG, 0, cells);
    if (n === 0) return { marginals, best: 0 };
    if (scores.length < cells)
      throw new Error(`max-marginals: scores has ${scores.length} cells, need ${cells}`);
    const chart = this.chart;
    const best = chart.inside(n, scores, mask, this.singleRoot);
    if (!(best > NEG)) return { marginals, best: NEG };
    const cap = chart.capacity * chart.capacity;
    if (this.outInc.length < cap) {
      this.outInc = new Float64Array(cap);
      this.outCmp = new Float64Array(cap);
    }
    const outInc = this.outInc;
    const outCmp = this.outCmp;
    const cmp = chart.cmp;
    const usable = chart.usable;
    const lo = chart.lo;
    resetOutside(n, lo, chart, outInc, outCmp);

    if (this.singleRoot) {
      // Top rule: tree = s(0→r) + C(r, 1) + C(r, n).
      for (let r = 1; r <= n; r++) {
        if (usable[r] !== 1) continue;
        const rr = r * size;
        const s = scores[r]!;
        const left = cmp[rr + 1]!;
        const right = cmp[rr + n]!;
        marginals[r] = s + left + right;
        if (s + right > outCmp[rr + 1]!) outCmp[rr + 1] = s + right;
        if (s + left > outCmp[rr + n]!) outCmp[rr + n] = s + left;
      }
    } else {
      outCmp[n] = 0;
    }

    fillOutside(n, lo, scores, chart, outInc, outCmp, marginals);
    return { marginals, best };
  }
}

/** Sets the outside score of every span the inside pass visited to -Infinity. */
function resetOutside(
  n: number,
  lo: number,
  chart: EisnerChart,
  outInc: Float64Array,
  outCmp: Float64Array,
): void {
  const size = n + 1;
  const aMin = chart.windows.aMin;
  for (let b = lo + 1; b <= n; b++) {
    const rb = b * size;
    for (let a = aMin[b]!; a < b; a++) {
      const ab = a * size + b;
      outInc[ab] = NEG;
      outInc[rb + a] = NEG;
      outCmp[ab] = NEG;
      outCmp[rb + a] = NEG;
    }
    outCmp[rb + 1] = NEG;
  }
  for (let a = lo; a < n; a++) outCmp[a * size + n] = NEG;
}

/**
 * The outside pass: the inside pass's spans in reverse order, each scattering its outside score to its
 * children; a whole function of its own so that V8 optimizes it as one (see `fillSpans`).
 */
function fillOutside(
  n: number,
  lo: number,
  scores: Float64Array,
  chart: EisnerChart,
  outInc: Float64Array,
  outCmp: Float64Array,
  marginals: Float64Array,
): void {
  const size = n + 1;
  const { inc, cmp, usable, mods, start, count } = chart;
  const { hiR, loL, aMin } = chart.windows;
  for (let b = n; b > lo; b--) {
    const rb = b * size;
    const am = aMin[b]!;
    const lb = loL[b]!;
    if (b === n)
      for (let a = lo; a < am; a++) pushRight(a, n, n, inc, cmp, outInc, outCmp, mods, start, count, hiR);
    if (am > 1) pushLeft(b, 1, n, inc, cmp, outInc, outCmp, mods, start, count, loL);
    for (let a = am; a < b; a++) {
      const ra = a * size;
      const ab = ra + b;
      const ba = rb + a;
      if (a >= 1 && (a >= lb || a === 1))
        pushLeft(b, a, n, inc, cmp, outInc, outCmp, mods, start, count, loL);
      if (b <= hiR[a]! || b === n) pushRight(a, b, n, inc, cmp, outInc, outCmp, mods, start, count, hiR);
      // I(a→b), I(b→a) = s + C(a, r) + C(b, r + 1): both push the same amount to their children.
      let o = NEG;
      if (usable[ab] === 1) {
        const inside = inc[ab]!;
        const out = outInc[ab]!;
        if (inside > NEG && out > NEG) {
          marginals[ab] = inside + out;
          o = out + scores[ab]!;
        }
      }
      if (usable[ba] === 1) {
        const inside = inc[ba]!;
        const out = outInc[ba]!;
        if (inside > NEG && out > NEG) {
          marginals[ba] = inside + out;
          const v = out + scores[ba]!;
          if (v > o) o = v;
        }
      }
      if (o > NEG) {
        const r0 = lb - 1 > a ? lb - 1 : a;
        const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
        for (let r = r0, x = ra + r0, y = rb + r0 + 1; r <= r1; r++, x++, y++) {
          const cx = cmp[x]!;
          const cy = cmp[y]!;
          if (cx + cy === NEG) continue;
          if (o + cy > outCmp[x]!) outCmp[x] = o + cy;
          if (o + cx > outCmp[y]!) outCmp[y] = o + cx;
        }
      }
    }
  }
}

/** Outside of C(a, b), a < b (= I(a→m) + C(m, b)), scattered to its children. */
function pushRight(
  a: number,
  b: number,
  n: number,
  inc: Float64Array,
  cmp: Float64Array,
  outInc: Float64Array,
  outCmp: Float64Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  hiR: Int32Array,
): void {
  const size = n + 1;
  const ra = a * size;
  const o = outCmp[ra + b]!;
  if (!(o > NEG) || !(cmp[ra + b]! > NEG)) return;
  const s0 = start[2 * a + 1]!;
  const k = count[2 * a + 1]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m > b) break;
    if (m !== b && b !== n && b > hiR[m]!) continue;
    const x = inc[ra + m]!;
    const mb = m * size + b;
    const y = cmp[mb]!;
    if (x + y === NEG) continue;
    if (o + y > outInc[ra + m]!) outInc[ra + m] = o + y;
    if (o + x > outCmp[mb]!) outCmp[mb] = o + x;
  }
}

/** Outside of C(b, a), a < b (= C(m, a) + I(b→m)), scattered to its children. */
function pushLeft(
  b: number,
  a: number,
  n: number,
  inc: Float64Array,
  cmp: Float64Array,
  outInc: Float64Array,
  outCmp: Float64Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  loL: Int32Array,
): void {
  const size = n + 1;
  const rb = b * size;
  const o = outCmp[rb + a]!;
  if (!(o > NEG) || !(cmp[rb + a]! > NEG)) return;
  const s0 = start[2 * b]!;
  const k = count[2 * b]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m < a) break;
    if (m !== a && a !== 1 && a < loL[m]!) continue;
    const x = inc[rb + m]!;
    const ma = m * size + a;
    const y = cmp[ma]!;
    if (x + y === NEG) continue;
    if (o + y > outInc[rb + m]!) outInc[rb + m] = o + y;
    if (o + x > outCmp[ma]!) outCmp[ma] = o + x;
  }
}
