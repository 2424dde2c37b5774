/**
 * Read-only label weights in compressed-sparse-row form: feature row r lists only its non-zero
 * (label, weight) pairs. Trained label rows are very sparse (a few labels out of ~50), so scoring
 * touches a few entries per feature instead of a full row of a large dense table.
 */
export class LabelRows {
  /** Row r's entries are at [start[r], start[r + 1]). */
  readonly start: Int32Array;
  /** Label of each entry. */
  readonly label: Uint16Array;
  /** Weight of each entry. */
  readonly value: Float32Array;

  /** Compresses a dense row-major table of `rows` × `numLabels` weights. */
  constructor(dense: Float32Array, rows: number, numLabels: number) {
    let nnz = 0;
    for (let i = 0; i < rows * numLabels; i++) if (dense[i] !== 0) nnz++;
    this.start = new Int32Array(rows + 1);
    this.label = new Uint16Array(nnz);
    this.value = new Float32Array(nnz);
    let k = 0;
    for (let r = 0; r < rows; r++) {
      const base = r * numLabels;
      for (let l = 0; l < numLabels; l++) {
        const v = dense[base + l]!;
        if (v !== 0) {
          this.label[k] = l;
          this.value[k++] = v;
        }
      }
      this.start[r + 1] = k;
    }
  }

  /** Adds the weights of the listed feature rows into `scores` (indexed by label). */
  accumulate(rows: Int32Array, count: number, scores: Float64Array): void {
    const start = this.start;
    const label = this.label;
    const value = this.value;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      const end = start[r + 1]!;
      for (let j = start[r]!; j < end; j++) scores[label[j]!] += value[j]!;
    }
  }
}
