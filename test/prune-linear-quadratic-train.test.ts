import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { decodeModel, encodeModel, packInt16 } from "../src/model/model-file.js";
import { ARC_TEMPLATES, arcFeatureIndex } from "../src/prune/arc-filter-features.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { QuadraticFilter } from "../src/prune/quadratic-filter.js";
import { TagMap } from "../src/prune/tag-map.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { trainQuadraticFilter } from "../src/prune/train-quadratic.js";
import { trainTokenRoleFilter } from "../src/prune/train-token-roles.js";
import { Rng } from "../src/util/rng.js";
import { logOddsLearner } from "./filter-test-learner.js";
import { assertSamePruning, checkOnlyRemoves } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(300, 11))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(80, 12))].map((r) => toSentence(r, vocab));

test("quadratic filter: hand-set weights remove exactly the arcs scoring above the threshold", () => {
  const tags = new TagMap(TagMap.collect(train, vocab, "xpos"), "xpos");
  const bits = 20;
  const w = new Int16Array(1 << bits);
  // Right arcs DT → NN, and right arcs longer than 5 (distance weight -1 on (h - m) / 10).
  w[arcFeatureIndex(ARC_TEMPLATES.triple, 0, tags.id("DT"), tags.id("NN"), 0, bits)] = 1;
  w[arcFeatureIndex(ARC_TEMPLATES.distance, 0, 0, 0, 0, bits)] = -1;
  const f = new QuadraticFilter(tags, bits, w, 1, 0.5, 10);
  const runner = new PruningCascade();
  const rng = new Rng(2);
  for (const s of dev) {
    const mask = ArcMask.full(s.n);
    for (let i = 0; i < mask.bits.length; i++) if (mask.bits[i] === 1 && rng.next() < 0.3) mask.bits[i] = 0;
    const want = mask.clone();
    const tag = (i: number) => (i === 0 ? "<root>" : vocab.xpos.strings[s.xpos[i]!]);
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (!want.allows(h, m)) continue;
        const dtnn = h < m && tag(h) === "DT" && tag(m) === "NN" ? 1 : 0;
        // The distance feature's value is (h - m) / 10 as a 32-bit float; only right arcs weigh it.
        const score = dtnn + (h < m ? -Math.fround((h - m) * 0.1) : 0);
        if (score > 0.5) want.remove(h, m);
      }
    f.prune(runner.prepare(s, vocab), mask);
    assert.deepEqual(mask.bits, want.bits);
  }
  assert.ok(checkOnlyRemoves(f, dev, vocab) > 0);
  // Round trip through a model file.
  const back = cascadeFromModelData(decodeModel(encodeModel(f.toModelData())), "q.vpf")
    .passes[0] as QuadraticFilter;
  assert.equal(back.kind, "quadratic");
  assert.deepEqual(back.weights, f.weights);
  assert.equal(back.threshold, 0.5);
  assert.equal(back.describe(), f.describe());
  const m = f.toModelData();
  m.meta.distScale = -1;
  assert.throws(() => QuadraticFilter.fromModelData(m, "q.vpf"), /q\.vpf: corrupted model: quadratic filter/);
  // Version 1 files (before the coarse tags, weights delta-coded) load as Table 3 filters.
  const v1 = f.toModelData();
  v1.meta.version = 1;
  delete v1.meta.coarse;
  const packed = packInt16({ weights: f.weights, scale: f.scale });
  v1.arrays = { delta: packed.delta, value: packed.value };
  const old = QuadraticFilter.fromModelData(v1, "q.vpf");
  assert.equal(old.coarseMap, null);
  assertSamePruning(f, old, dev.slice(0, 20), vocab);
  // Version 2 files (coarse tags, weights delta-coded) load with the same weights.
  const v2 = f.toModelData();
  v2.meta.version = 2;
  v2.arrays = { delta: packed.delta, value: packed.value };
  assert.deepEqual(QuadraticFilter.fromModelData(v2, "q.vpf").weights, f.weights);
  v2.meta.coarse = { column: "upos", tags: [1, 2] };
  assert.throws(() => QuadraticFilter.fromModelData(v2, "q.vpf"), /bad coarse tag list/);
  const cut = f.toModelData();
  cut.arrays = { weights: f.weights.subarray(1) };
  assert.throws(() => QuadraticFilter.fromModelData(cut, "q.vpf"), /quadratic filter lacks its weights/);
});

test("linear then quadratic training on a toy treebank: dev operating points as predicted", () => {
  const linear = trainTokenRoleFilter(train, dev, vocab, {
    learner: logOddsLearner,
    bits: 16,
    tags: "xpos",
    coverage: 99,
    levels: [0, 0.5, 1],
  });
  const lin = new PruningCascade([linear.filter]);
  const e = evaluateCascade(lin, dev, vocab);
  // The search counted exactly what the filter does on dev.
  assert.equal(Math.round(e.scores.coverage * 1000) / 1000, linear.predicted.coverage);
  assert.equal(Math.round(e.scores.reduction * 1000) / 1000, linear.predicted.reduction);
  assert.ok(e.scores.coverage >= 99, `coverage ${e.scores.coverage}`);
  assert.ok(e.scores.reduction > 30, `reduction ${e.scores.reduction}`);
  assert.ok(linear.curve.length > 0);
  assert.ok(checkOnlyRemoves(linear.filter, dev, vocab) > 0);
  assert.match(linear.filter.describe(), /dev precision/);
  const back = cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(lin))), "l.vpf");
  assert.ok(back.passes[0] instanceof TokenRoleFilter);
  assert.deepEqual((back.passes[0] as TokenRoleFilter).weights, linear.filter.weights);
  // Version 1 files (weights delta-coded) load with the same weights; a cut table is rejected.
  const v1 = linear.filter.toModelData();
  v1.meta.version = 1;
  const packed = packInt16({ weights: linear.filter.weights, scale: 1 });
  v1.arrays = { delta: packed.delta, value: packed.value };
  assert.deepEqual(TokenRoleFilter.fromModelData(v1, "l.vpf").weights, linear.filter.weights);
  const cut = linear.filter.toModelData();
  cut.arrays = { weights: linear.filter.weights.subarray(2) };
  assert.throws(() => TokenRoleFilter.fromModelData(cut, "l.vpf"), /linear filter lacks its weights/);
  for (const s of dev) assert.deepEqual(back.prune(s, vocab).bits, lin.prune(s, vocab).bits);

  const quad = trainQuadraticFilter(train, dev, vocab, {
    learner: logOddsLearner,
    bits: 16,
    tags: "xpos",
    coverage: 98.5,
    prefix: lin,
  });
  const full = lin.concat([quad.filter]);
  const e2 = evaluateCascade(full, dev, vocab);
  // The dev point recorded is the filter's own: with the arc network when it was kept.
  const net = quad.network!;
  assert.equal(quad.filter.network === null, net.lambda === 0);
  const st = net.lambda > 0 ? net : quad.settings[quad.chosen]!;
  assert.equal(Math.round(e2.scores.coverage * 1000) / 1000, st.coverage);
  assert.equal(Math.round(e2.scores.reduction * 1000) / 1000, st.reduction);
  assert.ok(net.reduction >= quad.settings[quad.chosen]!.reduction);
  // The two-fold check counted arcs of both halves of dev, no more than the prefix leaves.
  const left = dev.reduce((t, s) => t + lin.prune(s, vocab).count(), 0);
  for (const c of [net.check.network, net.check.linear]) {
    assert.ok(c.removed > 0 && c.removed <= left && c.lost <= c.removed, JSON.stringify(c));
  }
  if (net.lambda > 0) assert.match(quad.filter.describe(), /two-fold check on dev/);
  assert.ok(e2.scores.coverage >= 98.5);
  assert.ok(e2.scores.reduction > e.scores.reduction);
  assert.ok(quad.examples > 0 && quad.examples < dev.length * 1000);
  assert.match(quad.filter.describe(), /strongest features/);
  // XPOS filters read the coarse UPOS templates too (unless asked for Table 3 alone).
  assert.notEqual(quad.filter.coarseMap, null);
  assert.match(quad.filter.describe(), /coarse UPOS tags/);
  const back2 = cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(full))), "q.vpf");
  assert.equal(back2.name, "linear+quadratic");
  for (const s of dev) assert.deepEqual(back2.prune(s, vocab).bits, full.prune(s, vocab).bits);
});
