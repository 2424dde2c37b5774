/**
 * The training data of one rule classifier, aggregated: every example has exactly one binary feature
 * (a tag, or a tag triple), so identical examples are merged into one weighted example per feature and
 * label. `pos[f]` = how many examples with feature f belong to the filter class (+1: not a head, not
 * linked, …), `neg[f]` = how many are true (−1: the token heads something, the arc is in the tree, …).
 */
export interface AggregatedProblem {
  /** Weight of the +1 (remove) examples per feature. */
  pos: Float64Array;
  /** Weight of the −1 (keep) examples per feature. */
  neg: Float64Array;
}

/**
 * A learned rule classifier: the decision value of feature f is `w[f] + biasValue · bias`, and the
 * feature becomes a rule when it is positive.
 */
export interface RuleClassifierWeights {
  /** One weight per feature. */
  w: Float64Array;
  /** Weight of the constant bias feature (0 without one). */
  bias: number;
  /** Value of the bias feature in every example (0: no bias). */
  biasValue: number;
}

/**
 * Learns one rule classifier: a cost-sensitive linear SVM (L2 regularisation, hinge loss, cost c1 on
 * +1 examples and c2 ≫ c1 on −1 examples) on aggregated one-hot examples, each example also carrying a
 * constant feature of value `biasValue` (LIBLINEAR's -B; 0 for none), regularised like the others.
 */
export type RuleLearner = (
  problem: AggregatedProblem,
  c1: number,
  c2: number,
  biasValue: number,
) => RuleClassifierWeights;

/** Decision value of feature f: positive means "remove" (the feature is a rule). */
export function ruleDecision(r: RuleClassifierWeights, f: number): number {
  return r.w[f]! + r.biasValue * r.bias;
}

/**
 * The SVM objective of a rule classifier at (w, bias): ½‖w‖² + ½bias² + Σ_f [c1·pos[f]·max(0, 1 − u_f)
 * + c2·neg[f]·max(0, 1 + u_f)], u_f = w[f] + biasValue · bias.
 */
export function ruleObjective(
  p: AggregatedProblem,
  c1: number,
  c2: number,
  r: RuleClassifierWeights,
): number {
  let obj = 0.5 * r.bias * r.bias;
  const z = r.biasValue * r.bias;
  for (let f = 0; f < p.pos.length; f++) {
    const w = r.w[f]!;
    const u = w + z;
    obj += 0.5 * w * w + c1 * p.pos[f]! * Math.max(0, 1 - u) + c2 * p.neg[f]! * Math.max(0, 1 + u);
  }
  return obj;
}

/**
 * argmin_w ½w² + A·max(0, 1 − (w + z)) + B·max(0, 1 + (w + z)): the proximal step of the two hinges.
 * The hinges' slope in u = w + z is −A below −1, B − A between, B above 1, and the minimiser is
 * w = −slope where that is consistent, else a kink (u = ±1). Non-increasing and continuous in z.
 */
function featureWeight(A: number, B: number, z: number): number {
  if (z + A < -1) return A;
  if (z + A - B <= -1) return -1 - z;
  if (z + A - B < 1) return A - B;
  if (z - B <= 1) return 1 - z;
  return -B;
}

/**
 * The exact optimum of a rule classifier's SVM objective (`ruleObjective`). Without a bias the
 * objective splits into one convex function per feature, f(w) = ½w² + A·max(0, 1 − w) + B·max(0, 1 + w)
 * with A = c1·pos[f] and B = c2·neg[f], whose subdifferential contains 0 exactly at
 * w = clamp(A − B, −1, 1): a feature becomes a rule iff c1·pos > c2·neg, so every structural zero
 * (never true in training) becomes one, however rare. With a bias feature of value β the features are
 * coupled through z = β·bias only: for fixed z each w_f is the proximal step above (`featureWeight`),
 * and the remaining function of the bias is convex and differentiable with derivative
 * G(bias) = bias − β·Σ_f w_f(β·bias), non-decreasing and piecewise linear (breakpoints where some w_f
 * changes piece). Its root is found exactly: bracket it between breakpoints by bisection, then
 * interpolate on the linear piece. A negative bias then sets a count threshold: a structural zero
 * fires only when c1·pos > −z. It serves as the reference the iterative SVM must reach on these problems.
 */
export const exactRuleLearner: RuleLearner = (p, c1, c2, biasValue) => {
  const F = p.pos.length;
  const A = new Float64Array(F);
  const B = new Float64Array(F);
  for (let f = 0; f < F; f++) {
    A[f] = c1 * p.pos[f]!;
    B[f] = c2 * p.neg[f]!;
  }
  const beta = biasValue;
  let bias = 0;
  if (beta !== 0) {
    const G = (b: number): number => {
      const z = beta * b;
      let s = 0;
      for (let f = 0; f < F; f++) if (A[f]! !== 0 || B[f]! !== 0) s += featureWeight(A[f]!, B[f]!, z);
      return b - beta * s;
    };
    // The root lies in [−β·ΣB, β·ΣA] (each w_f is in [−B, A]); breakpoints inside that range.
    let sumA = 0;
    let sumB = 0;
    for (let f = 0; f < F; f++) {
      sumA += A[f]!;
      sumB += B[f]!;
    }
    const lo = -beta * sumB;
    const hi = beta * sumA;
    const pts: number[] = [lo, hi];
    for (let f = 0; f < F; f++) {
      const a = A[f]!;
      const c = B[f]!;
      if (a === 0 && c === 0) continue;
      for (const z of [-1 - a, -1 - a + c, 1 - a + c, 1 + c]) {
        const b = z / beta;
        if (b > lo && b < hi) pts.push(b);
      }
    }
    const xs = Float64Array.from(pts).sort();
    // Bisection over the breakpoints: G(xs[i]) ≤ 0 ≤ G(xs[j]).
    let i = 0;
    let j = xs.length - 1;
    let gi = G(xs[i]!);
    let gj = G(xs[j]!);
    if (gi >= 0) bias = xs[i]!;
    else if (gj <= 0) bias = xs[j]!;
    else {
      while (j - i > 1) {
        const k = (i + j) >> 1;
        const gk = G(xs[k]!);
        if (gk <= 0) {
          i = k;
          gi = gk;
        } else {
          j = k;
          gj = gk;
        }
      }
      // G is linear between consecutive breakpoints.
      bias = gi === gj ? xs[i]! : xs[i]! - (gi * (xs[j]! - xs[i]!)) / (gj - gi);
    }
  }
  const z = beta * bias;
  const w = new Float64Array(F);
  for (let f = 0; f < F; f++) w[f] = A[f]! === 0 && B[f]! === 0 ? 0 : featureWeight(A[f]!, B[f]!, z);
  return { w, bias, biasValue: beta };
};
