import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { readModelFile, writeModelFile } from "../src/model/model-file.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { HigherOrderScorer, partRegionMask } from "../src/parser/higher-order-scorer.js";
import { evaluateDependencyParser, trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { loadParser } from "../src/parser/load-parser.js";
import { parsePruned } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(300, 1))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(100, 2))].map((r) => toSentence(r, vocab));

test("partRegionMask: the whole table without part bits, else its first 2^partBits weights", () => {
  assert.equal(partRegionMask(1 << 18, undefined), (1 << 18) - 1);
  assert.equal(partRegionMask(1 << 18, 12), (1 << 12) - 1);
  assert.equal(partRegionMask(1 << 10, 12), (1 << 10) - 1);
});

test("with part bits, sibling, grandparent and grand-sibling parts read only the region", () => {
  // Weights zero in the region [0, 2^12) and 1 everywhere else: every part scores 0 with the
  // region, and some part scores more than 0 without it; arcs read the whole table either way.
  const w = new Float32Array(1 << 18).fill(1);
  w.fill(0, 0, 1 << 12);
  const s = dev.find((d) => d.n >= 5)!;
  const x = new AtomCache().prepare(s, vocab, new FeatureSentence());
  const inRegion = new HigherOrderScorer(w, 1, 12);
  const whole = new HigherOrderScorer(w, 1);
  inRegion.prepare(x, ArcMask.full(x.n));
  let outside = 0;
  for (let h = 0; h <= x.n; h++)
    for (let m = 1; m <= x.n; m++) {
      if (m === h) continue;
      assert.ok(inRegion.arc(h, m) > 0);
      for (let s2 = Math.min(h, m) + 1; s2 < Math.max(h, m); s2++) assert.equal(inRegion.sib(h, s2, m), 0);
      assert.equal(inRegion.sib(h, h, m), 0);
      for (let g = -1; g <= x.n; g++) {
        if (g === h || g === m || (g === -1 && h !== 0) || (h === 0 && g !== -1)) continue;
        assert.equal(inRegion.grand(g, h, m), 0);
        assert.equal(inRegion.gsib(g, h, h, m), 0);
      }
    }
  whole.prepare(x, ArcMask.full(x.n));
  for (let m = 2; m <= x.n; m++)
    outside += whole.sib(0, 1, m) + whole.grand(-1, 0, m) + whole.gsib(-1, 0, 0, m);
  assert.ok(outside > 0);
});

test("a third-order model trained with part bits learns the toy grammar and keeps them through save and load", () => {
  const firstOrder = trainParser(train, vocab, { epochs: 5, bits: 18, labelBits: 12 }).parser;
  const p = trainHigherOrderParser(train, vocab, {
    order: 3,
    k: 5,
    epochs: 4,
    bits: 18,
    partBits: 14,
    firstOrder,
    dev,
  }).parser;
  assert.equal(p.config.partBits, 14);
  const score = evaluateDependencyParser(p, dev, vocab);
  assert.ok(score.uasNoPunct >= 97, `UAS ${score.uasNoPunct}`);
  const dir = mkdtempSync(join(tmpdir(), "vp-part-"));
  const path = join(dir, "m.bin");
  p.save(path);
  const q = loadParser(path);
  assert.ok(q instanceof HigherOrderParser);
  assert.equal(q.config.partBits, 14);
  for (const s of dev.slice(0, 40))
    assert.deepEqual(parsePruned(q, s, vocab).heads, parsePruned(p, s, vocab).heads);
  // A region larger than the table is refused with one line naming the file.
  const m = readModelFile(path, "parser");
  const bad = join(dir, "bad.bin");
  writeModelFile(bad, { ...m, meta: { ...m.meta, partBits: 19 } });
  assert.throws(
    () => loadParser(bad),
    (e: Error) => e.message.includes("part region") && e.message.includes(bad),
  );
});
