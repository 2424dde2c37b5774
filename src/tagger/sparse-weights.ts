import { FeatureIndex } from "./feature-index.js";

/**
 * Read-only weights of a trained tagger in compressed-sparse-row form: a feature's row lists only
 * its non-zero (class, weight) pairs. Averaged-perceptron rows are very sparse (about 3 non-zeros
 * out of ~100 classes on en_ewt), so scoring touches a few entries per feature instead of a row of
 * `numClasses`.
 */
export class SparseWeights {
  /** Number of classes. */
  readonly numClasses: number;
  /** Feature hash → row. */
  readonly index: FeatureIndex;
  /** Row r's entries are at [rowStart[r], rowStart[r + 1]). */
  readonly rowStart: Int32Array;
  /** Class id of each entry. */
  readonly cls: Uint16Array;
  /** Weight of each entry. */
  readonly value: Float32Array;
  /** The rows of the features `addScores` was last given (a reused buffer). */
  private rows = new Int32Array(128);

  constructor(
    numClasses: number,
    index: FeatureIndex,
    rowStart: Int32Array,
    cls: Uint16Array,
    value: Float32Array,
  ) {
    if (numClasses > 0xffff) throw new RangeError("too many tag classes (at most 65535)");
    this.numClasses = numClasses;
    this.index = index;
    this.rowStart = rowStart;
    this.cls = cls;
    this.value = value;
  }

  /** Compresses dense row-major weights (`keys[r]` = feature hash of row r), dropping all-zero rows. */
  static fromDense(keys: Int32Array, dense: Float32Array, numClasses: number): SparseWeights {
    const T = numClasses;
    let nnz = 0;
    let rows = 0;
    for (let r = 0; r < keys.length; r++) {
      let c = 0;
      for (let j = r * T; j < (r + 1) * T; j++) if (dense[j] !== 0) c++;
      nnz += c;
      if (c > 0) rows++;
    }
    const keptKeys = new Int32Array(rows);
    const rowStart = new Int32Array(rows + 1);
    const cls = new Uint16Array(nnz);
    const value = new Float32Array(nnz);
    let row = 0;
    let k = 0;
    for (let r = 0; r < keys.length; r++) {
      const start = k;
      for (let c = 0; c < T; c++) {
        const v = dense[r * T + c]!;
        if (v !== 0) {
          cls[k] = c;
          value[k++] = v;
        }
      }
      if (k > start) {
        keptKeys[row] = keys[r]!;
        rowStart[++row] = k;
      }
    }
    return new SparseWeights(T, FeatureIndex.fromKeys(keptKeys), rowStart, cls, value);
  }

  /** Rebuilds weights from stored arrays: feature keys, entries per row, class ids and values. */
  static fromArrays(
    numClasses: number,
    keys: Int32Array,
    rowLength: Uint16Array,
    cls: Uint16Array,
    value: Float32Array,
  ): SparseWeights {
    const rowStart = new Int32Array(keys.length + 1);
    for (let r = 0; r < keys.length; r++) rowStart[r + 1] = rowStart[r]! + rowLength[r]!;
    if (rowStart[keys.length] !== cls.length || cls.length !== value.length) {
      throw new RangeError("inconsistent sparse weight arrays");
    }
    for (let j = 0; j < cls.length; j++)
      if (cls[j]! >= numClasses) throw new RangeError("class id out of range");
    return new SparseWeights(numClasses, FeatureIndex.fromKeys(keys), rowStart, cls, value);
  }

  /** The arrays `fromArrays` takes (entries per row instead of row starts). */
  toArrays(): { keys: Int32Array; rowLength: Uint16Array; cls: Uint16Array; value: Float32Array } {
    const rows = this.rowStart.length - 1;
    const rowLength = new Uint16Array(rows);
    for (let r = 0; r < rows; r++) rowLength[r] = this.rowStart[r + 1]! - this.rowStart[r]!;
    return { keys: this.index.keysByRow(), rowLength, cls: this.cls, value: this.value };
  }

  /** Writes the score of every class for the features feats[from..to) into `out`. */
  score(feats: Int32Array, from: number, to: number, out: Float32Array): void {
    out.fill(0, 0, this.numClasses);
    this.addScores(feats, from, to, out);
  }

  /**
   * Adds the scores of the features feats[from..to) to `out` (no reset). The rows are looked up
   * first and added afterwards: each look-up is a likely cache miss in a table of megabytes, and
   * look-ups that do not wait for the additions between them overlap (docs/performance.md, "The
   * tagger's look-ups batched"). The sums are made in the same order, so they are the same.
   */
  addScores(feats: Int32Array, from: number, to: number, out: Float32Array): void {
    const index = this.index;
    const rowStart = this.rowStart;
    const cls = this.cls;
    const value = this.value;
    if (this.rows.length < to - from) this.rows = new Int32Array(Math.max(to - from, 2 * this.rows.length));
    const rows = this.rows;
    let count = 0;
    for (let k = from; k < to; k++) {
      const r = index.get(feats[k]!);
      if (r >= 0) rows[count++] = r;
    }
    for (let q = 0; q < count; q++) {
      const r = rows[q]!;
      const end = rowStart[r + 1]!;
      for (let j = rowStart[r]!; j < end; j++) out[cls[j]!]! += value[j]!;
    }
  }
}
