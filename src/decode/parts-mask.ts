import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex } from "./parts-index.js";

/**
 * Whether an arc mask admits at least one projective tree (optionally with exactly one root child):
 * a boolean first-order Eisner pass over the allowed arcs only, run before any part is scored so that
 * a failed decode never wastes feature extraction. Keeps its tables between sentences.
 */
export class ProjectiveFeasibility {
  private c = new Uint8Array(0);
  private i = new Uint8Array(0);
  private own: SiblingIndex | null = null;

  /** True when some projective tree uses only arcs allowed by `mask`. */
  admits(mask: ArcMask, singleRoot: boolean): boolean {
    if (this.own === null) this.own = new SiblingIndex();
    this.own.build(mask);
    return this.admitsIndexed(this.own, singleRoot);
  }

  /** Same as `admits`, for a mask already indexed (decoders index the mask anyway). */
  admitsIndexed(index: SiblingIndex, singleRoot: boolean): boolean {
    const n = index.n;
    if (n === 0) return true;
    const size = n + 1;
    if (this.c.length < size * size) {
      this.c = new Uint8Array(size * size);
      this.i = new Uint8Array(size * size);
    }
    const c = this.c;
    const inc = this.i;
    const { pos, mods, start, count } = index;
    // c[h*size+e]: complete span headed by h reaching e; inc[h*size+m]: incomplete span of arc h→m.
    for (let h = 0; h <= n; h++) c[h * size + h] = 1;
    const first = singleRoot ? 1 : 0;
    for (let w = 1; w <= n; w++) {
      for (let a = first; a + w <= n; a++) {
        const b = a + w;
        const ra = a * size;
        const rb = b * size;
        let ok = 0;
        if (pos[ra + b]! >= 0) {
          for (let r = a; r < b; r++) {
            if (c[ra + r] === 1 && c[rb + r + 1] === 1) {
              ok = 1;
              break;
            }
          }
        }
        inc[ra + b] = ok;
        ok = 0;
        if (a >= 1 && pos[rb + a]! >= 0) {
          for (let r = a; r < b; r++) {
            if (c[ra + r] === 1 && c[rb + r + 1] === 1) {
              ok = 1;
              break;
            }
          }
        }
        inc[rb + a] = ok;
        ok = 0;
        let s0 = start[2 * a + 1]!;
        let k = count[2 * a + 1]!;
        for (let j = 0; j < k; j++) {
          const m = mods[s0 + j]!;
          if (m > b) break;
          if (inc[ra + m] === 1 && c[m * size + b] === 1) {
            ok = 1;
            break;
          }
        }
        c[ra + b] = ok;
        if (a >= 1) {
          ok = 0;
          s0 = start[2 * b]!;
          k = count[2 * b]!;
          for (let j = 0; j < k; j++) {
            const m = mods[s0 + j]!;
            if (m < a) break;
            if (inc[rb + m] === 1 && c[m * size + a] === 1) {
              ok = 1;
              break;
            }
          }
          c[rb + a] = ok;
        }
      }
    }
    if (!singleRoot) return c[n] === 1;
    const s0 = start[1]!;
    const k = count[1]!;
    for (let j = 0; j < k; j++) {
      const m = mods[s0 + j]!;
      if (c[m * size + 1] === 1 && c[m * size + n] === 1) return true;
    }
    return false;
  }
}

/** A copy of `mask` with every adjacent arc (m-1→m, m+1→m) and every root arc (0→m) allowed again. */
export function withAdjacentArcs(mask: ArcMask): ArcMask {
  const out = mask.clone();
  const n = mask.n;
  for (let m = 1; m <= n; m++) {
    out.allow(0, m);
    if (m > 1) out.allow(m - 1, m);
    if (m < n) out.allow(m + 1, m);
  }
  return out;
}
