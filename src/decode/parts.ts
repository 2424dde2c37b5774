import type { GrandSiblingScorer, SiblingScorer } from "./parts-types.js";

/**
 * Sibling parts of a tree, one per modifier m = 1..n, as flat triples (h, s, m) at [3(m-1) .. 3(m-1)+2]:
 * h = heads[m], s = the adjacent child of h between h and m (s = h when there is none).
 */
export function siblingParts(heads: ArrayLike<number>): Int32Array {
  const n = heads.length - 1;
  const out = new Int32Array(3 * n);
  const last = new Int32Array(n + 1);
  for (let h = 0; h <= n; h++) last[h] = h;
  // Right children: inner sibling is the previous right child seen left to right.
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    if (h >= m) continue;
    const o = 3 * (m - 1);
    out[o] = h;
    out[o + 1] = last[h]!;
    out[o + 2] = m;
    last[h] = m;
  }
  for (let h = 0; h <= n; h++) last[h] = h;
  // Left children: inner sibling is the previous left child seen right to left.
  for (let m = n; m >= 1; m--) {
    const h = heads[m]!;
    if (h <= m) continue;
    const o = 3 * (m - 1);
    out[o] = h;
    out[o + 1] = last[h]!;
    out[o + 2] = m;
    last[h] = m;
  }
  return out;
}

/**
 * Grand-sibling parts of a tree, one per modifier m = 1..n, as flat quadruples (g, h, s, m) at
 * [4(m-1) ..]: h = heads[m], g = heads[h] (-1 when h is the root), s as in `siblingParts`.
 */
export function grandSiblingParts(heads: ArrayLike<number>): Int32Array {
  const n = heads.length - 1;
  const sib = siblingParts(heads);
  const out = new Int32Array(4 * n);
  for (let i = 0; i < n; i++) {
    const h = sib[3 * i]!;
    out[4 * i] = h === 0 ? -1 : heads[h]!;
    out[4 * i + 1] = h;
    out[4 * i + 2] = sib[3 * i + 1]!;
    out[4 * i + 3] = sib[3 * i + 2]!;
  }
  return out;
}

/** Score of a tree under the sibling factorization: Σ arc(h, m) + Σ sib(h, s, m). */
export function scoreSiblingTree(heads: ArrayLike<number>, scorer: SiblingScorer): number {
  const p = siblingParts(heads);
  let total = 0;
  for (let i = 0; i < p.length; i += 3)
    total += scorer.arc(p[i]!, p[i + 2]!) + scorer.sib(p[i]!, p[i + 1]!, p[i + 2]!);
  return total;
}

/** Score of a tree under the grand-sibling factorization: Σ arc + Σ sib + Σ grand + Σ gsib. */
export function scoreGrandSiblingTree(heads: ArrayLike<number>, scorer: GrandSiblingScorer): number {
  const p = grandSiblingParts(heads);
  let total = 0;
  for (let i = 0; i < p.length; i += 4) {
    const g = p[i]!;
    const h = p[i + 1]!;
    const s = p[i + 2]!;
    const m = p[i + 3]!;
    total += scorer.arc(h, m) + scorer.sib(h, s, m) + scorer.grand(g, h, m) + scorer.gsib(g, h, s, m);
  }
  return total;
}
