import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex, scoreSiblingTable } from "./parts-index.js";
import { ProjectiveFeasibility, withAdjacentArcs } from "./parts-mask.js";
import type { HigherOrderOptions, HigherOrderParse, SiblingScorer } from "./parts-types.js";

/**
 * Second-order projective decoder with sibling parts (McDonald & Pereira 2006): O(n³) Eisner-style
 * dynamic program over complete, incomplete and sibling spans, restricted to the arcs a mask allows.
 * Each allowed part is scored exactly once per sentence, before the DP; pruned parts never are.
 * One instance keeps its tables between sentences (not reentrant).
 */
export class SecondOrderDecoder {
  private readonly index = new SiblingIndex();
  private readonly feasibility = new ProjectiveFeasibility();
  private table = new Float64Array(0);
  /** c[h*size+e]: best complete span headed by h reaching e (either side); c[h*size+h] = 0. */
  private c = new Float64Array(0);
  /** inc[h*size+m]: best incomplete span of arc h→m. */
  private inc = new Float64Array(0);
  /** sp[a*size+b], a < b: best pair of adjacent complete spans a→…r and r+1…←b. */
  private sp = new Float64Array(0);
  private bpC = new Int32Array(0);
  private bpI = new Int32Array(0);
  private bpS = new Int32Array(0);
  /** needS[a*size+b] = 1 when a and b are both allowed modifiers of some head on the same side. */
  private needS = new Uint8Array(0);
  private size = 0;
  private out: Int32Array = new Int32Array(0);

  /** Best projective tree of `mask.n` tokens under Σ arc + Σ sib; falls back to adjacent arcs if the mask admits none. */
  decode(mask: ArcMask, scorer: SiblingScorer, options: HigherOrderOptions = {}): HigherOrderParse {
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
    if (this.table.length < index.triSize)
      this.table = new Float64Array(Math.max(index.triSize, this.table.length * 2));
    const partsScored = scoreSiblingTable(index, scorer, this.table, singleRoot);
    this.ensure(n + 1);
    const score = this.fill(singleRoot);
    if (!(score > Number.NEGATIVE_INFINITY))
      throw new Error("SecondOrderDecoder: no tree found (internal error)");
    this.out = heads;
    this.backC(0, n);
    return { heads, score, fallback, partsScored };
  }

  private ensure(size: number): void {
    this.size = size;
    const cells = size * size;
    if (this.c.length >= cells) return;
    this.c = new Float64Array(cells);
    this.inc = new Float64Array(cells);
    this.sp = new Float64Array(cells);
    this.bpC = new Int32Array(cells);
    this.bpI = new Int32Array(cells);
    this.bpS = new Int32Array(cells);
    this.needS = new Uint8Array(cells);
  }

  private fill(singleRoot: boolean): number {
    const { c, inc, sp, bpC, bpI, bpS, table, size, needS } = this;
    const { mods, start, count, pos, rowBase } = this.index;
    const n = size - 1;
    const NEG = Number.NEGATIVE_INFINITY;
    // Sibling spans are needed only for pairs of modifiers of one head on one side.
    needS.fill(0, 0, size * size);
    for (let g = singleRoot ? 2 : 0; g < 2 * size; g++) {
      const s0 = start[g]!;
      const k = count[g]!;
      for (let j = 1; j < k; j++) {
        const m = mods[s0 + j]!;
        for (let i = 0; i < j; i++) {
          const s = mods[s0 + i]!;
          needS[s < m ? s * size + m : m * size + s] = 1;
        }
      }
    }
    for (let h = 0; h <= n; h++) c[h * size + h] = 0;
    for (let w = 1; w <= n; w++) {
      for (let a = 0; a + w <= n; a++) {
        const b = a + w;
        const ra = a * size;
        const rb = b * size;
        // Sibling span (a, b): a's right-complete span to r, b's left-complete span from r + 1.
        if (needS[ra + b] === 1) {
          let best = NEG;
          let arg = a;
          for (let r = a; r < b; r++) {
            const v = c[ra + r]! + c[rb + r + 1]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
          sp[ra + b] = best;
          bpS[ra + b] = arg;
        }
        // Incomplete a→b.
        const pab = pos[ra + b]!;
        if (pab >= 0) {
          const base = rowBase[ra + b]!;
          let best = c[rb + a + 1]! + table[base - 1]!;
          let arg = a;
          if (!(singleRoot && a === 0)) {
            const s0 = start[2 * a + 1]!;
            for (let i = 0; i < pab; i++) {
              const s = mods[s0 + i]!;
              const v = inc[ra + s]! + sp[s * size + b]! + table[base + i]!;
              if (v > best) {
                best = v;
                arg = s;
              }
            }
          }
          inc[ra + b] = best;
          bpI[ra + b] = arg;
        }
        // Incomplete b→a.
        if (a >= 1) {
          const pba = pos[rb + a]!;
          if (pba >= 0) {
            const base = rowBase[rb + a]!;
            let best = c[ra + b - 1]! + table[base - 1]!;
            let arg = b;
            const s0 = start[2 * b]!;
            for (let i = 0; i < pba; i++) {
              const s = mods[s0 + i]!;
              const v = inc[rb + s]! + sp[ra + s]! + table[base + i]!;
              if (v > best) {
                best = v;
                arg = s;
              }
            }
            inc[rb + a] = best;
            bpI[rb + a] = arg;
          }
        }
        // Complete a→…b: last right child m of a, m ≤ b.
        {
          let best = NEG;
          let arg = -1;
          const s0 = start[2 * a + 1]!;
          const k = count[2 * a + 1]!;
          for (let i = 0; i < k; i++) {
            const mm = mods[s0 + i]!;
            if (mm > b) break;
            const v = inc[ra + mm]! + c[mm * size + b]!;
            if (v > best) {
              best = v;
              arg = mm;
            }
          }
          c[ra + b] = best;
          bpC[ra + b] = arg;
        }
        // Complete a…←b: last left child m of b, m ≥ a.
        if (a >= 1) {
          let best = NEG;
          let arg = -1;
          const s0 = start[2 * b]!;
          const k = count[2 * b]!;
          for (let i = 0; i < k; i++) {
            const mm = mods[s0 + i]!;
            if (mm < a) break;
            const v = inc[rb + mm]! + c[mm * size + a]!;
            if (v > best) {
              best = v;
              arg = mm;
            }
          }
          c[rb + a] = best;
          bpC[rb + a] = arg;
        }
      }
    }
    return c[n]!;
  }

  private backC(h: number, e: number): void {
    if (h === e) return;
    const m = this.bpC[h * this.size + e]!;
    this.backI(h, m);
    this.backC(m, e);
  }

  private backI(h: number, m: number): void {
    this.out[m] = h;
    const s = this.bpI[h * this.size + m]!;
    if (s === h) {
      this.backC(m, m > h ? h + 1 : h - 1);
      return;
    }
    this.backI(h, s);
    if (s < m) this.backS(s, m);
    else this.backS(m, s);
  }

  private backS(a: number, b: number): void {
    const r = this.bpS[a * this.size + b]!;
    this.backC(a, r);
    this.backC(b, r + 1);
  }
}
