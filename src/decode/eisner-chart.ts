import type { ArcMask } from "../mask/arc-mask.js";
import { SetCellScanner } from "./arc-scan.js";
import { SpanWindows } from "./span-windows.js";

const NEG = Number.NEGATIVE_INFINITY;

/**
 * Reusable tables of Eisner's first-order projective algorithm and its inside (Viterbi) pass. All
 * tables are flat typed arrays indexed by head * (n + 1) + other end, so `inc[h * size + m]` is the
 * best incomplete span of arc h→m and `cmp[h * size + e]` the best complete span headed by h reaching
 * e (on either side); `cmpT` is `cmp` transposed. Only the spans that `windows` allows are visited (see
 * `SpanWindows`), so a sparse mask costs far less than n³; cells of spans that were not visited hold
 * stale values and are never read: a complete span C(h, e) is valid when e = h, e = n, e = 1, or e lies
 * within h's window, and an incomplete span when its arc is usable. The tables grow to the largest
 * sentence seen and are never shrunk.
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
  /** Usable modifiers, grouped by (head, side) as in `SiblingIndex`, each group closest first. */
  mods = new Int32Array(0);
  /** Start of group 2h + side (0 = left, 1 = right) in `mods`. */
  start = new Int32Array(0);
  /** Length of group 2h + side. */
  count = new Int32Array(0);
  private readonly scanner = new SetCellScanner();
  /**
   * The cells (h * (n + 1) + m) the mask of the last `inside` allowed, in increasing order, valid up to
   * `allowedCount`; -1 when it ran without a mask (every arc). Reused by the next `inside`.
   */
  allowedCount = -1;
  /** The mask's allowed cells listed by the last `inside` (see `allowedCount`). */
  get allowedCells(): Int32Array {
    return this.scanner.cells;
  }
  /** The spans the last `inside` visited. */
  readonly windows = new SpanWindows();
  /** First chart position of the last `inside`: 1 with a single root (attached at the end), else 0. */
  lo = 0;
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
    this.mods = new Int32Array(cells - cap);
    this.start = new Int32Array(2 * cap);
    this.count = new Int32Array(2 * cap);
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
    this.lo = lo;
    const arcs = this.index(n, scores, mask, lo);
    const w = this.windows;
    if (arcs === n * n) w.setFull(n, lo);
    else w.build(n, lo, this.mods, this.start, this.count);
    (w.full ? fillFull : fillSpans)(
      n,
      lo,
      scores,
      this.inc,
      this.cmp,
      this.cmpT,
      this.incBp,
      this.cmpBp,
      this.usable,
      this.mods,
      this.start,
      this.count,
      w.hiR,
      w.loL,
      w.aMin,
      w.full,
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

  /**
   * Marks usable arcs and lists each head's usable modifiers (heads lo..n; row 0 always marked);
   * returns the number of usable arcs (n² when every arc is).
   */
  private index(n: number, scores: Float64Array, mask: ArcMask | null, lo: number): number {
    const size = n + 1;
    const cells = size * size;
    const usable = this.usable;
    const { mods, start, count } = this;
    if (mask === null) {
      this.allowedCount = -1;
      for (let h = 0; h <= n; h++) {
        const row = h * size;
        usable[row] = 0;
        for (let m = 1; m <= n; m++) {
          const a = row + m;
          usable[a] = m !== h && scores[a]! !== NEG ? 1 : 0;
        }
      }
      let k = 0;
      for (let h = 0; h <= n; h++) {
        const row = h * size;
        start[2 * h] = k;
        if (h >= lo) for (let m = h - 1; m >= lo; m--) if (usable[row + m] === 1) mods[k++] = m;
        count[2 * h] = k - start[2 * h]!;
        start[2 * h + 1] = k;
        if (h >= lo) for (let m = h + 1; m <= n; m++) if (usable[row + m] === 1) mods[k++] = m;
        count[2 * h + 1] = k - start[2 * h + 1]!;
      }
      let arcs = k;
      if (lo === 1) for (let m = 1; m <= n; m++) arcs += usable[m]!;
      return arcs;
    }
    if (mask.n !== n) throw new Error(`Eisner: mask has ${mask.n} tokens, sentence ${n}`);
    // A sparse mask: copy its bits and visit only the allowed arcs.
    usable.set(mask.bits.length === cells ? mask.bits : mask.bits.subarray(0, cells));
    const found = this.scanner.scan(usable, cells);
    this.allowedCount = found;
    const list = this.scanner.cells;
    let q = 0;
    let k = 0;
    let arcs = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      const end = row + size;
      const q0 = q;
      while (q < found && list[q]! < end) {
        const c = list[q]!;
        if (scores[c]! === NEG) usable[c] = 0;
        else arcs++;
        q++;
      }
      start[2 * h] = k;
      if (h >= lo)
        for (let j = q - 1; j >= q0; j--) {
          const c = list[j]!;
          if (c - row < h && usable[c] === 1) mods[k++] = c - row;
        }
      count[2 * h] = k - start[2 * h]!;
      start[2 * h + 1] = k;
      if (h >= lo)
        for (let j = q0; j < q; j++) {
          const c = list[j]!;
          if (c - row > h && usable[c] === 1) mods[k++] = c - row;
        }
      count[2 * h + 1] = k - start[2 * h + 1]!;
    }
    return arcs;
  }
}

/**
 * The inside pass when nothing can be skipped (`SpanWindows.full`): every span, by width, with dense
 * rows scanned straight (every incomplete span is written, -Infinity when unusable). Same signature and
 * results as `fillSpans`; kept apart because a dense chart is faster this way.
 */
function fillFull(
  n: number,
  lo: number,
  scores: Float64Array,
  inc: Float64Array,
  cmp: Float64Array,
  cmpT: Float64Array,
  incBp: Int32Array,
  cmpBp: Int32Array,
  usable: Uint8Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
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
      {
        let best = NEG;
        let arg = -1;
        const cnt = count[2 * i + 1]!;
        if (2 * cnt >= n - i) {
          for (let r = i + 1; r <= j; r++) {
            const v = inc[ri + r]! + cmpT[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        } else {
          const s0 = start[2 * i + 1]!;
          for (let k = 0; k < cnt; k++) {
            const r = mods[s0 + k]!;
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
      {
        let best = NEG;
        let arg = -1;
        const cnt = count[2 * j]!;
        if (2 * cnt >= j - lo) {
          for (let r = j - 1; r >= i; r--) {
            const v = cmpT[ri + r]! + inc[rj + r]!;
            if (v > best) {
              best = v;
              arg = r;
            }
          }
        } else {
          const s0 = start[2 * j]!;
          for (let k = 0; k < cnt; k++) {
            const r = mods[s0 + k]!;
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

/**
 * The span loop of the inside pass, kept apart from everything else so that V8 optimizes it as a whole
 * function (a loop compiled on-stack inside a larger function deoptimizes at its cold tail). Spans are
 * visited by right end b, then left end a from b - 1 down to aMin[b] (every item's parts come first),
 * then the boundary spans C(b, 1) and, at b = n, C(a, n) for the remaining heads.
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
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  hiR: Int32Array,
  loL: Int32Array,
  aMin: Int32Array,
  full: boolean,
): void {
  const size = n + 1;
  for (let i = lo; i <= n; i++) {
    cmp[i * size + i] = 0;
    cmpT[i * size + i] = 0;
  }
  for (let b = lo + 1; b <= n; b++) {
    const rb = b * size;
    const am = aMin[b]!;
    const lb = loL[b]!;
    for (let a = b - 1; a >= am; a--) {
      const ra = a * size;
      const ab = ra + b;
      const ba = rb + a;
      // Incomplete spans a→b and b→a share the split max of C(a, r) + C(b, r + 1).
      const uR = usable[ab]!;
      const uL = usable[ba]!;
      if ((uR | uL) !== 0) {
        let best = NEG;
        let arg = a;
        const r0 = lb - 1 > a ? lb - 1 : a;
        const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
        for (let r = r0, x = ra + r0, y = rb + r0 + 1; r <= r1; r++, x++, y++) {
          const v = cmp[x]! + cmp[y]!;
          if (v > best) {
            best = v;
            arg = r;
          }
        }
        inc[ab] = uR === 1 ? best + scores[ab]! : NEG;
        inc[ba] = uL === 1 ? best + scores[ba]! : NEG;
        incBp[ab] = arg;
        incBp[ba] = arg;
      } else {
        inc[ab] = NEG;
        inc[ba] = NEG;
      }
      // Right complete span C(a, b): I(a→m) + C(m, b) over a's right modifiers m ≤ b.
      if (b <= hiR[a]! || b === n)
        rightComplete(a, b, n, inc, cmp, cmpT, cmpBp, mods, start, count, hiR, full);
      // Left complete span C(b, a): C(m, a) + I(b→m) over b's left modifiers m ≥ a.
      if (a >= 1 && (a >= lb || a === 1))
        leftComplete(b, a, n, inc, cmp, cmpT, cmpBp, mods, start, count, loL, full);
    }
    if (am > 1) leftComplete(b, 1, n, inc, cmp, cmpT, cmpBp, mods, start, count, loL, full);
    if (b === n)
      for (let a = am - 1; a >= lo; a--)
        rightComplete(a, n, n, inc, cmp, cmpT, cmpBp, mods, start, count, hiR, full);
  }
}

/** C(a, b) for a < b: the best I(a→m) + C(m, b) over a's usable right modifiers m ≤ b. */
function rightComplete(
  a: number,
  b: number,
  n: number,
  inc: Float64Array,
  cmp: Float64Array,
  cmpT: Float64Array,
  cmpBp: Int32Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  hiR: Int32Array,
  full: boolean,
): void {
  const size = n + 1;
  const ra = a * size;
  const rb = b * size;
  let best = NEG;
  let arg = -1;
  const s0 = start[2 * a + 1]!;
  const k = count[2 * a + 1]!;
  if (full && 2 * k >= n - a) {
    // Dense row of a full chart: a straight scan beats the list (unusable arcs are -Infinity).
    for (let m = a + 1; m <= b; m++) {
      const v = inc[ra + m]! + cmpT[rb + m]!;
      if (v > best) {
        best = v;
        arg = m;
      }
    }
  } else
    for (let j = 0; j < k; j++) {
      const m = mods[s0 + j]!;
      if (m > b) break;
      if (m !== b && b !== n && b > hiR[m]!) continue;
      const v = inc[ra + m]! + cmpT[rb + m]!;
      if (v > best) {
        best = v;
        arg = m;
      }
    }
  cmp[ra + b] = best;
  cmpT[rb + a] = best;
  cmpBp[ra + b] = arg;
}

/** C(b, a) for a < b: the best C(m, a) + I(b→m) over b's usable left modifiers m ≥ a. */
function leftComplete(
  b: number,
  a: number,
  n: number,
  inc: Float64Array,
  cmp: Float64Array,
  cmpT: Float64Array,
  cmpBp: Int32Array,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  loL: Int32Array,
  full: boolean,
): void {
  const size = n + 1;
  const ra = a * size;
  const rb = b * size;
  let best = NEG;
  let arg = -1;
  const s0 = start[2 * b]!;
  const k = count[2 * b]!;
  if (full && 2 * k >= b) {
    for (let m = b - 1; m >= a; m--) {
      const v = cmpT[ra + m]! + inc[rb + m]!;
      if (v > best) {
        best = v;
        arg = m;
      }
    }
  } else
    for (let j = 0; j < k; j++) {
      const m = mods[s0 + j]!;
      if (m < a) break;
      if (m !== a && a !== 1 && a < loL[m]!) continue;
      const v = cmpT[ra + m]! + inc[rb + m]!;
      if (v > best) {
        best = v;
        arg = m;
      }
    }
  cmp[rb + a] = best;
  cmpT[ra + b] = best;
  cmpBp[rb + a] = arg;
}
