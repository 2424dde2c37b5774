import assert from "node:assert/strict";
import { test } from "node:test";
import { rowDot, svmDualObjective, svmPrimalObjective, trainLinearSvm } from "../src/learn/linear-svm.js";
import { type SvmTask, trainLinearSvms } from "../src/learn/multi-svm.js";
import { SparseRowsBuilder } from "../src/prune/sparse-rows.js";
import { learnAll } from "../src/prune/filter-learner.js";
import { makeSvmLearner } from "../src/prune/svm-learner.js";
import { Rng } from "../src/util/rng.js";

/** A random sparse matrix (binary or real-valued) with a constant feature 0 and labelled tasks over row subsets. */
function problem(seed: number, binary: boolean) {
  const rng = new Rng(seed);
  const dim = 30;
  const n = 300;
  const b = new SparseRowsBuilder();
  const truth: number[] = [];
  for (let i = 0; i < n; i++) {
    const idx = [0];
    const val = [1];
    const used = new Set([0]);
    let score = 0;
    for (let j = 0; j < 6; j++) {
      const f = 1 + rng.int(dim - 1);
      if (used.has(f)) continue;
      used.add(f);
      const v = binary ? 1 : (rng.next() - 0.5) * 3;
      idx.push(f);
      val.push(v);
      score += (f % 3 === 0 ? 1 : f % 3 === 1 ? -1 : 0.2) * v;
    }
    truth.push(score);
    b.add(Int32Array.from(idx), Float32Array.from(val), idx.length);
  }
  const x = b.build();
  const tasks: SvmTask[] = [];
  for (let t = 0; t < 5; t++) {
    const rows: number[] = [];
    const labels: number[] = [];
    const cost: number[] = [];
    const c1 = [0.05, 0.5, 1, 0.1, 2][t]!;
    const c2 = [1, 5, 1, 10, 0.5][t]!;
    for (let r = 0; r < n; r++) {
      // Overlapping subsets, noisy labels (not separable), one task (t = 4) with every row.
      if (t < 4 && rng.next() < 0.3) continue;
      const y = truth[r]! + (t - 2) * 0.3 + (rng.next() - 0.5) * 2 > 0 ? 1 : -1;
      rows.push(r);
      labels.push(y);
      cost.push(y > 0 ? c1 : c2);
    }
    tasks.push({
      rows: Int32Array.from(rows),
      labels: Int8Array.from(labels),
      cost: Float64Array.from(cost),
    });
  }
  tasks.push({ rows: new Int32Array(0), labels: new Int8Array(0), cost: new Float64Array(0) });
  return { x, tasks, dim };
}

for (const binary of [true, false])
  for (const loss of ["l1", "l2"] as const)
    test(`multi SVM (${binary ? "binary" : "real"} features, ${loss}): each task reaches its own optimum (gap, KKT, = trainLinearSvm)`, () => {
      const { x, tasks, dim } = problem(binary ? 3 : 4, binary);
      const res = trainLinearSvms(x, tasks, dim, { loss, eps: 1e-6, maxIter: 100_000 });
      assert.equal(res.length, tasks.length);
      tasks.forEach((task, t) => {
        const r = res[t]!;
        assert.ok(r.converged, `task ${t} converged`);
        const { rows, labels, cost } = task;
        if (rows.length === 0) {
          assert.ok(r.w.every((v) => v === 0));
          return;
        }
        const p = svmPrimalObjective(x, rows, labels, cost, r.w, loss);
        const d = svmDualObjective(x, rows, labels, cost, r.alpha, dim, loss);
        assert.ok(d <= p + 1e-9, `task ${t}: dual ${d} ≤ primal ${p}`);
        assert.ok((p - d) / p < 1e-4, `task ${t}: gap ${p - d} of ${p}`);
        if (loss === "l1")
          for (let k = 0; k < rows.length; k++) {
            const m = labels[k]! * rowDot(x, rows[k]!, r.w);
            const a = r.alpha[k]!;
            if (a === 0) assert.ok(m >= 1 - 1e-3, `task ${t} row ${k}: α = 0, margin ${m}`);
            else if (a === cost[k]) assert.ok(m <= 1 + 1e-3, `task ${t} row ${k}: α = C, margin ${m}`);
            else assert.ok(Math.abs(m - 1) < 1e-3, `task ${t} row ${k}: free α, margin ${m}`);
          }
        // The same optimum as the single-task solver.
        const one = trainLinearSvm(x, rows, labels, cost, dim, { loss, eps: 1e-6, maxIter: 100_000 });
        const p1 = svmPrimalObjective(x, rows, labels, cost, one.w, loss);
        assert.ok(Math.abs(p - p1) / p1 < 1e-4, `task ${t}: multi ${p} vs single ${p1}`);
        for (let f = 0; f < dim; f++) assert.ok(Math.abs(r.w[f]! - one.w[f]!) < 2e-2, `task ${t} w[${f}]`);
      });
    });

test("multi SVM: a row listed twice in one task is refused", () => {
  const { x } = problem(5, true);
  assert.throws(
    () =>
      trainLinearSvms(
        x,
        [{ rows: Int32Array.from([1, 1]), labels: Int8Array.from([1, -1]), cost: Float64Array.from([1, 1]) }],
        30,
      ),
    RangeError,
  );
});

test("SVM filter learner: jobs over one matrix train in lockstep (learnAll) to the optima of one-by-one training; weights scale costs", () => {
  const { x, tasks, dim } = problem(6, true);
  const jobs = tasks.slice(0, 4).map((t, i) => ({
    problem: {
      x,
      rows: t.rows,
      labels: t.labels,
      dim,
      ...(i === 2 ? { weights: Float64Array.from(t.rows, () => 2) } : {}),
    },
    costs: { c1: 0.2 + i * 0.3, c2: 2 },
  }));
  const opts = { eps: 1e-6, maxIter: 100_000 };
  const together = learnAll(makeSvmLearner(opts), jobs);
  const apart = learnAll(makeSvmLearner({ ...opts, lockstep: false }), jobs);
  jobs.forEach((j, i) => {
    const cost = Float64Array.from(
      j.problem.labels,
      (y, k) => (y === 1 ? j.costs.c1 : j.costs.c2) * (j.problem.weights?.[k] ?? 1),
    );
    const a = svmPrimalObjective(x, j.problem.rows, j.problem.labels, cost, Float64Array.from(together[i]!));
    const b = svmPrimalObjective(x, j.problem.rows, j.problem.labels, cost, Float64Array.from(apart[i]!));
    assert.ok(Math.abs(a - b) / b < 1e-4, `job ${i}: lockstep ${a} vs one by one ${b}`);
  });
  // Cost weights 2 at costs (c1, c2) = the same problem at (2·c1, 2·c2).
  const doubled = learnAll(makeSvmLearner(opts), [
    { problem: { ...jobs[2]!.problem, weights: undefined }, costs: { c1: 2 * jobs[2]!.costs.c1, c2: 4 } },
  ])[0]!;
  for (let f = 0; f < dim; f++) assert.ok(Math.abs(doubled[f]! - apart[2]![f]!) < 1e-2);
});
