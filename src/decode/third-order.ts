import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex, SiblingParts } from "./parts-index.js";
import { ProjectiveFeasibility, withAdjacentArcs } from "./parts-mask.js";
import type { GrandSiblingScorer, HigherOrderOptions, HigherOrderParse } from "./parts-types.js";
import { SpanWindows } from "./span-windows.js";

const NEG = Number.NEGATIVE_INFINITY;

/**
 * Third-order projective decoder with grand-sibling parts (Koo & Collins 2010, Model 1): O(n⁴) time
 * dynamic program whose complete and incomplete spans are indexed by the arc g→h into their head, and
 * whose sibling spans are indexed by the sibling part (h, s, m). Spans exist only for allowed arcs and
 * only where allowed arcs can reach (`SpanWindows`): arc g→h owns the complete spans C[g→h][e] of h's
 * window on the side away from g, plus the two boundary spans e = 1 and e = n, and one incomplete span
 * per modifier of h. So time and memory follow what the mask keeps (≈ (2/3)n³ cells unpruned, about
 * linear in n when each token keeps a few mostly short arcs). With `lazyParts` (the default) every
 * part is asked for inside the DP, at most once and only when the spans it joins hold subtrees:
 * arc + sib once per sibling part, kept for the other grandparents of its head; grand(g, h, m) and
 * gsib(g, h, s, m) once each. Keeps its tables between sentences (not reentrant).
 */
export class ThirdOrderDecoder {
  /**
   * Whether each arc + sib part is asked for on its first use (default) rather than every allowed one
   * before the DP: the same tree and score, fewer parts scored (`SiblingParts`).
   */
  lazyParts = true;
  private readonly index = new SiblingIndex();
  private readonly windows = new SpanWindows();
  private readonly feasibility = new ProjectiveFeasibility();
  /** arc + sib score per sibling slot, asked for on first use. */
  private readonly parts = new SiblingParts();
  /** Sibling span per sibling slot (h, inner s, outer m), and its split point. */
  private sp = new Float64Array(0);
  private bpS = new Int32Array(0);
  /**
   * Per arc (its index in `index.mods`; the root's pseudo-arc -1→0 is `index.arcs`): complete span
   * C[arc][e] lives at cBase + e for cLo ≤ e ≤ cHi, C[arc][1] at cBnd and C[arc][n] at cBnd + 1 when
   * outside that window; incomplete span I[arc][m] at iOff + (index of h→m in `index.mods`).
   */
  private cBase = new Int32Array(0);
  private cLo = new Int32Array(0);
  private cHi = new Int32Array(0);
  private cBnd = new Int32Array(0);
  private iOff = new Int32Array(0);
  /** Complete spans and incomplete spans, with back-pointers. */
  private c = new Float64Array(0);
  private inc = new Float64Array(0);
  private bpC = new Int32Array(0);
  private bpI = new Int32Array(0);
  private size = 0;
  private out: Int32Array = new Int32Array(0);
  private scorer: GrandSiblingScorer | null = null;
  /** `scorer.skipForced` of the current decode: parts every tree holds are scored 0, unasked. */
  private skip = false;
  private asked = 0;

  /** Best projective tree under Σ arc + sib + grand + gsib; falls back to adjacent arcs if the mask admits none. */
  decode(mask: ArcMask, scorer: GrandSiblingScorer, options: HigherOrderOptions = {}): HigherOrderParse {
    const singleRoot = options.singleRoot ?? true;
    const n = mask.n;
    const heads = options.heads ?? new Int32Array(n + 1);
    if (heads.length < n + 1) throw new RangeError(`heads array too short: ${heads.length} < ${n + 1}`);
    heads[0] = -1;
    if (n === 0) return { heads, score: 0, fallback: false, partsScored: 0 };
    const index = this.index;
    const lo = singleRoot ? 1 : 0;
    index.build(mask);
    this.windows.fromIndex(index, lo);
    let fallback = false;
    if (!this.feasibility.admitsIndexed(index, this.windows, singleRoot)) {
      index.build(withAdjacentArcs(mask));
      this.windows.fromIndex(index, lo);
      fallback = true;
    }
    const tri = index.triSize;
    if (this.sp.length < tri) {
      const cap = Math.max(tri, this.sp.length * 2);
      this.sp = new Float64Array(cap);
      this.bpS = new Int32Array(cap);
    }
    if (this.lazyParts) this.parts.startLazy(index, scorer);
    else this.parts.scoreAll(index, scorer, singleRoot);
    this.asked = 0;
    this.layout(n + 1);
    this.scorer = scorer;
    this.skip = scorer.skipForced === true;
    let score: number;
    try {
      score = this.fill(singleRoot);
    } finally {
      this.scorer = null;
      this.parts.end();
    }
    if (!(score > NEG)) throw new Error("ThirdOrderDecoder: no tree found (internal error)");
    this.out = heads;
    this.backC(index.arcs, 0, n);
    return { heads, score, fallback, partsScored: this.asked + this.parts.asked };
  }

  /** Number of cells of the span tables after the last decode (complete + incomplete spans). */
  get tableCells(): number {
    return this.cells;
  }
  private cells = 0;

  /** Assigns each allowed arc g→h (and the root's pseudo-arc -1→0) its span cells. */
  private layout(size: number): void {
    this.size = size;
    const n = size - 1;
    const { mods, start, count, arcs } = this.index;
    const { hiR, loL } = this.windows;
    if (this.cBase.length < arcs + 1) {
      const cap = Math.max(arcs + 1, Math.floor(this.cBase.length * 1.5));
      this.cBase = new Int32Array(cap);
      this.cLo = new Int32Array(cap);
      this.cHi = new Int32Array(cap);
      this.cBnd = new Int32Array(cap);
      this.iOff = new Int32Array(cap);
    }
    const { cBase, cLo, cHi, cBnd, iOff } = this;
    let total = 0;
    let totalI = 0;
    for (let g = 0; g <= n; g++) {
      for (let side = 0; side < 2; side++) {
        const s0 = start[2 * g + side]!;
        const k = count[2 * g + side]!;
        for (let j = 0; j < k; j++) {
          const h = mods[s0 + j]!;
          const id = s0 + j;
          // The spans of h under g lie on the far side of g: left ones from cl, right ones up to cr.
          let cl = loL[h]!;
          let cr = hiR[h]!;
          if (g < h) {
            if (cl <= g) cl = g + 1;
          } else if (cr >= g) cr = g - 1;
          cLo[id] = cl;
          cHi[id] = cr;
          cBase[id] = total - cl;
          total += cr - cl + 1;
          cBnd[id] = total;
          total += 2;
          iOff[id] = totalI - start[2 * h]!;
          totalI += count[2 * h]! + count[2 * h + 1]!;
        }
      }
    }
    // Root pseudo-arc: only C[-1→0][0] and C[-1→0][n], and an incomplete span per root child.
    cLo[arcs] = 0;
    cHi[arcs] = 0;
    cBase[arcs] = total;
    total += 1;
    cBnd[arcs] = total;
    total += 2;
    iOff[arcs] = totalI - start[0]!;
    totalI += count[0]! + count[1]!;
    if (this.c.length < total) {
      const cap = Math.max(total, Math.floor(this.c.length * 1.5));
      this.c = new Float64Array(cap);
      this.bpC = new Int32Array(cap);
    }
    if (this.inc.length < totalI) {
      const cap = Math.max(totalI, Math.floor(this.inc.length * 1.5));
      this.inc = new Float64Array(cap);
      this.bpI = new Int32Array(cap);
    }
    this.cells = total + totalI;
    const c = this.c;
    for (let g = 0; g <= n; g++) {
      for (let side = 0; side < 2; side++) {
        const s0 = start[2 * g + side]!;
        const k = count[2 * g + side]!;
        for (let j = 0; j < k; j++) c[cBase[s0 + j]! + mods[s0 + j]!] = 0;
      }
    }
    c[cBase[arcs]!] = 0;
  }

  /** Cell of complete span C[arc][e] of the arc's modifier h (e inside the arc's window, or a boundary 1 / n). */
  private cell(id: number, h: number, e: number): number {
    if (e >= this.cLo[id]! && e <= this.cHi[id]!) return this.cBase[id]! + e;
    return e < h ? this.cBnd[id]! : this.cBnd[id]! + 1;
  }

  private fill(singleRoot: boolean): number {
    const n = this.size - 1;
    const aMin = this.windows.aMin;
    for (let b = 1; b <= n; b++) {
      const am = aMin[b]!;
      for (let a = b - 1; a >= am; a--) {
        if (a >= 1) this.sibSpans(a, b, singleRoot);
        this.incSpans(a, b, singleRoot);
        // Complete spans C[g→a][b] (the root's only at n) and C[g→b][a].
        if (a >= 1 || b === n) this.rightSpans(a, b);
        if (a >= 1) this.leftSpans(b, a);
      }
      if (am > 1) this.leftSpans(b, 1);
      if (b === n) for (let a = am - 1; a >= 1; a--) this.rightSpans(a, n);
      if (singleRoot) {
        this.rootSpan(b);
        if (b === n) this.rightSpans(0, n);
      } else if (b === n && am > 0) this.rightSpans(0, n);
    }
    return this.c[this.cell(this.index.arcs, 0, n)]!;
  }

  /** Sibling spans S[h; a, b] for every head h outside [a, b] allowing both h→a and h→b. */
  private sibSpans(a: number, b: number, singleRoot: boolean): void {
    const { c, sp, bpS, size, cBase, cLo, cHi } = this;
    const { heads, headStart, headCount, headArc, bits, pos, rowBase } = this.index;
    const q0 = headStart[a]!;
    const qK = headCount[a]!;
    for (let q = 0; q < qK; q++) {
      const h = heads[q0 + q]!;
      if (h >= a && h <= b) continue;
      if (h === 0 && singleRoot) continue;
      const rh = h * size;
      if (bits[rh + b] !== 1) continue;
      const idA = headArc[q0 + q]!;
      const idB = this.arcId(h, b);
      // C[h→a][r] (right span of a) + C[h→b][r + 1] (left span of b), inside both windows.
      let r0 = cLo[idB]! - 1;
      if (r0 < a) r0 = a;
      let r1 = cHi[idA]!;
      if (r1 > b - 1) r1 = b - 1;
      const baseA = cBase[idA]!;
      const baseB = cBase[idB]! + 1;
      let best = NEG;
      let arg = a;
      for (let r = r0; r <= r1; r++) {
        const v = c[baseA + r]! + c[baseB + r]!;
        if (v > best) {
          best = v;
          arg = r;
        }
      }
      const slot = h < a ? rowBase[rh + b]! + pos[rh + a]! : rowBase[rh + a]! + pos[rh + b]!;
      sp[slot] = best;
      bpS[slot] = arg;
    }
  }

  /** Index in `index.mods` of allowed arc h→m. */
  private arcId(h: number, m: number): number {
    const { start, pos, size } = this.index;
    return start[2 * h + (m > h ? 1 : 0)]! + pos[h * size + m]!;
  }

  /** Incomplete spans I[g→a][b] (arc a→b) and I[g→b][a] (arc b→a) for every allowed g outside [a, b]. */
  private incSpans(a: number, b: number, singleRoot: boolean): void {
    const { c, inc, sp, bpI, size } = this;
    const { mods, start, heads, headStart, headCount, headArc, bits, pos, rowBase } = this.index;
    const scorer = this.scorer!;
    const ra = a * size;
    const rb = b * size;
    let asked = 0;
    if (bits[ra + b] === 1) {
      const idAB = this.arcId(a, b);
      const base = rowBase[ra + b]!;
      // First child: C[a→b][a + 1], the left span of b reaching a + 1.
      const first = a + 1 === b || a + 1 >= this.cLo[idAB]! || a === 0 ? c[this.cell(idAB, b, a + 1)]! : NEG;
      const s0 = start[2 * a + 1]!;
      const mi = s0 + pos[ra + b]!;
      const sibs = singleRoot && a === 0 ? 0 : pos[ra + b]!;
      const q0 = headStart[a]!;
      const qK = headCount[a]!;
      const iOff = this.iOff;
      // With a's head forced, grand(g, a, b) is in every tree when b's head is forced too, and the
      // grand-sibling parts of a's right children when all of them are (`SiblingIndex.closed`).
      const fixedGrand = this.skip && qK === 1 && headCount[b] === 1;
      const fixedChain = fixedGrand && this.index.closed[2 * a + 1] === 1;
      for (let q = 0; q < qK; q++) {
        const g = heads[q0 + q]!;
        if (g >= a && g <= b) continue;
        const gi = iOff[headArc[q0 + q]!]!;
        let best = NEG;
        let arg = a;
        if (first > NEG) {
          best = first + this.parts.get(base - 1, mi, a, a, b);
          if (!fixedChain) {
            best += scorer.gsib(g, a, a, b);
            asked++;
          }
        }
        for (let i = 0; i < sibs; i++) {
          let v = inc[gi + s0 + i]! + sp[base + i]!;
          if (v > NEG) {
            v += this.parts.get(base + i, mi, a, mods[s0 + i]!, b);
            if (!fixedChain) {
              v += scorer.gsib(g, a, mods[s0 + i]!, b);
              asked++;
            }
            if (v > best) {
              best = v;
              arg = mods[s0 + i]!;
            }
          }
        }
        if (best > NEG && !fixedGrand) {
          best += scorer.grand(g, a, b);
          asked++;
        }
        inc[gi + mi] = best;
        bpI[gi + mi] = arg;
      }
    }
    if (a >= 1 && bits[rb + a] === 1) {
      const idBA = this.arcId(b, a);
      const base = rowBase[rb + a]!;
      // First child: C[b→a][b - 1], the right span of a reaching b - 1.
      const first = b - 1 === a || b - 1 <= this.cHi[idBA]! ? c[this.cell(idBA, a, b - 1)]! : NEG;
      const s0 = start[2 * b]!;
      const mi = s0 + pos[rb + a]!;
      const sibs = pos[rb + a]!;
      const q0 = headStart[b]!;
      const qK = headCount[b]!;
      const fixedGrand = this.skip && qK === 1 && headCount[a] === 1;
      const fixedChain = fixedGrand && this.index.closed[2 * b] === 1;
      for (let q = 0; q < qK; q++) {
        const g = heads[q0 + q]!;
        if (g >= a && g <= b) continue;
        const gi = this.iOff[headArc[q0 + q]!]!;
        let best = NEG;
        let arg = b;
        if (first > NEG) {
          best = first + this.parts.get(base - 1, mi, b, b, a);
          if (!fixedChain) {
            best += scorer.gsib(g, b, b, a);
            asked++;
          }
        }
        for (let i = 0; i < sibs; i++) {
          let v = inc[gi + s0 + i]! + sp[base + i]!;
          if (v > NEG) {
            v += this.parts.get(base + i, mi, b, mods[s0 + i]!, a);
            if (!fixedChain) {
              v += scorer.gsib(g, b, mods[s0 + i]!, a);
              asked++;
            }
            if (v > best) {
              best = v;
              arg = mods[s0 + i]!;
            }
          }
        }
        if (best > NEG && !fixedGrand) {
          best += scorer.grand(g, b, a);
          asked++;
        }
        inc[gi + mi] = best;
        bpI[gi + mi] = arg;
      }
    }
    this.asked += asked;
  }

  /** With a single root: I[-1→0][b] = C[0→b][1] + part(0, 0, b) + gsib(-1, 0, 0, b) + grand(-1, 0, b). */
  private rootSpan(b: number): void {
    const { c, inc, bpI } = this;
    const { start, bits, pos, rowBase, arcs } = this.index;
    if (bits[b] !== 1) return;
    const scorer = this.scorer!;
    const id = this.arcId(0, b);
    const first = c[this.cell(id, b, 1)]!;
    const mi = start[1]! + pos[b]!;
    let best = NEG;
    if (first > NEG) {
      best =
        first +
        this.parts.get(rowBase[b]! - 1, mi, 0, 0, b) +
        scorer.gsib(-1, 0, 0, b) +
        scorer.grand(-1, 0, b);
      this.asked += 2;
    }
    inc[this.iOff[arcs]! + mi] = best;
    bpI[this.iOff[arcs]! + mi] = 0;
  }

  /** Complete spans C[g→a][b], a < b: last right child m ≤ b of a, for every g whose window holds b. */
  private rightSpans(a: number, b: number): void {
    const { c, inc, bpC, size, cBase, cLo, cHi, cBnd, iOff } = this;
    const { mods, start, count, heads, headStart, headCount, headArc } = this.index;
    const n = size - 1;
    const s0 = start[2 * a + 1]!;
    const k = count[2 * a + 1]!;
    const q0 = headStart[a]!;
    const qK = headCount[a]!;
    for (let q = 0; q < qK; q++) {
      const g = heads[q0 + q]!;
      if (g >= a && g <= b) continue;
      const id = headArc[q0 + q]!;
      let cellAB: number;
      if (b >= cLo[id]! && b <= cHi[id]!) cellAB = cBase[id]! + b;
      else if (b === n && g < a) cellAB = cBnd[id]! + 1;
      else continue;
      const gi = iOff[id]!;
      let best = NEG;
      let arg = -1;
      for (let j = 0; j < k; j++) {
        const m = mods[s0 + j]!;
        if (m > b) break;
        // C[a→m][b]: m's right span reaching b (trivial when m = b).
        const idm = s0 + j;
        let cm: number;
        if (m === b) cm = cBase[idm]! + m;
        else if (b <= cHi[idm]!) cm = cBase[idm]! + b;
        else if (b === n) cm = cBnd[idm]! + 1;
        else continue;
        const v = inc[gi + idm]! + c[cm]!;
        if (v > best) {
          best = v;
          arg = m;
        }
      }
      c[cellAB] = best;
      bpC[cellAB] = arg;
    }
  }

  /** Complete spans C[g→b][a], a < b: last left child m ≥ a of b, for every g whose window holds a. */
  private leftSpans(b: number, a: number): void {
    const { c, inc, bpC, cBase, cLo, cHi, cBnd, iOff } = this;
    const { mods, start, count, heads, headStart, headCount, headArc } = this.index;
    const s0 = start[2 * b]!;
    const k = count[2 * b]!;
    const q0 = headStart[b]!;
    const qK = headCount[b]!;
    for (let q = 0; q < qK; q++) {
      const g = heads[q0 + q]!;
      if (g >= a && g <= b) continue;
      const id = headArc[q0 + q]!;
      let cellBA: number;
      if (a >= cLo[id]! && a <= cHi[id]!) cellBA = cBase[id]! + a;
      else if (a === 1 && (g > b || g === 0)) cellBA = cBnd[id]!;
      else continue;
      const gi = iOff[id]!;
      let best = NEG;
      let arg = -1;
      for (let j = 0; j < k; j++) {
        const m = mods[s0 + j]!;
        if (m < a) break;
        // C[b→m][a]: m's left span reaching a (trivial when m = a).
        const idm = s0 + j;
        let cm: number;
        if (m === a) cm = cBase[idm]! + m;
        else if (a >= cLo[idm]!) cm = cBase[idm]! + a;
        else if (a === 1) cm = cBnd[idm]!;
        else continue;
        const v = inc[gi + idm]! + c[cm]!;
        if (v > best) {
          best = v;
          arg = m;
        }
      }
      c[cellBA] = best;
      bpC[cellBA] = arg;
    }
  }

  private backC(id: number, h: number, e: number): void {
    if (h === e) return;
    const m = this.bpC[this.cell(id, h, e)]!;
    this.backI(id, h, m);
    this.backC(this.arcId(h, m), m, e);
  }

  private backI(id: number, h: number, m: number): void {
    this.out[m] = h;
    const idm = this.arcId(h, m);
    const s = this.bpI[this.iOff[id]! + idm]!;
    if (s === h) {
      this.backC(idm, m, m > h ? h + 1 : h - 1);
      return;
    }
    this.backI(id, h, s);
    const index = this.index;
    const slot = index.rowBase[h * this.size + m]! + index.pos[h * this.size + s]!;
    const r = this.bpS[slot]!;
    const lo = s < m ? s : m;
    const hi = s < m ? m : s;
    this.backC(this.arcId(h, lo), lo, r);
    this.backC(this.arcId(h, hi), hi, r + 1);
  }
}
