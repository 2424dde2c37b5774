import assert from "node:assert/strict";
import { test } from "node:test";
import { sentenceFromWords } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { ROOT_TAG, TagMap } from "../src/prune/tag-map.js";

test("TagMap: dense ids fixed at training, unknown tags, new and other vocabularies", () => {
  const v1 = new Vocabularies();
  const a = sentenceFromWords(["the", "dog", "ran"], ["DET", "NOUN", "VERB"], ["DT", "NN", "VBD"], v1);
  assert.deepEqual(TagMap.collect([a], v1, "upos"), ["DET", "NOUN", "VERB"]);
  assert.equal(TagMap.chooseColumn([a], v1), "upos"); // as many XPOS as UPOS values: not more informative
  const map = new TagMap(["NN", "DT"], "xpos");
  assert.equal(map.unknown, 3);
  assert.equal(map.size, 4);
  const out = new Int32Array(4);
  map.fill(a, v1, out);
  assert.deepEqual(Array.from(out), [ROOT_TAG, 2, 1, 3]);
  // The vocabulary grows: new ids are mapped too.
  const b = sentenceFromWords(["a", "cat"], ["DET", "NOUN"], ["DT", "NNS"], v1);
  map.fill(b, v1, out);
  assert.deepEqual(Array.from(out.subarray(0, 3)), [0, 2, 3]);
  // Another vocabulary with other ids for the same strings.
  const v2 = new Vocabularies();
  const c = sentenceFromWords(["x", "y"], ["X", "X"], ["VBD", "NN"], v2);
  map.fill(c, v2, out);
  assert.deepEqual(Array.from(out.subarray(0, 3)), [0, 3, 1]);
  const d = sentenceFromWords(["x", "y"], ["A", "B"], ["A1", "A2"], v2);
  const e = sentenceFromWords(["x"], ["A"], ["B1"], v2);
  assert.equal(TagMap.chooseColumn([d, e], v2), "xpos");
});
