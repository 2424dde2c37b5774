import type { PackedWeights } from "../model/model-file.js";

/**
 * Read-only label weights in compressed-sparse-row form: feature row r lists only its non-zero
 * (label, weight) pairs. Trained label rows are very sparse (a few labels out of ~50), so scoring
 * touches a few entries per feature instead of a full row of a large dense table. Weights are kept
 * as their 16-bit integers; an entry scores `Math.fround(value * scale)`, the float32 weight.
 */
export class LabelRows {
  /**
   * Builds rows from their arrays (as `fromPacked` makes them and model files store them), checking
   * that they fit together: `start` has rows + 1 non-decreasing entries from 0 to the entry count,
   * labels are below `numLabels`.
   */
  constructor(
    /** Row r's entries are at [start[r], start[r + 1]). */
    readonly start: Int32Array,
    /** Label of each entry. */
    readonly label: Uint16Array,
    /** Weight of each entry, in units of `scale`. */
    readonly value: Int16Array,
    /** Quantization step of the weights. */
    readonly scale: number,
    numLabels: number,
  ) {
    const nnz = value.length;
    if (label.length !== nnz || start.length < 1 || start[0] !== 0 || start[start.length - 1] !== nnz)
      throw new RangeError("inconsistent label weight arrays");
    for (let r = 1; r < start.length; r++)
      if (start[r]! < start[r - 1]!) throw new RangeError("label weight rows out of order");
    for (let k = 0; k < nnz; k++) if (label[k]! >= numLabels) throw new RangeError("label id out of range");
  }

  /**
   * Builds the rows from packed weights of a row-major `rows` × `numLabels` table (non-zero entries
   * in increasing index order, as `packWeights` writes them).
   */
  static fromPacked(packed: PackedWeights, rows: number, numLabels: number): LabelRows {
    const nnz = packed.delta.length;
    const start = new Int32Array(rows + 1);
    const label = new Uint16Array(nnz);
    const value = new Int16Array(nnz);
    let index = 0;
    let row = 0;
    for (let k = 0; k < nnz; k++) {
      index += packed.delta[k]!;
      const r = (index / numLabels) | 0;
      if (r >= rows) throw new RangeError("label weights exceed the table size");
      while (row < r) start[++row] = k;
      label[k] = index - r * numLabels;
      value[k] = packed.value[k]!;
    }
    while (row < rows) start[++row] = nnz;
    return new LabelRows(start, label, value, packed.scale, numLabels);
  }

  /** The packed form of these weights (a row-major table of rows × `numLabels`, as `fromPacked` takes). */
  pack(numLabels: number): PackedWeights {
    const nnz = this.value.length;
    const delta = new Uint32Array(nnz);
    let last = 0;
    let r = 0;
    for (let k = 0; k < nnz; k++) {
      while (this.start[r + 1]! <= k) r++;
      const index = r * numLabels + this.label[k]!;
      delta[k] = index - last;
      last = index;
    }
    return { delta, value: this.value.slice(), scale: this.scale };
  }

  /** Adds the weights of the listed feature rows into `scores` (indexed by label). */
  accumulate(rows: Int32Array, count: number, scores: Float64Array): void {
    const start = this.start;
    const label = this.label;
    const value = this.value;
    const scale = this.scale;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      const end = start[r + 1]!;
      for (let j = start[r]!; j < end; j++) scores[label[j]!] += Math.fround(value[j]! * scale);
    }
  }
}
