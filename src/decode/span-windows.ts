import type { SiblingIndex } from "./parts-index.js";

/**
 * Which spans of an Eisner-style chart (first, second or third order) can be part of a projective tree
 * built from the allowed arcs, from a linear pass over the arcs, so that the dynamic programs visit
 * only those spans. Two necessary conditions bound every complete span C(h, e) (h's subtree on one
 * side of h ends at e):
 * - inside reach: e lies within the farthest position h reaches by a chain of allowed arcs on that side;
 * - cover: unless e is the sentence boundary (n on the right, 1 on the left), the token beyond e
 *   attaches outside h's subtree, so some allowed arc covers [h, e + 1] (right) or [e - 1, h] (left).
 *   With a single root child, root arcs never do (the root would need two children), so they do not
 *   count: a root arc cannot make the spans under it reachable.
 * Incomplete and sibling spans (a, b) need an allowed arc covering [a, b]. So for every right end b only
 * left ends a ≥ `aMin[b]` hold items, apart from the boundary spans C(h, n) and C(h, 1).
 *
 * Chart positions are lo..n (lo = 1 when the root is attached outside the chart or handled apart,
 * lo = 0 when the root is an ordinary head of the chart, i.e. without the single-root constraint).
 * Arc lists use the `SiblingIndex` layout: modifiers of head h on side s (0 = left, 1 = right) are
 * `mods[start[2h + s] .. start[2h + s] + count[2h + s])`, closest first. Arrays are reused.
 */
export class SpanWindows {
  /** Number of tokens. */
  n = 0;
  /** First chart position (0 or 1). */
  lo = 0;
  /** Right complete spans C(h, e) may exist for h < e ≤ hiR[h] (≤ n), and for e = n. */
  hiR = new Int32Array(0);
  /** Left complete spans C(h, e) may exist for loL[h] ≤ e < h (loL[h] ≥ 1), and for e = 1. */
  loL = new Int32Array(0);
  /** Spans (a, b) other than boundary complete spans need a ≥ aMin[b] (aMin[b] = b: none). */
  aMin = new Int32Array(0);
  /** Number of spans (a, b) with aMin[b] ≤ a < b: what a span loop visits, besides the boundaries. */
  spans = 0;
  /** True when every span and every complete span of the chart may exist (nothing to skip). */
  full = false;
  private reachR = new Int32Array(0);
  private reachL = new Int32Array(0);
  private cov = new Int32Array(0);
  private lcov = new Int32Array(0);

  /** Windows of an indexed mask's chart (positions lo..n). */
  fromIndex(index: SiblingIndex, lo: number): void {
    if (index.arcs === index.n * index.n) this.setFull(index.n, lo);
    else this.build(index.n, lo, index.mods, index.start, index.count);
  }

  /** Windows of a chart whose every arc is allowed: nothing is skipped. */
  setFull(n: number, lo: number): void {
    this.n = n;
    this.lo = lo;
    this.ensure(n + 1);
    const { hiR, loL, aMin } = this;
    for (let h = lo; h <= n; h++) {
      hiR[h] = n;
      loL[h] = h < 1 ? h : 1;
      aMin[h] = lo;
    }
    this.spans = ((n - lo) * (n - lo + 1)) / 2;
    this.full = true;
  }

  /** Computes the windows of a sentence of n tokens from its arc lists (heads lo..n). */
  build(n: number, lo: number, mods: Int32Array, start: Int32Array, count: Int32Array): void {
    this.n = n;
    this.lo = lo;
    const size = n + 1;
    this.ensure(size);

    const { hiR, loL, aMin, reachR, reachL, cov, lcov } = this;
    // cov[i]: farthest right end of an arc whose left end is ≤ i; lcov[b]: leftmost left end of an
    // arc whose right end is ≥ b (n + 1 when there is none). First per position, then prefix/suffix.
    for (let i = 0; i <= size; i++) {
      cov[i] = -1;
      lcov[i] = size;
    }
    // Reach by chains of right arcs (right to left) and of left arcs (left to right).
    for (let h = n; h >= lo; h--) {
      let r = h;
      const g = 2 * h + 1;
      const s0 = start[g]!;
      const k = count[g]!;
      for (let j = 0; j < k; j++) {
        const m = mods[s0 + j]!;
        if (reachR[m]! > r) r = reachR[m]!;
        if (h < lcov[m]!) lcov[m] = h;
      }
      reachR[h] = r;
      if (k > 0) {
        const far = mods[s0 + k - 1]!;
        if (far > cov[h]!) cov[h] = far;
      }
    }
    for (let h = lo; h <= n; h++) {
      let l = h;
      const g = 2 * h;
      const s0 = start[g]!;
      const k = count[g]!;
      for (let j = 0; j < k; j++) {
        const m = mods[s0 + j]!;
        if (reachL[m]! < l) l = reachL[m]!;
        if (h > cov[m]!) cov[m] = h;
      }
      reachL[h] = l;
      if (k > 0) {
        const far = mods[s0 + k - 1]!;
        if (far < lcov[h]!) lcov[h] = far;
      }
    }
    for (let i = lo + 1; i <= n; i++) if (cov[i - 1]! > cov[i]!) cov[i] = cov[i - 1]!;
    for (let b = n - 1; b >= lo; b--) if (lcov[b + 1]! < lcov[b]!) lcov[b] = lcov[b + 1]!;
    let spans = 0;
    let full = true;
    for (let h = lo; h <= n; h++) {
      // Right: e ≤ reach and e + 1 ≤ cov[h].
      let hi = cov[h]! - 1;
      if (reachR[h]! < hi) hi = reachR[h]!;
      // A window reaching n - 1 with n in reach takes the boundary span C(h, n) in (one contiguous window).
      hiR[h] = hi < h ? h : hi === n - 1 && reachR[h] === n ? n : hi;
      // Left: e ≥ reach and e - 1 ≥ lcov[h].
      let l = lcov[h]! + 1;
      if (reachL[h]! > l) l = reachL[h]!;
      loL[h] = l > h ? h : l === 2 && reachL[h] === 1 ? 1 : l;
      let a = lcov[h]!;
      if (a < lo) a = lo;
      aMin[h] = a > h ? h : a;
      spans += h - aMin[h]!;
      if (aMin[h] !== lo || (h < n - 1 && hiR[h]! < n - 1) || (h > 2 && loL[h]! > 2)) full = false;
    }
    this.spans = spans;
    this.full = full;
  }

  private ensure(size: number): void {
    if (this.hiR.length >= size + 1) return;
    const cap = Math.max(size + 1, Math.ceil(this.hiR.length * 1.5));
    this.hiR = new Int32Array(cap);
    this.loL = new Int32Array(cap);
    this.aMin = new Int32Array(cap);
    this.reachR = new Int32Array(cap);
    this.reachL = new Int32Array(cap);
    this.cov = new Int32Array(cap);
    this.lcov = new Int32Array(cap);
  }
}
