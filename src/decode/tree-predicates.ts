/** Checks on head arrays (heads[m] for m = 1..n, heads[0] = -1): tree shape, projectivity, root children, score. */

/** Whether heads[1..n] form a tree rooted at 0: every head in 0..n, no self-loop, no cycle. */
export function isTree(heads: ArrayLike<number>, n: number = heads.length - 1): boolean {
  if (heads.length < n + 1) return false;
  // Walk up from each token; a walk longer than n steps must be a cycle.
  for (let m = 1; m <= n; m++) {
    let x = m;
    let steps = 0;
    while (x !== 0) {
      const h = heads[x]!;
      if (!Number.isInteger(h) || h < 0 || h > n || h === x) return false;
      x = h;
      if (++steps > n) return false;
    }
  }
  return true;
}

/** Number of tokens whose head is the root. */
export function rootChildren(heads: ArrayLike<number>, n: number = heads.length - 1): number {
  let c = 0;
  for (let m = 1; m <= n; m++) if (heads[m] === 0) c++;
  return c;
}

/** Whether a tree (see `isTree`) is projective: no two arcs cross, the root being at position 0. */
export function isProjective(heads: ArrayLike<number>, n: number = heads.length - 1): boolean {
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    const a = h < m ? h : m;
    const b = h < m ? m : h;
    for (let k = m + 1; k <= n; k++) {
      const g = heads[k]!;
      const c = g < k ? g : k;
      const d = g < k ? k : g;
      if ((a < c && c < b && b < d) || (c < a && a < d && d < b)) return false;
    }
  }
  return true;
}

/** Sum of `scores[heads[m] * (n + 1) + m]` over m = 1..n. */
export function treeScore(
  heads: ArrayLike<number>,
  scores: ArrayLike<number>,
  n: number = heads.length - 1,
): number {
  const size = n + 1;
  let s = 0;
  for (let m = 1; m <= n; m++) s += scores[heads[m]! * size + m]!;
  return s;
}
