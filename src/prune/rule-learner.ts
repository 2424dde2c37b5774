import type { AggregatedProblem, RuleLearner } from "./train-rules.js";

/**
 * The exact optimum of the rule classifiers' SVM objective. Each aggregated rule problem has one-hot
 * examples and no bias, so the objective ½‖w‖² + c1 Σ₊ max(0, 1 − w·x) + c2 Σ₋ max(0, 1 + w·x) splits
 * into one convex function per feature, f(w) = ½w² + A·max(0, 1 − w) + B·max(0, 1 + w) with
 * A = c1·pos[f] and B = c2·neg[f]. Its subdifferential contains 0 exactly at w = clamp(A − B, −1, 1)
 * (inside (−1, 1) both hinges are active and f′ = w − A + B; at w = 1, 0 ∈ 1 + B − A·[0, 1] iff
 * A ≥ 1 + B; symmetrically at −1). So a feature becomes a rule iff c1·pos > c2·neg. It serves as the
 * reference the iterative SVM must reach on these problems.
 */
export const exactRuleLearner: RuleLearner = (p: AggregatedProblem, c1: number, c2: number) => {
  const w = new Float64Array(p.pos.length);
  for (let f = 0; f < w.length; f++) w[f] = Math.max(-1, Math.min(1, c1 * p.pos[f]! - c2 * p.neg[f]!));
  return w;
};
