import type { PackedWeights } from "../model/model-file.js";

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

  /**
   * Builds the rows from packed weights of a row-major `rows` × `numLabels` table (non-zero entries
   * in increasing index order, as `packWeights` writes them).
   */
  constructor(packed: PackedWeights, rows: number, numLabels: number) {
    const nnz = packed.delta.length;
    this.start = new Int32Array(rows + 1);
    this.label = new Uint16Array(nnz);
    this.value = new Float32Array(nnz);
    const scale = packed.scale;
    let index = 0;
    let row = 0;
    for (let k = 0; k < nnz; k++) {
      index += packed.delta[k]!;
      const r = (index / numLabels) | 0;
      if (r >= rows) throw new RangeError("label weights exceed the table size");
      while (row < r) this.start[++row] = k;
      this.label[k] = index - r * numLabels;
      this.value[k] = packed.value[k]! * scale;
    }
    while (row < rows) this.start[++row] = nnz;
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
