import type { SparseRows } from "../prune/sparse-rows.js";
import { Rng } from "../util/rng.js";

/** Hinge loss max(0, 1 − y·w·x) ("l1") or its square ("l2"). */
export type SvmLoss = "l1" | "l2";

/** Options of `trainLinearSvm`. */
export interface LinearSvmOptions {
  /** Loss (default "l1", the hinge). */
  loss?: SvmLoss;
  /** Stop when the spread of projected gradients falls below eps (LIBLINEAR's criterion; default 0.1). */
  eps?: number;
  /** Most passes over the data (default 1000). */
  maxIter?: number;
  /** Seed of the order in which coordinates are visited (default 1). */
  seed?: number;
}

/** A trained linear SVM: weights, passes made and whether the stopping criterion was met. */
export interface LinearSvmResult {
  /** One weight per feature slot; w·x > 0 predicts +1. */
  w: Float64Array;
  /** Dual variables, one per training row (entry of `rows`). */
  alpha: Float64Array;
  /** Passes over the active rows. */
  iterations: number;
  /** True when the projected-gradient spread fell below eps before maxIter. */
  converged: boolean;
}

/**
 * Cost-sensitive L2-regularised linear SVM by dual coordinate descent with shrinking (Hsieh, Chang,
 * Lin, Keerthi & Sundararajan, ICML 2008, the solver of LIBLINEAR's -s 1 / -s 3):
 *
 *   min_w ½‖w‖² + Σ_i C_i ξ(1 − y_i w·x_i),  ξ(z) = max(0, z) ("l1") or max(0, z)² ("l2").
 *
 * Its dual is min_α ½ αᵀ(Q + D)α − Σ α_i with 0 ≤ α_i ≤ U_i, Q_ij = y_i y_j x_i·x_j, and
 * (D_ii, U_i) = (0, C_i) for l1, (1 / (2C_i), ∞) for l2; w = Σ α_i y_i x_i is kept up to date, so one
 * coordinate step costs O(nnz(x_i)). Per-example costs make it cost-sensitive (C1 for one class, C2
 * for the other) and let one row stand for many identical examples (cost × count). There is no bias
 * term: give the rows a constant feature if one is wanted (it is then regularised like the others).
 *
 * `rows` selects the examples from `x` and `labels[k]` (±1) / `cost[k]` (> 0) belong to `rows[k]`.
 */
export function trainLinearSvm(
  x: SparseRows,
  rows: Int32Array,
  labels: Int8Array,
  cost: Float64Array,
  dim: number,
  opts: LinearSvmOptions = {},
): LinearSvmResult {
  const l2 = (opts.loss ?? "l1") === "l2";
  const eps = opts.eps ?? 0.1;
  const maxIter = opts.maxIter ?? 1000;
  const rng = new Rng(opts.seed ?? 1);
  const N = rows.length;
  const { rowPtr, index, value } = x;
  const w = new Float64Array(dim);
  const alpha = new Float64Array(N);
  const qd = new Float64Array(N);
  const diag = new Float64Array(N);
  const upper = new Float64Array(N);
  for (let k = 0; k < N; k++) {
    const r = rows[k]!;
    let s = 0;
    for (let p = rowPtr[r]!; p < rowPtr[r + 1]!; p++) s += value[p]! * value[p]!;
    diag[k] = l2 ? 0.5 / cost[k]! : 0;
    upper[k] = l2 ? Number.POSITIVE_INFINITY : cost[k]!;
    qd[k] = s + diag[k]!;
  }
  const order = new Int32Array(N);
  for (let k = 0; k < N; k++) order[k] = k;
  let active = N;
  // Shrinking bounds on the projected gradient, from the previous pass (LIBLINEAR's PGmax_old/PGmin_old).
  let pgMaxOld = Number.POSITIVE_INFINITY;
  let pgMinOld = Number.NEGATIVE_INFINITY;
  let iter = 0;
  let converged = false;
  while (iter < maxIter) {
    let pgMax = Number.NEGATIVE_INFINITY;
    let pgMin = Number.POSITIVE_INFINITY;
    for (let i = active - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    for (let s = 0; s < active; s++) {
      const k = order[s]!;
      const r = rows[k]!;
      const y = labels[k]!;
      const p0 = rowPtr[r]!;
      const p1 = rowPtr[r + 1]!;
      let dot = 0;
      for (let p = p0; p < p1; p++) dot += w[index[p]!]! * value[p]!;
      const a = alpha[k]!;
      const g = y * dot - 1 + diag[k]! * a;
      const u = upper[k]!;
      const pg = projectedGradient(a, g, u, pgMaxOld, pgMinOld);
      if (pg !== pg) {
        // Stuck at a bound with a gradient pointing out: drop it from the active set.
        active--;
        order[s] = order[active]!;
        order[active] = k;
        s--;
        continue;
      }
      if (pg > pgMax) pgMax = pg;
      if (pg < pgMin) pgMin = pg;
      if (Math.abs(pg) > 1e-12 && qd[k]! > 0) {
        const na = Math.min(Math.max(a - g / qd[k]!, 0), u);
        const d = (na - a) * y;
        alpha[k] = na;
        for (let p = p0; p < p1; p++) w[index[p]!]! += d * value[p]!;
      }
    }
    iter++;
    if (pgMax - pgMin <= eps) {
      if (active === N) {
        converged = true;
        break;
      }
      // Converged on the active set: check everything once more without shrinking.
      active = N;
      pgMaxOld = Number.POSITIVE_INFINITY;
      pgMinOld = Number.NEGATIVE_INFINITY;
      continue;
    }
    pgMaxOld = pgMax <= 0 ? Number.POSITIVE_INFINITY : pgMax;
    pgMinOld = pgMin >= 0 ? Number.NEGATIVE_INFINITY : pgMin;
  }
  return { w, alpha, iterations: iter, converged };
}

/** Primal objective ½‖w‖² + Σ C_i ξ(1 − y_i w·x_i) of `trainLinearSvm` at w. */
export function svmPrimalObjective(
  x: SparseRows,
  rows: Int32Array,
  labels: Int8Array,
  cost: Float64Array,
  w: Float64Array,
  loss: SvmLoss = "l1",
): number {
  let obj = 0;
  for (let f = 0; f < w.length; f++) obj += 0.5 * w[f]! * w[f]!;
  for (let k = 0; k < rows.length; k++) {
    const z = 1 - labels[k]! * rowDot(x, rows[k]!, w);
    if (z > 0) obj += cost[k]! * (loss === "l2" ? z * z : z);
  }
  return obj;
}

/** Dual objective Σ α_i − ½‖w(α)‖² − ½ Σ D_ii α_i² (a lower bound on the primal optimum) of `trainLinearSvm`. */
export function svmDualObjective(
  x: SparseRows,
  rows: Int32Array,
  labels: Int8Array,
  cost: Float64Array,
  alpha: Float64Array,
  dim: number,
  loss: SvmLoss = "l1",
): number {
  const w = new Float64Array(dim);
  let obj = 0;
  for (let k = 0; k < rows.length; k++) {
    const a = alpha[k]!;
    obj += a;
    if (loss === "l2") obj -= (0.5 / cost[k]!) * 0.5 * a * a;
    const r = rows[k]!;
    for (let p = x.rowPtr[r]!; p < x.rowPtr[r + 1]!; p++) w[x.index[p]!]! += a * labels[k]! * x.value[p]!;
  }
  for (let f = 0; f < dim; f++) obj -= 0.5 * w[f]! * w[f]!;
  return obj;
}

/**
 * The projected gradient of one dual variable a ∈ [0, u] with gradient g, as dual coordinate descent
 * with shrinking uses it (Hsieh et al. 2008), or NaN when the variable is to be shrunk away: stuck at
 * a bound with a gradient pointing out further than the last sweep's extremes (pgMaxOld above the
 * lower bound, pgMinOld below the upper one). Between the bounds it is g itself.
 */
export function projectedGradient(
  a: number,
  g: number,
  u: number,
  pgMaxOld: number,
  pgMinOld: number,
): number {
  if (a === 0) return g > pgMaxOld ? Number.NaN : g < 0 ? g : 0;
  if (a === u) return g < pgMinOld ? Number.NaN : g > 0 ? g : 0;
  return g;
}

/** w·x for row r of x. */
export function rowDot(x: SparseRows, r: number, w: Float64Array | Float32Array): number {
  let s = 0;
  for (let p = x.rowPtr[r]!; p < x.rowPtr[r + 1]!; p++) s += w[x.index[p]!]! * x.value[p]!;
  return s;
}
