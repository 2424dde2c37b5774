/**
 * Finds the set bytes of a dense 0/1 byte table (an `ArcMask`'s bits) four bytes at a time, so that
 * reading a sparse n × n mask costs about n²/4 word tests rather than n² byte tests and branches.
 */
export class SetCellScanner {
  private source: Uint8Array | null = null;
  private words: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** Flat indices found by the last `scan`, in increasing order (valid up to the returned count). */
  cells = new Int32Array(0);

  /** Collects the indices i < `length` with bits[i] ≠ 0 into `cells`; returns how many there are. */
  scan(bits: Uint8Array, length: number): number {
    let out = this.cells;
    let k = 0;
    let i = 0;
    if ((bits.byteOffset & 3) === 0) {
      if (this.source !== bits) {
        this.source = bits;
        this.words = new Uint32Array(bits.buffer, bits.byteOffset, bits.length >>> 2);
      }
      const words = this.words;
      const nw = length >>> 2;
      for (let w = 0; w < nw; w++) {
        if (words[w] === 0) continue;
        if (k + 4 > out.length) out = this.grow(k + 4);
        const base = w << 2;
        if (bits[base] !== 0) out[k++] = base;
        if (bits[base + 1] !== 0) out[k++] = base + 1;
        if (bits[base + 2] !== 0) out[k++] = base + 2;
        if (bits[base + 3] !== 0) out[k++] = base + 3;
      }
      i = nw << 2;
    }
    for (; i < length; i++) {
      if (bits[i] === 0) continue;
      if (k + 1 > out.length) out = this.grow(k + 1);
      out[k++] = i;
    }
    return k;
  }

  /** Makes `cells` hold at least `need` entries (keeping its content); returns it. */
  private grow(need: number): Int32Array<ArrayBuffer> {
    const next = new Int32Array(Math.max(need, 64, this.cells.length * 2));
    next.set(this.cells);
    this.cells = next;
    return next;
  }
}
