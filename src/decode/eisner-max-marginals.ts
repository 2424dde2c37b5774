import type { ArcMask } from "../mask/arc-mask.js";
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
 * inside (Viterbi) and an outside max-sum pass over Eisner's chart, O(n³) and O(n²) memory: the
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
  private outCmpT = new Float64Array(0);

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
      this.outCmpT = new Float64Array(cap);
    }
    const outInc = this.outInc;
    const outCmp = this.outCmp;
    outInc.fill(NEG, 0, cells);
    outCmp.fill(NEG, 0, cells);
    const outCmpT = this.outCmpT;
    outCmpT.fill(NEG, 0, cells);
    const cmp = chart.cmp;
    const usable = chart.usable;
    const lo = this.singleRoot ? 1 : 0;

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

    fillOutside(n, lo, scores, chart, outInc, outCmp, outCmpT, marginals);
    return { marginals, best };
  }
}

/**
 * The O(n³) outside pass, from the longest spans down, scattering each item's outside score to its
 * children; a whole function of its own so that V8 optimizes it as one (see `fillSpans`). The outside
 * score of complete span C(h, e) is max(outCmp[h * size + e], outCmpT[e * size + h]).
 */
function fillOutside(
  n: number,
  lo: number,
  scores: Float64Array,
  chart: EisnerChart,
  outInc: Float64Array,
  outCmp: Float64Array,
  outCmpT: Float64Array,
  marginals: Float64Array,
): void {
  const size = n + 1;
  const inc = chart.inc;
  const cmp = chart.cmp;
  const cmpT = chart.cmpT;
  const usable = chart.usable;
  const rightMods = chart.rightMods;
  const rightCount = chart.rightCount;
  const leftMods = chart.leftMods;
  const leftCount = chart.leftCount;
  for (let w = n - lo; w >= 1; w--) {
    for (let i = lo, j = lo + w; j <= n; i++, j++) {
      const ri = i * size;
      const rj = j * size;
      const ij = ri + j;
      const ji = rj + i;
      // C(i, j) = I(i→r) + C(r, j).
      // Outside scores of complete spans arrive in two tables (row-wise and transposed) so that
      // every scatter loop writes contiguously; an item's outside score is the larger of the two.
      const oR = Math.max(outCmp[ij]!, outCmpT[ji]!);
      if (oR > NEG) {
        const cnt = rightCount[i]!;
        for (let k = 0; k < cnt; k++) {
          const r = rightMods[ri + k]!;
          if (r > j) break;
          const a = oR + cmpT[rj + r]!;
          if (a > outInc[ri + r]!) outInc[ri + r] = a;
          const b = oR + inc[ri + r]!;
          const rc = rj + r;
          if (b > outCmpT[rc]!) outCmpT[rc] = b;
        }
      }
      // C(j, i) = C(r, i) + I(j→r).
      const oL = Math.max(outCmp[ji]!, outCmpT[ij]!);
      if (oL > NEG) {
        const cnt = leftCount[j]!;
        for (let k = 0; k < cnt; k++) {
          const r = leftMods[rj + k]!;
          if (r < i) break;
          const a = oL + cmpT[ri + r]!;
          if (a > outInc[rj + r]!) outInc[rj + r] = a;
          const b = oL + inc[rj + r]!;
          const rc = ri + r;
          if (b > outCmpT[rc]!) outCmpT[rc] = b;
        }
      }
      // I(i→j), I(j→i) = s + C(i, r) + C(j, r + 1): both push the same amount to their children.
      let o = NEG;
      if (usable[ij] === 1) {
        const inside = inc[ij]!;
        if (inside > NEG) {
          const out = outInc[ij]!;
          marginals[ij] = inside + out;
          o = out + scores[ij]!;
        }
      }
      if (usable[ji] === 1) {
        const inside = inc[ji]!;
        if (inside > NEG) {
          const out = outInc[ji]!;
          marginals[ji] = inside + out;
          const v = out + scores[ji]!;
          if (v > o) o = v;
        }
      }
      if (o > NEG) {
        for (let r = i, a = ri + i, b = rj + i + 1; r < j; r++, a++, b++) {
          const x = o + cmp[b]!;
          if (x > outCmp[a]!) outCmp[a] = x;
          const y = o + cmp[a]!;
          if (y > outCmp[b]!) outCmp[b] = y;
        }
      }
    }
  }
}
