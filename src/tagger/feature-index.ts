/**
 * Open-addressing hash map from 32-bit feature hashes to dense row ids (linear probing, power-of-two
 * capacity). Key 0 marks an empty slot, so callers must never pass 0 (see `featureKey`).
 */
export class FeatureIndex {
  private keys: Int32Array;
  private rows: Int32Array;
  private mask: number;
  /** Number of keys stored; row ids are 0..size-1 in insertion order. */
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Int32Array(cap);
    this.rows = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Row of key `k`, or -1 if absent. */
  get(k: number): number {
    const keys = this.keys;
    const mask = this.mask;
    let i = k & mask;
    for (;;) {
      const x = keys[i]!;
      if (x === k) return this.rows[i]!;
      if (x === 0) return -1;
      i = (i + 1) & mask;
    }
  }

  /** Row of key `k`, inserting it with the next free row id if absent. */
  getOrAdd(k: number): number {
    let i = k & this.mask;
    for (;;) {
      const x = this.keys[i]!;
      if (x === k) return this.rows[i]!;
      if (x === 0) break;
      i = (i + 1) & this.mask;
    }
    const row = this.size++;
    this.keys[i] = k;
    this.rows[i] = row;
    if (this.size * 2 > this.keys.length) this.grow();
    return row;
  }

  /** The keys in row order (keys[row] = feature hash). */
  keysByRow(): Int32Array {
    const out = new Int32Array(this.size);
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] !== 0) out[this.rows[i]!] = this.keys[i]!;
    return out;
  }

  /** Builds an index whose row ids are the positions in `keys`. */
  static fromKeys(keys: Int32Array): FeatureIndex {
    const idx = new FeatureIndex(keys.length);
    for (let r = 0; r < keys.length; r++) {
      if (idx.getOrAdd(keys[r]!) !== r) throw new Error("duplicate feature key");
    }
    return idx;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldRows = this.rows;
    const cap = oldKeys.length * 2;
    this.keys = new Int32Array(cap);
    this.rows = new Int32Array(cap);
    this.mask = cap - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j]!;
      if (k === 0) continue;
      let i = k & this.mask;
      while (this.keys[i] !== 0) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.rows[i] = oldRows[j]!;
    }
  }
}
