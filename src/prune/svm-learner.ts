import { VineparseError } from "../errors.js";
import type { FilterCosts, FilterLearner, FilterProblem } from "./filter-learner.js";

/**
 * The learner of the linear and quadratic filters: the cost-sensitive linear SVM (L2-regularised,
 * L1-loss, dual coordinate descent) of src/learn.
 */
export const svmLearner: FilterLearner = (_p: FilterProblem, _c: FilterCosts): Float32Array => {
  throw new VineparseError("no-learner", "the filter SVM is not available in this build yet");
};
