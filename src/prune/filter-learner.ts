import type { SparseRows } from "./sparse-rows.js";

/**
 * A binary training problem of a filter: a subset of the rows of a shared feature matrix with labels
 * +1 (prune: not an arc, or the decision holds) and -1 (keep).
 */
export interface FilterProblem {
  /** The shared feature matrix. */
  x: SparseRows;
  /** The rows that take part (indices into `x`). */
  rows: Int32Array;
  /** One label per entry of `rows`: +1 or -1. */
  labels: Int8Array;
  /** Number of feature slots (weights to learn). */
  dim: number;
  /** Optional cost multiplier per entry of `rows` (e.g. 1/p for examples kept with probability p). */
  weights?: Float64Array;
}

/** Costs of a high-precision filter SVM: C1 for the prune class (+1), C2 ≫ C1 for the keep class (-1). */
export interface FilterCosts {
  c1: number;
  c2: number;
}

/**
 * Learns a weight vector (length `dim`) for a filter problem; positive scores mean "prune". A learner
 * may also offer `many`: several problems over the same feature matrix at once (e.g. in lockstep).
 */
export type FilterLearner = ((p: FilterProblem, costs: FilterCosts) => Float32Array) & {
  many?: (jobs: readonly FilterJob[]) => Float32Array[];
};

/** One problem and its costs, for `FilterLearner.many`. */
export interface FilterJob {
  problem: FilterProblem;
  costs: FilterCosts;
}

/** Learns every job: with the learner's `many` when it has one (4+ jobs sharing one matrix), else one by one. */
export function learnAll(learner: FilterLearner, jobs: readonly FilterJob[]): Float32Array[] {
  // Lockstep pays when the jobs fill most of a block of 8 weight lanes.
  if (learner.many !== undefined && jobs.length >= 4 && jobs.every((j) => j.problem.x === jobs[0]!.problem.x))
    return learner.many(jobs);
  return jobs.map((j) => learner(j.problem, j.costs));
}

/** Parses a cost grid "C1:C2,C1:C2,…" (e.g. "1:10,1:100"); null when the text is malformed. */
export function parseCostGrid(text: string): FilterCosts[] | null {
  const out: FilterCosts[] = [];
  for (const part of text.split(",")) {
    const m = /^\s*([0-9.eE+-]+)\s*:\s*([0-9.eE+-]+)\s*$/.exec(part);
    if (m === null) return null;
    const c1 = Number(m[1]);
    const c2 = Number(m[2]);
    if (!(c1 > 0) || !(c2 > 0) || !Number.isFinite(c1) || !Number.isFinite(c2)) return null;
    out.push({ c1, c2 });
  }
  return out.length > 0 ? out : null;
}
