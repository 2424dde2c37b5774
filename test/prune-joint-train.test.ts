import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { decodeModel, encodeModel } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import type { JointFilter } from "../src/prune/joint-filter.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { devMargins, operatingPoint, trainJointFilter } from "../src/prune/train-joint.js";
import { trainTokenRoleFilter } from "../src/prune/train-token-roles.js";
import { logOddsLearner } from "./filter-test-learner.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(80, 12))].map((r) => toSentence(r, vocab));
const init = trainTokenRoleFilter(train, train, vocab, {
  learner: logOddsLearner,
  bits: 12,
  coverage: 99,
}).filter;

test("joint training on a toy treebank: reaches its coverage target on train, the latent objective never rises", () => {
  const r = trainJointFilter(train, train, vocab, {
    init,
    coverage: 99,
    alternations: 3,
    c0: 0.1,
    c1: 0.001,
    eps: 1e-3,
    maxIter: 20000,
  });
  assert.equal(r.alternations.length, 3);
  // Each alternation minimises the latent objective given the previous assignment, whose value is the
  // latent objective of the previous weights: with a converged solver it cannot rise.
  for (let i = 1; i < r.alternations.length; i++)
    assert.ok(
      r.alternations[i]!.objective <= r.alternations[i - 1]!.objective * (1 + 1e-3),
      `objective rose: ${r.alternations.map((a) => a.objective).join(" → ")}`,
    );
  const f = r.filter;
  assert.ok(f.hasVine && f.hasNone);
  const e = evaluateCascade(new PruningCascade([f]), train, vocab);
  assert.ok(e.scores.coverage >= 99, `coverage ${e.scores.coverage}`);
  assert.ok(Math.abs(e.scores.coverage - r.coverage) < 1e-6 + 0.001);
  assert.ok(Math.abs(e.scores.reduction - r.reduction) < 0.001);
  assert.ok(e.scores.reduction > 60, `reduction ${e.scores.reduction}`);
  assert.ok(checkOnlyRemoves(f, train, vocab) > 0.5);
  // The trained filter survives a model-file round trip.
  const back = cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(new PruningCascade([f])))), "x");
  const g = back.passes[0] as JointFilter;
  assert.equal(g.info.chosen, r.chosen);
  for (const s of train)
    assert.deepEqual(back.prune(s, vocab).bits, new PruningCascade([f]).prune(s, vocab).bits);
  assert.match(f.describe(), /joint filter \(Bergsma & Cherry 2011\)/);
});

test("joint training without Vine and None, and the operating point at other targets", () => {
  const r = trainJointFilter(train, train, vocab, {
    init,
    coverage: 99.5,
    alternations: 2,
    vine: false,
    none: false,
  });
  assert.ok(!r.filter.hasVine && !r.filter.hasNone);
  const e = evaluateCascade(new PruningCascade([r.filter]), train, vocab);
  assert.ok(e.scores.coverage >= 99.5);
  // Lower targets never remove fewer arcs.
  const d = devMargins(r.filter, train, vocab, new PruningCascade());
  let last = -1;
  for (const t of [100, 99.5, 99, 98, 95]) {
    const op = operatingPoint(d, t);
    assert.ok(op.coverage >= t - 1e-9);
    assert.ok(op.reduction >= last);
    last = op.reduction;
  }
});

test("joint training with lexical arc features: reaches its target, weighs words, survives a round trip", () => {
  const r = trainJointFilter(train, train, vocab, {
    init,
    coverage: 99,
    alternations: 2,
    c0: 0.1,
    c1: 0.001,
    lexical: true,
    eps: 1e-3,
    maxIter: 20000,
  });
  const f = r.filter;
  assert.ok(f.lexical && f.hasVine && f.hasNone);
  // Some lexical weight was learnt (the block after the span features).
  const L0 = f.none!.length - (1 << 16);
  assert.ok(f.none!.subarray(L0).some((v) => v !== 0));
  const e = evaluateCascade(new PruningCascade([f]), train, vocab);
  assert.ok(e.scores.coverage >= 99, `coverage ${e.scores.coverage}`);
  assert.ok(Math.abs(e.scores.reduction - r.reduction) < 0.001);
  assert.ok(checkOnlyRemoves(f, train, vocab) > 0.5);
  const back = cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(new PruningCascade([f])))), "x");
  assert.ok((back.passes[0] as JointFilter).lexical);
  for (const s of train)
    assert.deepEqual(back.prune(s, vocab).bits, new PruningCascade([f]).prune(s, vocab).bits);
  assert.throws(
    () => trainJointFilter(train, train, vocab, { init, span: false, lexical: true }),
    RangeError,
  );
});
