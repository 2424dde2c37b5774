import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex } from "./parts-index.js";
import { SpanWindows } from "./span-windows.js";

/**
 * Whether an arc mask admits at least one projective tree (optionally with exactly one root child):
 * a boolean first-order Eisner pass over the allowed arcs only, run before any part is scored so that
 * a failed decode never wastes feature extraction. It visits only the spans of `SpanWindows`, so a
 * sparse mask costs far less than n³. Keeps its tables between sentences.
 */
export class ProjectiveFeasibility {
  private c = new Uint8Array(0);
  private i = new Uint8Array(0);
  private own: SiblingIndex | null = null;
  private ownWindows: SpanWindows | null = null;

  /** True when some projective tree uses only arcs allowed by `mask`. */
  admits(mask: ArcMask, singleRoot: boolean): boolean {
    if (this.own === null) {
      this.own = new SiblingIndex();
      this.ownWindows = new SpanWindows();
    }
    const index = this.own;
    index.build(mask);
    this.ownWindows!.fromIndex(index, singleRoot ? 1 : 0);
    return this.admitsIndexed(index, this.ownWindows!, singleRoot);
  }

  /**
   * Same as `admits`, for a mask already indexed (decoders index the mask anyway), with its windows
   * built for chart positions `singleRoot ? 1 : 0` .. n.
   */
  admitsIndexed(index: SiblingIndex, windows: SpanWindows, singleRoot: boolean): boolean {
    const n = index.n;
    if (n === 0) return true;
    const size = n + 1;
    if (this.c.length < size * size) {
      const cells = Math.max(size * size, Math.floor(this.c.length * 1.5));
      this.c = new Uint8Array(cells);
      this.i = new Uint8Array(cells);
    }
    const c = this.c;
    const lo = singleRoot ? 1 : 0;
    fillFeasible(n, lo, c, this.i, index.bits, index.mods, index.start, index.count, windows);
    if (!singleRoot) return c[n] === 1;
    const s0 = index.start[1]!;
    const k = index.count[1]!;
    for (let j = 0; j < k; j++) {
      const m = index.mods[s0 + j]!;
      if (c[m * size + 1] === 1 && c[m * size + n] === 1) return true;
    }
    return false;
  }
}

/**
 * The boolean inside pass: c[h * size + e] = 1 when a complete span headed by h can reach e, inc for
 * incomplete spans; spans in the order and windows of `EisnerChart` (cells outside them are stale and
 * never read).
 */
function fillFeasible(
  n: number,
  lo: number,
  c: Uint8Array,
  inc: Uint8Array,
  bits: Uint8Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  windows: SpanWindows,
): void {
  const size = n + 1;
  const { hiR, loL, aMin } = windows;
  for (let h = lo; h <= n; h++) c[h * size + h] = 1;
  for (let b = lo + 1; b <= n; b++) {
    const rb = b * size;
    const am = aMin[b]!;
    const lb = loL[b]!;
    for (let a = b - 1; a >= am; a--) {
      const ra = a * size;
      const uR = a >= lo && bits[ra + b] === 1;
      const uL = a >= 1 && bits[rb + a] === 1;
      if (uR || uL) {
        let ok = 0;
        const r0 = lb - 1 > a ? lb - 1 : a;
        const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
        for (let r = r0; r <= r1; r++) {
          if (c[ra + r] === 1 && c[rb + r + 1] === 1) {
            ok = 1;
            break;
          }
        }
        inc[ra + b] = uR ? ok : 0;
        inc[rb + a] = uL ? ok : 0;
      }
      if (b <= hiR[a]! || b === n) c[ra + b] = feasibleRight(a, b, n, c, inc, mods, start, count, hiR);
      if (a >= 1 && (a >= lb || a === 1)) c[rb + a] = feasibleLeft(b, a, n, c, inc, mods, start, count, loL);
    }
    if (am > 1) c[rb + 1] = feasibleLeft(b, 1, n, c, inc, mods, start, count, loL);
    if (b === n)
      for (let a = am - 1; a >= lo; a--)
        c[a * size + n] = feasibleRight(a, n, n, c, inc, mods, start, count, hiR);
  }
}

/** Whether C(a, b), a < b, can be built: I(a→m) and C(m, b) for some right modifier m ≤ b of a. */
function feasibleRight(
  a: number,
  b: number,
  n: number,
  c: Uint8Array,
  inc: Uint8Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  hiR: Int32Array,
): number {
  const size = n + 1;
  const s0 = start[2 * a + 1]!;
  const k = count[2 * a + 1]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m > b) break;
    if (m !== b && b !== n && b > hiR[m]!) continue;
    if (inc[a * size + m] === 1 && c[m * size + b] === 1) return 1;
  }
  return 0;
}

/** Whether C(b, a), a < b, can be built: I(b→m) and C(m, a) for some left modifier m ≥ a of b. */
function feasibleLeft(
  b: number,
  a: number,
  n: number,
  c: Uint8Array,
  inc: Uint8Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  loL: Int32Array,
): number {
  const size = n + 1;
  const s0 = start[2 * b]!;
  const k = count[2 * b]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m < a) break;
    if (m !== a && a !== 1 && a < loL[m]!) continue;
    if (inc[b * size + m] === 1 && c[m * size + a] === 1) return 1;
  }
  return 0;
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
