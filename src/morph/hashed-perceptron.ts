import { finishBits } from "../util/hash.js";

/**
 * Where a feature's row of class weights starts in a table of 2^bits weights: the weight of
 * (feature, class c) is at (row + c) & mask. One hash per feature instead of one per (feature,
 * class) pair, and a feature's classes lie side by side, so scoring m candidates reads a few cache
 * lines per feature. Rows of different features overlap where their hashes fall close, which is
 * the same kind of collision as in plain feature hashing.
 */
export function rowOf(feature: number, mask: number): number {
  return finishBits(feature) & mask;
}

/**
 * The averaged weights of a perceptron kept in the lazy form: w − u / clock, where u sums each update
 * times the clock at which it was made (a fresh array).
 */
export function averagedWeights(w: Float32Array, u: Float32Array, clock: number): Float32Array {
  const out = new Float32Array(w.length);
  for (let j = 0; j < out.length; j++) out[j] = w[j]! - u[j]! / clock;
  return out;
}

/**
 * Averaged perceptron over hashed rows of class weights (see `rowOf`) that scores only a candidate
 * list of classes per instance (the lemma rules applicable to a form; the feature bundles seen with
 * a UPOS, numbered 0..m-1 within it). Averaging uses the lazy "w − u/c" form, as the tagger's
 * `Perceptron`. Instances are given as their features' rows.
 */
export class HashedPerceptron {
  readonly mask: number;
  readonly w: Float32Array;
  private readonly u: Float32Array;
  private clock = 1;

  constructor(readonly bits: number) {
    this.mask = (1 << bits) - 1;
    this.w = new Float32Array(1 << bits);
    this.u = new Float32Array(1 << bits);
  }

  /** Best of candidates[0..m) for the rows rows[0..n) (the first on ties). */
  best(rows: Int32Array, n: number, candidates: Int32Array, m: number): number {
    const w = this.w;
    const mask = this.mask;
    let best = candidates[0]!;
    let bestScore = -Infinity;
    for (let j = 0; j < m; j++) {
      const c = candidates[j]!;
      let s = 0;
      for (let k = 0; k < n; k++) s += w[(rows[k]! + c) & mask]!;
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    return best;
  }

  /** +1 to gold, −1 to pred in every row (no-op if equal); then advances the clock. */
  update(rows: Int32Array, n: number, gold: number, pred: number): void {
    if (gold !== pred) {
      const c = this.clock;
      const mask = this.mask;
      for (let k = 0; k < n; k++) {
        const g = (rows[k]! + gold) & mask;
        this.w[g]! += 1;
        this.u[g]! += c;
        const p = (rows[k]! + pred) & mask;
        this.w[p]! -= 1;
        this.u[p]! -= c;
      }
    }
    this.clock++;
  }

  /** The averaged weights (a fresh array). */
  averaged(): Float32Array {
    return averagedWeights(this.w, this.u, this.clock);
  }
}

/**
 * Best of candidates[0..m) under fixed 16-bit weights in rows (see `rowOf`; the first on ties). The
 * same loop as `HashedPerceptron.best`, kept apart on purpose: training runs both in one process (the
 * float weights, and the 16-bit ones on dev each epoch), and one loop over both array types would
 * make its weight reads polymorphic.
 */
export function bestInt16(
  w: Int16Array,
  mask: number,
  rows: Int32Array,
  n: number,
  candidates: Int32Array,
  m: number,
): number {
  let best = candidates[0]!;
  let bestScore = -Infinity;
  for (let j = 0; j < m; j++) {
    const c = candidates[j]!;
    let s = 0;
    for (let k = 0; k < n; k++) s += w[(rows[k]! + c) & mask]!;
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}
