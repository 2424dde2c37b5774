import assert from "node:assert/strict";
import { test } from "node:test";
import {
  svmDualObjective,
  svmPrimalObjective,
  trainLinearSvm,
  rowDot,
  projectedGradient,
} from "../src/learn/linear-svm.js";
import { SparseRowsBuilder } from "../src/prune/sparse-rows.js";
import { Rng } from "../src/util/rng.js";

/** Rows from [index, value] lists. */
function rowsOf(list: [number, number][][]) {
  const b = new SparseRowsBuilder();
  for (const r of list) {
    b.add(Int32Array.from(r.map((e) => e[0])), Float32Array.from(r.map((e) => e[1])), r.length);
  }
  const x = b.build();
  return { x, rows: Int32Array.from(list.map((_, i) => i)) };
}

test("linear SVM: two points on a line, w = min(1, 2C) (hinge) and 2·2C/(1+2·2C) (squared hinge)", () => {
  const { x, rows } = rowsOf([[[0, 1]], [[0, -1]]]);
  const labels = Int8Array.from([1, -1]);
  for (const c of [0.1, 0.25, 0.4, 1, 10]) {
    const cost = Float64Array.from([c, c]);
    const l1 = trainLinearSvm(x, rows, labels, cost, 1, { eps: 1e-9 });
    assert.ok(Math.abs(l1.w[0]! - Math.min(1, 2 * c)) < 1e-6, `l1 C=${c}: ${l1.w[0]}`);
    assert.ok(l1.converged);
    // f(w) = ½w² + 2C(1 − w)² → w = 4C / (1 + 4C).
    const l2 = trainLinearSvm(x, rows, labels, cost, 1, { loss: "l2", eps: 1e-9 });
    assert.ok(Math.abs(l2.w[0]! - (4 * c) / (1 + 4 * c)) < 1e-6, `l2 C=${c}: ${l2.w[0]}`);
  }
});

test("linear SVM: one-hot aggregated examples reach the per-feature closed form (cost-sensitive, weighted rows)", () => {
  // Feature f has pos[f] positive and neg[f] negative examples, each aggregated into one weighted row.
  // The objective splits per feature: ½w² + A·(1 − w)₊ + B·(1 + w)₊ with A = C1·pos, B = C2·neg, whose
  // minimiser is clamp(A − B, −1, 1); with squared hinges it is 2(A − B) / (1 + 2A + 2B).
  const rng = new Rng(7);
  const F = 40;
  const pos: number[] = [];
  const neg: number[] = [];
  const list: [number, number][][] = [];
  const lab: number[] = [];
  const cst: number[] = [];
  const c1 = 0.01;
  const c2 = 0.2;
  for (let f = 0; f < F; f++) {
    pos.push(rng.int(200));
    neg.push(rng.int(10));
    if (pos[f]! > 0) {
      list.push([[f, 1]]);
      lab.push(1);
      cst.push(c1 * pos[f]!);
    }
    if (neg[f]! > 0) {
      list.push([[f, 1]]);
      lab.push(-1);
      cst.push(c2 * neg[f]!);
    }
  }
  const { x, rows } = rowsOf(list);
  const labels = Int8Array.from(lab);
  const cost = Float64Array.from(cst);
  const l1 = trainLinearSvm(x, rows, labels, cost, F, { eps: 1e-10 });
  const l2 = trainLinearSvm(x, rows, labels, cost, F, { loss: "l2", eps: 1e-10 });
  let rules = 0;
  for (let f = 0; f < F; f++) {
    const A = c1 * pos[f]!;
    const B = c2 * neg[f]!;
    const want1 = Math.max(-1, Math.min(1, A - B));
    assert.ok(Math.abs(l1.w[f]! - want1) < 1e-6, `l1 feature ${f}: ${l1.w[f]} vs ${want1}`);
    const want2 = (2 * (A - B)) / (1 + 2 * A + 2 * B);
    assert.ok(Math.abs(l2.w[f]! - want2) < 1e-6, `l2 feature ${f}: ${l2.w[f]} vs ${want2}`);
    if (want1 > 0) rules++;
  }
  assert.ok(rules > 0 && rules < F, "both signs occur");
});

test("linear SVM: on random overlapping data the duality gap closes and KKT conditions hold", () => {
  const rng = new Rng(3);
  const dim = 30;
  const list: [number, number][][] = [];
  const lab: number[] = [];
  const cst: number[] = [];
  for (let i = 0; i < 400; i++) {
    const y = rng.next() < 0.3 ? 1 : -1;
    const row: [number, number][] = [[0, 1]];
    const used = new Set<number>([0]);
    for (let j = 0; j < 5; j++) {
      // Informative features 1..10 lean to the label, the rest are noise.
      const f = rng.next() < 0.5 ? 1 + rng.int(10) : 11 + rng.int(dim - 11);
      if (used.has(f)) continue;
      used.add(f);
      const v = (f <= 10 ? (f <= 5 ? y : -y) * 0.5 : 0) + (rng.next() - 0.5) * 2;
      row.push([f, v]);
    }
    list.push(row);
    lab.push(y);
    cst.push(y > 0 ? 0.5 : 2);
  }
  const { x, rows } = rowsOf(list);
  const labels = Int8Array.from(lab);
  const cost = Float64Array.from(cst);
  for (const loss of ["l1", "l2"] as const) {
    const r = trainLinearSvm(x, rows, labels, cost, dim, { loss, eps: 1e-5, maxIter: 100_000 });
    assert.ok(r.converged, `${loss} converged`);
    const p = svmPrimalObjective(x, rows, labels, cost, r.w, loss);
    const d = svmDualObjective(x, rows, labels, cost, r.alpha, dim, loss);
    assert.ok(d <= p + 1e-9, `${loss}: dual ${d} ≤ primal ${p}`);
    assert.ok((p - d) / p < 1e-4, `${loss}: gap ${p - d} of ${p}`);
    // KKT for the hinge: α = 0 ⇒ margin ≥ 1, 0 < α < C ⇒ margin = 1, α = C ⇒ margin ≤ 1.
    if (loss === "l1") {
      for (let k = 0; k < rows.length; k++) {
        const m = labels[k]! * rowDot(x, k, r.w);
        const a = r.alpha[k]!;
        if (a === 0) assert.ok(m >= 1 - 1e-3, `row ${k}: α = 0, margin ${m}`);
        else if (a === cost[k]) assert.ok(m <= 1 + 1e-3, `row ${k}: α = C, margin ${m}`);
        else assert.ok(Math.abs(m - 1) < 1e-3, `row ${k}: free α, margin ${m}`);
      }
    }
    // Any other weight vector is no better: random perturbations of the optimum.
    for (let t = 0; t < 20; t++) {
      const w2 = Float64Array.from(r.w, (v) => v + (rng.next() - 0.5) * 0.05);
      assert.ok(svmPrimalObjective(x, rows, labels, cost, w2, loss) >= p - 1e-6);
    }
  }
});

test("linear SVM: a larger cost on the negative class trades positives for precision", () => {
  const rng = new Rng(11);
  const list: [number, number][][] = [];
  const lab: number[] = [];
  for (let i = 0; i < 600; i++) {
    const y = rng.next() < 0.5 ? 1 : -1;
    const v = y * 0.6 + (rng.next() - 0.5) * 2.4;
    list.push([
      [0, 1],
      [1, v],
    ]);
    lab.push(y);
  }
  const { x, rows } = rowsOf(list);
  const labels = Int8Array.from(lab);
  const falsePositives = (c2: number) => {
    const cost = Float64Array.from(lab, (y) => (y > 0 ? 1 : c2));
    const { w } = trainLinearSvm(x, rows, labels, cost, 2, { eps: 1e-4 });
    let fp = 0;
    let tp = 0;
    for (let k = 0; k < rows.length; k++) {
      if (rowDot(x, k, w) > 0) {
        if (labels[k]! < 0) fp++;
        else tp++;
      }
    }
    return { fp, tp };
  };
  const even = falsePositives(1);
  const strict = falsePositives(20);
  assert.ok(strict.fp < even.fp, `false positives ${strict.fp} < ${even.fp}`);
  assert.ok(strict.tp < even.tp);
});

test("projected gradient: g between the bounds, clipped at a bound, NaN (shrink) beyond last sweep's extremes", () => {
  // Between the bounds: the gradient itself, whatever its sign.
  assert.equal(projectedGradient(0.5, -2, 1, 0.1, -0.1), -2);
  assert.equal(projectedGradient(0.5, 3, 1, 0.1, -0.1), 3);
  // At the lower bound 0: only a descent direction into the box counts.
  assert.equal(projectedGradient(0, -0.5, 1, 0.1, -0.1), -0.5);
  assert.equal(projectedGradient(0, 0.05, 1, 0.1, -0.1), 0);
  assert.ok(Number.isNaN(projectedGradient(0, 0.2, 1, 0.1, -0.1)));
  // At the upper bound u.
  assert.equal(projectedGradient(1, 0.5, 1, 0.1, -0.1), 0.5);
  assert.equal(projectedGradient(1, -0.05, 1, 0.1, -0.1), 0);
  assert.ok(Number.isNaN(projectedGradient(1, -0.2, 1, 0.1, -0.1)));
  // No upper bound (squared hinge): only the lower bound is ever active.
  assert.equal(projectedGradient(7, -0.2, Number.POSITIVE_INFINITY, 0.1, -0.1), -0.2);
  // The first sweep (infinite extremes) shrinks nothing.
  assert.equal(projectedGradient(0, 5, 1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), 0);
});
