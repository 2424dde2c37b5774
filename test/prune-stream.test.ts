import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { decodeModel, encodeModel } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { exactRuleLearner } from "../src/prune/rule-learner.js";
import { trainJointFilter } from "../src/prune/train-joint.js";
import { trainLenVine } from "../src/prune/train-len-vine.js";
import { trainQuadraticFilter } from "../src/prune/train-quadratic.js";
import { trainRules } from "../src/prune/train-rules.js";
import { trainTagVine } from "../src/prune/train-tag-vine.js";
import { trainTokenRoleFilter } from "../src/prune/train-token-roles.js";
import { Rng } from "../src/util/rng.js";
import { logOddsLearner } from "./filter-test-learner.js";
import { toyTreebank } from "./toy-treebank.js";

/**
 * A toy treebank whose first sentences lack some UPOS tags and some words that later ones have:
 * from sentence `from` on, a fifth of the tokens get PUNCT, CCONJ or AUX as UPOS and a new word form.
 */
function withLateTags(conllu: string, seed: number, from: number): string {
  const rng = new Rng(seed);
  const late = ["PUNCT", "CCONJ", "AUX"];
  return conllu
    .split("\n\n")
    .map((block, k) =>
      k < from
        ? block
        : block
            .split("\n")
            .map((line) => {
              const c = line.split("\t");
              if (c.length !== 10 || rng.next() >= 0.2) return line;
              c[1] = `w${rng.int(50)}`;
              c[3] = late[rng.int(late.length)]!;
              return c.join("\t");
            })
            .join("\n"),
    )
    .join("\n\n");
}

test("every filter kind prunes sentences read one at a time into a growing vocabulary as it prunes them read all at once", () => {
  const vocab = new Vocabularies();
  const train = [...parseConllu(withLateTags(toyTreebank(200, 31), 1, 0))].map((r) => toSentence(r, vocab));
  const devText = withLateTags(toyTreebank(40, 32), 2, 3);
  const dev = [...parseConllu(devText)].map((r) => toSentence(r, vocab));
  const rules = trainRules(train, dev, vocab, { learner: exactRuleLearner, coverage: 99.5 }).pass;
  const prefix = new PruningCascade([rules]);
  const linear = trainTokenRoleFilter(train, dev, vocab, {
    learner: logOddsLearner,
    bits: 12,
    coverage: 99,
    prefix,
  }).filter;
  const quadratic = trainQuadraticFilter(train, dev, vocab, {
    learner: logOddsLearner,
    bits: 14,
    tags: "xpos",
    coverage: 98.5,
    prefix: prefix.concat([linear]),
  }).filter;
  const joint = trainJointFilter(train, dev, vocab, { init: linear, coverage: 99, alternations: 1 }).filter;
  const jointLexical = trainJointFilter(train, dev, vocab, {
    init: linear,
    coverage: 99,
    alternations: 1,
    lexical: true,
  }).filter;
  const cascades = [
    new PruningCascade([trainLenVine(train, vocab, { coverage: 99 }).pass]),
    new PruningCascade([trainTagVine(train, vocab, { coverage: 99 }).pass]),
    prefix.concat([linear, quadratic]),
    new PruningCascade([joint]),
    new PruningCascade([jointLexical]),
  ];
  let removed = 0;
  for (const cascade of cascades) {
    // Loaded from its file, so that no cache has seen the training vocabulary.
    const fresh = () => cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(cascade))), "f.vpf");
    const atOnce = fresh();
    const loaded = new Vocabularies();
    const all = [...parseConllu(devText)].map((r) => toSentence(r, loaded));
    const want = all.map((s) => atOnce.prune(s, loaded).bits.slice());
    const streaming = fresh();
    const growing = new Vocabularies();
    [...parseConllu(devText)].forEach((r, k) => {
      const s = toSentence(r, growing);
      const got = streaming.prune(s, growing).bits;
      assert.deepEqual(got, want[k], `${cascade.name}: sentence ${k + 1}`);
      removed += got.length - got.reduce((a, b) => a + b, 0);
    });
  }
  assert.ok(removed > 0);
});
