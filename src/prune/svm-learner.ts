import { type SvmLoss, trainLinearSvm } from "../learn/linear-svm.js";
import { trainLinearSvms } from "../learn/multi-svm.js";
import type { FilterCosts, FilterJob, FilterLearner, FilterProblem } from "./filter-learner.js";

/** Options of the filters' SVM learner. */
export interface SvmLearnerOptions {
  /** Loss (default "l1", the hinge, as in the paper). */
  loss?: SvmLoss;
  /** Stopping tolerance of dual coordinate descent (default 0.1, LIBLINEAR's). */
  eps?: number;
  /** Most passes over the data (default 1000). */
  maxIter?: number;
  /** Train jobs over one feature matrix in lockstep with `trainLinearSvms` (default true). */
  lockstep?: boolean;
  /** Called after each training run (passes, convergence, seconds). */
  onTrained?: (info: { rows: number; iterations: number; converged: boolean; seconds: number }) => void;
}

/**
 * The learner of the linear and quadratic filters with options: the cost-sensitive L2-regularised
 * linear SVM of src/learn (dual coordinate descent), cost C1 on the prune class (+1) and C2 on the
 * keep class (-1). The filters' features carry their own constant (bias) feature.
 */
export function makeSvmLearner(opts: SvmLearnerOptions = {}): FilterLearner {
  const svmOpts = { loss: opts.loss ?? "l1", eps: opts.eps ?? 0.1, maxIter: opts.maxIter ?? 1000 };
  const costsOf = (p: FilterProblem, c: FilterCosts) => {
    const cost = new Float64Array(p.rows.length);
    for (let k = 0; k < cost.length; k++)
      cost[k] = (p.labels[k] === 1 ? c.c1 : c.c2) * (p.weights === undefined ? 1 : p.weights[k]!);
    return cost;
  };
  const learner: FilterLearner = (p: FilterProblem, c: FilterCosts): Float32Array => {
    const t0 = performance.now();
    const r = trainLinearSvm(p.x, p.rows, p.labels, costsOf(p, c), p.dim, svmOpts);
    opts.onTrained?.({
      rows: p.rows.length,
      iterations: r.iterations,
      converged: r.converged,
      seconds: (performance.now() - t0) / 1000,
    });
    return Float32Array.from(r.w);
  };
  if (opts.lockstep ?? true)
    learner.many = (jobs: readonly FilterJob[]): Float32Array[] => {
      const t0 = performance.now();
      const x = jobs[0]!.problem.x;
      const dim = Math.max(...jobs.map((j) => j.problem.dim));
      const tasks = jobs.map((j) => ({
        rows: j.problem.rows,
        labels: j.problem.labels,
        cost: costsOf(j.problem, j.costs),
      }));
      const res = trainLinearSvms(x, tasks, dim, svmOpts);
      const seconds = (performance.now() - t0) / 1000;
      return res.map((r, t) => {
        opts.onTrained?.({
          rows: tasks[t]!.rows.length,
          iterations: r.iterations,
          converged: r.converged,
          seconds,
        });
        return Float32Array.from(r.w.subarray(0, jobs[t]!.problem.dim));
      });
    };
  return learner;
}

/** The learner of the linear and quadratic filters with default options (L1 loss, eps 0.1). */
export const svmLearner: FilterLearner = makeSvmLearner();
