/**
 * Open-addressing hash map from 32-bit feature hashes to dense row ids (linear probing, power-of-two
 * capacity, load ≤ 1/2). Each slot stores key and row side by side so a lookup touches one cache
 * line. Key 0 marks an empty slot, so callers must never pass 0 (feature keys are made non-zero).
 */
export class FeatureIndex {
  /** slots[2s] = key, slots[2s + 1] = row. */
  private slots: Int32Array;
  private mask: number;
  /** Number of keys stored; row ids are 0..size-1 in insertion order. */
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.slots = new Int32Array(cap * 2);
    this.mask = cap - 1;
  }

  /** Row of key `k`, or -1 if absent. */
  get(k: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = k & mask;
    for (;;) {
      const x = slots[2 * i]!;
      if (x === k) return slots[2 * i + 1]!;
      if (x === 0) return -1;
      i = (i + 1) & mask;
    }
  }

  /** Row of key `k`, inserting it with the next free row id if absent. */
  getOrAdd(k: number): number {
    let i = k & this.mask;
    for (;;) {
      const x = this.slots[2 * i]!;
      if (x === k) return this.slots[2 * i + 1]!;
      if (x === 0) break;
      i = (i + 1) & this.mask;
    }
    const row = this.size++;
    this.slots[2 * i] = k;
    this.slots[2 * i + 1] = row;
    if (this.size * 4 > this.slots.length) this.grow();
    return row;
  }

  /** The keys in row order (keys[row] = feature hash). */
  keysByRow(): Int32Array {
    const out = new Int32Array(this.size);
    for (let s = 0; s < this.slots.length; s += 2)
      if (this.slots[s] !== 0) out[this.slots[s + 1]!] = this.slots[s]!;
    return out;
  }

  /** Builds an index whose row ids are the positions in `keys`. */
  static fromKeys(keys: Int32Array): FeatureIndex {
    const idx = new FeatureIndex(keys.length);
    for (let r = 0; r < keys.length; r++) {
      if (idx.getOrAdd(keys[r]!) !== r) throw new RangeError("duplicate feature key");
    }
    return idx;
  }

  private grow(): void {
    const old = this.slots;
    const cap = old.length;
    this.slots = new Int32Array(cap * 2);
    this.mask = cap - 1;
    for (let s = 0; s < old.length; s += 2) {
      const k = old[s]!;
      if (k === 0) continue;
      let i = k & this.mask;
      while (this.slots[2 * i] !== 0) i = (i + 1) & this.mask;
      this.slots[2 * i] = k;
      this.slots[2 * i + 1] = old[s + 1]!;
    }
  }
}
