import type { ArcMask } from "../mask/arc-mask.js";
import type { SiblingScorer } from "./parts-types.js";

/**
 * Sparse index of the sibling parts an arc mask allows, shared by the higher-order decoders. For each
 * head h and side (0 = left, 1 = right) it lists h's allowed modifiers from the closest to the farthest;
 * a modifier's position j in that list gives it a triangle row of j + 1 slots: slot `rowBase - 1` is
 * "no inner sibling" (s = h), slot `rowBase + i` is inner sibling = the i-th modifier of the list (i < j).
 * Only parts whose arcs are all allowed get a slot. Arrays grow as needed and are reused.
 */
export class SiblingIndex {
  /** Number of tokens of the indexed sentence. */
  n = 0;
  /** n + 1: row stride of `pos` and `rowBase`. */
  size = 0;
  /** Allowed modifiers, grouped by (head, side), each group ordered closest to farthest. */
  mods = new Int32Array(0);
  /** Start of group 2h + side in `mods`. */
  start = new Int32Array(0);
  /** Length of group 2h + side. */
  count = new Int32Array(0);
  /** pos[h * size + m]: index of m in h's group on m's side, or -1 when h→m is pruned. */
  pos = new Int32Array(0);
  /** rowBase[h * size + m]: slot of inner sibling index 0 in m's triangle row (valid when pos ≥ 0). */
  rowBase = new Int32Array(0);
  /** Allowed heads of each modifier in increasing order, grouped by modifier; the root's group is [-1]. */
  heads = new Int32Array(0);
  /** Start of modifier m's group in `heads`. */
  headStart = new Int32Array(0);
  /** Length of modifier m's group in `heads`. */
  headCount = new Int32Array(0);
  /** Number of triangle slots (sibling parts including "no inner sibling"). */
  triSize = 0;
  /** Number of allowed arcs. */
  arcs = 0;

  /** Rebuilds the index for a mask. */
  build(mask: ArcMask): void {
    const n = mask.n;
    const size = n + 1;
    const bits = mask.bits;
    this.n = n;
    this.size = size;
    if (this.pos.length < size * size) {
      this.pos = new Int32Array(size * size);
      this.rowBase = new Int32Array(size * size);
      this.mods = new Int32Array(size * size);
      this.heads = new Int32Array(size * size + 1);
    }
    if (this.start.length < 2 * size) {
      this.start = new Int32Array(2 * size);
      this.count = new Int32Array(2 * size);
      this.headStart = new Int32Array(size);
      this.headCount = new Int32Array(size);
    }
    const { pos, rowBase, mods, start, count } = this;
    pos.fill(-1, 0, size * size);
    let k = 0;
    let tri = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      // Left group: h-1 down to 1.
      start[2 * h] = k;
      let j = 0;
      for (let m = h - 1; m >= 1; m--) {
        if (bits[row + m] !== 1) continue;
        mods[k++] = m;
        pos[row + m] = j;
        rowBase[row + m] = tri + 1;
        tri += j + 1;
        j++;
      }
      count[2 * h] = j;
      // Right group: h+1 up to n.
      start[2 * h + 1] = k;
      j = 0;
      for (let m = h + 1; m <= n; m++) {
        if (bits[row + m] !== 1) continue;
        mods[k++] = m;
        pos[row + m] = j;
        rowBase[row + m] = tri + 1;
        tri += j + 1;
        j++;
      }
      count[2 * h + 1] = j;
    }
    this.arcs = k;
    this.triSize = tri;
    const { heads, headStart, headCount } = this;
    heads[0] = -1;
    headStart[0] = 0;
    headCount[0] = 1;
    let q = 1;
    for (let m = 1; m <= n; m++) {
      headStart[m] = q;
      for (let h = 0; h <= n; h++) if (bits[h * size + m] === 1) heads[q++] = h;
      headCount[m] = q - headStart[m]!;
    }
  }
}

/**
 * Fills `table` (length ≥ index.triSize) with arc(h, m) + sib(h, s, m) for every allowed sibling part,
 * asking the scorer once per part; with `singleRoot` the root's parts with an inner sibling are skipped
 * (they cannot occur). Returns the number of part scores asked for.
 */
export function scoreSiblingTable(
  index: SiblingIndex,
  scorer: SiblingScorer,
  table: Float64Array,
  singleRoot: boolean,
): number {
  const { n, mods, start, count, rowBase, size } = index;
  let asked = 0;
  for (let h = 0; h <= n; h++) {
    for (let side = 0; side < 2; side++) {
      const g = 2 * h + side;
      const s0 = start[g]!;
      const k = count[g]!;
      const withSiblings = !(singleRoot && h === 0);
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
