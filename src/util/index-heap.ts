/**
 * A binary min-heap of integer ids ordered by a caller-given comparison (which usually reads keys from
 * typed arrays indexed by id). Push and pop are O(log size); the ids live in one growable Int32Array.
 */
export class IndexHeap {
  private ids: Int32Array;
  private n = 0;

  constructor(
    /** Whether id `a` comes before id `b` (must be a strict weak order, stable while both are queued). */
    private readonly less: (a: number, b: number) => boolean,
    capacity = 16,
  ) {
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  /** Number of queued ids. */
  get size(): number {
    return this.n;
  }

  /** Queues an id. */
  push(id: number): void {
    if (this.n === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    const a = this.ids;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(id, a[p]!)) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = id;
  }

  /** The first id, without removing it (−1 when empty). */
  peek(): number {
    return this.n === 0 ? -1 : this.ids[0]!;
  }

  /** Removes and returns the first id (−1 when empty). */
  pop(): number {
    if (this.n === 0) return -1;
    const a = this.ids;
    const top = a[0]!;
    const last = a[--this.n]!;
    const n = this.n;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(a[r]!, a[l]!) ? r : l;
      if (!this.less(a[c]!, last)) break;
      a[i] = a[c]!;
      i = c;
    }
    if (n > 0) a[i] = last;
    return top;
  }
}
