import assert from "node:assert/strict";
import { test } from "node:test";
import { AveragedWeights, dot, miraStep, SparseDelta } from "../src/learn/averaged-weights.js";
import { Rng } from "../src/util/rng.js";

test("averaging: w − u/c equals the mean of the weight vectors after each step", () => {
  const m = new AveragedWeights(4);
  const idx = new Int32Array([1, 2]);
  const history: number[][] = [];
  // Step 1: +1 on [1,2]; step 2: nothing; step 3: −2 on [1,2] (twice index 1).
  m.update(idx, 2, 1);
  m.tick();
  history.push([...m.w]);
  m.tick();
  history.push([...m.w]);
  m.update(new Int32Array([1, 1]), 2, -1);
  m.tick();
  history.push([...m.w]);
  const avg = m.averaged();
  for (let j = 0; j < 4; j++) {
    const mean = history.reduce((s, h) => s + h[j]!, 0) / history.length;
    assert.ok(Math.abs(avg[j]! - mean) < 1e-6, `weight ${j}: ${avg[j]} vs ${mean}`);
  }
});

test("MIRA step: hand-worked values and clipping", () => {
  assert.equal(miraStep(2, 0, 4, 10), 0.5);
  assert.equal(miraStep(2, 3, 4, 10), 0); // constraint satisfied
  assert.equal(miraStep(10, 0, 1, 0.1), 0.1); // clipped at C
  assert.equal(miraStep(1, 0, 0, 1), 0);
});

test("SparseDelta merges duplicate indices before taking the norm", () => {
  const d = new SparseDelta(16);
  d.add(new Int32Array([3, 3, 5]), 3, 1);
  d.add(new Int32Array([5, 7]), 2, -1);
  assert.equal(d.squaredNorm(), 4 + 0 + 1);
  const m = new AveragedWeights(16);
  d.applyAndClear(m, 0.5);
  assert.equal(m.w[3], 1);
  assert.equal(m.w[5], 0);
  assert.equal(m.w[7], -0.5);
  assert.equal(d.squaredNorm(), 0);
});

test("perceptron separates linearly separable toy data", () => {
  const rng = new Rng(7);
  const D = 20;
  const truth = Array.from({ length: D }, () => rng.next() * 2 - 1);
  const data: { feats: Int32Array; y: number }[] = [];
  while (data.length < 200) {
    const feats = new Int32Array(5).map(() => rng.int(D));
    const s = feats.reduce((a, f) => a + truth[f]!, 0);
    if (Math.abs(s) > 0.3) data.push({ feats, y: s > 0 ? 1 : -1 });
  }
  const m = new AveragedWeights(D);
  for (let epoch = 0; epoch < 200; epoch++) {
    let mistakes = 0;
    for (const { feats, y } of data) {
      if (y * dot(m.w, feats, feats.length) <= 0) {
        m.update(feats, feats.length, y);
        mistakes++;
      }
      m.tick();
    }
    if (mistakes === 0) break;
  }
  const w = m.w;
  const errors = data.filter(({ feats, y }) => y * dot(w, feats, feats.length) <= 0).length;
  assert.equal(errors, 0);
});
