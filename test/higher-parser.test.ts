import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { isTree } from "../src/decode/tree-predicates.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { evaluateDependencyParser, trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { loadParser } from "../src/parser/load-parser.js";
import { parsePruned } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { LenVinePruner } from "../src/prune/len-vine.js";
import { PruningEvaluator } from "../src/eval/pruning.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(300, 1))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(100, 2))].map((r) => toSentence(r, vocab));
// One first-order model (pruner and labeller) shared by the tests.
const firstOrder = trainParser(train, vocab, { epochs: 5, bits: 18, labelBits: 12 }).parser;

const trained = new Map<string, HigherOrderParser>();
function model(order: 2 | 3, k: number): HigherOrderParser {
  const key = `${order}/${k}`;
  let p = trained.get(key);
  if (p === undefined) {
    p = trainHigherOrderParser(train, vocab, { order, k, epochs: 4, bits: 18, firstOrder, dev }).parser;
    trained.set(key, p);
  }
  return p;
}

for (const order of [2, 3] as const) {
  for (const k of [0, 5]) {
    test(`order ${order}${k > 0 ? `, top-${k} pruning` : ", unpruned"} learns the toy grammar (dev UAS ≥ 97)`, () => {
      const p = model(order, k);
      assert.equal(p.order, order);
      const s = evaluateDependencyParser(p, dev, vocab);
      assert.ok(s.uasNoPunct >= 97, `UAS ${s.uasNoPunct}`);
      assert.ok(s.lasNoPunct >= 95, `LAS ${s.lasNoPunct}`);
    });
  }
}

test("training reports per-epoch dev scores and keeps the best epoch; policies skip/restore run", () => {
  const r = trainHigherOrderParser(train.slice(0, 100), vocab, {
    order: 2,
    k: 1,
    rank: "score",
    epochs: 2,
    bits: 16,
    firstOrder,
    dev,
    goldPruned: "skip",
  });
  assert.equal(r.history.length, 2);
  const best = Math.max(...r.history.map((h) => h.dev!.uasNoPunct));
  assert.equal(r.history[r.bestEpoch - 1]!.dev!.uasNoPunct, best);
  assert.ok(r.trainPruning !== null && r.trainPruning.coverage > 50);
  assert.ok(r.history[0]!.skipped > 0);
  const q = trainHigherOrderParser(train.slice(0, 100), vocab, {
    order: 3,
    k: 1,
    rank: "score",
    epochs: 1,
    bits: 16,
    firstOrder,
    goldPruned: "restore",
  });
  assert.equal(q.history[0]!.skipped, 0);
});

test("trainPrefix and trainMasks: the parser trains on those masks and keeps the prefix as its cascade", () => {
  const loose = new PruningCascade([new LenVinePruner(4)]);
  const tight = new PruningCascade([new LenVinePruner(2)]);
  const sents = train.slice(0, 100);
  const opts = { order: 2 as const, k: 0, epochs: 1, bits: 16 };
  const r = trainHigherOrderParser(sents, vocab, { ...opts, prefix: tight, trainPrefix: loose });
  assert.equal(r.parser.cascade, tight);
  // The training masks are the loose cascade's: their coverage is what it keeps of the gold arcs.
  const coverage = (c: PruningCascade) => {
    const ev = new PruningEvaluator();
    for (const s of sents) ev.add(c.prune(s, vocab), s.head);
    return ev.scores().coverage;
  };
  assert.ok(coverage(loose) > coverage(tight));
  assert.equal(r.trainPruning!.coverage, coverage(loose));
  const same = trainHigherOrderParser(sents, vocab, { ...opts, prefix: loose });
  assert.equal(same.trainPruning!.coverage, coverage(loose));
  // The same weights (first- and higher-order) as a parser trained with the loose cascade as its prefix.
  assert.deepEqual(r.parser.toModelData(false).arrays, same.parser.toModelData(false).arrays);
  // Given masks (e.g. fold masks) act as trainPrefix's would; they need k = 0.
  const given = trainHigherOrderParser(sents, vocab, {
    ...opts,
    prefix: tight,
    trainMasks: loose.masksFor(sents, vocab),
  });
  assert.equal(given.parser.cascade, tight);
  assert.equal(given.trainPruning!.coverage, coverage(loose));
  assert.deepEqual(given.parser.toModelData(false).arrays, same.parser.toModelData(false).arrays);
  assert.throws(
    () =>
      trainHigherOrderParser(sents, vocab, {
        ...opts,
        k: 2,
        prefix: tight,
        trainMasks: loose.masksFor(sents, vocab),
      }),
    RangeError,
  );
});

for (const order of [2, 3] as const) {
  test(`order ${order}: save → loadParser parses identically`, () => {
    const p = model(order, 5);
    const path = join(mkdtempSync(join(tmpdir(), "vp-higher-")), "m.bin");
    p.save(path);
    const q = loadParser(path);
    assert.ok(q instanceof HigherOrderParser);
    assert.equal(q.order, order);
    assert.deepEqual(q.labels, p.labels);
    for (const s of dev.slice(0, 40)) {
      const a = parsePruned(p, s, vocab);
      const b = parsePruned(q, s, vocab);
      assert.deepEqual(b.heads, a.heads);
      assert.deepEqual(b.labels, a.labels);
    }
  });

  test(`order ${order}: a gold-only mask gives the gold tree; an empty mask still gives a tree`, () => {
    for (const k of [0, 5]) {
      const p = model(order, k);
      for (const s of dev.slice(0, 30)) {
        const mask = ArcMask.fromHeads(s.head, s.n);
        const r = p.parse(s, vocab, mask);
        assert.deepEqual(Array.from(r.heads), Array.from(s.head));
        assert.equal(r.fallback, false);
        assert.equal(r.arcsKept, s.n);
        // First-order features only for allowed arcs that are not their modifier's only head: none here.
        assert.equal(r.arcsScored, 0);
      }
      const s = dev[0]!;
      const r = p.parse(s, vocab, ArcMask.empty(s.n));
      assert.ok(isTree(r.heads));
      assert.equal(r.fallback, true);
    }
  });
}

test("pruned parses use only arcs of the top-k mask", () => {
  const p = model(2, 5);
  for (const s of dev.slice(0, 30)) {
    const mask = p.cascade.prune(s, vocab);
    for (let m = 1; m <= s.n; m++) assert.ok(mask.headCount(m) <= 5);
    const r = p.parse(s, vocab, mask);
    assert.ok(isTree(r.heads));
    if (!r.fallback) for (let m = 1; m <= s.n; m++) assert.ok(mask.allows(r.heads[m]!, m));
  }
});
