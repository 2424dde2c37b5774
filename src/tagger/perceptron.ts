import { FeatureIndex } from "./feature-index.js";
import { SparseWeights } from "./sparse-weights.js";

/**
 * Multiclass averaged perceptron being trained over hashed features: one dense row of
 * `numClasses` weights per feature, rows allocated on first update. Averaging uses the lazy
 * "w − u/c" form (Daumé 2006), equivalent to per-weight timestamps: `u` accumulates c·Δ at every
 * update, so the average is available at any time without touching every weight at every step.
 */
export class Perceptron {
  /** Number of classes (width of a weight row). */
  readonly numClasses: number;
  /** Feature hash → row id. */
  readonly index = new FeatureIndex();
  /** Current weights, row-major (row * numClasses + class). */
  private weights: Float32Array;
  /** c-weighted update sums for averaging. */
  private sums: Float32Array;
  /** Update clock: number of training instances seen so far, plus one. */
  private clock = 1;

  constructor(numClasses: number) {
    this.numClasses = numClasses;
    this.weights = new Float32Array(1024 * numClasses);
    this.sums = new Float32Array(this.weights.length);
  }

  /** Writes the score of every class for the features feats[from..to) into `out` (length ≥ numClasses). */
  score(feats: Int32Array, from: number, to: number, out: Float32Array): void {
    out.fill(0, 0, this.numClasses);
    this.addScores(feats, from, to, out);
  }

  /** Adds the scores of the features feats[from..to) to `out` (no reset). */
  addScores(feats: Int32Array, from: number, to: number, out: Float32Array): void {
    const T = this.numClasses;
    const w = this.weights;
    const index = this.index;
    for (let k = from; k < to; k++) {
      const r = index.get(feats[k]!);
      if (r < 0) continue;
      const base = r * T;
      for (let c = 0; c < T; c++) out[c]! += w[base + c]!;
    }
  }

  /** Adds `delta` to the weight of class `cls` for every feature in feats[from..to). */
  add(feats: Int32Array, from: number, to: number, cls: number, delta: number): void {
    const T = this.numClasses;
    const c = this.clock;
    for (let k = from; k < to; k++) {
      const r = this.index.getOrAdd(feats[k]!);
      if ((r + 1) * T > this.weights.length) this.growRows();
      this.weights[r * T + cls]! += delta;
      this.sums[r * T + cls]! += c * delta;
    }
  }

  /** Perceptron update: +1 to `gold`, −1 to `pred` for every feature in feats[from..to) (no-op if equal). */
  update(feats: Int32Array, from: number, to: number, gold: number, pred: number): void {
    if (gold === pred) return;
    const T = this.numClasses;
    const c = this.clock;
    for (let k = from; k < to; k++) {
      const r = this.index.getOrAdd(feats[k]!);
      if ((r + 1) * T > this.weights.length) this.growRows();
      const base = r * T;
      const w = this.weights;
      const s = this.sums;
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

  /** The averaged weights w − u/c, dense and row-major (a fresh array; training can continue). */
  averaged(): Float32Array {
    const n = this.index.size * this.numClasses;
    const out = new Float32Array(n);
    const c = this.clock;
    for (let j = 0; j < n; j++) out[j] = this.weights[j]! - this.sums[j]! / c;
    return out;
  }

  /** The averaged weights as read-only sparse rows for tagging. */
  freeze(): SparseWeights {
    return SparseWeights.fromDense(this.index.keysByRow(), this.averaged(), this.numClasses);
  }

  private growRows(): void {
    const grown = new Float32Array(this.weights.length * 2);
    grown.set(this.weights);
    this.weights = grown;
    const s = new Float32Array(grown.length);
    s.set(this.sums);
    this.sums = s;
  }
}
