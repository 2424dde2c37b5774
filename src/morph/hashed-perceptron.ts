import { finishBits, mix } from "../util/hash.js";

/** Slot of (feature, class) in a table of 2^bits weights. */
export function slotOf(feature: number, cls: number, mask: number): number {
  return finishBits(mix(feature, cls)) & mask;
}

/**
 * Averaged perceptron over hashed (feature, class) weights that scores only a candidate list of
 * classes per instance (the lemma rules applicable to a form, the feature bundles seen with a
 * UPOS). Averaging uses the lazy "w − u/c" form, as the tagger's `Perceptron`.
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

  /** Score of class `cls` for the features feats[0..n). */
  score(feats: Int32Array, n: number, cls: number): number {
    let s = 0;
    for (let k = 0; k < n; k++) s += this.w[slotOf(feats[k]!, cls, this.mask)]!;
    return s;
  }

  /** Best of candidates[0..m) (the first on ties). */
  best(feats: Int32Array, n: number, candidates: Int32Array, m: number): number {
    let best = candidates[0]!;
    let bestScore = -Infinity;
    for (let j = 0; j < m; j++) {
      const s = this.score(feats, n, candidates[j]!);
      if (s > bestScore) {
        bestScore = s;
        best = candidates[j]!;
      }
    }
    return best;
  }

  /** +1 to gold, −1 to pred for every feature (no-op if equal); then advances the clock. */
  update(feats: Int32Array, n: number, gold: number, pred: number): void {
    if (gold !== pred) {
      const c = this.clock;
      for (let k = 0; k < n; k++) {
        const g = slotOf(feats[k]!, gold, this.mask);
        this.w[g]! += 1;
        this.u[g]! += c;
        const p = slotOf(feats[k]!, pred, this.mask);
        this.w[p]! -= 1;
        this.u[p]! -= c;
      }
    }
    this.clock++;
  }

  /** The averaged weights (a fresh array). */
  averaged(): Float32Array {
    const out = new Float32Array(this.w.length);
    const c = this.clock;
    for (let j = 0; j < out.length; j++) out[j] = this.w[j]! - this.u[j]! / c;
    return out;
  }
}

/** Best of candidates[0..m) under fixed 16-bit weights (the first on ties). */
export function bestInt16(
  w: Int16Array,
  mask: number,
  feats: Int32Array,
  n: number,
  candidates: Int32Array,
  m: number,
): number {
  let best = candidates[0]!;
  let bestScore = -Infinity;
  for (let j = 0; j < m; j++) {
    const cls = candidates[j]!;
    let s = 0;
    for (let k = 0; k < n; k++) s += w[slotOf(feats[k]!, cls, mask)]!;
    if (s > bestScore) {
      bestScore = s;
      best = cls;
    }
  }
  return best;
}
