/**
 * Which head→modifier arcs of a sentence are still allowed. Index 0 is the artificial root;
 * tokens are 1..n. Arc h→m is stored at `bits[h * size + m]` (size = n + 1). Only m ≥ 1, h ≠ m are
 * real arcs; the diagonal and column 0 are always 0. Filters and cascade passes only ever remove arcs.
 */
export class ArcMask {
  /** Number of tokens (excluding the root). */
  readonly n: number;
  /** n + 1: row stride of `bits`. */
  readonly size: number;
  /** 1 = arc allowed, 0 = pruned; row = head, column = modifier. */
  readonly bits: Uint8Array;

  private constructor(n: number, bits: Uint8Array) {
    this.n = n;
    this.size = n + 1;
    this.bits = bits;
  }

  /** A mask allowing every arc h→m (h in 0..n, m in 1..n, h ≠ m). */
  static full(n: number): ArcMask {
    const size = n + 1;
    const bits = new Uint8Array(size * size).fill(1);
    // Then clear what is not an arc: column 0 (the root has no head) and the diagonal.
    for (let h = 0; h <= n; h++) {
      bits[h * size] = 0;
      bits[h * size + h] = 0;
    }
    return new ArcMask(n, bits);
  }

  /** A mask allowing no arc. */
  static empty(n: number): ArcMask {
    return new ArcMask(n, new Uint8Array((n + 1) * (n + 1)));
  }

  /** A mask with exactly the arcs of a head array (heads[m] for m = 1..n). */
  static fromHeads(heads: ArrayLike<number>, n: number): ArcMask {
    const mask = ArcMask.empty(n);
    for (let m = 1; m <= n; m++) mask.bits[heads[m]! * mask.size + m] = 1;
    return mask;
  }

  /** Whether arc h→m is allowed. */
  allows(h: number, m: number): boolean {
    return this.bits[h * this.size + m] === 1;
  }

  /** Allows arc h→m (only for building masks; filters should only remove). */
  allow(h: number, m: number): void {
    if (m >= 1 && h !== m) this.bits[h * this.size + m] = 1;
  }

  /** Removes arc h→m. */
  remove(h: number, m: number): void {
    this.bits[h * this.size + m] = 0;
  }

  /** Number of allowed arcs. */
  count(): number {
    let c = 0;
    const b = this.bits;
    for (let i = 0; i < b.length; i++) c += b[i]!;
    return c;
  }

  /** Number of allowed heads of modifier m. */
  headCount(m: number): number {
    let c = 0;
    for (let h = 0; h <= this.n; h++) c += this.bits[h * this.size + m]!;
    return c;
  }

  /** Total number of possible arcs in an unpruned sentence of n tokens: n heads for each of n modifiers. */
  static totalArcs(n: number): number {
    return n * n;
  }

  /** Intersection with another mask of the same sentence, in place. */
  intersect(other: ArcMask): this {
    if (other.n !== this.n) throw new Error(`ArcMask.intersect: sizes differ (${this.n} vs ${other.n})`);
    const a = this.bits;
    const b = other.bits;
    for (let i = 0; i < a.length; i++) a[i] = a[i]! & b[i]!;
    return this;
  }

  /** A copy of this mask. */
  clone(): ArcMask {
    return new ArcMask(this.n, this.bits.slice());
  }
}
