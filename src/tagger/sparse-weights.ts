/**
 * Read-only weights of a trained tagger in compressed-sparse-row form: a feature's row lists only
 * its non-zero (class, weight) pairs. Averaged-perceptron rows are very sparse (about 3 non-zeros
 * out of ~100 classes on en_ewt), so scoring touches a few entries per feature instead of a row of
 * `numClasses`.
 *
 * Feature hashes find their rows through one open-addressing table (linear probing, power-of-two
 * capacity, filled at most three quarters) whose slots hold the key and the row's entry bounds side
 * by side: a look-up reads one cache line, usually, and no separate row-start array. The table is
 * about 12 bytes per 0.4–0.75 rows (3 MiB for the bundled model's 194,000 rows), where a map from
 * keys to row numbers kept at most half full, plus the row starts, took 4.7 MiB.
 */
export class SparseWeights {
  /** Number of classes. */
  readonly numClasses: number;
  /** Class id of each entry (a row's entries are contiguous). */
  readonly cls: Uint16Array;
  /** Weight of each entry. */
  readonly value: Float32Array;
  /** Number of rows (features with at least one entry). */
  readonly rows: number;
  /** Three ints per slot: feature key (0 = empty), first entry, end of the row's entries. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Entry bounds of the rows of the features `addScores` was last given (a reused buffer). */
  private bounds = new Int32Array(256);

  /**
   * Weights from rows in entry order: row r has feature key `keys[r]` (non-zero, distinct) and the
   * entries [rowStart[r], rowStart[r + 1]) of `cls` and `value`. Rows without entries are dropped.
   */
  constructor(
    numClasses: number,
    keys: Int32Array,
    rowStart: Int32Array,
    cls: Uint16Array,
    value: Float32Array,
  ) {
    if (numClasses > 0xffff) throw new RangeError("too many tag classes (at most 65535)");
    if (rowStart.length !== keys.length + 1 || rowStart[0] !== 0 || rowStart[keys.length] !== cls.length)
      throw new RangeError("inconsistent sparse weight arrays");
    if (cls.length !== value.length) throw new RangeError("inconsistent sparse weight arrays");
    this.numClasses = numClasses;
    this.cls = cls;
    this.value = value;
    let rows = 0;
    for (let r = 0; r < keys.length; r++) {
      if (rowStart[r + 1]! < rowStart[r]!) throw new RangeError("sparse weight rows out of order");
      if (rowStart[r + 1]! > rowStart[r]!) rows++;
    }
    this.rows = rows;
    let cap = 16;
    while (cap * 3 < rows * 4) cap *= 2;
    const slots = new Int32Array(cap * 3);
    const mask = cap - 1;
    for (let r = 0; r < keys.length; r++) {
      const a = rowStart[r]!;
      const b = rowStart[r + 1]!;
      if (b === a) continue;
      const k = keys[r]!;
      if (k === 0) throw new RangeError("feature key 0 is reserved");
      let i = k & mask;
      for (;;) {
        const x = slots[3 * i]!;
        if (x === 0) break;
        if (x === k) throw new RangeError("duplicate feature key");
        i = (i + 1) & mask;
      }
      slots[3 * i] = k;
      slots[3 * i + 1] = a;
      slots[3 * i + 2] = b;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** Compresses dense row-major weights (`keys[r]` = feature hash of row r), dropping all-zero rows. */
  static fromDense(keys: Int32Array, dense: Float32Array, numClasses: number): SparseWeights {
    const T = numClasses;
    let nnz = 0;
    for (let j = 0; j < keys.length * T; j++) if (dense[j] !== 0) nnz++;
    const rowStart = new Int32Array(keys.length + 1);
    const cls = new Uint16Array(nnz);
    const value = new Float32Array(nnz);
    let k = 0;
    for (let r = 0; r < keys.length; r++) {
      for (let c = 0; c < T; c++) {
        const v = dense[r * T + c]!;
        if (v !== 0) {
          cls[k] = c;
          value[k++] = v;
        }
      }
      rowStart[r + 1] = k;
    }
    return new SparseWeights(T, keys, rowStart, cls, value);
  }

  /** Rebuilds weights from stored arrays: feature keys, entries per row, class ids and values. */
  static fromArrays(
    numClasses: number,
    keys: Int32Array,
    rowLength: Uint16Array,
    cls: Uint16Array,
    value: Float32Array,
  ): SparseWeights {
    if (rowLength.length !== keys.length) throw new RangeError("inconsistent sparse weight arrays");
    const rowStart = new Int32Array(keys.length + 1);
    for (let r = 0; r < keys.length; r++) rowStart[r + 1] = rowStart[r]! + rowLength[r]!;
    for (let j = 0; j < cls.length; j++)
      if (cls[j]! >= numClasses) throw new RangeError("class id out of range");
    return new SparseWeights(numClasses, keys, rowStart, cls, value);
  }

  /** The arrays `fromArrays` takes (rows in entry order, with their lengths instead of row starts). */
  toArrays(): { keys: Int32Array; rowLength: Uint16Array; cls: Uint16Array; value: Float32Array } {
    const slots = this.slots;
    const order = new Int32Array(this.rows);
    let n = 0;
    for (let i = 0; i < slots.length; i += 3) if (slots[i] !== 0) order[n++] = i;
    // Rows do not overlap and none is empty: their first entries order them.
    order.sort((a, b) => slots[a + 1]! - slots[b + 1]!);
    const keys = new Int32Array(n);
    const rowLength = new Uint16Array(n);
    for (let r = 0; r < n; r++) {
      const i = order[r]!;
      keys[r] = slots[i]!;
      rowLength[r] = slots[i + 2]! - slots[i + 1]!;
    }
    return { keys, rowLength, cls: this.cls, value: this.value };
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
    const slots = this.slots;
    const mask = this.mask;
    const cls = this.cls;
    const value = this.value;
    if (this.bounds.length < 2 * (to - from))
      this.bounds = new Int32Array(Math.max(2 * (to - from), 2 * this.bounds.length));
    const bounds = this.bounds;
    let count = 0;
    for (let k = from; k < to; k++) {
      const key = feats[k]!;
      let i = key & mask;
      for (;;) {
        const s = 3 * i;
        const x = slots[s]!;
        if (x === key) {
          bounds[count++] = slots[s + 1]!;
          bounds[count++] = slots[s + 2]!;
          break;
        }
        if (x === 0) break;
        i = (i + 1) & mask;
      }
    }
    for (let q = 0; q < count; q += 2) {
      const end = bounds[q + 1]!;
      for (let j = bounds[q]!; j < end; j++) out[cls[j]!]! += value[j]!;
    }
  }
}
