import type { PackedWeights } from "../model/model-file.js";
import { hasLabelKernel, LabelKernel } from "./label-kernel.js";

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
    /**
     * Each entry as one 32-bit word, label << 16 | (16-bit weight & 0xffff): an entry's label and
     * weight share a cache line, so a row costs one miss for its bounds and one for its entries.
     */
    readonly entry: Int32Array,
    /** Quantization step of the weights. */
    readonly scale: number,
    numLabels: number,
  ) {
    const nnz = entry.length;
    if (start.length < 1 || start[0] !== 0 || start[start.length - 1] !== nnz)
      throw new RangeError("inconsistent label weight arrays");
    for (let r = 1; r < start.length; r++)
      if (start[r]! < start[r - 1]!) throw new RangeError("label weight rows out of order");
    for (let k = 0; k < nnz; k++)
      if (entry[k]! >>> 16 >= numLabels) throw new RangeError("label id out of range");
    this.numLabels = numLabels;
  }

  /** Rows from a label column and a weight column (parser model layout 3). */
  static fromColumns(
    start: Int32Array,
    label: Uint16Array,
    value: Int16Array,
    scale: number,
    numLabels: number,
  ): LabelRows {
    if (label.length !== value.length) throw new RangeError("inconsistent label weight arrays");
    const entry = new Int32Array(value.length);
    for (let k = 0; k < entry.length; k++) entry[k] = (label[k]! << 16) | (value[k]! & 0xffff);
    return new LabelRows(start, entry, scale, numLabels);
  }

  /** Label of each entry (a copy). */
  get label(): Uint16Array {
    return Uint16Array.from(this.entry, (e) => e >>> 16);
  }

  /** Weight of each entry, in units of `scale` (a copy). */
  get value(): Int16Array {
    return Int16Array.from(this.entry, (e) => (e << 16) >> 16);
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
    return LabelRows.fromColumns(start, label, value, packed.scale, numLabels);
  }

  /** The packed form of these weights (a row-major table of rows × `numLabels`, as `fromPacked` takes). */
  pack(numLabels: number): PackedWeights {
    const label = this.label;
    const nnz = label.length;
    const delta = new Uint32Array(nnz);
    let last = 0;
    let r = 0;
    for (let k = 0; k < nnz; k++) {
      while (this.start[r + 1]! <= k) r++;
      const index = r * numLabels + label[k]!;
      delta[k] = index - last;
      last = index;
    }
    return { delta, value: this.value, scale: this.scale };
  }

  /**
   * Adds the weights of the listed feature rows into `scores` (indexed by label), in units of
   * `scale`: integer sums are exact (22 rows of 16-bit weights cannot overflow), so which label
   * scores highest does not depend on the order of the additions. The rows' bounds are read first,
   * all of them, and only then their entries: the bound reads do not depend on one another, so their
   * cache misses overlap instead of each waiting for the previous row's entries.
   */
  accumulate(rows: Int32Array, count: number, scores: Int32Array): void {
    const start = this.start;
    const entry = this.entry;
    const bounds = this.bounds.length >= 2 * count ? this.bounds : (this.bounds = new Int32Array(4 * count));
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      bounds[2 * i] = start[r]!;
      bounds[2 * i + 1] = start[r + 1]!;
    }
    addEntries(entry, bounds, count, scores);
  }

  /**
   * The sums of the listed rows' weights per label, as `accumulate` adds them into zeros (the
   * returned array is reused by the next call; it may be longer than the number of labels). Rows
   * with at least DENSE_ROW_ENTRIES entries are added by the WebAssembly kernel from dense copies,
   * found through a bitmap of such rows (no read of their bounds or scattered entries); the others
   * entry by entry. Integer sums: the same values as `accumulate`.
   */
  score(rows: Int32Array, count: number): Int32Array {
    if (this.kernel === undefined) this.kernel = this.makeKernel();
    const k = this.kernel;
    if (k === null || count > k.maxRows) {
      const own = this.own.length >= this.numLabels ? this.own : (this.own = new Int32Array(this.numLabels));
      own.fill(0);
      this.accumulate(rows, count, own);
      return own;
    }
    const start = this.start;
    const entry = this.entry;
    const hb = this.heavyBits;
    const rank = this.heavyRank;
    const list = k.list;
    const at = k.rowAt;
    const rb = k.rowBytes;
    const bounds = this.bounds.length >= 2 * count ? this.bounds : (this.bounds = new Int32Array(4 * count));
    let heavy = 0;
    let light = 0;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      const w = r >>> 5;
      const word = hb[w]!;
      const bit = r & 31;
      if ((word >>> bit) & 1) list[heavy++] = at + (rank[w]! + popcount(word & ((1 << bit) - 1))) * rb;
      else {
        bounds[2 * light] = start[r]!;
        bounds[2 * light + 1] = start[r + 1]!;
        light++;
      }
    }
    k.sum(heavy);
    addEntries(entry, bounds, light, k.acc);
    return k.acc;
  }

  /**
   * The bitmap of the rows with at least DENSE_ROW_ENTRIES entries, their dense copies and the kernel
   * that adds them; null (every row entry by entry) without WebAssembly SIMD or with more than
   * MAX_DENSE_LABELS labels.
   */
  private makeKernel(): LabelKernel | null {
    const L = this.numLabels;
    if (L > MAX_DENSE_LABELS || !hasLabelKernel()) return null;
    const start = this.start;
    const entry = this.entry;
    const rows = start.length - 1;
    const bits = new Int32Array((rows + 31) >>> 5);
    const rank = new Int32Array(bits.length);
    let heavy = 0;
    for (let r = 0; r < rows; r++)
      if (start[r + 1]! - start[r]! >= DENSE_ROW_ENTRIES) {
        bits[r >>> 5]! |= 1 << (r & 31);
        heavy++;
      }
    const groups = (L + 7) >>> 3;
    const width = groups * 8;
    const dense = new Int16Array(heavy * width);
    let d = 0;
    for (let w = 0; w < bits.length; w++) {
      rank[w] = d;
      for (let b = bits[w]!; b !== 0; b &= b - 1) {
        const r = (w << 5) | (31 - Math.clz32(b & -b));
        const o = d++ * width;
        for (let j = start[r]!; j < start[r + 1]!; j++) {
          const e = entry[j]!;
          dense[o + (e >>> 16)] = (e << 16) >> 16;
        }
      }
    }
    this.heavyBits = bits;
    this.heavyRank = rank;
    return new LabelKernel(dense, groups, KERNEL_ROWS);
  }

  /** Scratch row bounds of `accumulate`. */
  private bounds = new Int32Array(64);
  /** Number of labels. */
  private readonly numLabels: number;
  /** The sums of `score` without the kernel. */
  private own = new Int32Array(0);
  /** The kernel and its dense rows (undefined: not made yet; null: not used). */
  private kernel: LabelKernel | null | undefined = undefined;
  /** Bit r: row r has a dense copy. */
  private heavyBits = new Int32Array(0);
  /** Dense rows before each 32-row word of `heavyBits` (plus the word's lower set bits: a row's copy). */
  private heavyRank = new Int32Array(0);
}

/**
 * Rows with at least this many entries also get a dense copy that the kernel adds. On en_ewt they
 * are 4,292 of the 110,454 non-empty rows (0.5 MiB dense) but hold 86% of the entries a parse reads.
 */
export const DENSE_ROW_ENTRIES = 12;
/** Label sets larger than this are scored entry by entry only (dense rows would be too wide). */
export const MAX_DENSE_LABELS = 256;
/** Most rows one `score` call sends to the kernel (longer lists are scored entry by entry). */
const KERNEL_ROWS = 64;

/**
 * Adds to `scores` the entries of `rows` rows whose bounds are listed in `bounds` (start, end, …):
 * each entry's weight to its label.
 */
function addEntries(entry: Int32Array, bounds: Int32Array, rows: number, scores: Int32Array): void {
  for (let i = 0; i < rows; i++) {
    const end = bounds[2 * i + 1]!;
    for (let j = bounds[2 * i]!; j < end; j++) {
      const e = entry[j]!;
      scores[e >>> 16] += (e << 16) >> 16;
    }
  }
}

/** Number of set bits of a 32-bit integer. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
