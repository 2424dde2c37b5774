import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex, scoreSiblingTable } from "./parts-index.js";
import { ProjectiveFeasibility, withAdjacentArcs } from "./parts-mask.js";
import type { GrandSiblingScorer, HigherOrderOptions, HigherOrderParse } from "./parts-types.js";

/**
 * Third-order projective decoder with grand-sibling parts (Koo & Collins 2010, Model 1): O(n⁴) time
 * dynamic program whose complete and incomplete spans are indexed by the arc g→h into their head, and
 * whose sibling spans are indexed by the sibling part (h, s, m). Spans exist only for allowed arcs, so
 * memory is Σ over allowed arcs g→h of the stretch h can reach (≈ (2/3)n³ cells unpruned, O(n²) when
 * each token keeps a few heads). arc + sib scores are precomputed once per allowed sibling part;
 * grand(g, h, m) and gsib(g, h, s, m) are asked for inside the DP, exactly once each and only when the
 * span they complete is reachable. Keeps its tables between sentences (not reentrant).
 */
export class ThirdOrderDecoder {
  private readonly index = new SiblingIndex();
  private readonly feasibility = new ProjectiveFeasibility();
  /** arc + sib score per sibling slot. */
  private table = new Float64Array(0);
  /** Sibling span per sibling slot (h, inner s, outer m), and its split point. */
  private sp = new Float64Array(0);
  private bpS = new Int32Array(0);
  /** arcBase[(g + 1) * size + h]: offset so that spans of arc g→h ending at e live at arcBase + e. */
  private arcBase = new Int32Array(0);
  /** Complete spans C[g→h][e] and incomplete spans I[g→h][m], with back-pointers. */
  private c = new Float64Array(0);
  private inc = new Float64Array(0);
  private bpC = new Int32Array(0);
  private bpI = new Int32Array(0);
  private size = 0;
  private out: Int32Array = new Int32Array(0);
  private scorer: GrandSiblingScorer | null = null;
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
    index.build(mask);
    let fallback = false;
    if (!this.feasibility.admitsIndexed(index, singleRoot)) {
      index.build(withAdjacentArcs(mask));
      fallback = true;
    }
    const tri = index.triSize;
    if (this.table.length < tri) {
      const cap = Math.max(tri, this.table.length * 2);
      this.table = new Float64Array(cap);
      this.sp = new Float64Array(cap);
      this.bpS = new Int32Array(cap);
    }
    this.asked = scoreSiblingTable(index, scorer, this.table, singleRoot);
    this.layout(n + 1);
    this.scorer = scorer;
    let score: number;
    try {
      score = this.fill(singleRoot);
    } finally {
      this.scorer = null;
    }
    if (!(score > Number.NEGATIVE_INFINITY))
      throw new Error("ThirdOrderDecoder: no tree found (internal error)");
    this.out = heads;
    this.backC(-1, 0, n);
    return { heads, score, fallback, partsScored: this.asked };
  }

  /** Assigns each allowed arc g→h (and the root's pseudo-arc -1→0) its window of span cells. */
  private layout(size: number): void {
    this.size = size;
    const n = size - 1;
    const { heads, headStart, headCount } = this.index;
    if (this.arcBase.length < (size + 1) * size) this.arcBase = new Int32Array((size + 1) * size);
    const arcBase = this.arcBase;
    let total = 0;
    for (let h = 0; h <= n; h++) {
      const q0 = headStart[h]!;
      const k = headCount[h]!;
      for (let q = 0; q < k; q++) {
        const g = heads[q0 + q]!;
        // Window of ends/modifiers reachable by h inside a span not containing g.
        const lo = g < h ? g + 1 : 1;
        const hi = g < h ? n : g - 1;
        arcBase[(g + 1) * size + h] = total - lo;
        total += hi - lo + 1;
      }
    }
    if (this.c.length < total) {
      const cap = Math.max(total, Math.floor(this.c.length * 1.5));
      this.c = new Float64Array(cap);
      this.inc = new Float64Array(cap);
      this.bpC = new Int32Array(cap);
      this.bpI = new Int32Array(cap);
    }
    const c = this.c;
    for (let h = 0; h <= n; h++) {
      const q0 = headStart[h]!;
      const k = headCount[h]!;
      for (let q = 0; q < k; q++) c[arcBase[(heads[q0 + q]! + 1) * size + h]! + h] = 0;
    }
  }

  private fill(singleRoot: boolean): number {
    const { c, inc, sp, bpC, bpI, bpS, table, size, arcBase } = this;
    const { mods, start, count, pos, rowBase, heads, headStart, headCount } = this.index;
    const scorer = this.scorer!;
    const n = size - 1;
    const NEG = Number.NEGATIVE_INFINITY;
    let asked = 0;
    for (let w = 1; w <= n; w++) {
      for (let a = 0; a + w <= n; a++) {
        const b = a + w;
        const ra = a * size;
        const rb = b * size;
        const qa0 = headStart[a]!;
        const qaK = headCount[a]!;
        const qb0 = headStart[b]!;
        const qbK = headCount[b]!;
        // Sibling spans S[h; a, b] for every h outside [a, b] allowing both h→a and h→b.
        if (a >= 1) {
          for (let q = 0; q < qaK; q++) {
            const h = heads[qa0 + q]!;
            if (h >= a && h <= b) continue;
            if (h === 0 && singleRoot) continue;
            const rh = h * size;
            if (pos[rh + b]! < 0) continue;
            const baseA = arcBase[(h + 1) * size + a]!;
            const baseB = arcBase[(h + 1) * size + b]!;
            let best = NEG;
            let arg = a;
            for (let r = a; r < b; r++) {
              const v = c[baseA + r]! + c[baseB + r + 1]!;
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
        // Incomplete spans I[g→a][b] (arc a→b), for every allowed g→a with g outside [a, b].
        const pab = pos[ra + b]!;
        if (pab >= 0) {
          const base = rowBase[ra + b]!;
          const first = c[arcBase[(a + 1) * size + b]! + a + 1]!;
          const none = table[base - 1]!;
          const s0 = start[2 * a + 1]!;
          const sibs = singleRoot && a === 0 ? 0 : pab;
          for (let q = 0; q < qaK; q++) {
            const g = heads[qa0 + q]!;
            if (g >= a && g <= b) continue;
            const gb = arcBase[(g + 1) * size + a]!;
            let best = NEG;
            let arg = a;
            if (first > NEG) {
              best = first + none + scorer.gsib(g, a, a, b);
              asked++;
            }
            for (let i = 0; i < sibs; i++) {
              const s = mods[s0 + i]!;
              let v = inc[gb + s]! + sp[base + i]!;
              if (v > NEG) {
                v += table[base + i]! + scorer.gsib(g, a, s, b);
                asked++;
                if (v > best) {
                  best = v;
                  arg = s;
                }
              }
            }
            if (best > NEG) {
              best += scorer.grand(g, a, b);
              asked++;
            }
            inc[gb + b] = best;
            bpI[gb + b] = arg;
          }
        }
        // Incomplete spans I[g→b][a] (arc b→a).
        if (a >= 1) {
          const pba = pos[rb + a]!;
          if (pba >= 0) {
            const base = rowBase[rb + a]!;
            const first = c[arcBase[(b + 1) * size + a]! + b - 1]!;
            const none = table[base - 1]!;
            const s0 = start[2 * b]!;
            for (let q = 0; q < qbK; q++) {
              const g = heads[qb0 + q]!;
              if (g >= a && g <= b) continue;
              const gb = arcBase[(g + 1) * size + b]!;
              let best = NEG;
              let arg = b;
              if (first > NEG) {
                best = first + none + scorer.gsib(g, b, b, a);
                asked++;
              }
              for (let i = 0; i < pba; i++) {
                const s = mods[s0 + i]!;
                let v = inc[gb + s]! + sp[base + i]!;
                if (v > NEG) {
                  v += table[base + i]! + scorer.gsib(g, b, s, a);
                  asked++;
                  if (v > best) {
                    best = v;
                    arg = s;
                  }
                }
              }
              if (best > NEG) {
                best += scorer.grand(g, b, a);
                asked++;
              }
              inc[gb + a] = best;
              bpI[gb + a] = arg;
            }
          }
        }
        // Complete spans C[g→a][b]: last right child m ≤ b of a.
        {
          const s0 = start[2 * a + 1]!;
          const k = count[2 * a + 1]!;
          for (let q = 0; q < qaK; q++) {
            const g = heads[qa0 + q]!;
            if (g >= a && g <= b) continue;
            const gb = arcBase[(g + 1) * size + a]!;
            let best = NEG;
            let arg = -1;
            for (let i = 0; i < k; i++) {
              const mm = mods[s0 + i]!;
              if (mm > b) break;
              const v = inc[gb + mm]! + c[arcBase[(a + 1) * size + mm]! + b]!;
              if (v > best) {
                best = v;
                arg = mm;
              }
            }
            c[gb + b] = best;
            bpC[gb + b] = arg;
          }
        }
        // Complete spans C[g→b][a]: last left child m ≥ a of b.
        if (a >= 1) {
          const s0 = start[2 * b]!;
          const k = count[2 * b]!;
          for (let q = 0; q < qbK; q++) {
            const g = heads[qb0 + q]!;
            if (g >= a && g <= b) continue;
            const gb = arcBase[(g + 1) * size + b]!;
            let best = NEG;
            let arg = -1;
            for (let i = 0; i < k; i++) {
              const mm = mods[s0 + i]!;
              if (mm < a) break;
              const v = inc[gb + mm]! + c[arcBase[(b + 1) * size + mm]! + a]!;
              if (v > best) {
                best = v;
                arg = mm;
              }
            }
            c[gb + a] = best;
            bpC[gb + a] = arg;
          }
        }
      }
    }
    this.asked += asked;
    return c[arcBase[0]! + n]!;
  }

  private base(g: number, h: number): number {
    return this.arcBase[(g + 1) * this.size + h]!;
  }

  private backC(g: number, h: number, e: number): void {
    if (h === e) return;
    const m = this.bpC[this.base(g, h) + e]!;
    this.backI(g, h, m);
    this.backC(h, m, e);
  }

  private backI(g: number, h: number, m: number): void {
    this.out[m] = h;
    const s = this.bpI[this.base(g, h) + m]!;
    if (s === h) {
      this.backC(h, m, m > h ? h + 1 : h - 1);
      return;
    }
    this.backI(g, h, s);
    const index = this.index;
    const slot = index.rowBase[h * this.size + m]! + index.pos[h * this.size + s]!;
    const r = this.bpS[slot]!;
    const lo = s < m ? s : m;
    const hi = s < m ? m : s;
    this.backC(h, lo, r);
    this.backC(h, hi, r + 1);
  }
}
