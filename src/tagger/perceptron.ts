import { FeatureIndex } from "./feature-index.js";

/**
 * Multiclass averaged perceptron over hashed features: one row of `numClasses` weights per feature,
 * rows allocated on first update. Averaging uses the lazy "w − u/c" form (Daumé 2006): `u`
 * accumulates c·Δ at every update, so the average is available in O(1) per weight without touching
 * untouched weights at every step.
 */
export class Perceptron {
  /** Number of classes (width of a weight row). */
  readonly numClasses: number;
  /** Feature hash → row id. */
  readonly index: FeatureIndex;
  /** Current weights, row-major (row * numClasses + class). */
  weights: Float32Array;
  /** c-weighted update sums for averaging (null once finalized). */
  private sums: Float32Array | null;
  /** Update clock: number of training instances seen so far, plus one. */
  private clock = 1;

  constructor(numClasses: number, index = new FeatureIndex(), weights?: Float32Array) {
    this.numClasses = numClasses;
    this.index = index;
    this.weights = weights ?? new Float32Array(Math.max(1, index.size) * numClasses * 2);
    this.sums = weights === undefined ? new Float32Array(this.weights.length) : null;
  }

  /** Writes the score of every class for the features feats[from..to) into `out` (length ≥ numClasses). */
  score(feats: Int32Array, from: number, to: number, out: Float32Array): void {
    const T = this.numClasses;
    const w = this.weights;
    const index = this.index;
    out.fill(0, 0, T);
    for (let k = from; k < to; k++) {
      const r = index.get(feats[k]!);
      const base = r * T;
      // r < 0: unseen feature; base beyond w: row added after this snapshot was taken.
      if (r < 0 || base >= w.length) continue;
      for (let c = 0; c < T; c++) out[c]! += w[base + c]!;
    }
  }

  /** Index of the best class in `scores` (ties → lowest id). */
  argmax(scores: Float32Array): number {
    let best = 0;
    let bs = scores[0]!;
    for (let c = 1; c < this.numClasses; c++) {
      if (scores[c]! > bs) {
        bs = scores[c]!;
        best = c;
      }
    }
    return best;
  }

  /** Perceptron update: +1 to `gold`, −1 to `pred` for every feature in feats[from..to) (no-op if equal). */
  update(feats: Int32Array, from: number, to: number, gold: number, pred: number): void {
    if (gold === pred) return;
    if (this.sums === null) throw new Error("perceptron is finalized");
    const T = this.numClasses;
    const c = this.clock;
    for (let k = from; k < to; k++) {
      const r = this.index.getOrAdd(feats[k]!);
      if ((r + 1) * T > this.weights.length) this.growRows();
      const base = r * T;
      const w = this.weights;
      const s = this.sums!;
      w[base + gold]! += 1;
      s[base + gold]! += c;
      w[base + pred]! -= 1;
      s[base + pred]! -= c;
    }
  }

  /** Advances the averaging clock by one training instance. */
  tick(): void {
    this.clock++;
  }

  /** The averaged weights w − u/c (a fresh array; training can continue). */
  averaged(): Float32Array {
    const rows = this.index.size;
    const T = this.numClasses;
    const out = new Float32Array(rows * T);
    const sums = this.sums;
    if (sums === null) {
      out.set(this.weights.subarray(0, rows * T));
      return out;
    }
    const c = this.clock;
    for (let j = 0; j < rows * T; j++) out[j] = this.weights[j]! - sums[j]! / c;
    return out;
  }

  /** A read-only perceptron using the averaged weights (shares the feature index). */
  snapshot(): Perceptron {
    return new Perceptron(this.numClasses, this.index, this.averaged());
  }

  private growRows(): void {
    const grown = new Float32Array(this.weights.length * 2);
    grown.set(this.weights);
    this.weights = grown;
    const s = new Float32Array(grown.length);
    s.set(this.sums!);
    this.sums = s;
  }
}
