/**
 * The search over combinations of per-decision operating points (Bergsma & Cherry 2010, §4.3,
 * "Combining linear decisions"), exact over a grid of nested candidates.
 *
 * Each decision d has candidates 1..k_d, nested: candidate j removes a superset of what candidate
 * j - 1 removes (lower thresholds on one model); 0 switches the decision off. An arc's *signature*
 * records, per decision, the first candidate that removes it (k_d + 1 = none does). A combination
 * (j_1 … j_D) removes an arc iff j_d ≥ signature_d for some d, so the union of removals is counted
 * over distinct signatures (aggregated with their arc and gold-arc counts) instead of over arcs.
 * The depth-first search sorts the surviving signatures by the current decision's level once per node
 * (then every choice keeps a prefix), stops a branch when gold losses exceed the budget (they only
 * grow) or when even removing every removable arc cannot beat the best combination found.
 */
export interface CombinationProblem {
  /** Number of decisions D. */
  readonly decisions: number;
  /** Per decision, its number of candidates k_d (≤ 254). */
  readonly candidates: readonly number[];
  /** Number of distinct signatures S. */
  readonly size: number;
  /** levels[s * D + d]: first candidate of decision d removing signature s's arcs (> k_d: none). */
  readonly levels: Uint8Array;
  /** Arcs with each signature. */
  readonly count: Float64Array;
  /** Gold arcs with each signature. */
  readonly gold: Float64Array;
}

/** The best combination found. */
export interface CombinationResult {
  /** Per decision, the chosen candidate (0 = off). */
  choice: number[];
  /** Arcs it removes (over the signatures' arcs). */
  removed: number;
  /** Gold arcs it removes. */
  goldLost: number;
  /** Search nodes visited (for reporting the search's cost). */
  nodes: number;
}

/** Most candidates per decision a `SignatureTable` accepts (levels fit in 4 bits). */
export const MAX_CANDIDATES = 14;

/** Aggregates arc signatures into a `CombinationProblem` (at most 13 decisions of ≤ 14 candidates). */
export class SignatureTable {
  private readonly index = new Map<number, number>();
  private levels: number[] = [];
  private count: number[] = [];
  private gold: number[] = [];

  constructor(
    /** Per decision, its number of candidates. */
    readonly candidates: readonly number[],
  ) {
    if (candidates.length > 13 || candidates.some((k) => !(k >= 0 && k <= MAX_CANDIDATES)))
      throw new RangeError(`SignatureTable: at most 13 decisions of at most ${MAX_CANDIDATES} candidates`);
  }

  /** Adds `arcs` arcs (of which `gold` are gold) with per-decision levels `lv` (D entries). */
  add(lv: ArrayLike<number>, arcs = 1, gold = 0): void {
    const D = this.candidates.length;
    let removable = false;
    let key = 0;
    for (let d = 0; d < D; d++) {
      const none = this.candidates[d]! + 1;
      const l = lv[d]! < none ? lv[d]! : none;
      if (l < none) removable = true;
      key = key * 16 + l;
    }
    // Arcs no candidate removes never change a combination's counts.
    if (!removable) return;
    let s = this.index.get(key);
    if (s === undefined) {
      s = this.count.length;
      this.index.set(key, s);
      for (let d = 0; d < D; d++) this.levels.push(Math.min(lv[d]!, this.candidates[d]! + 1));
      this.count.push(0);
      this.gold.push(0);
    }
    this.count[s]! += arcs;
    this.gold[s]! += gold;
  }

  /** Number of distinct signatures so far. */
  get size(): number {
    return this.count.length;
  }

  /** The aggregated problem. */
  problem(): CombinationProblem {
    return {
      decisions: this.candidates.length,
      candidates: this.candidates.slice(),
      size: this.count.length,
      levels: Uint8Array.from(this.levels),
      count: Float64Array.from(this.count),
      gold: Float64Array.from(this.gold),
    };
  }
}

/** Arcs and gold arcs a given combination removes (0 = decision off). */
export function evaluateCombination(
  p: CombinationProblem,
  choice: readonly number[],
): { removed: number; goldLost: number } {
  const D = p.decisions;
  let removed = 0;
  let goldLost = 0;
  for (let s = 0; s < p.size; s++) {
    for (let d = 0; d < D; d++) {
      const j = choice[d]!;
      if (j > 0 && p.levels[s * D + d]! <= j) {
        removed += p.count[s]!;
        goldLost += p.gold[s]!;
        break;
      }
    }
  }
  return { removed, goldLost };
}

/**
 * The combination removing the most arcs while removing at most `budget` gold arcs (ties: fewer gold
 * arcs lost). Exact over the candidate grid.
 */
export function searchCombinations(p: CombinationProblem, budget: number): CombinationResult {
  const D = p.decisions;
  const S = p.size;
  const k = p.candidates;
  // Search the decisions that can remove the most first: strong early choices tighten the bound.
  const reach = new Float64Array(D);
  for (let s = 0; s < S; s++)
    for (let d = 0; d < D; d++) if (p.levels[s * D + d]! <= k[d]!) reach[d]! += p.count[s]!;
  const order = Array.from({ length: D }, (_, d) => d).sort((a, b) => reach[b]! - reach[a]!);
  // last[s]: deepest search depth whose decision can still remove signature s.
  const last = new Int32Array(S).fill(-1);
  for (let s = 0; s < S; s++)
    for (let depth = 0; depth < D; depth++)
      if (p.levels[s * D + order[depth]!]! <= k[order[depth]!]!) last[s] = depth;
  const buffers: Int32Array[] = [];
  for (let depth = 0; depth <= D; depth++) buffers.push(new Int32Array(S));
  for (let s = 0; s < S; s++) buffers[0]![s] = s;
  const maxK = Math.max(0, ...k);
  const bucketStart: Int32Array[] = [];
  const bucketCount: Float64Array[] = [];
  const bucketGold: Float64Array[] = [];
  const bucketSize: Int32Array[] = [];
  for (let depth = 0; depth < D; depth++) {
    bucketStart.push(new Int32Array(maxK + 2));
    bucketCount.push(new Float64Array(maxK + 2));
    bucketGold.push(new Float64Array(maxK + 2));
    bucketSize.push(new Int32Array(maxK + 2));
  }
  const choice = new Int32Array(D);
  const best = { choice: new Array<number>(D).fill(0), removed: -1, goldLost: 0, nodes: 0 };

  const visit = (depth: number, alive: number, removed: number, lost: number): void => {
    best.nodes++;
    if (depth === D) {
      if (removed > best.removed || (removed === best.removed && lost < best.goldLost)) {
        best.removed = removed;
        best.goldLost = lost;
        for (let d = 0; d < D; d++) best.choice[order[d]!] = choice[d]!;
      }
      return;
    }
    const d = order[depth]!;
    const kd = k[d]!;
    const src = buffers[depth]!;
    const dst = buffers[depth + 1]!;
    const size = bucketSize[depth]!;
    const cnt = bucketCount[depth]!;
    const gld = bucketGold[depth]!;
    const start = bucketStart[depth]!;
    size.fill(0, 0, kd + 2);
    cnt.fill(0, 0, kd + 2);
    gld.fill(0, 0, kd + 2);
    let removable = 0;
    for (let a = 0; a < alive; a++) {
      const s = src[a]!;
      const lv = p.levels[s * D + d]!;
      size[lv]!++;
      cnt[lv]! += p.count[s]!;
      gld[lv]! += p.gold[s]!;
      if (last[s]! >= depth) removable += p.count[s]!;
    }
    if (removed + removable < best.removed) return;
    // Counting sort, descending level: the signatures surviving candidate j are a prefix.
    let at = 0;
    for (let lv = kd + 1; lv >= 1; lv--) {
      start[lv] = at;
      at += size[lv]!;
    }
    for (let a = 0; a < alive; a++) {
      const s = src[a]!;
      const lv = p.levels[s * D + d]!;
      dst[start[lv]!++] = s;
    }
    let keep = alive;
    let r = removed;
    let g = lost;
    for (let j = 0; j <= kd; j++) {
      if (j > 0) {
        keep -= size[j]!;
        r += cnt[j]!;
        g += gld[j]!;
        if (g > budget) break;
        // A candidate that removes nothing more than the previous one is the same combination.
        if (size[j] === 0) continue;
      }
      choice[depth] = j;
      visit(depth + 1, keep, r, g);
    }
    choice[depth] = 0;
  };
  visit(0, S, 0, 0);
  if (best.removed < 0) best.removed = 0;
  return { choice: best.choice, removed: best.removed, goldLost: best.goldLost, nodes: best.nodes };
}
