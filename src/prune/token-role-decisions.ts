import type { ArcMask } from "../mask/arc-mask.js";

/**
 * The eight token-role decisions of the linear filter (Bergsma & Cherry 2010, §4.3), in the order of
 * their weight vectors. The root is position 0, left of every token, so "on the left" includes it.
 * - no-head: the token heads nothing (a leaf): every arc it heads goes.
 * - head-left: its head is on its left (the paper's Right-∅: no head on the right): heads h > i go.
 * - head-right: its head is on its right (Left-∅: no head on the left): heads h < i go, root included.
 * - left-5 / right-5: its head is within 5 positions on that side: every other head goes.
 * - left-1 / right-1: its head is its immediate neighbour on that side: every other head goes.
 * - root: it is the sentence's root (at most one per sentence: the best-scoring token whose root arc
 *   survives): it keeps only its root arc, every other token loses its root arc and, for projective
 *   parsing, no arc may cross it.
 */
export const ROLE_NAMES = [
  "no-head",
  "head-left",
  "head-right",
  "left-5",
  "right-5",
  "left-1",
  "right-1",
  "root",
] as const;

/** Name of a token-role decision. */
export type RoleName = (typeof ROLE_NAMES)[number];

/** The paper's names of the decisions (Tables 5 and 6), in `ROLE_NAMES` order. */
export const ROLE_PAPER_NAMES: readonly string[] = [
  "No-Head",
  "Right-∅",
  "Left-∅",
  "Left-5",
  "Right-5",
  "Left-1",
  "Right-1",
  "Root",
];

/** Number of token-role decisions (weight vectors) of the linear filter. */
export const NUM_ROLES = 8;

/** Indices of the decisions in `ROLE_NAMES`. */
export const ROLE = {
  noHead: 0,
  headLeft: 1,
  headRight: 2,
  left5: 3,
  right5: 4,
  left1: 5,
  right1: 6,
  root: 7,
} as const;

/** Distance of the within-k decisions. */
export const ROLE_NEAR = 5;

/**
 * Lowest allowed head of token i (of n) when directional decision d (1..6; 7 = root) is positive;
 * `roleHi` gives the highest. Every decision keeps one interval of head positions.
 */
export function roleLo(d: number, i: number): number {
  switch (d) {
    case ROLE.headRight:
    case ROLE.right5:
    case ROLE.right1:
      return i + 1;
    case ROLE.left5:
      return i - ROLE_NEAR > 0 ? i - ROLE_NEAR : 0;
    case ROLE.left1:
      return i - 1;
    default:
      return 0;
  }
}

/** Highest allowed head of token i (of n) when directional decision d is positive (see `roleLo`). */
export function roleHi(d: number, i: number, n: number): number {
  switch (d) {
    case ROLE.headLeft:
    case ROLE.left5:
    case ROLE.left1:
      return i - 1;
    case ROLE.right5:
      return i + ROLE_NEAR < n ? i + ROLE_NEAR : n;
    case ROLE.right1:
      return i + 1;
    case ROLE.root:
      return 0;
    default:
      return n;
  }
}

/**
 * Gold labels of the eight decisions for every token of a tree: out[i * 8 + d] = 1 when decision d
 * holds for token i (heads[i] for i = 1..n). `dependents` is scratch of at least n + 1 entries.
 */
export function roleLabels(
  heads: ArrayLike<number>,
  n: number,
  dependents: Int32Array,
  out: Uint8Array,
): void {
  dependents.fill(0, 0, n + 1);
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    if (h >= 0) dependents[h]!++;
  }
  for (let i = 1; i <= n; i++) {
    const g = heads[i]!;
    const o = i * NUM_ROLES;
    out[o + ROLE.noHead] = dependents[i] === 0 ? 1 : 0;
    for (let d = 1; d <= 6; d++) out[o + d] = g >= roleLo(d, i) && g <= roleHi(d, i, n) ? 1 : 0;
    out[o + ROLE.root] = g === 0 ? 1 : 0;
  }
}

/**
 * Whether a positive decision d for token i would remove at least one arc `mask` still allows (for
 * root: whether i's root arc survives, i.e. whether i can be the root at all). Training and tuning
 * only look at these tokens.
 */
export function roleActive(mask: ArcMask, d: number, i: number): boolean {
  const n = mask.n;
  const size = mask.size;
  const bits = mask.bits;
  if (d === ROLE.noHead) {
    const row = i * size;
    for (let m = 1; m <= n; m++) if (bits[row + m] === 1) return true;
    return false;
  }
  if (d === ROLE.root) return bits[i] === 1;
  const lo = roleLo(d, i);
  const hi = roleHi(d, i, n);
  for (let h = 0; h < lo; h++) if (bits[h * size + i] === 1) return true;
  for (let h = hi + 1; h <= n; h++) if (bits[h * size + i] === 1) return true;
  return false;
}

/**
 * Applies token-role decisions to a mask, in place, in O(n + removed arcs): positive[i * 8 + d] = 1
 * when decision d (0..6) fires for token i; `root` is the token decided to be the root (or -1);
 * `crossRoot` also removes the arcs that would cross that root (sound for projective trees).
 */
export function applyRoles(mask: ArcMask, positive: Uint8Array, root: number, crossRoot: boolean): void {
  const n = mask.n;
  const size = mask.size;
  const bits = mask.bits;
  for (let i = 1; i <= n; i++) {
    const o = i * NUM_ROLES;
    if (positive[o + ROLE.noHead] === 1) bits.fill(0, i * size, i * size + size);
    let lo = 0;
    let hi = n;
    for (let d = 1; d <= 6; d++) {
      if (positive[o + d] === 0) continue;
      const l = roleLo(d, i);
      const h = roleHi(d, i, n);
      if (l > lo) lo = l;
      if (h < hi) hi = h;
    }
    if (i === root) {
      if (lo > 0) hi = -1;
      lo = 0;
      if (hi > 0) hi = 0;
    }
    if (lo === 0 && hi === n) continue;
    for (let h = 0; h < lo && h <= n; h++) bits[h * size + i] = 0;
    for (let h = hi + 1 > 0 ? hi + 1 : 0; h <= n; h++) bits[h * size + i] = 0;
  }
  if (root < 1) return;
  for (let m = 1; m <= n; m++) if (m !== root) bits[m] = 0;
  if (!crossRoot) return;
  for (let h = 1; h < root; h++) bits.fill(0, h * size + root + 1, h * size + size);
  for (let h = root + 1; h <= n; h++) bits.fill(0, h * size + 1, h * size + root);
}

/**
 * Turns scores into decisions: positive[i * 8 + d] = score > threshold for decisions 0..6, and returns
 * the root: the best-scoring token above the root threshold whose root arc `mask` still allows (-1:
 * none). scores[i * 8 + d] for i = 1..n.
 */
export function decideRoles(
  scores: Float64Array,
  thresholds: ArrayLike<number>,
  mask: ArcMask,
  positive: Uint8Array,
): number {
  const n = mask.n;
  const bits = mask.bits;
  let root = -1;
  let best = thresholds[ROLE.root]!;
  for (let i = 1; i <= n; i++) {
    const o = i * NUM_ROLES;
    for (let d = 0; d < ROLE.root; d++) positive[o + d] = scores[o + d]! > thresholds[d]! ? 1 : 0;
    if (bits[i] === 1 && scores[o + ROLE.root]! > best) {
      best = scores[o + ROLE.root]!;
      root = i;
    }
  }
  return root;
}
