import type { ArcMask } from "../mask/arc-mask.js";
import { isProjective } from "./tree-predicates.js";

export { isProjective, isTree, rootChildren, treeScore } from "./tree-predicates.js";

/** Which trees `enumerateTrees` yields; every constraint is off unless asked for. */
export interface EnumerateOptions {
  /** Only trees whose arcs the mask allows (null or absent = all arcs). */
  mask?: ArcMask | null;
  /** Only trees with exactly one root child. */
  singleRoot?: boolean;
  /** Only projective trees. */
  projective?: boolean;
}

/**
 * Every head array (heads[0] = -1, heads[m] for m = 1..n) forming a tree over n tokens and the root,
 * by depth-first search over head assignments with early cycle, mask and root-count checks. Meant for
 * tests with n ≤ 7 ((n + 1)^(n - 1) trees: 262,144 for n = 7). Each yielded array is a fresh copy.
 */
export function* enumerateTrees(n: number, options: EnumerateOptions = {}): Generator<Int32Array> {
  const mask = options.mask ?? null;
  const singleRoot = options.singleRoot ?? false;
  const projective = options.projective ?? false;
  const heads = new Int32Array(n + 1);
  heads[0] = -1;
  if (n === 0) {
    yield heads.slice();
    return;
  }
  // choice[m] = head currently assigned to m, -1 before the first one.
  const choice = new Int32Array(n + 2).fill(-1);
  let roots = 0;
  let m = 1;
  while (m >= 1) {
    if (m > n) {
      if ((!singleRoot || roots === 1) && (!projective || isProjective(heads, n))) yield heads.slice();
      m--;
      continue;
    }
    if (choice[m] === 0) roots--;
    let h = choice[m]! + 1;
    for (; h <= n; h++) {
      if (h === m) continue;
      if (mask !== null && !mask.allows(h, m)) continue;
      if (h === 0 && singleRoot && roots > 0) continue;
      // Follow h's assigned ancestors; reaching m closes a cycle.
      let x = h;
      while (x !== 0 && x !== m && x < m) x = heads[x]!;
      if (x === m) continue;
      break;
    }
    if (h > n) {
      choice[m] = -1;
      m--;
      continue;
    }
    choice[m] = h;
    heads[m] = h;
    if (h === 0) roots++;
    m++;
    if (m <= n) choice[m] = -1;
  }
}

/** Best tree by brute force under arc scores (`scores[h * (n + 1) + m]`), or null when none matches. */
export function bruteForceBest(
  n: number,
  scores: ArrayLike<number>,
  options: EnumerateOptions = {},
): { heads: Int32Array; score: number } | null {
  const size = n + 1;
  let best: { heads: Int32Array; score: number } | null = null;
  for (const heads of enumerateTrees(n, options)) {
    let s = 0;
    for (let m = 1; m <= n; m++) s += scores[heads[m]! * size + m]!;
    if (best === null || s > best.score) best = { heads, score: s };
  }
  return best;
}
