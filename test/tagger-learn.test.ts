import assert from "node:assert/strict";
import { test } from "node:test";
import { tagAccuracy } from "../src/tagger/accuracy.js";
import { FeatureIndex } from "../src/tagger/feature-index.js";
import { Perceptron } from "../src/tagger/perceptron.js";
import { buildTagDictionary } from "../src/tagger/tag-dictionary.js";
import { Tagger } from "../src/tagger/tagger.js";
import { toyCorpus } from "./toy-tagged.js";

test("feature index maps keys to dense rows and survives growth", () => {
  const idx = new FeatureIndex(4);
  for (let k = 1; k <= 1000; k++) assert.equal(idx.getOrAdd(k * 7919), k - 1);
  for (let k = 1; k <= 1000; k++) assert.equal(idx.get(k * 7919), k - 1);
  assert.equal(idx.get(123457), -1);
  const back = FeatureIndex.fromKeys(idx.keysByRow());
  for (let k = 1; k <= 1000; k++) assert.equal(back.get(k * 7919), k - 1);
});

test("perceptron averaging: the average of the weight vectors over all instances", () => {
  const p = new Perceptron(2);
  const f = new Int32Array([42]);
  p.update(f, 0, 1, 1, 0); // at clock 1: w = (-1, +1)
  p.tick();
  p.tick();
  p.tick(); // clock 4: the update was in force for 3 of 3 completed instances
  // The average runs over the weight vectors w_0..w_3 (before instance 1, and after instances 1..3):
  // (0, 0), (-1, 1), (-1, 1), (-1, 1) → (-0.75, 0.75).
  assert.deepEqual([...p.averaged()], [-0.75, 0.75]);
});

test("the learner reaches 100% on a separable toy corpus", () => {
  const train = toyCorpus(200, 1);
  const tagger = Tagger.train(train, { epochs: 8, seed: 3, dictionary: false });
  const acc = tagAccuracy(
    train,
    train.map((s) => tagger.tag(s.words)),
  );
  assert.equal(acc.upos, 100);
  assert.equal(acc.xpos, 100);
  const sep = Tagger.train(train, { epochs: 8, seed: 3, mode: "separate", dictionary: false });
  const acc2 = tagAccuracy(
    train,
    train.map((s) => sep.tag(s.words)),
  );
  assert.ok(acc2.both > 99.5, String(acc2.both));
  // Unseen sentences of the same language are tagged by suffix and context.
  const test2 = toyCorpus(100, 99);
  assert.ok(
    tagAccuracy(
      test2,
      test2.map((s) => tagger.tag(s.words)),
    ).both > 98,
  );
});

test("beam search training and tagging (early update) learns the toy corpus", () => {
  const train = toyCorpus(200, 1);
  const tagger = Tagger.train(train, { epochs: 8, seed: 3, dictionary: false, beam: 4 });
  const acc = tagAccuracy(
    train,
    train.map((s) => tagger.tag(s.words)),
  );
  assert.equal(acc.both, 100);
  const back = Tagger.fromModelData(tagger.toModelData());
  const test2 = toyCorpus(50, 99);
  for (const s of test2) assert.deepEqual(back.tag(s.words), tagger.tag(s.words));
});

test("word dropout still learns the toy corpus", () => {
  const train = toyCorpus(200, 1);
  const tagger = Tagger.train(train, { epochs: 8, seed: 3, dropout: 0.5, dropoutMaxCount: 2 });
  const test2 = toyCorpus(100, 99);
  const acc = tagAccuracy(
    test2,
    test2.map((s) => tagger.tag(s.words)),
  );
  assert.ok(acc.both > 98, String(acc.both));
});

test("training is deterministic given the seed", () => {
  const train = toyCorpus(100, 5);
  const a = Tagger.train(train, { epochs: 3, seed: 7 }).toModelData();
  const b = Tagger.train(train, { epochs: 3, seed: 7 }).toModelData();
  assert.deepEqual(a.meta, b.meta);
  for (const k of Object.keys(a.arrays)) assert.deepEqual(a.arrays[k], b.arrays[k], k);
});

test("tag dictionary keeps frequent unambiguous words only", () => {
  const sents = [
    { words: Array(30).fill("the"), tags: new Int32Array(30) },
    { words: Array(30).fill("run"), tags: Int32Array.from({ length: 30 }, (_, i) => (i < 20 ? 1 : 2)) },
    { words: Array(5).fill("rare"), tags: new Int32Array(5) },
  ];
  const d = buildTagDictionary(sents, 3);
  assert.deepEqual([...d], [["the", 0]]);
});
