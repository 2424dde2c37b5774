import type { SparseRows } from "../prune/sparse-rows.js";
import { Rng } from "../util/rng.js";
import { type LinearSvmOptions, projectedGradient } from "./linear-svm.js";

/** Where a feature row goes in the weight vector: its feature f is weight `offset + f * stride`. */
export interface Placement {
  offset: number;
  stride: number;
}

/**
 * A binary SVM problem whose examples are differences of two placed feature rows, given implicitly:
 * example k is x_k = place(pos[k]) − place(neg[k]), where place(r) puts row r of `x` at
 * `placements[posPlace[k]]` (resp. `negPlace[k]`) and a row of -1 stands for nothing. This is the
 * shape of multiclass and latent SVM constraints "score(event) − score(competitor) ≥ 1": the events'
 * feature rows are stored once and shared by every constraint that mentions them. Distinct placements
 * must map the features they are used with to disjoint weights (e.g. one block per event type, or
 * interleaved blocks with the same stride and distinct offsets); two rows under the same placement
 * may overlap.
 */
export interface DifferenceProblem {
  /** The event feature rows (indices strictly increasing within a row). */
  x: SparseRows;
  /** Placements (at most 256). */
  placements: readonly Placement[];
  /** Length of the weight vector. */
  dim: number;
  /** Per example: the row of the event on the plus side (-1: none) and its placement. */
  pos: Int32Array;
  posPlace: Uint8Array;
  /** Per example: the row of the competitor on the minus side (-1: none) and its placement. */
  neg: Int32Array;
  negPlace: Uint8Array;
  /** Per example: +1 (want w·x_k ≥ 1) or -1 (want w·x_k ≤ -1). */
  labels: Int8Array;
  /** Per example cost C_k > 0 (cost × count for an example standing for several identical ones). */
  cost: Float64Array;
}

/** Options of `trainDifferenceSvm`: those of `trainLinearSvm` and a warm start. */
export interface DifferenceSvmOptions extends LinearSvmOptions {
  /**
   * Dual variables to start from (one per example, clipped to [0, C_k] for the hinge), e.g. those of
   * a previous run on mostly the same examples; default all 0.
   */
  alpha?: Float64Array;
  /** Called after every pass: passes so far, examples visited in it, projected-gradient spread. */
  onPass?: (pass: number, visited: number, spread: number) => void;
  /**
   * Visit the examples grouped by their plus-side row (see `trainDifferenceSvm`): "auto" (default)
   * when no placement is used on both sides, false for the plain one-example-at-a-time order.
   */
  grouped?: boolean | "auto";
}

/** What `trainDifferenceSvm` returns. */
export interface DifferenceSvmResult {
  /** The weights (length `dim`). */
  w: Float64Array;
  /** Dual variables, one per example. */
  alpha: Float64Array;
  /** Passes over the active examples. */
  iterations: number;
  /** True when the projected-gradient spread fell below eps before maxIter. */
  converged: boolean;
}

/** Squared norm of row r. */
function rowNorm(x: SparseRows, r: number): number {
  let s = 0;
  for (let p = x.rowPtr[r]!; p < x.rowPtr[r + 1]!; p++) s += x.value[p]! * x.value[p]!;
  return s;
}

/** Dot product of rows a and b of x (merge of the sorted indices). */
function rowsDot(x: SparseRows, a: number, b: number): number {
  let p = x.rowPtr[a]!;
  const pe = x.rowPtr[a + 1]!;
  let q = x.rowPtr[b]!;
  const qe = x.rowPtr[b + 1]!;
  let s = 0;
  while (p < pe && q < qe) {
    const i = x.index[p]!;
    const j = x.index[q]!;
    if (i === j) s += x.value[p++]! * x.value[q++]!;
    else if (i < j) p++;
    else q++;
  }
  return s;
}

/** Whether no placement index occurs both as a plus-side and as a minus-side placement. */
export function sidesDisjoint(p: DifferenceProblem): boolean {
  const onPos = new Uint8Array(256);
  for (let k = 0; k < p.pos.length; k++) if (p.pos[k]! >= 0) onPos[p.posPlace[k]!] = 1;
  for (let k = 0; k < p.neg.length; k++) if (p.neg[k]! >= 0 && onPos[p.negPlace[k]!] === 1) return false;
  return true;
}

/**
 * Examples bucketed by plus-side row (counting sort, stable): group g holds examples
 * members[start[g] .. start[g + 1]) whose plus-side row is row[g] (-1: none).
 */
export function groupByPosRow(p: DifferenceProblem): {
  row: Int32Array;
  start: Int32Array;
  members: Int32Array;
} {
  const R = p.x.rows;
  const count = new Int32Array(R + 2);
  const N = p.pos.length;
  for (let k = 0; k < N; k++) count[p.pos[k]! + 2]!++;
  let G = 0;
  for (let r = 0; r <= R; r++) if (count[r + 1]! > 0) G++;
  const row = new Int32Array(G);
  const start = new Int32Array(G + 1);
  const first = new Int32Array(R + 1);
  let g = 0;
  let at = 0;
  for (let r = 0; r <= R; r++) {
    const c = count[r + 1]!;
    if (c === 0) continue;
    row[g] = r - 1;
    start[g++] = at;
    first[r] = at;
    at += c;
  }
  start[G] = at;
  const members = new Int32Array(N);
  for (let k = 0; k < N; k++) members[first[p.pos[k]! + 1]!++] = k;
  return { row, start, members };
}

/** ‖x_k‖² of example k of a difference problem. */
export function differenceNorm(p: DifferenceProblem, k: number, norms?: Float64Array): number {
  const a = p.pos[k]!;
  const b = p.neg[k]!;
  const na = a < 0 ? 0 : norms !== undefined ? norms[a]! : rowNorm(p.x, a);
  const nb = b < 0 ? 0 : norms !== undefined ? norms[b]! : rowNorm(p.x, b);
  let s = na + nb;
  if (a >= 0 && b >= 0 && p.posPlace[k] === p.negPlace[k]) s -= 2 * rowsDot(p.x, a, b);
  return s;
}

/** w·x_k for example k of a difference problem. */
export function differenceDot(p: DifferenceProblem, k: number, w: Float64Array | Float32Array): number {
  const { rowPtr, index, value } = p.x;
  let dot = 0;
  const a = p.pos[k]!;
  if (a >= 0) {
    const pl = p.placements[p.posPlace[k]!]!;
    for (let q = rowPtr[a]!; q < rowPtr[a + 1]!; q++)
      dot += w[pl.offset + index[q]! * pl.stride]! * value[q]!;
  }
  const b = p.neg[k]!;
  if (b >= 0) {
    const pl = p.placements[p.negPlace[k]!]!;
    for (let q = rowPtr[b]!; q < rowPtr[b + 1]!; q++)
      dot -= w[pl.offset + index[q]! * pl.stride]! * value[q]!;
  }
  return dot;
}

/**
 * The cost-sensitive L2-regularised linear SVM of `trainLinearSvm` (dual coordinate descent with
 * shrinking, Hsieh et al. 2008; hinge or squared hinge) on a `DifferenceProblem`:
 *
 *   min_w ½‖w‖² + Σ_k C_k ξ(1 − y_k w·x_k),  x_k = place(pos_k) − place(neg_k),
 *
 * with the difference vectors never built: a coordinate step reads and updates the weights of the two
 * placed rows, O(nnz(pos_k) + nnz(neg_k)). A Weston–Watkins multiclass SVM (one hinge per competitor
 * of the correct class) is exactly this problem with one example per (example, competitor) pair, and
 * so is a latent SVM once every example's latent event is fixed.
 */
export function trainDifferenceSvm(
  p: DifferenceProblem,
  opts: DifferenceSvmOptions = {},
): DifferenceSvmResult {
  const l2 = (opts.loss ?? "l1") === "l2";
  const eps = opts.eps ?? 0.1;
  const maxIter = opts.maxIter ?? 1000;
  const rng = new Rng(opts.seed ?? 1);
  const N = p.labels.length;
  if (p.pos.length !== N || p.neg.length !== N || p.cost.length !== N)
    throw new RangeError("trainDifferenceSvm: pos, neg, labels and cost must have one entry per example");
  if (p.placements.length > 256) throw new RangeError("trainDifferenceSvm: at most 256 placements");
  const { rowPtr, index, value } = p.x;
  const offs = Int32Array.from(p.placements, (q) => q.offset);
  const strides = Int32Array.from(p.placements, (q) => q.stride);
  const norms = new Float64Array(p.x.rows);
  for (let r = 0; r < p.x.rows; r++) norms[r] = rowNorm(p.x, r);
  const pos = p.pos;
  const neg = p.neg;
  const posPlace = p.posPlace;
  const negPlace = p.negPlace;
  const labels = p.labels;
  const cost = p.cost;
  const w = new Float64Array(p.dim);
  const alpha = new Float64Array(N);
  if (opts.alpha !== undefined) {
    if (opts.alpha.length !== N) throw new RangeError("trainDifferenceSvm: one starting alpha per example");
    for (let k = 0; k < N; k++) {
      const a = Math.max(0, l2 ? opts.alpha[k]! : Math.min(opts.alpha[k]!, cost[k]!));
      if (a === 0) continue;
      alpha[k] = a;
      const d = a * labels[k]!;
      const a0 = pos[k]!;
      const b0 = neg[k]!;
      if (a0 >= 0) {
        const o = offs[posPlace[k]!]!;
        const st = strides[posPlace[k]!]!;
        for (let q = rowPtr[a0]!, e = rowPtr[a0 + 1]!; q < e; q++) w[o + index[q]! * st]! += d * value[q]!;
      }
      if (b0 >= 0) {
        const o = offs[negPlace[k]!]!;
        const st = strides[negPlace[k]!]!;
        for (let q = rowPtr[b0]!, e = rowPtr[b0 + 1]!; q < e; q++) w[o + index[q]! * st]! -= d * value[q]!;
      }
    }
  }
  // ‖x_k‖² + D_kk per example (only examples whose two rows share a placement need a merge).
  const qd = new Float64Array(N);
  for (let k = 0; k < N; k++) qd[k] = differenceNorm(p, k, norms) + (l2 ? 0.5 / cost[k]! : 0);
  const grouped = opts.grouped === undefined || opts.grouped === "auto" ? sidesDisjoint(p) : opts.grouped;
  if (grouped) {
    if (!sidesDisjoint(p))
      throw new RangeError(
        "trainDifferenceSvm: grouped order needs disjoint plus- and minus-side placements",
      );
    const r = solveGrouped(p, w, alpha, qd, norms, offs, strides, l2, eps, maxIter, rng, opts.onPass);
    return { w, alpha, iterations: r.iterations, converged: r.converged };
  }
  const order = new Int32Array(N);
  for (let k = 0; k < N; k++) order[k] = k;
  let active = N;
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
    const visited = active;
    for (let s = 0; s < active; s++) {
      const k = order[s]!;
      const y = labels[k]!;
      const a0 = pos[k]!;
      const b0 = neg[k]!;
      let aOff = 0;
      let aSt = 0;
      let bOff = 0;
      let bSt = 0;
      let dot = 0;
      if (a0 >= 0) {
        aOff = offs[posPlace[k]!]!;
        aSt = strides[posPlace[k]!]!;
        for (let q = rowPtr[a0]!, e = rowPtr[a0 + 1]!; q < e; q++)
          dot += w[aOff + index[q]! * aSt]! * value[q]!;
      }
      if (b0 >= 0) {
        bOff = offs[negPlace[k]!]!;
        bSt = strides[negPlace[k]!]!;
        for (let q = rowPtr[b0]!, e = rowPtr[b0 + 1]!; q < e; q++)
          dot -= w[bOff + index[q]! * bSt]! * value[q]!;
      }
      const a = alpha[k]!;
      const c = cost[k]!;
      const g = y * dot - 1 + (l2 ? (0.5 / c) * a : 0);
      const u = l2 ? Number.POSITIVE_INFINITY : c;
      const pg = projectedGradient(a, g, u, pgMaxOld, pgMinOld);
      if (pg !== pg) {
        active--;
        order[s] = order[active]!;
        order[active] = k;
        s--;
        continue;
      }
      if (pg > pgMax) pgMax = pg;
      if (pg < pgMin) pgMin = pg;
      const qk = qd[k]!;
      if (Math.abs(pg) > 1e-12 && qk > 0) {
        const na = Math.min(Math.max(a - g / qk, 0), u);
        const d = (na - a) * y;
        alpha[k] = na;
        if (a0 >= 0)
          for (let q = rowPtr[a0]!, e = rowPtr[a0 + 1]!; q < e; q++)
            w[aOff + index[q]! * aSt]! += d * value[q]!;
        if (b0 >= 0)
          for (let q = rowPtr[b0]!, e = rowPtr[b0 + 1]!; q < e; q++)
            w[bOff + index[q]! * bSt]! -= d * value[q]!;
      }
    }
    iter++;
    opts.onPass?.(iter, visited, pgMax - pgMin);
    if (pgMax - pgMin <= eps) {
      if (active === N) {
        converged = true;
        break;
      }
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

/**
 * The dual coordinate descent of `trainDifferenceSvm` with the examples visited group by group
 * (groups of one plus-side row, in random order each pass, members in random order within): the
 * plus-side dot w_p·x_r of a group is computed once per placement p and kept exact by
 * dot += δ‖x_r‖² after each step, and the group's plus-side updates are added to w once at its end.
 * This is exact because minus-side placements never share weights with plus-side ones, so nothing
 * else reads those weights within the group. Interleaved placements (one stride, offsets in one
 * aligned window) are read and updated together in one pass over the row. Shrinking as in the plain
 * order, per group.
 */
function solveGrouped(
  p: DifferenceProblem,
  w: Float64Array,
  alphaOut: Float64Array,
  qdIn: Float64Array,
  norms: Float64Array,
  offs: Int32Array,
  strides: Int32Array,
  l2: boolean,
  eps: number,
  maxIter: number,
  rng: Rng,
  onPass: ((pass: number, visited: number, spread: number) => void) | undefined,
): { iterations: number; converged: boolean } {
  const N = p.labels.length;
  const { rowPtr, index, value } = p.x;
  const { row: gRow, start: gStart, members } = groupByPosRow(p);
  // The examples' data copied into group order (slot s holds example members[s]): a group's
  // members are then contiguous in memory.
  const neg = new Int32Array(N);
  const posPlace = new Uint8Array(N);
  const negPlace = new Uint8Array(N);
  const labels = new Int8Array(N);
  const cost = new Float64Array(N);
  const qd = new Float64Array(N);
  const alpha = new Float64Array(N);
  for (let s = 0; s < N; s++) {
    const k = members[s]!;
    neg[s] = p.neg[k]!;
    posPlace[s] = p.posPlace[k]!;
    negPlace[s] = p.negPlace[k]!;
    labels[s] = p.labels[k]!;
    cost[s] = p.cost[k]!;
    qd[s] = qdIn[k]!;
    alpha[s] = alphaOut[k]!;
  }
  const order = new Int32Array(N);
  for (let s = 0; s < N; s++) order[s] = s;
  const G = gRow.length;
  const gActive = new Int32Array(G);
  for (let g = 0; g < G; g++) gActive[g] = gStart[g + 1]! - gStart[g]!;
  const gOrder = new Int32Array(G);
  for (let g = 0; g < G; g++) gOrder[g] = g;
  const dotCache = new Float64Array(256);
  const pend = new Float64Array(256);
  const stamp = new Int32Array(256).fill(-1);
  const touched = new Int32Array(256);
  // Families: placements with one stride st (2..16) whose offsets lie in one aligned window
  // [base, base + st) (interleaved blocks); one pass over a row reads or updates all of them.
  const P = p.placements.length;
  const famOf = new Int32Array(P).fill(-1);
  const famBase: number[] = [];
  const famStride: number[] = [];
  const famSlots: Int32Array[] = [];
  for (let pl = 0; pl < P; pl++) {
    const st = strides[pl]!;
    if (st < 2 || st > 16) continue;
    const base = offs[pl]! - (offs[pl]! % st);
    let f = famBase.findIndex((b, i) => b === base && famStride[i] === st);
    if (f < 0) {
      f = famBase.length;
      famBase.push(base);
      famStride.push(st);
      famSlots.push(new Int32Array(st).fill(-1));
    }
    if (famSlots[f]![offs[pl]! - base] !== -1) continue;
    famSlots[f]![offs[pl]! - base] = pl;
    famOf[pl] = f;
  }
  const famTouched = new Int32Array(famBase.length);
  const acc = new Float64Array(16);
  let pgMaxOld = Number.POSITIVE_INFINITY;
  let pgMinOld = Number.NEGATIVE_INFINITY;
  let iter = 0;
  let converged = false;
  let active = N;
  let stampNow = 0;
  while (iter < maxIter) {
    let pgMax = Number.NEGATIVE_INFINITY;
    let pgMin = Number.POSITIVE_INFINITY;
    for (let i = G - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const t = gOrder[i]!;
      gOrder[i] = gOrder[j]!;
      gOrder[j] = t;
    }
    const visited = active;
    for (let gi = 0; gi < G; gi++) {
      const g = gOrder[gi]!;
      let end = gStart[g]! + gActive[g]!;
      const s0 = gStart[g]!;
      if (end === s0) continue;
      for (let i = end - 1; i > s0; i--) {
        const j = s0 + rng.int(i - s0 + 1);
        const t = order[i]!;
        order[i] = order[j]!;
        order[j] = t;
      }
      const r = gRow[g]!;
      const nr = r >= 0 ? norms[r]! : 0;
      const rb = r >= 0 ? rowPtr[r]! : 0;
      const re = r >= 0 ? rowPtr[r + 1]! : 0;
      stampNow++;
      let nTouched = 0;
      let nFam = 0;
      for (let s = s0; s < end; s++) {
        const k = order[s]!;
        const y = labels[k]!;
        const pl = posPlace[k]!;
        let dot = 0;
        if (r >= 0) {
          if (stamp[pl] !== stampNow) {
            const f = famOf[pl]!;
            if (f >= 0) {
              const base = famBase[f]!;
              const st = famStride[f]!;
              acc.fill(0);
              for (let q = rb; q < re; q++) {
                const b = base + index[q]! * st;
                const v = value[q]!;
                for (let j = 0; j < st; j++) acc[j]! += w[b + j]! * v;
              }
              const slots = famSlots[f]!;
              for (let j = 0; j < st; j++) {
                const pp = slots[j]!;
                if (pp < 0) continue;
                dotCache[pp] = acc[j]!;
                pend[pp] = 0;
                stamp[pp] = stampNow;
              }
              famTouched[nFam++] = f;
            } else {
              const o = offs[pl]!;
              const st = strides[pl]!;
              let d = 0;
              for (let q = rb; q < re; q++) d += w[o + index[q]! * st]! * value[q]!;
              dotCache[pl] = d;
              pend[pl] = 0;
              stamp[pl] = stampNow;
              touched[nTouched++] = pl;
            }
          }
          dot = dotCache[pl]!;
        }
        const b0 = neg[k]!;
        let bOff = 0;
        let bSt = 0;
        if (b0 >= 0) {
          bOff = offs[negPlace[k]!]!;
          bSt = strides[negPlace[k]!]!;
          for (let q = rowPtr[b0]!, e = rowPtr[b0 + 1]!; q < e; q++)
            dot -= w[bOff + index[q]! * bSt]! * value[q]!;
        }
        const a = alpha[k]!;
        const c = cost[k]!;
        const gr = y * dot - 1 + (l2 ? (0.5 / c) * a : 0);
        const u = l2 ? Number.POSITIVE_INFINITY : c;
        const pg = projectedGradient(a, gr, u, pgMaxOld, pgMinOld);
        if (pg !== pg) {
          end--;
          order[s] = order[end]!;
          order[end] = k;
          s--;
          continue;
        }
        if (pg > pgMax) pgMax = pg;
        if (pg < pgMin) pgMin = pg;
        const qk = qd[k]!;
        if (Math.abs(pg) > 1e-12 && qk > 0) {
          const na = Math.min(Math.max(a - gr / qk, 0), u);
          const d = (na - a) * y;
          alpha[k] = na;
          if (r >= 0) {
            dotCache[pl]! += d * nr;
            pend[pl]! += d;
          }
          if (b0 >= 0)
            for (let q = rowPtr[b0]!, e = rowPtr[b0 + 1]!; q < e; q++)
              w[bOff + index[q]! * bSt]! -= d * value[q]!;
        }
      }
      active -= gStart[g]! + gActive[g]! - end;
      gActive[g] = end - s0;
      for (let t = 0; t < nTouched; t++) {
        const pl = touched[t]!;
        const d = pend[pl]!;
        if (d === 0) continue;
        const o = offs[pl]!;
        const st = strides[pl]!;
        for (let q = rb; q < re; q++) w[o + index[q]! * st]! += d * value[q]!;
      }
      for (let t = 0; t < nFam; t++) {
        const f = famTouched[t]!;
        const base = famBase[f]!;
        const st = famStride[f]!;
        const slots = famSlots[f]!;
        let any = false;
        for (let j = 0; j < st; j++) {
          acc[j] = slots[j]! >= 0 ? pend[slots[j]!]! : 0;
          if (acc[j] !== 0) any = true;
        }
        if (!any) continue;
        for (let q = rb; q < re; q++) {
          const b = base + index[q]! * st;
          const v = value[q]!;
          for (let j = 0; j < st; j++) w[b + j]! += acc[j]! * v;
        }
      }
    }
    iter++;
    onPass?.(iter, visited, pgMax - pgMin);
    if (pgMax - pgMin <= eps) {
      if (active === N) {
        converged = true;
        break;
      }
      active = N;
      for (let g = 0; g < G; g++) gActive[g] = gStart[g + 1]! - gStart[g]!;
      pgMaxOld = Number.POSITIVE_INFINITY;
      pgMinOld = Number.NEGATIVE_INFINITY;
      continue;
    }
    pgMaxOld = pgMax <= 0 ? Number.POSITIVE_INFINITY : pgMax;
    pgMinOld = pgMin >= 0 ? Number.NEGATIVE_INFINITY : pgMin;
  }
  for (let s = 0; s < N; s++) alphaOut[members[s]!] = alpha[s]!;
  return { iterations: iter, converged };
}

/** Primal objective ½‖w‖² + Σ C_k ξ(1 − y_k w·x_k) of a difference problem at w. */
export function differencePrimalObjective(
  p: DifferenceProblem,
  w: Float64Array,
  loss: "l1" | "l2" = "l1",
): number {
  let obj = 0;
  for (let f = 0; f < w.length; f++) obj += 0.5 * w[f]! * w[f]!;
  // Plus-side dots once per (row, placement): examples grouped by plus-side row.
  const { row, start, members } = groupByPosRow(p);
  const { rowPtr, index, value } = p.x;
  const cache = new Float64Array(256);
  const stamp = new Int32Array(256).fill(-1);
  for (let g = 0; g < row.length; g++) {
    const r = row[g]!;
    for (let s = start[g]!; s < start[g + 1]!; s++) {
      const k = members[s]!;
      let dot = 0;
      if (r >= 0) {
        const pl = p.posPlace[k]!;
        if (stamp[pl] !== g) {
          const { offset, stride } = p.placements[pl]!;
          let d = 0;
          for (let q = rowPtr[r]!; q < rowPtr[r + 1]!; q++) d += w[offset + index[q]! * stride]! * value[q]!;
          cache[pl] = d;
          stamp[pl] = g;
        }
        dot = cache[pl]!;
      }
      const b = p.neg[k]!;
      if (b >= 0) {
        const { offset, stride } = p.placements[p.negPlace[k]!]!;
        for (let q = rowPtr[b]!; q < rowPtr[b + 1]!; q++) dot -= w[offset + index[q]! * stride]! * value[q]!;
      }
      const z = 1 - p.labels[k]! * dot;
      if (z > 0) obj += p.cost[k]! * (loss === "l2" ? z * z : z);
    }
  }
  return obj;
}
