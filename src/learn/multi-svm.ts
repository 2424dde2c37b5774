import type { SparseRows } from "../prune/sparse-rows.js";
import { Rng } from "../util/rng.js";
import { type LinearSvmOptions, type LinearSvmResult, projectedGradient } from "./linear-svm.js";

/** One binary problem of `trainLinearSvms`: rows of the shared matrix, their labels (±1) and costs (> 0). */
export interface SvmTask {
  /** Rows of `x` taking part (each at most once). */
  rows: Int32Array;
  /** One label per entry of `rows`: +1 or -1. */
  labels: Int8Array;
  /** One cost per entry of `rows`. */
  cost: Float64Array;
}

/**
 * Trains several cost-sensitive linear SVMs (the problem of `trainLinearSvm`, one per task) over rows
 * of one shared sparse matrix, in lockstep: the weight vectors are interleaved (slot f of task t at
 * f·S + t, S = T rounded up to a multiple of 8) and each pass visits every row that is active in some task once, in a random order, doing
 * the dual coordinate step of every task the row belongs to. A row's feature indices are read once
 * per pass for all tasks and the T weights of a feature share cache lines, so T problems over the same
 * rows cost little more than one (the eight token-role decisions at two cost settings train together).
 * Each task keeps its own shrinking bounds, active set and LIBLINEAR stopping rule (spread of the
 * projected gradients ≤ eps, confirmed on all its rows), so each result solves its own problem as
 * `trainLinearSvm` does; tasks that have converged drop out of the passes.
 */
export function trainLinearSvms(
  x: SparseRows,
  tasks: readonly SvmTask[],
  dim: number,
  opts: LinearSvmOptions = {},
): LinearSvmResult[] {
  const T = tasks.length;
  const l2 = (opts.loss ?? "l1") === "l2";
  const eps = opts.eps ?? 0.1;
  const maxIter = opts.maxIter ?? 1000;
  const rng = new Rng(opts.seed ?? 1);
  const { rowPtr, value } = x;
  const { index, features } = renumber(x, dim);
  const used = features.length;
  let binary = true;
  for (let p = 0; p < value.length && binary; p++) if (value[p] !== 1) binary = false;

  // slot[r·T + t]: position of row r in task t (-1: not in it).
  const slot = new Int32Array(x.rows * T).fill(-1);
  const alpha: Float64Array[] = [];
  const qd: Float64Array[] = [];
  const diag: Float64Array[] = [];
  const upper: Float64Array[] = [];
  const on: Uint8Array[] = [];
  for (let t = 0; t < T; t++) {
    const { rows, labels, cost } = tasks[t]!;
    const N = rows.length;
    if (labels.length !== N || cost.length !== N)
      throw new RangeError("trainLinearSvms: one label and one cost per row");
    const q = new Float64Array(N);
    const dg = new Float64Array(N);
    const up = new Float64Array(N);
    for (let k = 0; k < N; k++) {
      const r = rows[k]!;
      if (slot[r * T + t] !== -1) throw new RangeError("trainLinearSvms: a row appears twice in a task");
      slot[r * T + t] = k;
      let s = 0;
      for (let p = rowPtr[r]!; p < rowPtr[r + 1]!; p++) s += value[p]! * value[p]!;
      dg[k] = l2 ? 0.5 / cost[k]! : 0;
      up[k] = l2 ? Number.POSITIVE_INFINITY : cost[k]!;
      q[k] = s + dg[k]!;
    }
    alpha.push(new Float64Array(N));
    qd.push(q);
    diag.push(dg);
    upper.push(up);
    on.push(new Uint8Array(N).fill(1));
  }
  // Lanes in blocks of 8 (the dot products of a block run in registers); S lanes per feature.
  const S = Math.max(8, Math.ceil(T / 8) * 8);
  const w = new Float64Array(used * S);
  const activeCount = Int32Array.from(tasks, (t) => t.rows.length);
  const live = new Uint8Array(T).fill(1);
  const iterations = new Int32Array(T);
  const converged = new Uint8Array(T);
  const pgMaxOld = new Float64Array(T).fill(Number.POSITIVE_INFINITY);
  const pgMinOld = new Float64Array(T).fill(Number.NEGATIVE_INFINITY);
  const pgMax = new Float64Array(T);
  const pgMin = new Float64Array(T);
  const dot = new Float64Array(S);
  const delta = new Float64Array(S);

  // The rows active in some task.
  const list = new Int32Array(x.rows);
  let R = 0;
  const rebuild = () => {
    R = 0;
    for (let r = 0; r < x.rows; r++) {
      for (let t = 0; t < T; t++) {
        const k = slot[r * T + t]!;
        if (k >= 0 && on[t]![k] === 1) {
          list[R++] = r;
          break;
        }
      }
    }
  };
  rebuild();

  let pass = 0;
  let liveCount = T;
  for (let t = 0; t < T; t++)
    if (tasks[t]!.rows.length === 0) {
      live[t] = 0;
      converged[t] = 1;
      liveCount--;
    }
  while (liveCount > 0 && pass < maxIter) {
    pgMax.fill(Number.NEGATIVE_INFINITY);
    pgMin.fill(Number.POSITIVE_INFINITY);
    for (let i = R - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const tmp = list[i]!;
      list[i] = list[j]!;
      list[j] = tmp;
    }
    for (let s = 0; s < R; s++) {
      const r = list[s]!;
      const p0 = rowPtr[r]!;
      const p1 = rowPtr[r + 1]!;
      for (let o = 0; o < S; o += 8) {
        let d0 = 0;
        let d1 = 0;
        let d2 = 0;
        let d3 = 0;
        let d4 = 0;
        let d5 = 0;
        let d6 = 0;
        let d7 = 0;
        if (binary) {
          for (let p = p0; p < p1; p++) {
            const b = index[p]! * S + o;
            d0 += w[b]!;
            d1 += w[b + 1]!;
            d2 += w[b + 2]!;
            d3 += w[b + 3]!;
            d4 += w[b + 4]!;
            d5 += w[b + 5]!;
            d6 += w[b + 6]!;
            d7 += w[b + 7]!;
          }
        } else {
          for (let p = p0; p < p1; p++) {
            const b = index[p]! * S + o;
            const v = value[p]!;
            d0 += w[b]! * v;
            d1 += w[b + 1]! * v;
            d2 += w[b + 2]! * v;
            d3 += w[b + 3]! * v;
            d4 += w[b + 4]! * v;
            d5 += w[b + 5]! * v;
            d6 += w[b + 6]! * v;
            d7 += w[b + 7]! * v;
          }
        }
        dot[o] = d0;
        dot[o + 1] = d1;
        dot[o + 2] = d2;
        dot[o + 3] = d3;
        dot[o + 4] = d4;
        dot[o + 5] = d5;
        dot[o + 6] = d6;
        dot[o + 7] = d7;
      }
      let changed = false;
      let stillActive = false;
      for (let t = 0; t < T; t++) {
        delta[t] = 0;
        const k = slot[r * T + t]!;
        if (k < 0) continue;
        const onT = on[t]!;
        if (onT[k] === 0) continue;
        const aT = alpha[t]!;
        const y = tasks[t]!.labels[k]!;
        const a = aT[k]!;
        const g = y * dot[t]! - 1 + diag[t]![k]! * a;
        const u = upper[t]![k]!;
        const pg = projectedGradient(a, g, u, pgMaxOld[t]!, pgMinOld[t]!);
        if (pg !== pg) {
          // Stuck at a bound with a gradient pointing out: shrink it away.
          onT[k] = 0;
          activeCount[t]!--;
          continue;
        }
        stillActive = true;
        if (pg > pgMax[t]!) pgMax[t] = pg;
        if (pg < pgMin[t]!) pgMin[t] = pg;
        const q = qd[t]![k]!;
        if (Math.abs(pg) > 1e-12 && q > 0) {
          const na = Math.min(Math.max(a - g / q, 0), u);
          aT[k] = na;
          delta[t] = (na - a) * y;
          changed = true;
        }
      }
      if (changed) {
        for (let o = 0; o < S; o += 8) {
          const e0 = delta[o]!;
          const e1 = delta[o + 1]!;
          const e2 = delta[o + 2]!;
          const e3 = delta[o + 3]!;
          const e4 = delta[o + 4]!;
          const e5 = delta[o + 5]!;
          const e6 = delta[o + 6]!;
          const e7 = delta[o + 7]!;
          if (e0 === 0 && e1 === 0 && e2 === 0 && e3 === 0 && e4 === 0 && e5 === 0 && e6 === 0 && e7 === 0)
            continue;
          for (let p = p0; p < p1; p++) {
            const b = index[p]! * S + o;
            const v = binary ? 1 : value[p]!;
            w[b]! += e0 * v;
            w[b + 1]! += e1 * v;
            w[b + 2]! += e2 * v;
            w[b + 3]! += e3 * v;
            w[b + 4]! += e4 * v;
            w[b + 5]! += e5 * v;
            w[b + 6]! += e6 * v;
            w[b + 7]! += e7 * v;
          }
        }
      }
      if (!stillActive) {
        // Active in no task any more: out of the passes until some task re-activates its rows.
        R--;
        list[s] = list[R]!;
        list[R] = r;
        s--;
      }
    }
    pass++;
    let reactivated = false;
    for (let t = 0; t < T; t++) {
      if (live[t] === 0) continue;
      iterations[t]!++;
      const N = tasks[t]!.rows.length;
      if (pgMax[t]! - pgMin[t]! <= eps) {
        if (activeCount[t] === N) {
          // Converged on all its rows: the task leaves the passes.
          converged[t] = 1;
          live[t] = 0;
          liveCount--;
          on[t]!.fill(0);
          activeCount[t] = 0;
          continue;
        }
        // Converged on its active set: check all its rows once more without shrinking.
        on[t]!.fill(1);
        activeCount[t] = N;
        pgMaxOld[t] = Number.POSITIVE_INFINITY;
        pgMinOld[t] = Number.NEGATIVE_INFINITY;
        reactivated = true;
        continue;
      }
      pgMaxOld[t] = pgMax[t]! <= 0 ? Number.POSITIVE_INFINITY : pgMax[t]!;
      pgMinOld[t] = pgMin[t]! >= 0 ? Number.NEGATIVE_INFINITY : pgMin[t]!;
    }
    if (reactivated) rebuild();
  }
  return tasks.map((_, t) => {
    const wt = new Float64Array(dim);
    for (let j = 0; j < used; j++) wt[features[j]!] = w[j * S + t]!;
    return { w: wt, alpha: alpha[t]!, iterations: iterations[t]!, converged: converged[t] === 1 };
  });
}

/**
 * x's feature indices renumbered by decreasing frequency (0 = the most frequent), so that the weights
 * most rows read share a compact, cache-resident block; `features[j]` is the slot of local id j.
 */
function renumber(x: SparseRows, dim: number): { index: Int32Array; features: Int32Array } {
  const count = new Int32Array(dim);
  for (let p = 0; p < x.index.length; p++) count[x.index[p]!]!++;
  let used = 0;
  for (let f = 0; f < dim; f++) if (count[f]! > 0) used++;
  const features = new Int32Array(used);
  used = 0;
  for (let f = 0; f < dim; f++) if (count[f]! > 0) features[used++] = f;
  features.sort((a, b) => count[b]! - count[a]! || a - b);
  const local = count;
  for (let j = 0; j < features.length; j++) local[features[j]!] = j;
  const index = new Int32Array(x.index.length);
  for (let p = 0; p < index.length; p++) index[p] = local[x.index[p]!]!;
  return { index, features };
}
