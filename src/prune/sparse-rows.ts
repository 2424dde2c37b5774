/**
 * Sparse feature vectors of many training examples in compressed-row form: row r's entries are
 * index[rowPtr[r] … rowPtr[r + 1]) with values value[…], indices strictly increasing within a row.
 */
export interface SparseRows {
  /** Number of rows. */
  readonly rows: number;
  /** rows + 1 offsets into `index` / `value`. */
  readonly rowPtr: Int32Array;
  /** Feature indices. */
  readonly index: Int32Array;
  /** Feature values. */
  readonly value: Float32Array;
}

/**
 * Builds `SparseRows` row by row from hashed feature lists that may repeat an index (repeats are
 * merged by adding their values: a feature seen twice counts twice, as it does when scoring).
 */
export class SparseRowsBuilder {
  private rowPtr = new Int32Array(1024);
  private index = new Int32Array(1 << 16);
  private value = new Float32Array(1 << 16);
  private rows = 0;
  private nnz = 0;

  /** Number of rows added. */
  get size(): number {
    return this.rows;
  }

  /** Appends a row from idx[0..k) with values val[0..k) (all 1 when `val` is null); sorts idx/val in place. */
  add(idx: Int32Array, val: Float32Array | null, k: number): number {
    if (val === null) idx.subarray(0, k).sort();
    else sortPairs(idx, val, k);
    if (this.nnz + k > this.index.length) {
      const cap = Math.max(this.nnz + k, this.index.length * 2);
      const i2 = new Int32Array(cap);
      i2.set(this.index.subarray(0, this.nnz));
      this.index = i2;
      const v2 = new Float32Array(cap);
      v2.set(this.value.subarray(0, this.nnz));
      this.value = v2;
    }
    if (this.rows + 2 > this.rowPtr.length) {
      const r2 = new Int32Array(this.rowPtr.length * 2);
      r2.set(this.rowPtr);
      this.rowPtr = r2;
    }
    let nnz = this.nnz;
    const index = this.index;
    const value = this.value;
    const start = nnz;
    for (let j = 0; j < k; j++) {
      const f = idx[j]!;
      const v = val === null ? 1 : val[j]!;
      if (nnz > start && index[nnz - 1] === f) value[nnz - 1]! += v;
      else {
        index[nnz] = f;
        value[nnz++] = v;
      }
    }
    this.nnz = nnz;
    this.rowPtr[++this.rows] = nnz;
    return this.rows - 1;
  }

  /** The rows built so far (trimmed copies). */
  build(): SparseRows {
    return {
      rows: this.rows,
      rowPtr: this.rowPtr.slice(0, this.rows + 1),
      index: this.index.slice(0, this.nnz),
      value: this.value.slice(0, this.nnz),
    };
  }
}

/** Insertion sort of idx[0..k) carrying val along (k is small: one example's features). */
function sortPairs(idx: Int32Array, val: Float32Array, k: number): void {
  for (let a = 1; a < k; a++) {
    const f = idx[a]!;
    const v = val[a]!;
    let b = a - 1;
    while (b >= 0 && idx[b]! > f) {
      idx[b + 1] = idx[b]!;
      val[b + 1] = val[b]!;
      b--;
    }
    idx[b + 1] = f;
    val[b + 1] = v;
  }
}
