import type { ArcMask } from "../mask/arc-mask.js";
import type { SiblingScorer } from "./parts-types.js";
import { CMP_ITEM, INC_ITEM, SIB_ITEM, SiblingChart } from "./sibling-chart.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Outside back-pointer kinds (low two bits; the rest is the parent's free index). */
const BP_SIB = 0;
const BP_FIRST = 1;
const BP_CMP = 2;
const BP_TOP = 3;

/** Options of `SiblingMaxMarginals`. */
export interface SiblingMaxMarginalOptions {
  /** The root takes exactly one child (UD); default true. */
  singleRoot?: boolean;
}

/** Second-order (sibling) projective max-marginals of one sentence. */
export interface SiblingMaxMarginalsResult {
  /**
   * marginals[h * (n + 1) + m]: score of the best projective tree containing arc h→m under
   * Σ arc + Σ sib; -Infinity for arcs the mask prunes or that lie in no tree. Valid for (n + 1)² cells;
   * may be longer (a reused buffer).
   */
  marginals: Float64Array;
  /** Score of the best tree (the largest max-marginal); -Infinity when the mask admits no projective tree. */
  best: number;
  /** Number of arcs with a finite max-marginal (the A of the cascade's mean max-marginal). */
  arcs: number;
  /** Sum of the finite max-marginals (mean max-marginal = sum / arcs). */
  sum: number;
  /** Part scores asked of the scorer (0 when the mask admits no tree: nothing is scored). */
  partsScored: number;
}

/**
 * For every arc a with a finite max-marginal, y*_a is the best tree containing a (the witness the
 * outside back-pointers pick; unique when scores have no ties). These counts say how many witnesses
 * contain each arc and each sibling part, so that Σ_a φ(y*_a) = Σ_part count(part) · φ(part): the
 * subgradient of the mean max-marginal in structured prediction cascades (Weiss & Taskar 2010).
 */
export interface SiblingWitnessCounts {
  /** Number of witnesses (arcs with a finite max-marginal); every witness has n sibling parts. */
  witnesses: number;
  /** arcs[h * (n + 1) + m]: number of witnesses containing arc h→m (valid for (n + 1)² cells). */
  arcs: Int32Array;
  /** Sibling parts in at least one witness, as quadruples (h, s, m, count); s = h: no inner sibling. */
  parts: Int32Array;
  /** Number of quadruples in `parts`. */
  partCount: number;
}

/**
 * Max-marginals of every arc under second-order (sibling) projective parsing — the same parts, scorer
 * calls and single-root handling as `SecondOrderDecoder` — by a max-plus inside pass and an outside
 * pass over the sibling chart (`SiblingChart`), visiting only the items allowed arcs can reach: the
 * marginal of h→m is inside(I(h, m)) + outside(I(h, m)). Every allowed part is scored exactly once; a
 * mask admitting no projective tree gives -Infinity everywhere without scoring anything (no fallback).
 * After `compute`, `witnessCounts` counts the parts of every arc's witness tree in time linear in the
 * number of chart items, by passing request counts up the outside back-pointers and then down the
 * inside back-pointers. One instance keeps its tables between sentences (not reentrant).
 */
export class SiblingMaxMarginals {
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly chart = new SiblingChart();
  private outC = new Float64Array(0);
  private outI = new Float64Array(0);
  private outS = new Float64Array(0);
  private obC = new Int32Array(0);
  private obI = new Int32Array(0);
  private obS = new Int32Array(0);
  /** Request counts: outside (o*) and inside (i*) per item kind, and per sibling-part slot. */
  private ocC = new Int32Array(0);
  private ocI = new Int32Array(0);
  private ocS = new Int32Array(0);
  private icC = new Int32Array(0);
  private icI = new Int32Array(0);
  private icS = new Int32Array(0);
  private slotCount = new Int32Array(0);
  private arcCount = new Int32Array(0);
  private partBuf = new Int32Array(0);
  /** State of the last compute: whether it found a tree, and n. */
  private valid = false;
  private n = 0;

  constructor(options: SiblingMaxMarginalOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /** Max-marginals of every arc `mask` allows into `out` (length ≥ (n + 1)², allocated when absent). */
  compute(mask: ArcMask, scorer: SiblingScorer, out?: Float64Array): SiblingMaxMarginalsResult {
    const n = mask.n;
    const size = n + 1;
    const cells = size * size;
    const marginals = out ?? new Float64Array(cells);
    if (marginals.length < cells)
      throw new Error(`max-marginals: output has ${marginals.length} cells, need ${cells}`);
    marginals.fill(NEG, 0, cells);
    this.n = n;
    this.valid = false;
    if (n === 0) return { marginals, best: 0, arcs: 0, sum: 0, partsScored: 0 };
    const chart = this.chart;
    if (!chart.build(mask, this.singleRoot)) return { marginals, best: NEG, arcs: 0, sum: 0, partsScored: 0 };
    const partsScored = chart.score(scorer);
    const best = chart.inside();
    if (!(best > NEG)) return { marginals, best: NEG, arcs: 0, sum: 0, partsScored };
    if (this.outC.length < chart.c.length) {
      const cap = chart.c.length;
      this.outC = new Float64Array(cap);
      this.outI = new Float64Array(cap);
      this.outS = new Float64Array(cap);
      this.obC = new Int32Array(cap);
      this.obI = new Int32Array(cap);
      this.obS = new Int32Array(cap);
    }
    const { arcs, sum } = fillOutside(
      chart,
      this.outC,
      this.outI,
      this.outS,
      this.obC,
      this.obI,
      this.obS,
      marginals,
    );
    this.valid = true;
    return { marginals, best, arcs, sum, partsScored };
  }

  /**
   * Witness counts of the last `compute` (all zero when it found no tree). The returned arrays are
   * reused by the next call.
   */
  witnessCounts(): SiblingWitnessCounts {
    const chart = this.chart;
    const size = this.n + 1;
    const cells = size * size;
    if (this.arcCount.length < cells)
      this.arcCount = new Int32Array(Math.max(cells, this.arcCount.length * 2));
    const arcCount = this.arcCount;
    arcCount.fill(0, 0, cells);
    if (!this.valid) return { witnesses: 0, arcs: arcCount, parts: this.partBuf, partCount: 0 };
    const cap = chart.c.length;
    if (this.ocC.length < cap) {
      this.ocC = new Int32Array(cap);
      this.ocI = new Int32Array(cap);
      this.ocS = new Int32Array(cap);
      this.icC = new Int32Array(cap);
      this.icI = new Int32Array(cap);
      this.icS = new Int32Array(cap);
    }
    const tri = chart.index.triSize;
    if (this.slotCount.length < tri)
      this.slotCount = new Int32Array(Math.max(tri, this.slotCount.length * 2));
    const slotCount = this.slotCount;
    slotCount.fill(0, 0, tri);
    const witnesses = this.countWitnesses(chart, slotCount);
    // Arc counts and the list of counted parts, from the sibling-part slots.
    const { mods, start, count, rowBase } = chart.index;
    let parts = 0;
    for (let h = 0; h < size; h++) {
      for (let side = 0; side < 2; side++) {
        const s0 = start[2 * h + side]!;
        const k = count[2 * h + side]!;
        for (let j = 0; j < k; j++) {
          const m = mods[s0 + j]!;
          const rb = rowBase[h * size + m]!;
          let total = 0;
          for (let i = -1; i < j; i++) {
            const v = slotCount[rb + i]!;
            if (v === 0) continue;
            total += v;
            if (4 * parts + 4 > this.partBuf.length)
              this.partBuf = growInt32(this.partBuf, Math.max(64, 8 * parts + 8));
            const buf = this.partBuf;
            buf[4 * parts] = h;
            buf[4 * parts + 1] = i < 0 ? h : mods[s0 + i]!;
            buf[4 * parts + 2] = m;
            buf[4 * parts + 3] = v;
            parts++;
          }
          arcCount[h * size + m] = total;
        }
      }
    }
    return { witnesses, arcs: arcCount, parts: this.partBuf, partCount: parts };
  }

  /**
   * Witness counts: every arc with a finite max-marginal requests its incomplete item's inside and
   * outside derivations; outside requests climb the outside back-pointers (item log forwards: children
   * before parents), turning the parent rule's other children into inside requests and counting its
   * part; inside requests then descend the inside back-pointers (log backwards). Fills `slotCount` per
   * sibling-part slot; returns the number of witnesses.
   */
  private countWitnesses(chart: SiblingChart, slotCount: Int32Array): number {
    const { obC, obI, obS, outI, ocC, ocI, ocS, icC, icI, icS } = this;
    const { log, logLength, size, bpC, bpI, bpS } = chart;
    const { pos, rowBase } = chart.index;
    let witnesses = 0;
    for (let t = 0; t < logLength; t++) {
      const e = log[t]!;
      const kind = e & 3;
      const cell = e >> 2;
      if (kind === CMP_ITEM) {
        ocC[cell] = 0;
        icC[cell] = 0;
      } else if (kind === INC_ITEM) {
        const w = outI[cell]! > NEG ? 1 : 0;
        ocI[cell] = w;
        icI[cell] = w;
        witnesses += w;
      } else {
        ocS[cell] = 0;
        icS[cell] = 0;
      }
    }
    // Outside requests, children first.
    for (let t = 0; t < logLength; t++) {
      const e = log[t]!;
      const kind = e & 3;
      const cell = e >> 2;
      const h = (cell / size) | 0;
      const x = cell - h * size;
      if (kind === CMP_ITEM) {
        const k = ocC[cell]!;
        if (k === 0) continue;
        const bp = obC[cell]!;
        const code = bp >> 2;
        switch (bp & 3) {
          case BP_SIB:
            if (h < x) {
              // Parent S(h, code), split at x; sibling child C(code, x + 1).
              ocS[h * size + code] += k;
              if (x + 1 !== code) icC[code * size + x + 1] += k;
            } else {
              ocS[code * size + h] += k;
              if (x - 1 !== code) icC[code * size + x - 1] += k;
            }
            break;
          case BP_FIRST: {
            // Parent I(p, h) whose first child is h: part (p, p, h).
            const p = h < x ? x + 1 : x - 1;
            ocI[p * size + h] += k;
            slotCount[rowBase[p * size + h]! - 1] += k;
            break;
          }
          case BP_CMP:
            // Parent C(code, x) = I(code, h) + C(h, x).
            ocC[code * size + x] += k;
            icI[code * size + h] += k;
            break;
          default:
            break;
        }
      } else if (kind === INC_ITEM) {
        const k = ocI[cell]!;
        if (k === 0) continue;
        const bp = obI[cell]!;
        const code = bp >> 2;
        if ((bp & 3) === BP_CMP) {
          // Parent C(h, code) = I(h, x) + C(x, code).
          ocC[h * size + code] += k;
          if (x !== code) icC[x * size + code] += k;
        } else {
          // Parent I(h, code) with inner sibling x: + S(x, code) + part (h, x, code).
          ocI[h * size + code] += k;
          icS[x < code ? x * size + code : code * size + x] += k;
          slotCount[rowBase[h * size + code]! + pos[h * size + x]!] += k;
        }
      } else {
        const k = ocS[cell]!;
        if (k === 0) continue;
        const g = obS[cell]! >> 2;
        // Parent I(g, outer) with inner sibling the closer of h < x to g.
        const inner = g < h ? h : x;
        const outer = g < h ? x : h;
        ocI[g * size + outer] += k;
        icI[g * size + inner] += k;
        slotCount[rowBase[g * size + outer]! + pos[g * size + inner]!] += k;
      }
    }
    // Inside requests, parents first.
    for (let t = logLength - 1; t >= 0; t--) {
      const e = log[t]!;
      const kind = e & 3;
      const cell = e >> 2;
      const h = (cell / size) | 0;
      const x = cell - h * size;
      if (kind === CMP_ITEM) {
        const k = icC[cell]!;
        if (k === 0) continue;
        const m = bpC[cell]!;
        icI[h * size + m] += k;
        if (m !== x) icC[m * size + x] += k;
      } else if (kind === INC_ITEM) {
        const k = icI[cell]!;
        if (k === 0) continue;
        const s = bpI[cell]!;
        if (s === h) {
          slotCount[rowBase[cell]! - 1] += k;
          const f = x > h ? h + 1 : h - 1;
          if (f !== x) icC[x * size + f] += k;
        } else {
          slotCount[rowBase[cell]! + pos[h * size + s]!] += k;
          icI[h * size + s] += k;
          icS[s < x ? s * size + x : x * size + s] += k;
        }
      } else {
        const k = icS[cell]!;
        if (k === 0) continue;
        const r = bpS[cell]!;
        if (r !== h) icC[h * size + r] += k;
        if (r + 1 !== x) icC[x * size + r + 1] += k;
      }
    }
    return witnesses;
  }
}

function growInt32(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/**
 * The outside pass: the chart's item log backwards, each item scattering its outside score to its
 * children and keeping, in each child, the parent that gave its best outside score (back-pointer =
 * parent's free index * 4 + kind). Writes the max-marginals; returns how many are finite and their sum.
 */
function fillOutside(
  chart: SiblingChart,
  outC: Float64Array,
  outI: Float64Array,
  outS: Float64Array,
  obC: Int32Array,
  obI: Int32Array,
  obS: Int32Array,
  marginals: Float64Array,
): { arcs: number; sum: number } {
  const { c, inc, sp, table, log, logLength, size, singleRoot } = chart;
  const { mods, start, count, pos, rowBase } = chart.index;
  const { hiR, loL } = chart.windows;
  const n = size - 1;
  for (let t = 0; t < logLength; t++) {
    const e = log[t]!;
    const kind = e & 3;
    const cell = e >> 2;
    if (kind === CMP_ITEM) outC[cell] = NEG;
    else if (kind === INC_ITEM) outI[cell] = NEG;
    else outS[cell] = NEG;
  }
  outC[n] = 0;
  obC[n] = BP_TOP;
  let arcs = 0;
  let sum = 0;
  for (let t = logLength - 1; t >= 0; t--) {
    const entry = log[t]!;
    const kind = entry & 3;
    const cell = entry >> 2;
    const h = (cell / size) | 0;
    const x = cell - h * size;
    if (kind === CMP_ITEM) {
      // C(h, x) = I(h, m) + C(m, x) over h's modifiers m between h and x.
      const o = outC[cell]!;
      if (!(o > NEG)) continue;
      const rh = h * size;
      if (h < x) {
        const s0 = start[2 * h + 1]!;
        const k = count[2 * h + 1]!;
        for (let j = 0; j < k; j++) {
          const m = mods[s0 + j]!;
          if (m > x) break;
          if (m !== x && x !== n && x > hiR[m]!) continue;
          const iv = inc[rh + m]!;
          const cv = m === x ? 0 : c[m * size + x]!;
          if (iv + cv === NEG) continue;
          if (o + cv > outI[rh + m]!) {
            outI[rh + m] = o + cv;
            obI[rh + m] = x * 4 + BP_CMP;
          }
          if (m !== x && o + iv > outC[m * size + x]!) {
            outC[m * size + x] = o + iv;
            obC[m * size + x] = h * 4 + BP_CMP;
          }
        }
      } else {
        const s0 = start[2 * h]!;
        const k = count[2 * h]!;
        for (let j = 0; j < k; j++) {
          const m = mods[s0 + j]!;
          if (m < x) break;
          if (m !== x && x !== 1 && x < loL[m]!) continue;
          const iv = inc[rh + m]!;
          const cv = m === x ? 0 : c[m * size + x]!;
          if (iv + cv === NEG) continue;
          if (o + cv > outI[rh + m]!) {
            outI[rh + m] = o + cv;
            obI[rh + m] = x * 4 + BP_CMP;
          }
          if (m !== x && o + iv > outC[m * size + x]!) {
            outC[m * size + x] = o + iv;
            obC[m * size + x] = h * 4 + BP_CMP;
          }
        }
      }
    } else if (kind === INC_ITEM) {
      // I(h, m) = C(m, h ± 1) + part(h, h, m) | I(h, s) + S(s, m) + part(h, s, m).
      const o = outI[cell]!;
      if (!(o > NEG)) continue;
      const m = x;
      const v = inc[cell]! + o;
      marginals[cell] = v;
      arcs++;
      sum += v;
      const base = rowBase[cell]!;
      const f = m > h ? h + 1 : h - 1;
      if (f !== m) {
        const fc = m * size + f;
        const ok = m > h ? f >= loL[m]! || f === 1 : f <= hiR[m]!;
        if (ok && c[fc]! > NEG && o + table[base - 1]! > outC[fc]!) {
          outC[fc] = o + table[base - 1]!;
          obC[fc] = BP_FIRST;
        }
      }
      if (singleRoot && h === 0) continue;
      const s0 = start[2 * h + (m > h ? 1 : 0)]!;
      const p = pos[cell]!;
      const rh = h * size;
      for (let i = 0; i < p; i++) {
        const s = mods[s0 + i]!;
        const sc = s < m ? s * size + m : m * size + s;
        const iv = inc[rh + s]!;
        const sv = sp[sc]!;
        if (iv + sv === NEG) continue;
        const w = o + table[base + i]!;
        if (w + sv > outI[rh + s]!) {
          outI[rh + s] = w + sv;
          obI[rh + s] = m * 4 + BP_SIB;
        }
        if (w + iv > outS[sc]!) {
          outS[sc] = w + iv;
          obS[sc] = h * 4;
        }
      }
    } else if (kind === SIB_ITEM) {
      // S(h, x) = C(h, r) + C(x, r + 1) (here h < x are the two siblings).
      const o = outS[cell]!;
      if (!(o > NEG)) continue;
      const a = h;
      const b = x;
      const ra = a * size;
      const rb = b * size;
      const r0 = loL[b]! - 1 > a ? loL[b]! - 1 : a;
      const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
      for (let r = r0; r <= r1; r++) {
        const ca = c[ra + r]!;
        const cb = c[rb + r + 1]!;
        if (ca + cb === NEG) continue;
        if (r !== a && o + cb > outC[ra + r]!) {
          outC[ra + r] = o + cb;
          obC[ra + r] = b * 4 + BP_SIB;
        }
        if (r + 1 !== b && o + ca > outC[rb + r + 1]!) {
          outC[rb + r + 1] = o + ca;
          obC[rb + r + 1] = a * 4 + BP_SIB;
        }
      }
    }
  }
  return { arcs, sum };
}
