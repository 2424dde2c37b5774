/**
 * The linear-size vine representation of Rush & Petrov (2012) used by the cascade's first pass, after
 * the vine grammar of Eisner & Smith (2005). For band b ≥ 1, every token m = 1..n receives exactly
 * one incoming part:
 *   - a short arc h→m with 1 ≤ h ≤ n and 1 ≤ |h − m| ≤ b;
 *   - the root arc 0→m, of any length (the root is position 0: a root arc is never "long", so that
 *     single-root parsing stays exact and every root arc keeps its own score and max-marginal);
 *   - the left outer arc ←m, standing for every long arc h→m with 1 ≤ h < m − b;
 *   - the right outer arc →m, standing for every long arc h→m with m + b < h ≤ n.
 * A tree maps to its vine structure by replacing each long arc with the outer arc on its side
 * (`toVineStructure`). In a head array of a vine structure ("vine heads"), heads[m] is h for a short
 * arc, 0 for the root arc, VINE_LEFT or VINE_RIGHT for an outer arc; heads[0] = -1.
 *
 * Score layouts (arrays may be longer; row 0 is unused):
 *   - short[m · 2b + slot]: slots 0..b−1 are heads m − b … m − 1, slots b..2b−1 heads m + 1 … m + b
 *     (`vineShortIndex`); slots whose head lies outside 1..n are never read;
 *   - root[m]: arc 0→m;
 *   - outer[2m] = ←m (head to the left), outer[2m + 1] = →m (head to the right);
 *   - headOuter[2h] = h⇠ (h heads a long arc to its left, into an m < h − b), headOuter[2h + 1] = h⇢
 *     (a long arc to its right, into an m > h + b): the head-side outer arcs, one per token and side,
 *     standing for every long arc out of h on that side. With them (see `VineParser`), the outer arc
 *     of m is taken together with the head-side outer arc of one head beyond the band, and a long arc
 *     survives pruning only when the outer arcs at both of its ends do.
 */

import type { ArcMask } from "../mask/arc-mask.js";
import { isProjective, isTree } from "./tree-predicates.js";

/** Vine head of a token whose head lies more than b to its left (left outer arc). */
export const VINE_LEFT = -2;
/** Vine head of a token whose head lies more than b to its right (right outer arc). */
export const VINE_RIGHT = -3;

/** Slot of head h in the short-arc row of modifier m (requires 1 ≤ |h − m| ≤ band). */
export function vineSlot(band: number, h: number, m: number): number {
  return h < m ? h - m + band : h - m + band - 1;
}

/** Index of short arc h→m (1 ≤ h ≤ n, 1 ≤ |h − m| ≤ band) in a band layout: m · 2·band + slot. */
export function vineShortIndex(band: number, h: number, m: number): number {
  return m * 2 * band + (h < m ? h - m + band : h - m + band - 1);
}

/** Head position of a slot in the short-arc row of modifier m (may fall outside 1..n). */
export function vineSlotHead(band: number, m: number, slot: number): number {
  return slot < band ? m - band + slot : m + slot - band + 1;
}

/** Arc scores of one sentence in the vine layout (see the file comment); grows and is reused. */
export class VineScores {
  /** Band b: the longest short arc. */
  readonly band: number;
  /** Short-arc scores, short[m · 2b + slot]. */
  short = new Float64Array(0);
  /** Root-arc scores, root[m]. */
  root = new Float64Array(0);
  /** Outer-arc scores, outer[2m] (left) and outer[2m + 1] (right). */
  outer = new Float64Array(0);
  /** Head-side outer-arc scores, headOuter[2h] (long arcs to h's left) and headOuter[2h + 1] (right). */
  headOuter = new Float64Array(0);

  constructor(band: number) {
    checkBand(band);
    this.band = band;
  }

  /** Makes room for n tokens (keeps old contents only when no growth was needed). */
  ensure(n: number): this {
    const rows = n + 1;
    if (this.root.length < rows) {
      const cap = Math.max(rows, Math.ceil(this.root.length * 1.5));
      this.short = new Float64Array(cap * 2 * this.band);
      this.root = new Float64Array(cap);
      this.outer = new Float64Array(cap * 2);
      this.headOuter = new Float64Array(cap * 2);
    }
    return this;
  }
}

/** Throws unless band is an integer ≥ 1. */
export function checkBand(band: number): void {
  if (!Number.isInteger(band) || band < 1) throw new Error(`vine: band must be an integer ≥ 1, got ${band}`);
}

/**
 * The vine structure of a tree (heads[m] for m = 1..n): short and root arcs kept, each arc longer
 * than `band` between two tokens replaced by the outer arc on its side. Writes into `out` if given.
 */
export function toVineStructure(
  heads: ArrayLike<number>,
  n: number,
  band: number,
  out: Int32Array = new Int32Array(n + 1),
): Int32Array {
  out[0] = -1;
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    out[m] = h === 0 || Math.abs(h - m) <= band ? h : h < m ? VINE_LEFT : VINE_RIGHT;
  }
  return out;
}

/** Score of a vine structure: the sum of its parts' scores (parts are not checked for usability). */
export function vineStructureScore(
  vineHeads: ArrayLike<number>,
  n: number,
  band: number,
  scores: { short: ArrayLike<number>; root: ArrayLike<number>; outer: ArrayLike<number> },
): number {
  let s = 0;
  for (let m = 1; m <= n; m++) {
    const h = vineHeads[m]!;
    if (h === 0) s += scores.root[m]!;
    else if (h === VINE_LEFT) s += scores.outer[2 * m]!;
    else if (h === VINE_RIGHT) s += scores.outer[2 * m + 1]!;
    else s += scores.short[vineShortIndex(band, h, m)]!;
  }
  return s;
}

/**
 * The Eisner–Smith vine tree of a vine structure: every token with a root or outer arc hangs from the
 * root, short arcs stay. Writes into `out` if given.
 */
export function vineTree(
  vineHeads: ArrayLike<number>,
  n: number,
  out: Int32Array = new Int32Array(n + 1),
): Int32Array {
  out[0] = -1;
  for (let m = 1; m <= n; m++) {
    const h = vineHeads[m]!;
    out[m] = h < 0 ? 0 : h;
  }
  return out;
}

/**
 * Whether vine heads form a structure of the vine parser's structure set (see `VineParser`): every
 * part usable (short arcs within the band, outer arcs standing for at least one long arc, every arc
 * and at least one long arc per outer arc allowed by `mask` when given), the vine tree a projective
 * tree, exactly one root arc with `singleRoot` (at least one without), the fragment containing token
 * 1 not attached by a left outer arc and the fragment containing token n not by a right one.
 */
export function isVineStructure(
  vineHeads: ArrayLike<number>,
  n: number,
  band: number,
  singleRoot: boolean,
  mask: ArcMask | null = null,
): boolean {
  let roots = 0;
  for (let m = 1; m <= n; m++) {
    const h = vineHeads[m]!;
    if (h === 0) {
      roots++;
      if (mask !== null && !mask.allows(0, m)) return false;
    } else if (h === VINE_LEFT) {
      if (!longArcAllowed(mask, 1, m - band - 1, m)) return false;
    } else if (h === VINE_RIGHT) {
      if (!longArcAllowed(mask, m + band + 1, n, m)) return false;
    } else {
      if (!Number.isInteger(h) || h < 1 || h > n || h === m || Math.abs(h - m) > band) return false;
      if (mask !== null && !mask.allows(h, m)) return false;
    }
  }
  if (singleRoot ? roots !== 1 : roots < 1) return false;
  const tree = vineTree(vineHeads, n);
  if (!isTree(tree, n) || !isProjective(tree, n)) return false;
  if (n > 0 && vineHeads[fragmentHead(tree, 1)] === VINE_LEFT) return false;
  if (n > 0 && vineHeads[fragmentHead(tree, n)] === VINE_RIGHT) return false;
  return true;
}

/** Whether some arc h→m with lo ≤ h ≤ hi is allowed (any, when mask is null and lo ≤ hi). */
function longArcAllowed(mask: ArcMask | null, lo: number, hi: number, m: number): boolean {
  for (let h = lo; h <= hi; h++) if (mask === null || mask.allows(h, m)) return true;
  return false;
}

/** The child of the root whose subtree contains token m. */
function fragmentHead(tree: ArrayLike<number>, m: number): number {
  let x = m;
  while (tree[x] !== 0) x = tree[x]!;
  return x;
}
