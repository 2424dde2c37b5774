import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AttachmentEvaluator } from "../src/eval/attachment.js";
import { filterImpact } from "../src/eval/filter-impact.js";
import { loadParser } from "../src/parser/load-parser.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { LenVinePruner } from "../src/prune/len-vine.js";
import { toyModels } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const toy = toyModels();
after(() => toy.cleanup());
const devPath = join(toy.dir, "impact-dev.conllu");
writeFileSync(devPath, toyTreebank(40, 9));
const vocab = new Vocabularies();
const dev = loadCorpus(devPath, vocab).sentences;
const parser = loadParser(toy.parser);
const punct = vocab.upos.get("PUNCT");

/** Words attached correctly (punctuation excluded) by `parser` on dev under the masks of `cascade` (null: exhaustive). */
function uasP(cascade: PruningCascade | null): number {
  const ev = new AttachmentEvaluator({ punctUpos: punct });
  for (const s of dev) {
    const heads = parser.parse(s, vocab, cascade === null ? null : cascade.maskFor(s, vocab)).heads;
    ev.addSentence(
      s,
      heads,
      heads.map(() => 0),
    );
  }
  return ev.counts.headCorrectNoPunct;
}

test("filter impact: a cascade that removes nothing changes nothing", () => {
  const f = filterImpact(parser, new PruningCascade(), dev, vocab, punct);
  assert.ok(punct >= 0 && f.tokens > 0);
  assert.equal(f.rightFiltered, f.rightUnfiltered);
  assert.equal(f.rightUnfiltered, uasP(null));
  assert.deepEqual([f.lostParserRight, f.fixed, f.broken], [0, 0, 0]);
  assert.deepEqual(f.perSentence.filtered, f.perSentence.unfiltered);
});

test("filter impact: adjacent arcs only (Len-Vine 1), counted against a direct evaluation", () => {
  const cascade = new PruningCascade([new LenVinePruner(1)]);
  const f = filterImpact(parser, cascade, dev, vocab, punct);
  // Totals agree with UAS-P counted directly, exhaustively and behind the filter.
  assert.equal(f.rightUnfiltered, uasP(null));
  assert.equal(f.rightFiltered, uasP(cascade));
  const sum = (x: Int32Array) => x.reduce((a, v) => a + v, 0);
  assert.equal(sum(f.perSentence.unfiltered), f.rightUnfiltered);
  assert.equal(sum(f.perSentence.filtered), f.rightFiltered);
  assert.equal(sum(f.perSentence.total), f.tokens);
  assert.equal(f.rightFiltered - f.rightUnfiltered, f.fixed - f.broken);
  // The exhaustive parse's correct long arcs: each is a lost gold arc it had chosen, and broken.
  let longRight = 0;
  for (const s of dev) {
    const heads = parser.parse(s, vocab, null).heads;
    for (let m = 1; m <= s.n; m++)
      if (s.upos[m] !== punct && heads[m] === s.head[m] && s.head[m] !== 0 && Math.abs(s.head[m]! - m) > 1)
        longRight++;
  }
  assert.ok(longRight > 0, "the toy dev set has correct arcs longer than 1");
  assert.equal(f.lostParserRight, longRight);
  assert.ok(f.broken >= f.lostParserRight);
});
