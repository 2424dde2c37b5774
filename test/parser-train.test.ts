import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { isTree } from "../src/decode/tree-predicates.js";
import { VineparseError } from "../src/errors.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import {
  ChildSummary,
  LABEL_FEATURE_SET,
  labelFeatures,
  labelTemplates,
  MAX_LABEL_FEATURES,
} from "../src/parser/labeler.js";
import { LabelRows } from "../src/parser/label-rows.js";
import { Parser } from "../src/parser/parser.js";
import { evaluateParser, trainParser } from "../src/parser/train.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { LenVinePruner } from "../src/prune/len-vine.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(300, 1))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(100, 2))].map((r) => toSentence(r, vocab));

for (const algorithm of ["mira", "perceptron"] as const) {
  test(`first-order ${algorithm} learns the toy grammar (dev UAS ≥ 97, LAS ≥ 95)`, () => {
    const { parser, history } = trainParser(train, vocab, {
      algorithm,
      epochs: 5,
      bits: 18,
      labelBits: 12,
      dev,
    });
    assert.equal(history.length, 5);
    const s = evaluateParser(parser, dev, vocab);
    assert.ok(s.uasNoPunct >= 97, `UAS ${s.uasNoPunct}`);
    assert.ok(s.lasNoPunct >= 95, `LAS ${s.lasNoPunct}`);
  });
}

test("training is deterministic given the seed; save → load parses identically", () => {
  const a = trainParser(train, vocab, { epochs: 2, bits: 16, labelBits: 10, seed: 3 }).parser;
  const b = trainParser(train, vocab, { epochs: 2, bits: 16, labelBits: 10, seed: 3 }).parser;
  assert.deepEqual(a.arcWeights, b.arcWeights);
  const path = join(mkdtempSync(join(tmpdir(), "vp-parser-")), "m.bin");
  a.save(path);
  const c = Parser.load(path);
  for (const s of dev.slice(0, 30)) {
    const p = a.parse(s, vocab);
    const q = c.parse(s, vocab);
    assert.deepEqual(p.heads, q.heads);
    assert.deepEqual(p.labels, q.labels);
  }
});

test("a trained parser names its label feature set; files without one label with set 1, unknown sets are refused", () => {
  // A weak labeller (few sentences, one epoch), so that the two sets disagree on some words.
  const a = trainParser(train.slice(0, 12), vocab, { epochs: 1, bits: 16, labelBits: 10, seed: 3 }).parser;
  assert.equal(a.config.labelFeatures, LABEL_FEATURE_SET);
  const data = a.toModelData();
  assert.equal(data.meta.labelFeatures, 2);
  // A file written before set 2 (no labelFeatures): its weights are read with set 1's features.
  const { labelFeatures: _, ...older } = data.meta;
  const old = Parser.fromModel({ ...data, meta: older }, "old.model");
  const back = Parser.fromModel(data, "new.model");
  assert.equal(old.config.labelFeatures, undefined);
  // Each labels a tree as its set's features score it under the same weights.
  const rows = LabelRows.fromPacked(a.labelWeights, 1 << 10, a.labels.length);
  const buf = new Int32Array(MAX_LABEL_FEATURES);
  const fs = new FeatureSentence();
  const atoms = new AtomCache();
  const kids = new ChildSummary();
  let differ = 0;
  for (const t of dev) {
    const heads = a.parse(t, vocab).heads;
    const got = [a.labelTree(t, vocab, heads), old.labelTree(t, vocab, heads)];
    assert.deepEqual(back.labelTree(t, vocab, heads), got[0]);
    const x = atoms.prepare(t, vocab, fs);
    kids.fill(x, heads);
    for (let m = 1; m <= t.n; m++)
      for (const set of [2, 1]) {
        const k = labelFeatures(x, kids, heads[m]!, m, buf, (1 << 10) - 1, labelTemplates(set));
        const sc = rows.score(buf, k);
        let best = 0;
        for (let l = 1; l < a.labels.length; l++) if (sc[l]! > sc[best]!) best = l;
        assert.equal(got[2 - set]![m], best, `set ${set}, word ${m}`);
      }
    for (let m = 1; m <= t.n; m++) if (got[0]![m] !== got[1]![m]) differ++;
  }
  // The sets do differ on some of these words (else this test could not tell them apart).
  assert.ok(differ > 0);
  assert.throws(
    () => Parser.fromModel({ ...data, meta: { ...data.meta, labelFeatures: 3 } }, "new.model"),
    (e: unknown) =>
      e instanceof VineparseError && /label feature set 3/.test(e.message) && !e.message.includes("\n"),
  );
});

test("given masks replace the cascade's in training; the parser keeps the cascade for parsing", () => {
  const cascade = new PruningCascade([new LenVinePruner(2)]);
  const opts = { epochs: 2, bits: 16, labelBits: 10, seed: 3 };
  const plain = trainParser(train, vocab, opts).parser;
  // Every arc (null masks) trains the same weights as no cascade at all.
  const open = trainParser(train, vocab, { ...opts, cascade, masks: train.map(() => null) }).parser;
  assert.deepEqual(open.arcWeights, plain.arcWeights);
  assert.equal(open.cascade, cascade);
  // The cascade's own masks train different weights (length-2 arcs at most).
  const pruned = trainParser(train, vocab, { ...opts, cascade }).parser;
  assert.notDeepEqual(pruned.arcWeights, plain.arcWeights);
  const given = trainParser(train, vocab, { ...opts, cascade, masks: cascade.masksFor(train, vocab) }).parser;
  assert.deepEqual(given.arcWeights, pruned.arcWeights);
  // Parsing runs the cascade: no arc longer than 2 in any parse.
  for (const s of dev.slice(0, 30)) {
    const heads = open.parse(s, vocab, cascade.prune(s, vocab)).heads;
    for (let m = 1; m <= s.n; m++) if (heads[m]! > 0) assert.ok(Math.abs(heads[m]! - m) <= 2);
  }
  assert.throws(() => trainParser(train, vocab, { ...opts, masks: [null] }), RangeError);
});

test("parse respects the arc mask: scores only allowed arcs, gold-only mask gives the gold tree", () => {
  const { parser } = trainParser(train.slice(0, 50), vocab, { epochs: 1, bits: 16, labelBits: 10 });
  for (const s of dev.slice(0, 20)) {
    const mask = ArcMask.fromHeads(s.head, s.n);
    const r = parser.parse(s, vocab, mask);
    assert.deepEqual(Array.from(r.heads), Array.from(s.head));
    // Every arc of a gold-only mask is its modifier's only head: none needs scoring.
    assert.equal(r.arcsScored, 0);
    assert.equal(r.fallback, false);
    const full = parser.parse(s, vocab);
    assert.equal(full.arcsScored, s.n * s.n);
    assert.ok(isTree(full.heads));
  }
  // A mask with no tree at all still yields a tree, flagged as a fallback.
  const s = dev[0]!;
  const r = parser.parse(s, vocab, ArcMask.empty(s.n));
  assert.ok(isTree(r.heads));
  assert.equal(r.fallback, true);
});
