import type { FilterCosts, FilterProblem } from "../src/prune/filter-learner.js";

/**
 * A stand-in learner for tests of the filter trainers' mechanics (not an SVM, and not meant to be
 * good): each feature's weight is the smoothed log-ratio of its frequency among prune (+1) and keep
 * (-1) examples, the keep class weighted by C2 / C1.
 */
export function logOddsLearner(p: FilterProblem, c: FilterCosts): Float32Array {
  const pos = new Float64Array(p.dim);
  const neg = new Float64Array(p.dim);
  let np = 0;
  let nn = 0;
  for (let e = 0; e < p.rows.length; e++) {
    const r = p.rows[e]!;
    const into = p.labels[e] === 1 ? pos : neg;
    if (p.labels[e] === 1) np++;
    else nn++;
    for (let j = p.x.rowPtr[r]!; j < p.x.rowPtr[r + 1]!; j++) into[p.x.index[j]!]! += p.x.value[j]!;
  }
  const w = new Float32Array(p.dim);
  const ratio = c.c2 / c.c1;
  for (let f = 0; f < p.dim; f++)
    if (pos[f]! + neg[f]! > 0)
      w[f] =
        0.05 * (Math.log((pos[f]! + 0.5) / (np + 1)) - Math.log((ratio * neg[f]! + 0.5) / (ratio * nn + 1)));
  return w;
}
