import assert from "node:assert/strict";
import { test } from "node:test";
import { AlignedAttachmentEvaluator, type SpannedWords } from "../src/eval/aligned-attachment.js";

// "I saw it." Gold: I / saw / it / . ; the system makes "it." one word, and gets the lemma of "saw" wrong.
const text = "I saw it.";
const gold: SpannedWords = {
  spans: [0, 1, 2, 5, 6, 8, 8, 9],
  heads: [1, -1, 1, 1],
  deprels: ["nsubj", "root", "obj", "punct"],
  punct: [false, false, false, true],
  upos: ["PRON", "VERB", "PRON", "PUNCT"],
  lemmas: ["I", "see", "it", "."],
  feats: ["Case=Nom", "Tense=Past", "Case=Acc", "_"],
};
const system: SpannedWords = {
  spans: [0, 1, 2, 5, 6, 9],
  heads: [1, -1, 1],
  deprels: ["nsubj", "root", "obj"],
  upos: ["PRON", "VERB", "PRON"],
  lemmas: ["I", "saw", "it."],
  feats: ["Case=Nom", "Tense=Past", "Case=Acc"],
};

test("aligned scores, worked by hand: words, attachment, UPOS, lemmas and FEATS as F1 over 4 gold and 3 system words", () => {
  const e = new AlignedAttachmentEvaluator();
  e.add(text, gold, system);
  const s = e.scores();
  assert.equal(s.goldWords, 4);
  assert.equal(s.systemWords, 3);
  assert.equal(s.alignedWords, 2); // "I" and "saw"
  const f1 = (c: number) => (200 * c) / 7;
  assert.equal(s.wordsF1, f1(2));
  assert.equal(s.uasF1, f1(2));
  assert.equal(s.lasF1, f1(2));
  assert.equal(s.uposF1, f1(2));
  assert.equal(s.lemmasF1, f1(1)); // "saw" is not "see"
  assert.equal(s.ufeatsF1, f1(2));
  assert.equal(s.uasNoPunct, (100 * 2) / 3);
});

test("UPOS, lemma and FEATS scores are null until a document has them on both sides", () => {
  const e = new AlignedAttachmentEvaluator();
  const bare = { spans: system.spans, heads: system.heads, deprels: system.deprels };
  e.add(text, gold, bare);
  assert.equal(e.scores().lemmasF1, null);
  assert.equal(e.scores().uposF1, null);
  assert.equal(e.scores().uasF1, (200 * 2) / 7);
  // Once a document has them, they count, over every word of every document.
  e.add(text, gold, system);
  assert.equal(e.scores().lemmasF1, (200 * 1) / 14);
});
