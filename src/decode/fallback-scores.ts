import type { ArcMask } from "../mask/arc-mask.js";

/**
 * Effective arc scores for a fallback decode, used when a mask admits no tree. Usable arcs (allowed
 * and not -Infinity) keep their score; the root arcs 0→m and adjacent arcs m-1→m, m+1→m that are not
 * usable are restored with a penalty larger than any difference between tree scores, so the best tree
 * under these scores uses as few restored arcs as possible and is otherwise the best tree. Every other
 * arc is -Infinity. Writes into `out` (length ≥ (n + 1)²) and returns it.
 */
export function fallbackScores(
  n: number,
  scores: Float64Array,
  mask: ArcMask | null,
  out: Float64Array,
): Float64Array {
  const size = n + 1;
  const bits = mask === null ? null : mask.bits;
  // penalty > |score(A) - score(B)| for any two partial trees: 1 + 2 Σ_m max_h |s(h, m)|.
  let bound = 0;
  for (let m = 1; m <= n; m++) {
    let big = 0;
    for (let h = 0; h <= n; h++) {
      const a = h * size + m;
      let v = Number.NEGATIVE_INFINITY;
      if (h !== m && (bits === null || bits[a] === 1)) v = scores[a]!;
      out[a] = v;
      if (v !== Number.NEGATIVE_INFINITY) {
        const abs = v < 0 ? -v : v;
        if (abs > big) big = abs;
      }
    }
    out[m * size] = Number.NEGATIVE_INFINITY;
    bound += big;
  }
  out[0] = Number.NEGATIVE_INFINITY;
  const penalty = -(1 + 2 * bound);
  for (let m = 1; m <= n; m++) {
    restore(out, m, 0, size, penalty);
    if (m > 1) restore(out, m, m - 1, size, penalty);
    if (m < n) restore(out, m, m + 1, size, penalty);
  }
  return out;
}

function restore(out: Float64Array, m: number, h: number, size: number, penalty: number): void {
  const a = h * size + m;
  if (out[a] === Number.NEGATIVE_INFINITY) out[a] = penalty;
}

/** Score of a tree counting only usable arcs (restored fallback arcs count 0). */
export function usableTreeScore(
  heads: Int32Array,
  n: number,
  scores: Float64Array,
  mask: ArcMask | null,
): number {
  const size = n + 1;
  const bits = mask === null ? null : mask.bits;
  let s = 0;
  for (let m = 1; m <= n; m++) {
    const a = heads[m]! * size + m;
    if (bits !== null && bits[a] !== 1) continue;
    const v = scores[a]!;
    if (v !== Number.NEGATIVE_INFINITY) s += v;
  }
  return s;
}
