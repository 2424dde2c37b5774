import { VINE_LEFT, VINE_RIGHT } from "./vine-structure.js";

const NEG = Number.NEGATIVE_INFINITY;

// Chain states. Q (a fragment's head with its left half complete): 0 = first fragment (starts at
// token 1), 1 = later fragment after a prefix without root arc, 2 = with at least one root arc.
// P (the last fragment's right spine reaches a token): 0 / 1 = head not attached by a right outer arc,
// 0 / ≥ 1 root arcs; 2 / 3 = head attached by a right outer arc, 0 / ≥ 1 root arcs.
// V (complete prefix) c = 0 / 1: no / some root arc. Transitions P ← Q + part at the head's token:
const T_Q = [1, 2, 1, 0, 1, 0, 2, 2];
const T_KIND = [0, 0, 2, 2, 1, 1, 1, 2]; // 0 = left outer arc, 1 = right outer arc, 2 = root arc
const T_P = [0, 1, 1, 1, 2, 2, 3, 1];

/**
 * The vine parser's chart (see `VineParser` for the structure set): Eisner's spans of width ≤ b plus
 * the fragment chains, as flat typed arrays, with a Viterbi inside pass, back-pointers and a max-plus
 * outside pass scattering to every part's max-marginal; O(n·b²) time and memory, nothing stored per
 * hyperedge. Scores are read from an effective part-score array in the parser's part-id layout
 * (short arcs m·2b + slot, root arcs r0 + m, outer arcs o0 + 2m + side; -Infinity = unusable).
 * Tables grow to the largest sentence seen and are reused.
 */
export class VineChart {
  /** Band b. */
  readonly band: number;
  private readonly nt: number;
  /** Sentence length of the last `inside`. */
  n = 0;
  private cap = 0;
  private cr = new Float64Array(0);
  private cl = new Float64Array(0);
  private ir = new Float64Array(0);
  private il = new Float64Array(0);
  private crBp = new Int32Array(0);
  private clBp = new Int32Array(0);
  private spBp = new Int32Array(0);
  private q = new Float64Array(0);
  private p = new Float64Array(0);
  private v = new Float64Array(0);
  private qBp = new Int32Array(0);
  private pBp = new Int32Array(0);
  private vBp = new Int32Array(0);
  private outCr = new Float64Array(0);
  private outCl = new Float64Array(0);
  private outIr = new Float64Array(0);
  private outIl = new Float64Array(0);
  private outQ = new Float64Array(0);
  private outP = new Float64Array(0);
  private outV = new Float64Array(0);
  private stack = new Int32Array(0);

  /** A chart for band b; without `singleRoot` a fragment may take a root arc after another one. */
  constructor(band: number, singleRoot: boolean) {
    this.band = band;
    this.nt = singleRoot ? T_Q.length - 1 : T_Q.length;
  }

  private ensure(n: number): void {
    const size = n + 1;
    if (size <= this.cap) return;
    const cap = Math.max(size, Math.ceil(this.cap * 1.5));
    this.cap = cap;
    const cells = cap * this.band;
    this.cr = new Float64Array(cells);
    this.cl = new Float64Array(cells);
    this.ir = new Float64Array(cells);
    this.il = new Float64Array(cells);
    this.crBp = new Int32Array(cells);
    this.clBp = new Int32Array(cells);
    this.spBp = new Int32Array(cells);
    this.outCr = new Float64Array(cells);
    this.outCl = new Float64Array(cells);
    this.outIr = new Float64Array(cells);
    this.outIl = new Float64Array(cells);
    this.q = new Float64Array(3 * cap);
    this.qBp = new Int32Array(3 * cap);
    this.outQ = new Float64Array(3 * cap);
    this.p = new Float64Array(4 * cap);
    this.pBp = new Int32Array(4 * cap);
    this.outP = new Float64Array(4 * cap);
    this.v = new Float64Array(2 * cap);
    this.vBp = new Int32Array(2 * cap);
    this.outV = new Float64Array(2 * cap);
    this.stack = new Int32Array(3 * (8 * cap + 8));
  }

  /** Viterbi inside pass over n ≥ 1 tokens; returns the best structure score (-Infinity if none). */
  inside(n: number, eff: Float64Array): number {
    this.ensure(n);
    this.n = n;
    const b = this.band;
    for (let i = 1; i <= n; i++) {
      this.cr[i * b] = 0;
      this.cl[i * b] = 0;
    }
    const bb = Math.min(b, n - 1);
    for (let w = 1; w <= bb; w++) this.spansInside(n, w, eff);
    const size = n + 1;
    const r0 = size * 2 * b;
    const o0 = r0 + size;
    for (let h = 1; h <= n; h++) this.chainsInside(n, h, bb, r0, o0, eff);
    return this.p[size + n]!;
  }

  /** Split, incomplete and complete spans of width w. */
  private spansInside(n: number, w: number, eff: Float64Array): void {
    const b = this.band;
    const W = 2 * b;
    const cr = this.cr;
    const cl = this.cl;
    const ir = this.ir;
    const il = this.il;
    for (let i = 1, j = 1 + w; j <= n; i++, j++) {
      const ib = i * b;
      const jb = j * b;
      const sR = eff[j * W + i - j + b]!;
      const sL = eff[i * W + j - i + b - 1]!;
      if (sR > NEG || sL > NEG) {
        // Shared split of I(i→j) and I(j→i): C(i→r) + C(j→r + 1).
        let best = NEG;
        let arg = i;
        for (let r = i, a = ib, c = jb + w - 1; r < j; r++, a++, c--) {
          const v = cr[a]! + cl[c]!;
          if (v > best) {
            best = v;
            arg = r;
          }
        }
        ir[ib + w - 1] = best + sR;
        il[jb + w - 1] = best + sL;
        this.spBp[ib + w - 1] = arg;
      } else {
        ir[ib + w - 1] = NEG;
        il[jb + w - 1] = NEG;
      }
      if (w < b) {
        // C(i→j) = I(i→m) + C(m→j).
        let best = NEG;
        let arg = -1;
        for (let m = i + 1; m <= j; m++) {
          const v = ir[ib + m - i - 1]! + cr[m * b + j - m]!;
          if (v > best) {
            best = v;
            arg = m;
          }
        }
        cr[ib + w] = best;
        this.crBp[ib + w] = arg;
        // C(j→i) = C(m→i) + I(j→m).
        best = NEG;
        arg = -1;
        for (let m = i; m < j; m++) {
          const v = cl[m * b + m - i]! + il[jb + j - m - 1]!;
          if (v > best) {
            best = v;
            arg = m;
          }
        }
        cl[jb + w] = best;
        this.clBp[jb + w] = arg;
      }
    }
  }

  /** The chain items at token h. */
  private chainsInside(n: number, h: number, bb: number, r0: number, o0: number, eff: Float64Array): void {
    const b = this.band;
    const size = n + 1;
    const q = this.q;
    const p = this.p;
    const qBp = this.qBp;
    const pBp = this.pBp;
    const ir = this.ir;
    const il = this.il;
    const lo = Math.max(1, h - bb);
    const ilRow = h * b + h - 1;
    // Q ← start, or Q(m) + I(h→m): the three states share each I(h→m).
    let q0 = h === 1 ? 0 : NEG;
    let q1 = h >= 2 ? this.v[h - 1]! : NEG;
    let q2 = h >= 2 ? this.v[size + h - 1]! : NEG;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    for (let m = lo; m < h; m++) {
      const e = il[ilRow - m]!;
      if (!(e > NEG)) continue;
      const v0 = q[m]! + e;
      if (v0 > q0) {
        q0 = v0;
        a0 = m;
      }
      const v1 = q[size + m]! + e;
      if (v1 > q1) {
        q1 = v1;
        a1 = m;
      }
      const v2 = q[2 * size + m]! + e;
      if (v2 > q2) {
        q2 = v2;
        a2 = m;
      }
    }
    q[h] = q0;
    qBp[h] = a0;
    q[size + h] = q1;
    qBp[size + h] = a1;
    q[2 * size + h] = q2;
    qBp[2 * size + h] = a2;
    for (let s = 0; s < 4; s++) {
      p[s * size + h] = NEG;
      pBp[s * size + h] = 0;
    }
    for (let t = 0; t < this.nt; t++) {
      const k = T_KIND[t]!;
      const v = q[T_Q[t]! * size + h]! + eff[k === 2 ? r0 + h : o0 + 2 * h + k]!;
      const c = T_P[t]! * size + h;
      if (v > p[c]!) {
        p[c] = v;
        pBp[c] = -1 - t;
      }
    }
    // P ← transition, or P(x) + I(x→h): the four states share each I(x→h).
    const irCol = h - 1;
    let p0 = p[h]!;
    let p1 = p[size + h]!;
    let p2 = p[2 * size + h]!;
    let p3 = p[3 * size + h]!;
    let b0 = pBp[h]!;
    let b1 = pBp[size + h]!;
    let b2 = pBp[2 * size + h]!;
    let b3 = pBp[3 * size + h]!;
    for (let x = lo; x < h; x++) {
      const e = ir[irCol + x * (b - 1)]!;
      if (!(e > NEG)) continue;
      const v0 = p[x]! + e;
      if (v0 > p0) {
        p0 = v0;
        b0 = x;
      }
      const v1 = p[size + x]! + e;
      if (v1 > p1) {
        p1 = v1;
        b1 = x;
      }
      const v2 = p[2 * size + x]! + e;
      if (v2 > p2) {
        p2 = v2;
        b2 = x;
      }
      const v3 = p[3 * size + x]! + e;
      if (v3 > p3) {
        p3 = v3;
        b3 = x;
      }
    }
    p[h] = p0;
    pBp[h] = b0;
    p[size + h] = p1;
    pBp[size + h] = b1;
    p[2 * size + h] = p2;
    pBp[2 * size + h] = b2;
    p[3 * size + h] = p3;
    pBp[3 * size + h] = b3;
    if (h < n) {
      for (let c = 0; c < 2; c++) {
        const a = p[c * size + h]!;
        const r = p[(c + 2) * size + h]!;
        this.v[c * size + h] = a >= r ? a : r;
        this.vBp[c * size + h] = a >= r ? 0 : 1;
      }
    }
  }

  /** Vine heads of the best structure of the last `inside` (which must have found one). */
  backtrack(heads: Int32Array): void {
    const n = this.n;
    const b = this.band;
    const size = n + 1;
    const st = this.stack;
    let sp = 0;
    // Items (kind, x, y): 0 P(state, h), 1 Q(state, h), 2 V(c, h), 3 IR(i, w), 4 IL(j, w), 5 CR(i, w),
    // 6 CL(j, w).
    st[sp++] = 0;
    st[sp++] = 1;
    st[sp++] = n;
    while (sp > 0) {
      const y = st[--sp]!;
      const x = st[--sp]!;
      const kind = st[--sp]!;
      if (kind === 0) {
        const arg = this.pBp[x * size + y]!;
        if (arg > 0) {
          sp = push(st, sp, 0, x, arg);
          sp = push(st, sp, 3, arg, y - arg);
        } else {
          const t = -1 - arg;
          const k = T_KIND[t]!;
          heads[y] = k === 2 ? 0 : k === 0 ? VINE_LEFT : VINE_RIGHT;
          sp = push(st, sp, 1, T_Q[t]!, y);
        }
      } else if (kind === 1) {
        const arg = this.qBp[x * size + y]!;
        if (arg > 0) {
          sp = push(st, sp, 1, x, arg);
          sp = push(st, sp, 4, y, y - arg);
        } else if (x > 0) {
          sp = push(st, sp, 2, x - 1, y - 1);
        }
      } else if (kind === 2) {
        sp = push(st, sp, 0, x + 2 * this.vBp[x * size + y]!, y);
      } else if (kind === 3 || kind === 4) {
        const i = kind === 3 ? x : x - y;
        const j = i + y;
        if (kind === 3) heads[j] = i;
        else heads[i] = j;
        const r = this.spBp[i * b + y - 1]!;
        if (r > i) sp = push(st, sp, 5, i, r - i);
        if (j - r - 1 > 0) sp = push(st, sp, 6, j, j - r - 1);
      } else if (kind === 5) {
        const m = this.crBp[x * b + y]!;
        sp = push(st, sp, 3, x, m - x);
        if (x + y > m) sp = push(st, sp, 5, m, x + y - m);
      } else {
        const m = this.clBp[x * b + y]!;
        const i = x - y;
        if (m > i) sp = push(st, sp, 6, m, m - i);
        sp = push(st, sp, 4, x, x - m);
      }
    }
  }

  /**
   * Max-plus outside pass of the last `inside` (which must have found a structure), scattering every
   * part's max-marginal into mm (part-id layout, filled with -Infinity by the caller).
   */
  outside(eff: Float64Array, mm: Float64Array): void {
    const n = this.n;
    const b = this.band;
    const size = n + 1;
    const cells = size * b;
    this.outCr.fill(NEG, 0, cells);
    this.outCl.fill(NEG, 0, cells);
    this.outIr.fill(NEG, 0, cells);
    this.outIl.fill(NEG, 0, cells);
    this.outQ.fill(NEG, 0, 3 * size);
    this.outP.fill(NEG, 0, 4 * size);
    this.outV.fill(NEG, 0, 2 * size);
    this.outP[size + n] = 0;
    const bb = Math.min(b, n - 1);
    const r0 = size * 2 * b;
    const o0 = r0 + size;
    for (let h = n; h >= 1; h--) this.chainsOutside(n, h, bb, r0, o0, eff, mm);
    for (let w = bb; w >= 1; w--) this.spansOutside(n, w, eff, mm);
  }

  private chainsOutside(
    n: number,
    h: number,
    bb: number,
    r0: number,
    o0: number,
    eff: Float64Array,
    mm: Float64Array,
  ): void {
    const b = this.band;
    const size = n + 1;
    const q = this.q;
    const p = this.p;
    const ir = this.ir;
    const il = this.il;
    const outQ = this.outQ;
    const outP = this.outP;
    const outIr = this.outIr;
    const outIl = this.outIl;
    const lo = Math.max(1, h - bb);
    if (h < n) {
      for (let c = 0; c < 2; c++) {
        const o = this.outV[c * size + h]!;
        if (!(o > NEG)) continue;
        if (o > outP[c * size + h]!) outP[c * size + h] = o;
        if (o > outP[(c + 2) * size + h]!) outP[(c + 2) * size + h] = o;
      }
    }
    // P(h) ← P(x) + I(x→h), the four states sharing each I(x→h).
    const irCol = h - 1;
    const o0p = outP[h]!;
    const o1p = outP[size + h]!;
    const o2p = outP[2 * size + h]!;
    const o3p = outP[3 * size + h]!;
    if (o0p > NEG || o1p > NEG || o2p > NEG || o3p > NEG) {
      for (let x = lo; x < h; x++) {
        const e = irCol + x * (b - 1);
        const ie = ir[e]!;
        if (!(ie > NEG)) continue;
        let best = outIr[e]!;
        for (let s = 0, row = 0; s < 4; s++, row += size) {
          const o = s === 0 ? o0p : s === 1 ? o1p : s === 2 ? o2p : o3p;
          if (!(o > NEG)) continue;
          const a = o + ie;
          if (a > outP[row + x]!) outP[row + x] = a;
          const c = o + p[row + x]!;
          if (c > best) best = c;
        }
        outIr[e] = best;
      }
    }
    for (let t = 0; t < this.nt; t++) {
      const o = outP[T_P[t]! * size + h]!;
      if (!(o > NEG)) continue;
      const k = T_KIND[t]!;
      const part = k === 2 ? r0 + h : o0 + 2 * h + k;
      const a = o + eff[part]!;
      const qc = T_Q[t]! * size + h;
      if (a > outQ[qc]!) outQ[qc] = a;
      const m = a + q[qc]!;
      if (m > mm[part]!) mm[part] = m;
    }
    const ilRow = h * b + h - 1;
    const o0q = outQ[h]!;
    const o1q = outQ[size + h]!;
    const o2q = outQ[2 * size + h]!;
    // Q(h) ← start: V(h − 1) for the later-fragment states.
    if (h >= 2) {
      if (o1q > this.outV[h - 1]!) this.outV[h - 1] = o1q;
      if (o2q > this.outV[size + h - 1]!) this.outV[size + h - 1] = o2q;
    }
    // Q(h) ← Q(m) + I(h→m), the three states sharing each I(h→m).
    if (o0q > NEG || o1q > NEG || o2q > NEG) {
      for (let m = lo; m < h; m++) {
        const e = ilRow - m;
        const ie = il[e]!;
        if (!(ie > NEG)) continue;
        let best = outIl[e]!;
        for (let s = 0, row = 0; s < 3; s++, row += size) {
          const o = s === 0 ? o0q : s === 1 ? o1q : o2q;
          if (!(o > NEG)) continue;
          const a = o + ie;
          if (a > outQ[row + m]!) outQ[row + m] = a;
          const c = o + q[row + m]!;
          if (c > best) best = c;
        }
        outIl[e] = best;
      }
    }
  }

  private spansOutside(n: number, w: number, eff: Float64Array, mm: Float64Array): void {
    const b = this.band;
    const W = 2 * b;
    const cr = this.cr;
    const cl = this.cl;
    const ir = this.ir;
    const il = this.il;
    const outCr = this.outCr;
    const outCl = this.outCl;
    const outIr = this.outIr;
    const outIl = this.outIl;
    for (let i = 1, j = 1 + w; j <= n; i++, j++) {
      const ib = i * b;
      const jb = j * b;
      if (w < b) {
        let o = outCr[ib + w]!;
        if (o > NEG) {
          for (let m = i + 1; m <= j; m++) {
            const e = ib + m - i - 1;
            const c = m * b + j - m;
            const x = o + cr[c]!;
            if (x > outIr[e]!) outIr[e] = x;
            const y = o + ir[e]!;
            if (y > outCr[c]!) outCr[c] = y;
          }
        }
        o = outCl[jb + w]!;
        if (o > NEG) {
          for (let m = i; m < j; m++) {
            const c = m * b + m - i;
            const e = jb + j - m - 1;
            const x = o + il[e]!;
            if (x > outCl[c]!) outCl[c] = x;
            const y = o + cl[c]!;
            if (y > outIl[e]!) outIl[e] = y;
          }
        }
      }
      const e = ib + w - 1;
      const f = jb + w - 1;
      let o = NEG;
      const vR = ir[e]!;
      if (vR > NEG) {
        const pR = j * W + i - j + b;
        const oR = outIr[e]!;
        if (oR > NEG) {
          mm[pR] = vR + oR;
          o = oR + eff[pR]!;
        }
      }
      const vL = il[f]!;
      if (vL > NEG) {
        const pL = i * W + j - i + b - 1;
        const oL = outIl[f]!;
        if (oL > NEG) {
          mm[pL] = vL + oL;
          const x = oL + eff[pL]!;
          if (x > o) o = x;
        }
      }
      if (o > NEG) {
        for (let a = ib, c = jb + w - 1; c >= jb; a++, c--) {
          const x = o + cl[c]!;
          if (x > outCr[a]!) outCr[a] = x;
          const y = o + cr[a]!;
          if (y > outCl[c]!) outCl[c] = y;
        }
      }
    }
  }
}

function push(st: Int32Array, sp: number, kind: number, x: number, y: number): number {
  st[sp] = kind;
  st[sp + 1] = x;
  st[sp + 2] = y;
  return sp + 3;
}
