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
  /** Outside back-pointers (parent's free index * 4 + kind; ROOT_BP, TOP_BP). */
  private obInc = new Int32Array(0);
  private obCmp = new Int32Array(0);
  /** Witness request counts (outside / inside) per item, and the items in inside order. */
  private ocInc = new Int32Array(0);
  private ocCmp = new Int32Array(0);
  private icInc = new Int32Array(0);
  private icCmp = new Int32Array(0);
  private items = new Int32Array(0);
  private arcCount = new Int32Array(0);
  private lastN = 0;
  private lastScores: Float64Array | null = null;
  private valid = false;

  constructor(options: FirstOrderOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /**
   * The cells the mask of the last `compute` allowed, in increasing order (finite max-marginals lie
   * only there), valid up to `allowedCount`; -1 when it ran without a mask. Reused by the next call.
   */
  get allowedCells(): Int32Array {
    return this.chart.allowedCells;
  }
  get allowedCount(): number {
    return this.lastN === 0 ? -1 : this.chart.allowedCount;
  }

  /** Computes the max-marginals of every arc into `out` (length ≥ (n + 1)², allocated when absent). */
  compute(n: number, scores: Float64Array, mask: ArcMask | null, out?: Float64Array): MaxMarginals {
    const size = n + 1;
    const cells = size * size;
    const marginals = out ?? new Float64Array(cells);
    if (marginals.length < cells)
      throw new Error(`max-marginals: output has ${marginals.length} cells, need ${cells}`);
    marginals.fill(NEG, 0, cells);
    this.valid = false;
    this.lastN = n;
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
      this.obInc = new Int32Array(cap);
      this.obCmp = new Int32Array(cap);
    }
    const outInc = this.outInc;
    const outCmp = this.outCmp;
    const obCmp = this.obCmp;
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
        if (s + right > outCmp[rr + 1]!) {
          outCmp[rr + 1] = s + right;
          obCmp[rr + 1] = ROOT_BP;
        }
        if (s + left > outCmp[rr + n]!) {
          outCmp[rr + n] = s + left;
          obCmp[rr + n] = ROOT_BP;
        }
      }
    } else {
      outCmp[n] = 0;
      obCmp[n] = TOP_BP;
    }

    fillOutside(n, lo, scores, chart, outInc, outCmp, this.obInc, obCmp, marginals);
    this.valid = true;
    this.lastScores = scores;
    return { marginals, best };
  }

  /**
   * Witness counts of the last `compute`: for every arc a with a finite max-marginal, y*_a is the best
   * tree containing a (the one the outside back-pointers pick; unique without ties), and `arcs[h * (n +
   * 1) + m]` says how many of these witnesses contain arc h→m (root arcs included), so that
   * Σ_a φ(y*_a) = Σ_arc count(arc) · φ(arc), the subgradient of the mean max-marginal in structured
   * prediction cascades (Weiss & Taskar 2010). Linear in the number of chart items: request counts climb
   * the outside back-pointers, then descend the inside ones. The scores passed to `compute` must be
   * unchanged. The returned array is reused by the next call.
   */
  witnessCounts(): FirstOrderWitnessCounts {
    const n = this.lastN;
    const size = n + 1;
    const cells = size * size;
    if (this.arcCount.length < cells)
      this.arcCount = new Int32Array(Math.max(cells, this.arcCount.length * 2));
    const arcs = this.arcCount;
    arcs.fill(0, 0, cells);
    if (!this.valid) return { witnesses: 0, arcs };
    const chart = this.chart;
    const cap = chart.capacity * chart.capacity;
    if (this.ocInc.length < cap) {
      this.ocInc = new Int32Array(cap);
      this.ocCmp = new Int32Array(cap);
      this.icInc = new Int32Array(cap);
      this.icCmp = new Int32Array(cap);
      this.items = new Int32Array(2 * cap);
    }
    const count = listItems(n, chart, this.items);
    const witnesses = countWitnesses(
      n,
      this.singleRoot,
      this.lastScores!,
      chart,
      this.items,
      count,
      this.outInc,
      this.obInc,
      this.obCmp,
      this.ocInc,
      this.ocCmp,
      this.icInc,
      this.icCmp,
      arcs,
    );
    return { witnesses, arcs };
  }
}

/** Witness counts of first-order max-marginals (see `EisnerMaxMarginals.witnessCounts`). */
export interface FirstOrderWitnessCounts {
  /** Number of witnesses: arcs with a finite max-marginal; every witness has n arcs. */
  witnesses: number;
  /** arcs[h * (n + 1) + m]: number of witnesses containing arc h→m (valid for (n + 1)² cells). */
  arcs: Int32Array;
}

/** Outside back-pointer of a root child's complete spans (single root: the top rule 0→r). */
const ROOT_BP = -1;
/** Outside back-pointer of the top item C(0, n) (no single root). */
const TOP_BP = -2;
/** Back-pointer kinds: parent C(h, e) of I(h, m); parent C(p, e) of C(h, e); parent I(a→b) / I(b→a) of a split half. */
const BP_CMP_OF_INC = 0;
const BP_CMP = 1;
const BP_RIGHT_ARC = 2;
const BP_LEFT_ARC = 3;

/**
 * The finite items of the last inside pass in inside order (spans by right end, left end downwards,
 * then the boundary spans), as cell * 2 + kind (0 = incomplete, 1 = complete); returns how many.
 */
function listItems(n: number, chart: EisnerChart, items: Int32Array): number {
  const size = n + 1;
  const { inc, cmp, usable } = chart;
  const { hiR, loL, aMin } = chart.windows;
  const lo = chart.lo;
  let k = 0;
  for (let b = lo + 1; b <= n; b++) {
    const rb = b * size;
    const am = aMin[b]!;
    for (let a = b - 1; a >= am; a--) {
      const ab = a * size + b;
      const ba = rb + a;
      if (usable[ab] === 1 && inc[ab]! > NEG) items[k++] = ab * 2;
      if (usable[ba] === 1 && inc[ba]! > NEG) items[k++] = ba * 2;
      if ((b <= hiR[a]! || b === n) && cmp[ab]! > NEG) items[k++] = ab * 2 + 1;
      if (a >= 1 && (a >= loL[b]! || a === 1) && cmp[ba]! > NEG) items[k++] = ba * 2 + 1;
    }
    if (am > 1 && cmp[rb + 1]! > NEG) items[k++] = (rb + 1) * 2 + 1;
    if (b === n)
      for (let a = am - 1; a >= lo; a--) if (cmp[a * size + n]! > NEG) items[k++] = (a * size + n) * 2 + 1;
  }
  return k;
}

/**
 * Climbs outside requests up the outside back-pointers (items in inside order: children first), then
 * passes inside requests down the inside back-pointers (reverse order), counting arcs into `arcs`.
 */
function countWitnesses(
  n: number,
  singleRoot: boolean,
  scores: Float64Array,
  chart: EisnerChart,
  items: Int32Array,
  count: number,
  outInc: Float64Array,
  obInc: Int32Array,
  obCmp: Int32Array,
  ocInc: Int32Array,
  ocCmp: Int32Array,
  icInc: Int32Array,
  icCmp: Int32Array,
  arcs: Int32Array,
): number {
  const size = n + 1;
  const { cmp, incBp, cmpBp, usable } = chart;
  let witnesses = 0;
  for (let t = 0; t < count; t++) {
    const it = items[t]!;
    const cell = it >> 1;
    if ((it & 1) === 0) {
      // An incomplete item with a finite outside score is some arc's own witness request.
      const w = outInc[cell]! > NEG ? 1 : 0;
      ocInc[cell] = w;
      icInc[cell] = w;
      witnesses += w;
    } else {
      ocCmp[cell] = 0;
      icCmp[cell] = 0;
    }
  }
  if (singleRoot) {
    // Root arcs: their witness is the top rule 0→r over C(r, 1) and C(r, n).
    for (let r = 1; r <= n; r++) {
      if (usable[r] !== 1 || !(scores[r]! + cmp[r * size + 1]! + cmp[r * size + n]! > NEG)) continue;
      witnesses++;
      arcs[r]!++;
      if (r !== 1) icCmp[r * size + 1]!++;
      if (r !== n) icCmp[r * size + n]!++;
    }
  }
  // Outside requests, children first.
  for (let t = 0; t < count; t++) {
    const it = items[t]!;
    const cell = it >> 1;
    const h = (cell / size) | 0;
    const x = cell - h * size;
    if ((it & 1) === 0) {
      const k = ocInc[cell]!;
      if (k === 0) continue;
      // Parent C(h, e) = I(h, x) + C(x, e).
      const e = obInc[cell]! >> 2;
      ocCmp[h * size + e] += k;
      if (x !== e) icCmp[x * size + e] += k;
      continue;
    }
    const k = ocCmp[cell]!;
    if (k === 0) continue;
    const bp = obCmp[cell]!;
    if (bp === TOP_BP) continue;
    if (bp === ROOT_BP) {
      // The top rule 0→h over C(h, 1) and C(h, n).
      arcs[h]! += k;
      if (x < h) {
        if (h !== n) icCmp[h * size + n] += k;
      } else if (h !== 1) icCmp[h * size + 1] += k;
      continue;
    }
    const code = bp >> 2;
    const kind = bp & 3;
    if (kind === BP_CMP) {
      // Parent C(code, x) = I(code, h) + C(h, x).
      ocCmp[code * size + x] += k;
      icInc[code * size + h] += k;
      continue;
    }
    // Parent I(a→b) or I(b→a) split into C(a, r) and C(b, r + 1); this item is one half.
    const a = h < x ? h : code;
    const b = h < x ? code : h;
    const arc = kind === BP_RIGHT_ARC ? a * size + b : b * size + a;
    ocInc[arc] += k;
    arcs[arc]! += k;
    if (h < x) {
      if (x + 1 !== b) icCmp[b * size + x + 1] += k;
    } else if (x - 1 !== a) icCmp[a * size + x - 1] += k;
  }
  // Inside requests, parents first.
  for (let t = count - 1; t >= 0; t--) {
    const it = items[t]!;
    const cell = it >> 1;
    const h = (cell / size) | 0;
    const x = cell - h * size;
    if ((it & 1) === 0) {
      const k = icInc[cell]!;
      if (k === 0) continue;
      arcs[cell]! += k;
      const r = incBp[cell]!;
      const a = h < x ? h : x;
      const b = h < x ? x : h;
      if (r !== a) icCmp[a * size + r] += k;
      if (r + 1 !== b) icCmp[b * size + r + 1] += k;
    } else {
      const k = icCmp[cell]!;
      if (k === 0) continue;
      const m = cmpBp[cell]!;
      icInc[h * size + m] += k;
      if (m !== x) icCmp[m * size + x] += k;
    }
  }
  return witnesses;
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
  obInc: Int32Array,
  obCmp: Int32Array,
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
      for (let a = lo; a < am; a++)
        pushRight(a, n, n, inc, cmp, outInc, outCmp, obInc, obCmp, mods, start, count, hiR);
    if (am > 1) pushLeft(b, 1, n, inc, cmp, outInc, outCmp, obInc, obCmp, mods, start, count, loL);
    for (let a = am; a < b; a++) {
      const ra = a * size;
      const ab = ra + b;
      const ba = rb + a;
      if (a >= 1 && (a >= lb || a === 1))
        pushLeft(b, a, n, inc, cmp, outInc, outCmp, obInc, obCmp, mods, start, count, loL);
      if (b <= hiR[a]! || b === n)
        pushRight(a, b, n, inc, cmp, outInc, outCmp, obInc, obCmp, mods, start, count, hiR);
      // I(a→b), I(b→a) = s + C(a, r) + C(b, r + 1): both push the same amount to their children.
      let o = NEG;
      let kind = BP_RIGHT_ARC;
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
          if (v > o) {
            o = v;
            kind = BP_LEFT_ARC;
          }
        }
      }
      if (o > NEG) {
        const r0 = lb - 1 > a ? lb - 1 : a;
        const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
        const bpX = b * 4 + kind;
        const bpY = a * 4 + kind;
        for (let r = r0, x = ra + r0, y = rb + r0 + 1; r <= r1; r++, x++, y++) {
          const cx = cmp[x]!;
          const cy = cmp[y]!;
          if (cx + cy === NEG) continue;
          if (o + cy > outCmp[x]!) {
            outCmp[x] = o + cy;
            obCmp[x] = bpX;
          }
          if (o + cx > outCmp[y]!) {
            outCmp[y] = o + cx;
            obCmp[y] = bpY;
          }
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
  obInc: Int32Array,
  obCmp: Int32Array,
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
    if (o + y > outInc[ra + m]!) {
      outInc[ra + m] = o + y;
      obInc[ra + m] = b * 4 + BP_CMP_OF_INC;
    }
    if (o + x > outCmp[mb]!) {
      outCmp[mb] = o + x;
      obCmp[mb] = a * 4 + BP_CMP;
    }
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
  obInc: Int32Array,
  obCmp: Int32Array,
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
    if (o + y > outInc[rb + m]!) {
      outInc[rb + m] = o + y;
      obInc[rb + m] = a * 4 + BP_CMP_OF_INC;
    }
    if (o + x > outCmp[ma]!) {
      outCmp[ma] = o + x;
      obCmp[ma] = b * 4 + BP_CMP;
    }
  }
}
