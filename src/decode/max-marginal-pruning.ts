import { ArcMask } from "../mask/arc-mask.js";
import type { VineMaxMarginals } from "./vine-parser.js";
import { VINE_LEFT, VINE_RIGHT } from "./vine-structure.js";

const NEG = Number.NEGATIVE_INFINITY;

/**
 * The pruning threshold of Rush & Petrov (2012): t_α = α · best + (1 − α) · mean, where best is the
 * best structure score (the largest max-marginal) and mean the mean max-marginal over the parts the
 * pass decides on. Clamped to at most `best`, so that every part of the best structure (max-marginal =
 * best) always survives, even when rounding lifts the mean above the max.
 */
export function alphaThreshold(best: number, mean: number, alpha: number): number {
  const t = alpha * best + (1 - alpha) * mean;
  return t < best ? t : best;
}

/**
 * t_α of a vine pass. The mean runs over every part of the vine representation with a finite
 * max-marginal (short arcs, root arcs and outer arcs alike, `mm.mean`): those are exactly the
 * decisions the pass takes, each kept iff its max-marginal reaches t_α; parts that are unusable or in
 * no structure (max-marginal -Infinity) are pruned already and would drag the mean to -Infinity.
 */
export function vineThreshold(mm: VineMaxMarginals, alpha: number): number {
  return alphaThreshold(mm.best, mm.mean, alpha);
}

/** Mean of the finite values among values[0..length) (NaN when there are none). */
export function meanMaxMarginal(values: ArrayLike<number>, length: number = values.length): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < length; i++) {
    const v = values[i]!;
    if (v > NEG) {
      sum += v;
      count++;
    }
  }
  return count > 0 ? sum / count : Number.NaN;
}

/**
 * The arc mask a vine pass hands to the next pass: short arc h→m and root arc 0→m kept iff their
 * max-marginal is ≥ threshold; a long arc h→m (|h − m| > b, h ≥ 1) kept iff the input mask allows it,
 * the outer arc of m on h's side has max-marginal ≥ threshold and, with head-side outer arcs, so has
 * the head-side outer arc of h on m's side. The parts of the best vine structure are always kept
 * (their max-marginal equals the best score ≥ t_α; this guards against rounding), with head-side outer
 * arcs the long arc h→m of each of its outer arcs and partner h. Never keeps an
 * arc the input mask prunes. When no vine structure exists (best = -Infinity) nothing is pruned: the
 * result equals the input mask (all arcs when it is null). Writes into `out` (same n) when given;
 * O(n²) for the dense mask, O(n·b) besides.
 */
export function vinePruneMask(
  mm: VineMaxMarginals,
  threshold: number,
  input: ArcMask | null,
  out?: ArcMask,
): ArcMask {
  const n = mm.n;
  const b = mm.band;
  const W = 2 * b;
  const size = n + 1;
  const mask = prepare(n, input, out);
  if (!(mm.best > NEG)) {
    if (input === null) mask.bits.set(ArcMask.full(n).bits);
    else mask.bits.set(input.bits.subarray(0, size * size));
    return mask;
  }
  const bits = mask.bits;
  const inBits = input === null ? null : input.bits;
  const heads = mm.heads;
  const ho = mm.headSide ? mm.headOuter : null;
  for (let m = 1; m <= n; m++) {
    const row = m * W;
    for (let slot = 0; slot < W; slot++) {
      const v = mm.short[row + slot]!;
      if (v > NEG && v >= threshold) {
        const h = slot < b ? m - b + slot : m + slot - b + 1;
        bits[h * size + m] = 1;
      }
    }
    if (keeps(mm.root[m]!, threshold)) bits[m] = 1;
    const best = heads[m]!;
    if (best >= 0) bits[best * size + m] = 1;
    for (let side = 0; side < 2; side++) {
      const inBest = best === (side === 0 ? VINE_LEFT : VINE_RIGHT);
      if (!inBest && !keeps(mm.outer[2 * m + side]!, threshold)) continue;
      const lo = side === 0 ? 1 : m + b + 1;
      const hi = side === 0 ? m - b - 1 : n;
      // The head-side outer arc of h pointing at m: h's right one when h is left of m.
      const hSide = 1 - side;
      for (let h = lo; h <= hi; h++) {
        const a = h * size + m;
        if (inBits !== null && inBits[a] === 0) continue;
        if (ho === null || keeps(ho[2 * h + hSide]!, threshold)) bits[a] = 1;
      }
      // The best structure's long arc: its outer arc with its head-side partner.
      if (inBest && ho !== null) bits[mm.outerHead[2 * m + side]! * size + m] = 1;
    }
  }
  return mask;
}

/**
 * The arc mask a first-order pass hands to the next: arc h→m kept iff marginals[h · (n + 1) + m] ≥
 * threshold (arcs pruned by the input mask have -Infinity max-marginals and are never kept), plus the
 * arcs of `keep` (the best tree; heads[m], entries < 0 ignored) to guard against rounding. Writes into
 * `out` (same n) when given.
 */
export function firstOrderPruneMask(
  n: number,
  marginals: Float64Array,
  threshold: number,
  keep: ArrayLike<number> | null,
  out?: ArcMask,
): ArcMask {
  const size = n + 1;
  const mask = prepare(n, null, out);
  const bits = mask.bits;
  for (let h = 0; h <= n; h++) {
    const row = h * size;
    for (let m = 1; m <= n; m++) if (m !== h && keeps(marginals[row + m]!, threshold)) bits[row + m] = 1;
  }
  if (keep !== null)
    for (let m = 1; m <= n; m++) {
      const h = keep[m]!;
      if (h >= 0 && h <= n && h !== m) bits[h * size + m] = 1;
    }
  return mask;
}

/** Whether a part with max-marginal v survives threshold t (never when v is -Infinity). */
function keeps(v: number, t: number): boolean {
  return v > NEG && v >= t;
}

/** An empty mask of n tokens: `out` cleared when given (its n must match), else a new one. */
function prepare(n: number, input: ArcMask | null, out: ArcMask | undefined): ArcMask {
  if (input !== null && input.n !== n)
    throw new Error(`prune mask: input mask has ${input.n} tokens, sentence ${n}`);
  if (out === undefined) return ArcMask.empty(n);
  if (out.n !== n) throw new Error(`prune mask: output mask has ${out.n} tokens, sentence ${n}`);
  out.bits.fill(0);
  return out;
}
