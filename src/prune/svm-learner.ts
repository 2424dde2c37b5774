import { type SvmLoss, trainLinearSvm } from "../learn/linear-svm.js";
import type { FilterCosts, FilterLearner, FilterProblem } from "./filter-learner.js";

/** Options of the filters' SVM learner. */
export interface SvmLearnerOptions {
  /** Loss (default "l1", the hinge, as in the paper). */
  loss?: SvmLoss;
  /** Stopping tolerance of dual coordinate descent (default 0.1, LIBLINEAR's). */
  eps?: number;
  /** Most passes over the data (default 1000). */
  maxIter?: number;
  /** Called after each training run (passes, convergence, seconds). */
  onTrained?: (info: { rows: number; iterations: number; converged: boolean; seconds: number }) => void;
}

/**
 * The learner of the linear and quadratic filters with options: the cost-sensitive L2-regularised
 * linear SVM of src/learn (dual coordinate descent), cost C1 on the prune class (+1) and C2 on the
 * keep class (-1). The filters' features carry their own constant (bias) feature.
 */
export function makeSvmLearner(opts: SvmLearnerOptions = {}): FilterLearner {
  return (p: FilterProblem, c: FilterCosts): Float32Array => {
    const t0 = performance.now();
    const cost = new Float64Array(p.rows.length);
    for (let k = 0; k < cost.length; k++) cost[k] = p.labels[k] === 1 ? c.c1 : c.c2;
    const r = trainLinearSvm(p.x, p.rows, p.labels, cost, p.dim, {
      loss: opts.loss ?? "l1",
      eps: opts.eps ?? 0.1,
      maxIter: opts.maxIter ?? 1000,
    });
    opts.onTrained?.({
      rows: p.rows.length,
      iterations: r.iterations,
      converged: r.converged,
      seconds: (performance.now() - t0) / 1000,
    });
    return Float32Array.from(r.w);
  };
}

/** The learner of the linear and quadratic filters with default options (L1 loss, eps 0.1). */
export const svmLearner: FilterLearner = makeSvmLearner();
