import type { ArcMask } from "../mask/arc-mask.js";
import { SiblingIndex, SiblingParts } from "./parts-index.js";
import { ProjectiveFeasibility } from "./parts-mask.js";
import type { SiblingScorer } from "./parts-types.js";
import { SpanWindows } from "./span-windows.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Item kinds of the sibling chart, as stored in the low two bits of a log entry. */
export const SIB_ITEM = 0;
/** Incomplete span I(h, m): arc h→m with h's children between h and m. */
export const INC_ITEM = 1;
/** Complete span C(h, e). */
export const CMP_ITEM = 2;

/**
 * The chart of the second-order (sibling) projective dynamic program of McDonald & Pereira (2006) and
 * its inside (Viterbi) pass, shared by `SecondOrderDecoder` and `SiblingMaxMarginals`. Items, all in
 * flat (n + 1)² tables indexed by head * (n + 1) + other end:
 * - C(h, e): complete span, h's subtree on one side ends at e (C(h, h) = 0);
 * - I(h, m): incomplete span of arc h→m, with h's children between h and m;
 * - S(a, b), a < b: a's right complete span to r next to b's left complete span from r + 1, where a and
 *   b are adjacent children of one head on one side.
 * Rules: I(h, m) = C(m, h ± 1) + part(h, h, m) | I(h, s) + S(s, m) + part(h, s, m) (s the next inner
 * sibling), C(h, e) = I(h, m) + C(m, e), with part = arc + sib (`SiblingParts`: scored up front, or
 * each on the first read, which comes only where the spans it joins hold subtrees). With
 * a single root, the root takes no sibling parts (one child) and only C(0, n) is built for it.
 *
 * Only spans that allowed arcs can reach are visited (`SpanWindows`), by right end b and then left end
 * a downwards; cells of other spans hold stale values and are never read. Every item with a finite
 * inside score is appended to `log` in computation order (entry = cell * 4 + kind), so that an outside
 * pass can walk the same items backwards. One instance keeps its tables between sentences.
 */
export class SiblingChart {
  /** The indexed mask (allowed arcs and sibling-part slots). */
  readonly index = new SiblingIndex();
  /** The spans the chart visits. */
  readonly windows = new SpanWindows();
  private readonly feasibility = new ProjectiveFeasibility();
  /** Whether the root takes exactly one child (set by `build`). */
  singleRoot = true;
  /** arc + sib score per sibling-part slot (see `SiblingIndex`), all up front or asked for on first use. */
  readonly parts = new SiblingParts();
  /** Best complete span C(h, e) at h * size + e. */
  c = new Float64Array(0);
  /** Best incomplete span I(h, m) at h * size + m. */
  inc = new Float64Array(0);
  /** Best sibling span S(a, b), a < b, at a * size + b. */
  sp = new Float64Array(0);
  /** Last child m of the best C(h, e). */
  bpC = new Int32Array(0);
  /** Inner sibling s of the best I(h, m) (s = h: none). */
  bpI = new Int32Array(0);
  /** Split point r of the best S(a, b). */
  bpS = new Int32Array(0);
  /** Items with a finite inside score, in computation order: cell * 4 + kind. */
  log = new Int32Array(0);
  /** Number of entries in `log`. */
  logLength = 0;
  /** n + 1. */
  size = 0;
  /** needS[a * size + b] = the current stamp when a and b are modifiers of one head on one side. */
  needS = new Int32Array(0);
  private stamp = 0;

  /**
   * Indexes `mask` and its span windows; returns whether it admits a projective tree (with a single
   * root child when `singleRoot`). Nothing is scored yet.
   */
  build(mask: ArcMask, singleRoot: boolean): boolean {
    this.singleRoot = singleRoot;
    const index = this.index;
    index.build(mask);
    this.windows.fromIndex(index, singleRoot ? 1 : 0);
    return this.feasibility.admitsIndexed(index, this.windows, singleRoot);
  }

  /** The arc + sib scores of the sibling-part slots (`parts.table`). */
  get table(): Float64Array {
    return this.parts.table;
  }

  /**
   * Scores every allowed part of the indexed mask once, before `inside` (an outside pass reads them
   * all); returns the number of scorer calls.
   */
  score(scorer: SiblingScorer): number {
    return this.parts.scoreAll(this.index, scorer, this.singleRoot);
  }

  /**
   * Has `inside` ask `scorer` for each part the first time it reads it (parts no reachable span
   * combines are never asked for); `parts.asked` counts the calls. `parts.end()` lets go of the scorer.
   */
  scoreLazily(scorer: SiblingScorer): void {
    this.parts.startLazy(this.index, scorer);
  }

  /** Runs the inside pass over the scored parts; returns the best tree score (-Infinity: none). */
  inside(): number {
    const n = this.index.n;
    const size = n + 1;
    this.size = size;
    const cells = size * size;
    if (this.c.length < cells) {
      const cap = Math.max(cells, Math.floor(this.c.length * 1.5));
      this.c = new Float64Array(cap);
      this.inc = new Float64Array(cap);
      this.sp = new Float64Array(cap);
      this.bpC = new Int32Array(cap);
      this.bpI = new Int32Array(cap);
      this.bpS = new Int32Array(cap);
      this.needS = new Int32Array(cap);
      this.log = new Int32Array(3 * cap);
      this.stamp = 0;
    }
    this.markSiblings();
    this.logLength = fillSibling(this, this.stamp);
    return this.c[n]!;
  }

  /** Stamps the pairs of modifiers that can be adjacent siblings (same head, same side). */
  private markSiblings(): void {
    const { mods, start, count } = this.index;
    const size = this.size;
    const needS = this.needS;
    const stamp = ++this.stamp;
    for (let g = this.singleRoot ? 2 : 0; g < 2 * size; g++) {
      const s0 = start[g]!;
      const k = count[g]!;
      for (let j = 1; j < k; j++) {
        const m = mods[s0 + j]!;
        for (let i = 0; i < j; i++) {
          const s = mods[s0 + i]!;
          needS[s < m ? s * size + m : m * size + s] = stamp;
        }
      }
    }
  }

  /** Writes the heads of the best tree (after `inside`) into `heads`. */
  backtrack(heads: Int32Array): void {
    this.backC(heads, 0, this.size - 1);
  }

  private backC(heads: Int32Array, h: number, e: number): void {
    if (h === e) return;
    const m = this.bpC[h * this.size + e]!;
    this.backI(heads, h, m);
    this.backC(heads, m, e);
  }

  private backI(heads: Int32Array, h: number, m: number): void {
    heads[m] = h;
    const s = this.bpI[h * this.size + m]!;
    if (s === h) {
      this.backC(heads, m, m > h ? h + 1 : h - 1);
      return;
    }
    this.backI(heads, h, s);
    const a = s < m ? s : m;
    const b = s < m ? m : s;
    const r = this.bpS[a * this.size + b]!;
    this.backC(heads, a, r);
    this.backC(heads, b, r + 1);
  }
}

/**
 * The inside pass over the visited spans (a whole function, so that V8 optimizes it as one); returns
 * the length of the item log.
 */
function fillSibling(chart: SiblingChart, stamp: number): number {
  const { c, inc, sp, bpC, bpI, bpS, parts, log, size, singleRoot, needS } = chart;
  const { mods, start, count, pos, rowBase, bits } = chart.index;
  const { hiR, loL, aMin, full } = chart.windows;
  const n = size - 1;
  let L = 0;
  for (let h = 0; h <= n; h++) c[h * size + h] = 0;
  for (let b = 1; b <= n; b++) {
    const rb = b * size;
    const am = aMin[b]!;
    const lb = loL[b]!;
    for (let a = b - 1; a >= am; a--) {
      const ra = a * size;
      const ab = ra + b;
      // Sibling span S(a, b): a's right complete span to r, b's left complete span from r + 1.
      if (needS[ab] === stamp) {
        let best = NEG;
        let arg = a;
        const r0 = lb - 1 > a ? lb - 1 : a;
        const r1 = hiR[a]! < b - 1 ? hiR[a]! : b - 1;
        for (let r = r0, x = ra + r0, y = rb + r0 + 1; r <= r1; r++, x++, y++) {
          const v = c[x]! + c[y]!;
          if (v > best) {
            best = v;
            arg = r;
          }
        }
        sp[ab] = best;
        bpS[ab] = arg;
        if (best > NEG) log[L++] = ab * 4 + SIB_ITEM;
      }
      // Incomplete a→b: first child C(b, a + 1), or inner sibling s: I(a, s) + S(s, b).
      if (bits[ab] === 1) {
        const base = rowBase[ab]!;
        let best = NEG;
        let arg = a;
        const s0 = start[2 * a + 1]!;
        const p = pos[ab]!;
        const id = s0 + p;
        if (a + 1 === b || a + 1 >= lb || a === 0) {
          const f = c[rb + a + 1]!;
          if (f > NEG) best = f + parts.get(base - 1, id, a, a, b);
        }
        if (!(singleRoot && a === 0)) {
          for (let i = 0; i < p; i++) {
            const s = mods[s0 + i]!;
            let v = inc[ra + s]! + sp[s * size + b]!;
            if (v > NEG) {
              v += parts.get(base + i, id, a, s, b);
              if (v > best) {
                best = v;
                arg = s;
              }
            }
          }
        }
        inc[ab] = best;
        bpI[ab] = arg;
        if (best > NEG) log[L++] = ab * 4 + INC_ITEM;
      }
      // Incomplete b→a: first child C(a, b - 1), or inner sibling s: I(b, s) + S(a, s).
      const ba = rb + a;
      if (a >= 1 && bits[ba] === 1) {
        const base = rowBase[ba]!;
        let best = NEG;
        let arg = b;
        const s0 = start[2 * b]!;
        const p = pos[ba]!;
        const id = s0 + p;
        if (b - 1 === a || b - 1 <= hiR[a]!) {
          const f = c[ra + b - 1]!;
          if (f > NEG) best = f + parts.get(base - 1, id, b, b, a);
        }
        for (let i = 0; i < p; i++) {
          const s = mods[s0 + i]!;
          let v = inc[rb + s]! + sp[ra + s]!;
          if (v > NEG) {
            v += parts.get(base + i, id, b, s, a);
            if (v > best) {
              best = v;
              arg = s;
            }
          }
        }
        inc[ba] = best;
        bpI[ba] = arg;
        if (best > NEG) log[L++] = ba * 4 + INC_ITEM;
      }
      // Complete spans: C(a, b) (the root's only at b = n) and C(b, a).
      if ((a > 0 && b <= hiR[a]!) || b === n)
        L = rightSpan(a, b, n, c, inc, bpC, log, L, mods, start, count, hiR, full);
      if (a >= 1 && (a >= lb || a === 1))
        L = leftSpan(b, a, n, c, inc, bpC, log, L, mods, start, count, loL, full);
    }
    if (am > 1) L = leftSpan(b, 1, n, c, inc, bpC, log, L, mods, start, count, loL, full);
    if (b === n)
      for (let a = am - 1; a >= 1; a--)
        L = rightSpan(a, n, n, c, inc, bpC, log, L, mods, start, count, hiR, full);
    // With a single root, its arcs are handled apart: I(0, b) = C(b, 1) + part(0, 0, b), and C(0, n).
    if (singleRoot) {
      if (bits[b] === 1) {
        const f = c[rb + 1]!;
        const v = f > NEG ? f + parts.get(rowBase[b]! - 1, start[1]! + pos[b]!, 0, 0, b) : NEG;
        inc[b] = v;
        bpI[b] = 0;
        if (v > NEG) log[L++] = b * 4 + INC_ITEM;
      }
      if (b === n) L = rightSpan(0, n, n, c, inc, bpC, log, L, mods, start, count, hiR, full);
    } else if (b === n && am > 0) L = rightSpan(0, n, n, c, inc, bpC, log, L, mods, start, count, hiR, full);
  }
  return L;
}

/** C(a, b), a < b: the best I(a, m) + C(m, b) over a's right modifiers m ≤ b; logs it if finite. */
function rightSpan(
  a: number,
  b: number,
  n: number,
  c: Float64Array,
  inc: Float64Array,
  bpC: Int32Array,
  log: Int32Array,
  L: number,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  hiR: Int32Array,
  full: boolean,
): number {
  const size = n + 1;
  const ra = a * size;
  let best = NEG;
  let arg = -1;
  const s0 = start[2 * a + 1]!;
  const k = count[2 * a + 1]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m > b) break;
    if (!full && m !== b && b > hiR[m]! && b !== n) continue;
    const v = inc[ra + m]! + c[m * size + b]!;
    if (v > best) {
      best = v;
      arg = m;
    }
  }
  c[ra + b] = best;
  bpC[ra + b] = arg;
  if (best > NEG) log[L++] = (ra + b) * 4 + CMP_ITEM;
  return L;
}

/** C(b, a), a < b: the best I(b, m) + C(m, a) over b's left modifiers m ≥ a; logs it if finite. */
function leftSpan(
  b: number,
  a: number,
  n: number,
  c: Float64Array,
  inc: Float64Array,
  bpC: Int32Array,
  log: Int32Array,
  L: number,
  mods: Int32Array,
  start: Int32Array,
  count: Int32Array,
  loL: Int32Array,
  full: boolean,
): number {
  const size = n + 1;
  const rb = b * size;
  let best = NEG;
  let arg = -1;
  const s0 = start[2 * b]!;
  const k = count[2 * b]!;
  for (let j = 0; j < k; j++) {
    const m = mods[s0 + j]!;
    if (m < a) break;
    if (!full && m !== a && a < loL[m]! && a !== 1) continue;
    const v = inc[rb + m]! + c[m * size + a]!;
    if (v > best) {
      best = v;
      arg = m;
    }
  }
  c[rb + a] = best;
  bpC[rb + a] = arg;
  if (best > NEG) log[L++] = (rb + a) * 4 + CMP_ITEM;
  return L;
}
