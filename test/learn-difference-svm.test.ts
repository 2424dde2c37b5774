import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type DifferenceProblem,
  differenceDot,
  differencePrimalObjective,
  trainDifferenceSvm,
} from "../src/learn/difference-svm.js";
import { svmPrimalObjective, trainLinearSvm } from "../src/learn/linear-svm.js";
import { SparseRowsBuilder } from "../src/prune/sparse-rows.js";
import { Rng } from "../src/util/rng.js";

/** Rows from [index, value] lists. */
function rowsOf(list: [number, number][][]) {
  const b = new SparseRowsBuilder();
  for (const r of list)
    b.add(Int32Array.from(r.map((e) => e[0])), Float32Array.from(r.map((e) => e[1])), r.length);
  return b.build();
}

test("difference SVM: two-class Weston–Watkins = binary SVM with cost 2C on u = w1 − w0 (hand case: u = 4C)", () => {
  // Points x = +1 (class 1) and x = −1 (class 0); class c's score is w_c·x (weights interleaved).
  // WW: ½(w0² + w1²) + C Σ (1 − (w_y − w_{1−y})·x)₊; with u = w1 − w0 and w0 + w1 = 0 at the optimum
  // this is ½(½u²) + C Σ(1 − y u x)₊ = ½[½u² + 2C Σ(1 − y u x)₊]: u = min(1, 2·2C) and w1 = −w0 = u/2.
  const x = rowsOf([[[0, 1]], [[0, -1]]]);
  for (const c of [0.05, 0.1, 0.2, 1]) {
    const p: DifferenceProblem = {
      x,
      placements: [
        { offset: 0, stride: 2 },
        { offset: 1, stride: 2 },
      ],
      dim: 2,
      pos: Int32Array.from([0, 1]),
      posPlace: Uint8Array.from([1, 0]),
      neg: Int32Array.from([0, 1]),
      negPlace: Uint8Array.from([0, 1]),
      labels: Int8Array.from([1, 1]),
      cost: Float64Array.from([c, c]),
    };
    const r = trainDifferenceSvm(p, { eps: 1e-10 });
    assert.ok(r.converged);
    const u = Math.min(1, 4 * c);
    assert.ok(Math.abs(r.w[1]! - u / 2) < 1e-7, `C=${c}: w1 ${r.w[1]} vs ${u / 2}`);
    assert.ok(Math.abs(r.w[0]! + u / 2) < 1e-7, `C=${c}: w0 ${r.w[0]}`);
  }
});

test("difference SVM: two-class Weston–Watkins on random data equals the binary SVM with cost 2C (objective and weights)", () => {
  const rng = new Rng(11);
  const F = 12;
  const list: [number, number][][] = [];
  const y: number[] = [];
  for (let i = 0; i < 120; i++) {
    const cls = rng.int(2);
    const row: [number, number][] = [];
    for (let f = 0; f < F; f++)
      if (rng.next() < 0.4)
        row.push([f, Math.round((rng.next() * 2 - 1 + (cls === 1 ? 0.3 : -0.3)) * 100) / 100]);
    if (row.length === 0) row.push([0, 1]);
    list.push(row);
    y.push(cls);
  }
  const x = rowsOf(list);
  const N = list.length;
  const C = 0.3;
  // Multiclass: weight of class c, feature f at f * 2 + c.
  const p: DifferenceProblem = {
    x,
    placements: [
      { offset: 0, stride: 2 },
      { offset: 1, stride: 2 },
    ],
    dim: 2 * F,
    pos: Int32Array.from({ length: N }, (_, i) => i),
    posPlace: Uint8Array.from(y),
    neg: Int32Array.from({ length: N }, (_, i) => i),
    negPlace: Uint8Array.from(y, (c) => 1 - c),
    labels: new Int8Array(N).fill(1),
    cost: new Float64Array(N).fill(C),
  };
  const mc = trainDifferenceSvm(p, { eps: 1e-8, maxIter: 100000 });
  const bin = trainLinearSvm(
    x,
    Int32Array.from({ length: N }, (_, i) => i),
    Int8Array.from(y, (c) => (c === 1 ? 1 : -1)),
    new Float64Array(N).fill(2 * C),
    F,
    { eps: 1e-8, maxIter: 100000 },
  );
  assert.ok(mc.converged && bin.converged);
  for (let f = 0; f < F; f++) {
    const u = mc.w[2 * f + 1]! - mc.w[2 * f]!;
    assert.ok(Math.abs(u - bin.w[f]!) < 1e-4, `feature ${f}: w1 − w0 = ${u}, binary ${bin.w[f]}`);
    assert.ok(Math.abs(mc.w[2 * f + 1]! + mc.w[2 * f]!) < 1e-4, `feature ${f}: w1 + w0 ≠ 0`);
  }
  // Objectives: WW objective = ½ × binary objective at the corresponding points.
  const objMc = differencePrimalObjective(p, mc.w);
  const objBin = svmPrimalObjective(
    x,
    Int32Array.from({ length: N }, (_, i) => i),
    Int8Array.from(y, (c) => (c === 1 ? 1 : -1)),
    new Float64Array(N).fill(2 * C),
    bin.w,
  );
  assert.ok(Math.abs(objMc - objBin / 2) < 1e-4 * Math.max(1, objBin), `${objMc} vs ${objBin / 2}`);
});

test("difference SVM: implicit difference rows reach the same optimum as trainLinearSvm on materialised rows", () => {
  const rng = new Rng(5);
  // Event rows: 30 rows over 10 features; placements: 3 interleaved blocks (stride 3) and one block
  // of its own at 30..39; some examples pair two rows under the same placement (overlapping).
  const F = 10;
  const list: [number, number][][] = [];
  for (let r = 0; r < 30; r++) {
    const row: [number, number][] = [];
    for (let f = 0; f < F; f++) if (rng.next() < 0.35) row.push([f, rng.int(3) + 1]);
    if (row.length === 0) row.push([rng.int(F), 1]);
    list.push(row);
  }
  const x = rowsOf(list);
  const placements = [
    { offset: 0, stride: 3 },
    { offset: 1, stride: 3 },
    { offset: 2, stride: 3 },
    { offset: 30, stride: 1 },
  ];
  const dim = 40;
  const N = 200;
  const p: DifferenceProblem = {
    x,
    placements,
    dim,
    pos: new Int32Array(N),
    posPlace: new Uint8Array(N),
    neg: new Int32Array(N),
    negPlace: new Uint8Array(N),
    labels: new Int8Array(N),
    cost: new Float64Array(N),
  };
  for (let k = 0; k < N; k++) {
    p.pos[k] = rng.int(30);
    p.posPlace[k] = rng.int(4);
    p.neg[k] = rng.next() < 0.15 ? -1 : rng.int(30);
    p.negPlace[k] = rng.next() < 0.2 ? p.posPlace[k]! : rng.int(4);
    // A zero difference (the same row on both sides) has no solution to converge to: avoid it.
    if (p.neg[k] === p.pos[k] && p.negPlace[k] === p.posPlace[k]) p.neg[k] = (p.pos[k]! + 1) % 30;
    p.labels[k] = rng.next() < 0.5 ? 1 : -1;
    p.cost[k] = [0.05, 0.5, 2][rng.int(3)]!;
  }
  // Materialise x_k as dense → sparse rows.
  const mat: [number, number][][] = [];
  for (let k = 0; k < N; k++) {
    const dense = new Float64Array(dim);
    const put = (r: number, pl: number, sign: number) => {
      if (r < 0) return;
      const { offset, stride } = placements[pl]!;
      for (let q = x.rowPtr[r]!; q < x.rowPtr[r + 1]!; q++)
        dense[offset + x.index[q]! * stride]! += sign * x.value[q]!;
    };
    put(p.pos[k]!, p.posPlace[k]!, 1);
    put(p.neg[k]!, p.negPlace[k]!, -1);
    const row: [number, number][] = [];
    dense.forEach((v, f) => {
      if (v !== 0) row.push([f, v]);
    });
    if (row.length === 0) row.push([0, 0]);
    mat.push(row);
  }
  const xm = rowsOf(mat);
  const rows = Int32Array.from({ length: N }, (_, i) => i);
  for (const loss of ["l1", "l2"] as const) {
    const d = trainDifferenceSvm(p, { loss, eps: 1e-6, maxIter: 200000 });
    const b = trainLinearSvm(xm, rows, p.labels, p.cost, dim, { loss, eps: 1e-6, maxIter: 200000 });
    assert.ok(d.converged && b.converged, `${loss}: ${d.iterations} / ${b.iterations} passes`);
    const od = differencePrimalObjective(p, d.w, loss);
    const ob = svmPrimalObjective(xm, rows, p.labels, p.cost, b.w, loss);
    assert.ok(Math.abs(od - ob) < 1e-5 * Math.max(1, ob), `${loss}: ${od} vs ${ob}`);
    let maxDiff = 0;
    for (let f = 0; f < dim; f++) maxDiff = Math.max(maxDiff, Math.abs(d.w[f]! - b.w[f]!));
    assert.ok(maxDiff < 1e-3, `${loss}: weights differ by ${maxDiff}`);
    // The implicit dot equals the materialised one.
    for (let k = 0; k < N; k += 17) {
      let dot = 0;
      for (let q = xm.rowPtr[k]!; q < xm.rowPtr[k + 1]!; q++) dot += d.w[xm.index[q]!]! * xm.value[q]!;
      assert.ok(Math.abs(dot - differenceDot(p, k, d.w)) < 1e-9);
    }
  }
});

test("difference SVM: a warm start (earlier dual variables, some examples changed) reaches the cold-start optimum", () => {
  const rng = new Rng(8);
  const F = 8;
  const list: [number, number][][] = [];
  for (let r = 0; r < 20; r++) {
    const row: [number, number][] = [];
    for (let f = 0; f < F; f++) if (rng.next() < 0.4) row.push([f, rng.int(3) + 1]);
    if (row.length === 0) row.push([rng.int(F), 1]);
    list.push(row);
  }
  const N = 150;
  const p: DifferenceProblem = {
    x: rowsOf(list),
    placements: [
      { offset: 0, stride: 2 },
      { offset: 1, stride: 2 },
    ],
    dim: 2 * F,
    pos: Int32Array.from({ length: N }, () => rng.int(20)),
    posPlace: Uint8Array.from({ length: N }, () => rng.int(2)),
    neg: Int32Array.from({ length: N }, () => rng.int(20)),
    negPlace: Uint8Array.from({ length: N }, () => rng.int(2)),
    labels: Int8Array.from({ length: N }, () => (rng.next() < 0.5 ? 1 : -1)),
    cost: Float64Array.from({ length: N }, () => 0.1 + rng.next()),
  };
  for (let k = 0; k < N; k++)
    if (p.pos[k] === p.neg[k] && p.posPlace[k] === p.negPlace[k]) p.neg[k] = (p.pos[k]! + 1) % 20;
  const first = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000 });
  // Change a third of the examples' plus-side events, as a latent SVM's new assignment would.
  const alpha = first.alpha.slice();
  for (let k = 0; k < N; k += 3) {
    p.pos[k] = (p.pos[k]! + 7) % 20;
    if (p.pos[k] === p.neg[k] && p.posPlace[k] === p.negPlace[k]) p.pos[k] = (p.pos[k]! + 1) % 20;
    alpha[k] = 0;
  }
  const cold = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000 });
  const warm = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000, alpha });
  assert.ok(cold.converged && warm.converged);
  const oc = differencePrimalObjective(p, cold.w);
  const ow = differencePrimalObjective(p, warm.w);
  assert.ok(Math.abs(oc - ow) < 1e-5 * Math.max(1, oc), `${oc} vs ${ow}`);
});

for (const fused of [true, false])
  test(`difference SVM: the grouped order (plus-side dots cached per row${fused ? ", interleaved placements fused" : ", separate blocks"}) reaches the materialised optimum, cold and warm`, () => {
    const rng = new Rng(21);
    // 25 rows over 12 features; plus side: 3 interleaved placements (stride 3, weights 0..35), minus
    // side: a block of its own (36..47). Few plus rows, so groups have many members (latent-SVM shape).
    const F = 12;
    const list: [number, number][][] = [];
    for (let r = 0; r < 25; r++) {
      const row: [number, number][] = [];
      for (let f = 0; f < F; f++) if (rng.next() < 0.4) row.push([f, rng.int(3) + 1]);
      if (row.length === 0) row.push([rng.int(F), 1]);
      list.push(row);
    }
    const x = rowsOf(list);
    const placements = fused
      ? [
          { offset: 0, stride: 3 },
          { offset: 1, stride: 3 },
          { offset: 2, stride: 3 },
          { offset: 36, stride: 1 },
        ]
      : [
          { offset: 0, stride: 1 },
          { offset: 12, stride: 1 },
          { offset: 24, stride: 1 },
          { offset: 36, stride: 1 },
        ];
    const dim = 48;
    const N = 300;
    const p: DifferenceProblem = {
      x,
      placements,
      dim,
      pos: Int32Array.from({ length: N }, () => (rng.next() < 0.05 ? -1 : rng.int(8))),
      posPlace: Uint8Array.from({ length: N }, () => rng.int(3)),
      neg: Int32Array.from({ length: N }, () => (rng.next() < 0.1 ? -1 : 8 + rng.int(17))),
      negPlace: new Uint8Array(N).fill(3),
      labels: Int8Array.from({ length: N }, () => (rng.next() < 0.4 ? 1 : -1)),
      cost: Float64Array.from({ length: N }, () => [0.05, 0.5, 2][rng.int(3)]!),
    };
    for (let k = 0; k < N; k++) if (p.pos[k] === -1 && p.neg[k] === -1) p.neg[k] = 8;
    const mat: [number, number][][] = [];
    for (let k = 0; k < N; k++) {
      const dense = new Float64Array(dim);
      const put = (r: number, pl: number, sign: number) => {
        if (r < 0) return;
        const { offset, stride } = placements[pl]!;
        for (let q = x.rowPtr[r]!; q < x.rowPtr[r + 1]!; q++)
          dense[offset + x.index[q]! * stride]! += sign * x.value[q]!;
      };
      put(p.pos[k]!, p.posPlace[k]!, 1);
      put(p.neg[k]!, p.negPlace[k]!, -1);
      const row: [number, number][] = [];
      dense.forEach((v, f) => {
        if (v !== 0) row.push([f, v]);
      });
      mat.push(row);
    }
    const xm = rowsOf(mat);
    const rows = Int32Array.from({ length: N }, (_, i) => i);
    for (const loss of ["l1", "l2"] as const) {
      const g = trainDifferenceSvm(p, { loss, eps: 1e-6, maxIter: 200000, grouped: true });
      const plain = trainDifferenceSvm(p, { loss, eps: 1e-6, maxIter: 200000, grouped: false });
      const b = trainLinearSvm(xm, rows, p.labels, p.cost, dim, { loss, eps: 1e-6, maxIter: 200000 });
      assert.ok(g.converged && plain.converged && b.converged);
      const og = differencePrimalObjective(p, g.w, loss);
      const ob = svmPrimalObjective(xm, rows, p.labels, p.cost, b.w, loss);
      assert.ok(Math.abs(og - ob) < 1e-5 * Math.max(1, ob), `${loss}: grouped ${og} vs materialised ${ob}`);
      let maxDiff = 0;
      for (let f = 0; f < dim; f++) maxDiff = Math.max(maxDiff, Math.abs(g.w[f]! - b.w[f]!));
      assert.ok(maxDiff < 1e-3, `${loss}: weights differ by ${maxDiff}`);
      // w = Σ α_k y_k x_k holds exactly (deferred updates all applied).
      const w = new Float64Array(dim);
      for (let k = 0; k < N; k++)
        for (let q = xm.rowPtr[k]!; q < xm.rowPtr[k + 1]!; q++)
          w[xm.index[q]!]! += g.alpha[k]! * p.labels[k]! * xm.value[q]!;
      for (let f = 0; f < dim; f++) assert.ok(Math.abs(w[f]! - g.w[f]!) < 1e-9, `w ≠ Σ αyx at ${f}`);
      // The grouped objective equals the per-example one.
      let direct = 0;
      for (let f = 0; f < dim; f++) direct += 0.5 * g.w[f]! ** 2;
      for (let k = 0; k < N; k++) {
        const z = 1 - p.labels[k]! * differenceDot(p, k, g.w);
        if (z > 0) direct += p.cost[k]! * (loss === "l2" ? z * z : z);
      }
      assert.ok(Math.abs(direct - og) < 1e-9 * Math.max(1, og));
    }
    // Warm start after re-assigning a third of the plus sides.
    const first = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000 });
    const alpha = first.alpha.slice();
    for (let k = 0; k < N; k += 3) {
      p.pos[k] = (Math.max(0, p.pos[k]!) + 3) % 8;
      alpha[k] = 0;
    }
    const cold = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000 });
    const warm = trainDifferenceSvm(p, { eps: 1e-6, maxIter: 100000, alpha });
    assert.ok(cold.converged && warm.converged);
    const oc = differencePrimalObjective(p, cold.w);
    const ow = differencePrimalObjective(p, warm.w);
    assert.ok(Math.abs(oc - ow) < 1e-5 * Math.max(1, oc), `${oc} vs ${ow}`);
    // Placements on both sides cannot be grouped.
    p.negPlace[0] = 0;
    assert.throws(() => trainDifferenceSvm(p, { grouped: true }), /disjoint/);
  });
