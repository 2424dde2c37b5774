import type { ArcMask } from "../mask/arc-mask.js";
import { SetCellScanner } from "./arc-scan.js";
import type { SiblingScorer } from "./parts-types.js";

/**
 * Sparse index of the sibling parts an arc mask allows, shared by the higher-order decoders. For each
 * head h and side (0 = left, 1 = right) it lists h's allowed modifiers from the closest to the farthest;
 * a modifier's position j in that list gives it a triangle row of j + 1 slots: slot `rowBase - 1` is
 * "no inner sibling" (s = h), slot `rowBase + i` is inner sibling = the i-th modifier of the list (i < j).
 * Only parts whose arcs are all allowed get a slot. Building reads the mask four cells at a time and
 * then touches only the allowed arcs; `pos` and `rowBase` are valid only for allowed arcs (test an arc
 * with `bits`). Arrays grow as needed and are reused.
 */
export class SiblingIndex {
  /** Number of tokens of the indexed sentence. */
  n = 0;
  /** n + 1: row stride of `pos`, `rowBase` and `bits`. */
  size = 0;
  /** The indexed mask's bits: bits[h * size + m] = 1 when arc h→m is allowed. */
  bits: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  /** Allowed modifiers, grouped by (head, side), each group ordered closest to farthest. */
  mods = new Int32Array(0);
  /** Start of group 2h + side in `mods` (the two groups of a head are adjacent, left first). */
  start = new Int32Array(0);
  /** Length of group 2h + side. */
  count = new Int32Array(0);
  /** pos[h * size + m]: index of m in h's group on m's side (valid when h→m is allowed). */
  pos = new Int32Array(0);
  /** rowBase[h * size + m]: slot of inner sibling index 0 in m's triangle row (valid when h→m is allowed). */
  rowBase = new Int32Array(0);
  /** Allowed heads of each modifier in increasing order, grouped by modifier; the root's group is [-1]. */
  heads = new Int32Array(0);
  /** Start of modifier m's group in `heads`. */
  headStart = new Int32Array(0);
  /** Length of modifier m's group in `heads`. */
  headCount = new Int32Array(0);
  /** headArc[q]: index in `mods` of the arc heads[q]→m (m the modifier whose group holds q); `arcs` for the root's -1. */
  headArc = new Int32Array(0);
  /** Number of triangle slots (sibling parts including "no inner sibling"). */
  triSize = 0;
  /** Number of allowed arcs. */
  arcs = 0;
  /**
   * closed[2h + side] = 1 when every allowed modifier of h on that side has h as its only allowed head
   * (so that side's children and their order are the same in every tree); made by `markClosed`.
   */
  closed = new Uint8Array(0);
  private readonly scanner = new SetCellScanner();
  private cursor = new Int32Array(0);

  /** Rebuilds the index for a mask. */
  build(mask: ArcMask): void {
    const n = mask.n;
    const size = n + 1;
    const bits = mask.bits;
    this.n = n;
    this.size = size;
    this.bits = bits;
    if (this.pos.length < size * size) {
      const cells = Math.max(size * size, Math.floor(this.pos.length * 1.5));
      this.pos = new Int32Array(cells);
      this.rowBase = new Int32Array(cells);
    }
    if (this.start.length < 2 * size) {
      const cap = Math.max(size, Math.floor(this.headStart.length * 1.5));
      this.start = new Int32Array(2 * cap);
      this.count = new Int32Array(2 * cap);
      this.headStart = new Int32Array(cap);
      this.headCount = new Int32Array(cap);
      this.cursor = new Int32Array(cap);
    }
    const found = this.scanner.scan(bits, size * size);
    const list = this.scanner.cells;
    // Lists sized by the arcs found, not by n².
    if (this.mods.length < found) {
      const cap = Math.max(found, Math.floor(this.mods.length * 1.5));
      this.mods = new Int32Array(cap);
      this.heads = new Int32Array(cap + 1);
      this.headArc = new Int32Array(cap + 1);
    }
    const { pos, rowBase, mods, start, count, headCount } = this;
    headCount.fill(0, 0, size);
    let q = 0;
    let k = 0;
    let tri = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      const end = row + size;
      const q0 = q;
      while (q < found && list[q]! < end) q++;
      // Left group: h-1 down to 1.
      start[2 * h] = k;
      let j = 0;
      for (let t = q - 1; t >= q0; t--) {
        const m = list[t]! - row;
        if (m >= h || m === 0) continue;
        mods[k++] = m;
        pos[row + m] = j;
        rowBase[row + m] = tri + 1;
        tri += j + 1;
        j++;
        headCount[m]!++;
      }
      count[2 * h] = j;
      // Right group: h+1 up to n.
      start[2 * h + 1] = k;
      j = 0;
      for (let t = q0; t < q; t++) {
        const m = list[t]! - row;
        if (m <= h) continue;
        mods[k++] = m;
        pos[row + m] = j;
        rowBase[row + m] = tri + 1;
        tri += j + 1;
        j++;
        headCount[m]!++;
      }
      count[2 * h + 1] = j;
    }
    this.arcs = k;
    this.triSize = tri;
    // Heads of each modifier, increasing: a counting sort of the row-major arc list.
    const { heads, headStart, headArc, cursor } = this;
    heads[0] = -1;
    headArc[0] = k;
    headStart[0] = 0;
    headCount[0] = 1;
    let p = 1;
    for (let m = 1; m <= n; m++) {
      headStart[m] = p;
      cursor[m] = p;
      p += headCount[m]!;
    }
    for (let t = 0; t < found; t++) {
      const c = list[t]!;
      const h = (c / size) | 0;
      const m = c - h * size;
      if (m === 0 || m === h) continue;
      const at = cursor[m]!++;
      heads[at] = h;
      headArc[at] = start[2 * h + (m > h ? 1 : 0)]! + pos[c]!;
    }
  }
}

/** Fills `index.closed` for the index's groups (see `SiblingIndex.closed`). */
export function markClosed(index: SiblingIndex): Uint8Array {
  const { n, mods, start, count, headCount } = index;
  if (index.closed.length < 2 * (n + 1)) index.closed = new Uint8Array(4 * (n + 1));
  const closed = index.closed;
  for (let g = 0; g < 2 * (n + 1); g++) closed[g] = closedSide(mods, start[g]!, count[g]!, headCount) ? 1 : 0;
  return closed;
}

/**
 * Fills `table` (length ≥ index.triSize) with arc(h, m) + sib(h, s, m) for every allowed sibling part,
 * asking the scorer once per part; with `singleRoot` the root's parts with an inner sibling are skipped
 * (they cannot occur). With `scorer.skipForced`, a side of a head whose every allowed modifier has no
 * other allowed head gets 0 for all its parts, unasked: every tree holds exactly the chain of those
 * modifiers, so its parts add the same to every tree, and the other parts of its triangle (a modifier
 * skipped) lie in none. Returns the number of part scores asked for.
 */
export function scoreSiblingTable(
  index: SiblingIndex,
  scorer: SiblingScorer,
  table: Float64Array,
  singleRoot: boolean,
): number {
  const { n, mods, start, count, rowBase, size } = index;
  const closed = scorer.skipForced === true ? markClosed(index) : null;
  let asked = 0;
  for (let h = 0; h <= n; h++) {
    for (let side = 0; side < 2; side++) {
      const g = 2 * h + side;
      const s0 = start[g]!;
      const k = count[g]!;
      const withSiblings = !(singleRoot && h === 0);
      if (closed !== null && k > 0 && closed[g] === 1) {
        fillGroup(index, h, s0, k, table, 0);
        continue;
      }
      for (let j = 0; j < k; j++) {
        const m = mods[s0 + j]!;
        const rb = rowBase[h * size + m]!;
        const a = scorer.arc(h, m);
        table[rb - 1] = a + scorer.sib(h, h, m);
        asked += 2;
        if (!withSiblings) continue;
        for (let i = 0; i < j; i++) table[rb + i] = a + scorer.sib(h, mods[s0 + i]!, m);
        asked += j;
      }
    }
  }
  return asked;
}

/**
 * The arc + sib score of every sibling part of an indexed mask, in the slots of `SiblingIndex`
 * (`rowBase[h * size + m] - 1`: m as h's closest child on its side; `+ i`: inner sibling
 * `mods[start + i]`). Either all scored up front (`scoreAll`, what an outside pass needs) or each asked
 * for on first use (`startLazy`, then `get`): a decoder reads a slot only where the spans the part joins
 * hold subtrees, and many allowed parts never do (en_ewt dev, second order behind its cascade at the
 * tuned α: 7.22 instead of 9.32 scorer calls per token, `npm run bench -- cascade --eager-parts`).
 * One instance keeps its arrays between sentences.
 */
export class SiblingParts {
  /** arc + sib per slot; NaN: not asked for yet (lazy mode). */
  table = new Float64Array(0);
  /** Scorer calls made for the current sentence. */
  asked = 0;
  /** Score of each allowed arc (its index in `index.mods`), NaN until asked for (lazy mode). */
  private arcScore = new Float64Array(0);
  private scorer: SiblingScorer | null = null;

  /** Scores every allowed part now (see `scoreSiblingTable`); returns the scorer calls. */
  scoreAll(index: SiblingIndex, scorer: SiblingScorer, singleRoot: boolean): number {
    this.ensure(index);
    this.scorer = null;
    this.asked = scoreSiblingTable(index, scorer, this.table, singleRoot);
    return this.asked;
  }

  /**
   * Leaves every part to be asked for from `scorer` on first use (`get`). With `scorer.skipForced`, the
   * parts `scoreSiblingTable` gives 0 unasked (closed sides) are 0 at once.
   */
  startLazy(index: SiblingIndex, scorer: SiblingScorer): void {
    this.ensure(index);
    this.scorer = scorer;
    this.asked = 0;
    this.table.fill(Number.NaN, 0, index.triSize);
    this.arcScore.fill(Number.NaN, 0, index.arcs);
    if (scorer.skipForced !== true) return;
    const closed = markClosed(index);
    const { n, start, count } = index;
    for (let g = 0; g < 2 * (n + 1); g++) {
      const k = count[g]!;
      if (k > 0 && closed[g] === 1) fillGroup(index, g >> 1, start[g]!, k, this.table, 0);
    }
  }

  /** Lets go of the scorer given to `startLazy`. */
  end(): void {
    this.scorer = null;
  }

  /**
   * arc(h, m) + sib(h, s, m) in slot t (s = h: m is h's closest child), asked for on its first use in
   * lazy mode; `id` is arc h→m's index in `index.mods`, whose score is asked for once, with the first
   * of its parts.
   */
  get(t: number, id: number, h: number, s: number, m: number): number {
    let v = this.table[t]!;
    if (v !== v) {
      const scorer = this.scorer!;
      let a = this.arcScore[id]!;
      if (a !== a) {
        a = scorer.arc(h, m);
        this.arcScore[id] = a;
        this.asked++;
      }
      v = a + scorer.sib(h, s, m);
      this.table[t] = v;
      this.asked++;
    }
    return v;
  }

  private ensure(index: SiblingIndex): void {
    if (this.table.length < index.triSize)
      this.table = new Float64Array(Math.max(index.triSize, this.table.length * 2));
    if (this.arcScore.length < index.arcs)
      this.arcScore = new Float64Array(Math.max(index.arcs, this.arcScore.length * 2));
  }
}

/** Sets every slot of the triangle of head h's group (modifiers mods[s0 .. s0 + k)) to v. */
function fillGroup(
  index: SiblingIndex,
  h: number,
  s0: number,
  k: number,
  table: Float64Array,
  v: number,
): void {
  const rb = index.rowBase[h * index.size + index.mods[s0]!]!;
  // The group's triangle rows are contiguous: j + 1 slots for its j-th modifier.
  table.fill(v, rb - 1, rb - 1 + (k * (k + 1)) / 2);
}

/** Whether every modifier of a head side's group has that head as its only allowed head. */
function closedSide(mods: Int32Array, s0: number, k: number, headCount: Int32Array): boolean {
  for (let j = 0; j < k; j++) if (headCount[mods[s0 + j]!] !== 1) return false;
  return true;
}
