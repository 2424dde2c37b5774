import type { ArcMask } from "../mask/arc-mask.js";

const NEG = Number.NEGATIVE_INFINITY;

/**
 * Reusable tables of Eisner's first-order projective algorithm and its inside (Viterbi) pass. All
 * tables are flat typed arrays indexed by head * (n + 1) + other end, so `inc[h * size + m]` is the
 * best incomplete span of arc h→m and `cmp[h * size + e]` the best complete span headed by h reaching
 * e (on either side); `cmpT` is `cmp` transposed so that every inner loop walks memory contiguously.
 * The tables grow to the largest sentence seen and are never shrunk.
 */
export class EisnerChart {
  /** Largest n + 1 the tables can hold. */
  capacity = 0;
  /** Best incomplete span of arc h→m (includes the arc score); -Infinity when unusable. */
  inc = new Float64Array(0);
  /** Best complete span headed by h reaching e. */
  cmp = new Float64Array(0);
  /** `cmp` transposed: cmpT[e * size + h] = cmp[h * size + e]. */
  cmpT = new Float64Array(0);
  /** Split point of the best incomplete span. */
  incBp = new Int32Array(0);
  /** Split point (modifier of the outermost arc) of the best complete span. */
  cmpBp = new Int32Array(0);
  /** 1 when arc h→m is usable (allowed and not -Infinity). */
  usable = new Uint8Array(0);
  /** Usable right modifiers of h in increasing order: rightMods[h * size + k], k < rightCount[h]. */
  rightMods = new Int32Array(0);
  /** Number of usable right modifiers of each head. */
  rightCount = new Int32Array(0);
  /** Usable left modifiers of h in decreasing order: leftMods[h * size + k], k < leftCount[h]. */
  leftMods = new Int32Array(0);
  /** Number of usable left modifiers of each head. */
  leftCount = new Int32Array(0);
  /** Root child of the best single-rooted tree found by the last `inside` (-1 if none). */
  rootChild = -1;

  /** Makes room for sentences of up to n tokens. */
  ensure(n: number): void {
    const size = n + 1;
    if (size <= this.capacity) return;
    const cap = Math.max(size, Math.ceil(this.capacity * 1.5));
    const cells = cap * cap;
    this.capacity = cap;
    this.inc = new Float64Array(cells);
    this.cmp = new Float64Array(cells);
    this.cmpT = new Float64Array(cells);
    this.incBp = new Int32Array(cells);
    this.cmpBp = new Int32Array(cells);
    this.usable = new Uint8Array(cells);
    this.rightMods = new Int32Array(cells);
    this.leftMods = new Int32Array(cells);
    this.rightCount = new Int32Array(cap);
    this.leftCount = new Int32Array(cap);
  }

  /**
   * Fills the tables for a sentence of n tokens (stride n + 1) and returns the best projective tree
   * score, -Infinity when no tree uses only usable arcs. With `singleRoot` the chart covers tokens 1..n
   * and the root attaches to a single token at the end (`rootChild`); otherwise the root is position 0
   * of the chart and heads the complete span 0..n.
   */
  inside(n: number, scores: Float64Array, mask: ArcMask | null, singleRoot: boolean): number {
    this.ensure(n);
    const size = n + 1;
    const lo = singleRoot ? 1 : 0;
    this.index(n, scores, mask, lo);
    fillSpans(
      n,
      lo,
      scores,
      this.inc,
      this.cmp,
      this.cmpT,
      this.incBp,
      this.cmpBp,
      this.usable,
      this.rightMods,
      this.rightCount,
      this.leftMods,
      this.leftCount,
    );
    const cmp = this.cmp;
    const usable = this.usable;
    if (!singleRoot) {
      this.rootChild = -1;
      return n === 0 ? 0 : cmp[n]!;
    }
    // Single root: 0→r over the complete spans C(r, 1) and C(r, n).
    let best = NEG;
    let arg = -1;
    for (let r = 1; r <= n; r++) {
      if (usable[r] !== 1) continue;
      const rr = r * size;
      const v = scores[r]! + cmp[rr + 1]! + cmp[rr + n]!;
      if (v > best) {
        best = v;
        arg = r;
      }
    }
    this.rootChild = arg;
    return n === 0 ? 0 : best;
  }

  /** Marks usable arcs and lists each head's usable modifiers (rows lo..n; row 0 always marked). */
  private index(n: number, scores: Float64Array, mask: ArcMask | null, lo: number): void {
    const size = n + 1;
    const usable = this.usable;
    const bits = mask === null ? null : mask.bits;
    if (bits !== null && mask!.n !== n) throw new Error(`Eisner: mask has ${mask!.n} tokens, sentence ${n}`);
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      usable[row] = 0;
      for (let m = 1; m <= n; m++) {
        const a = row + m;
        usable[a] = m !== h && (bits === null || bits[a] === 1) && scores[a]! !== NEG ? 1 : 0;
      }
    }
    const rightMods = this.rightMods;
    const leftMods = this.leftMods;
    for (let h = lo; h <= n; h++) {
      const row = h * size;
      let c = 0;
      for (let m = h + 1; m <= n; m++) if (usable[row + m] === 1) rightMods[row + c++] = m;
      this.rightCount[h] = c;
      c = 0;
      for (let m = h - 1; m >= lo; m--) if (usable[row + m] === 1) leftMods[row + c++] = m;
      this.leftCount[h] = c;
    }
  }
}

/**
 * The O(n³) span loop of the inside pass, kept apart from everything else so that V8 optimizes it as a
 * whole function (a loop compiled on-stack inside a larger function deoptimizes at its cold tail).
 */
function fillSpans(
  n: number,
  lo: number,
  scores: Float64Array,
  inc: Float64Array,
  cmp: Float64Array,
  cmpT: Float64Array,
  incBp: Int32Array,
  cmpBp: Int32Array,
  usable: Uint8Array,
  rightMods: Int32Array,
  rightCount: Int32Array,
  leftMods: Int32Array,
  leftCount: Int32Array,
): void {
  const size = n + 1;
  for (let i = lo; i <= n; i++) {
    cmp[i * size + i] = 0;
    cmpT[i * size + i] = 0;
  }
  for (let w = 1; w <= n - lo; w++) {
    for (let i = lo, j = lo + w; j <= n; i++, j++) {
      const ri = i * size;
      const rj = j * size;
      const ij = ri + j;
      const ji = rj + i;
      // Incomplete spans i→j and j→i share the split max of C(i, r) + C(j, r + 1).
      const uR = usable[ij]!;
      const uL = usable[ji]!;
      if ((uR | uL) !== 0) {
        let best = NEG;
        let arg = i;
        for (let r = i, a = ri + i, b = rj + i + 1; r < j; r++, a++, b++) {
          const v = cmp[a]! + cmp[b]!;
          if (v > best) {
            best = v;
            arg = r;
          }
        }
        inc[ij] = uR === 1 ? best + scores[ij]! : NEG;
        inc[ji] = uL === 1 ? best + scores[ji]! : NEG;
        incBp[ij] = arg;
        incBp[ji] = arg;
      } else {
        inc[ij] = NEG;
        inc[ji] = NEG;
      }
      // Right complete span headed by i: I(i→r) + C(r, j) for usable i→r, i < r ≤ j.
      {
        let best = NEG;
        let arg = -1;
        const cnt = rightCount[i]!;
        if (2 * cnt >= n - i) {
          // Dense row: a straight scan is faster than the list (unusable arcs are -Infinity).
          for (let r = i + 1; r <= j; r++) {
            const v = inc[ri + r]! + cmpT[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        } else {
          for (let k = 0; k < cnt; k++) {
            const r = rightMods[ri + k]!;
            if (r > j) break;
            const v = inc[ri + r]! + cmpT[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        }
        cmp[ij] = best;
        cmpT[ji] = best;
        cmpBp[ij] = arg;
      }
      // Left complete span headed by j: C(r, i) + I(j→r) for usable j→r, i ≤ r < j.
      {
        let best = NEG;
        let arg = -1;
        const cnt = leftCount[j]!;
        if (2 * cnt >= j - lo) {
          for (let r = j - 1; r >= i; r--) {
            const v = cmpT[ri + r]! + inc[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        } else {
          for (let k = 0; k < cnt; k++) {
            const r = leftMods[rj + k]!;
            if (r < i) break;
            const v = cmpT[ri + r]! + inc[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        }
        cmp[ji] = best;
        cmpT[ij] = best;
        cmpBp[ji] = arg;
      }
    }
  }
}
