import assert from "node:assert/strict";
import { test } from "node:test";
import { repairTags, uposConfusion, uposConfusions } from "../src/eval/tag-errors.js";

const gold = [
  { upos: ["PRON", "VERB", "NOUN"], xpos: ["PRP", "VBP", "NNS"] },
  { upos: ["NOUN", "VERB"], xpos: ["NNS", "VBD"] },
];
const pred = [
  { upos: ["PRON", "NOUN", "NOUN"], xpos: ["PRP", "NN", "NN"] },
  { upos: ["VERB", "VERB"], xpos: ["VBZ", "VBN"] },
];

test("confusions are unordered tag pairs", () => {
  assert.equal(uposConfusion("VERB", "NOUN"), "NOUN/VERB");
  assert.equal(uposConfusion("NOUN", "VERB"), "NOUN/VERB");
  assert.equal(uposConfusion("ADP", "ADP"), "");
  assert.deepEqual(uposConfusions(gold, pred), [{ name: "NOUN/VERB", count: 2 }]);
});

test("repairing restores the gold tags of the selected tokens only", () => {
  const all = repairTags(gold, pred, () => true);
  assert.deepEqual(all.tags, gold);
  // (0,1) NOUN/NN -> VERB/VBP, (0,2) NN -> NNS, (1,0) VERB/VBZ -> NOUN/NNS, (1,1) VBN -> VBD.
  assert.equal(all.repaired, 4);

  const nounVerb = repairTags(
    gold,
    pred,
    (i, j) => uposConfusion(gold[i]!.upos[j]!, pred[i]!.upos[j]!) === "NOUN/VERB",
  );
  assert.equal(nounVerb.repaired, 2);
  assert.deepEqual(nounVerb.tags[0], { upos: ["PRON", "VERB", "NOUN"], xpos: ["PRP", "VBP", "NN"] });
  assert.deepEqual(nounVerb.tags[1], { upos: ["NOUN", "VERB"], xpos: ["NNS", "VBN"] });

  // UPOS only: XPOS stays predicted; a token whose UPOS is right is not counted.
  const uposOnly = repairTags(gold, pred, () => true, { xpos: false });
  assert.equal(uposOnly.repaired, 2);
  assert.deepEqual(uposOnly.tags[1], { upos: ["NOUN", "VERB"], xpos: ["VBZ", "VBN"] });

  // The input is not modified.
  assert.deepEqual(pred[0]!.upos, ["PRON", "NOUN", "NOUN"]);
});

test("mismatched inputs are refused", () => {
  assert.throws(() => repairTags(gold, pred.slice(1), () => true), /2 gold sentences but 1 predicted/);
  assert.throws(
    () => repairTags(gold.slice(0, 1), [{ upos: ["PRON"], xpos: ["PRP"] }], () => true),
    /sentence 1: 3 gold tags but 1 predicted/,
  );
});
