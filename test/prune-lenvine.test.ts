import assert from "node:assert/strict";
import { test } from "node:test";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { LenVinePruner, pruneLength } from "../src/prune/len-vine.js";
import { prunerFromModelData } from "../src/prune/load-pruner.js";
import { TagArcCounts } from "../src/prune/tag-arc-counts.js";
import { lengthCurve, trainLenVine } from "../src/prune/train-len-vine.js";
import { checkRoundTrip } from "./filter-round-trip.js";
import { checkOnlyRemoves, RandomDropPass } from "./prune-helpers.js";
import { sentencesOf, tinySentences } from "./tiny-treebank.js";
import { toyTreebank } from "./toy-treebank.js";

// Arc lengths: S1 1, 2, 1 (+ a root arc); S2 2, 1 (+ root); S3 1, 2, 3, 4 (+ root). 12 tokens, Σn² = 50.
const TINY = ["A:0 B:1 C:1 D:3", "A:3 B:3 C:0", "A:0 B:1 C:1 D:1 E:1"];

test("Len-Vine: hand-worked coverage/reduction curve and the limit chosen for a training coverage", () => {
  const vocab = new Vocabularies();
  const train = tinySentences(TINY, vocab);
  const curve = lengthCurve(TagArcCounts.collect(train, vocab, null));
  // Gold kept: 3 root arcs + arcs of length ≤ L (4, 3, 1, 1 of lengths 1..4). Candidates kept: 12 root
  // arcs + 2·Σ_d≤L (n − d) per sentence: 18, 30, 36, 38 token arcs.
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  assert.deepEqual(
    curve.map((p) => [p.limit, r(p.coverage), r(p.reduction)]),
    [
      [1, r((100 * 7) / 12), 40],
      [2, r((100 * 10) / 12), 16],
      [3, r((100 * 11) / 12), 4],
      [4, 100, 0],
    ],
  );
  assert.equal(trainLenVine(train, vocab, { coverage: 90 }).pass.limit, 3);
  assert.equal(trainLenVine(train, vocab, { coverage: 83 }).pass.limit, 2);
  assert.equal(trainLenVine(train, vocab, { coverage: 100 }).pass.limit, 4);
  assert.equal(trainLenVine(train, vocab, { coverage: 10 }).pass.limit, 1);
  assert.equal(trainLenVine(train, vocab, { limit: 2 }).pass.info.trainReduction, 16);
  // On dev (S3 alone: 5 gold arcs, lengths 1..4 and a root arc) 70% needs limit 3.
  const dev = tinySentences([TINY[2]!], vocab);
  const t = trainLenVine(train, vocab, { dev, devCoverage: 70 });
  assert.equal(t.pass.limit, 3);
  assert.equal(t.pass.info.devCoverage, 80);
  assert.equal(t.pass.info.trainCoverage, 91.6667);
  // The trained pass measures what the curve says.
  const e = evaluateCascade(
    new PruningCascade([trainLenVine(train, vocab, { coverage: 90 }).pass]),
    train,
    vocab,
  );
  assert.equal(r(e.scores.coverage), r((100 * 11) / 12));
  assert.equal(r(e.scores.reduction), 4);
});

test("Len-Vine: the pass removes exactly the token arcs longer than the limit, root arcs kept", () => {
  const mask = ArcMask.full(5);
  pruneLength(mask, 2);
  for (let h = 0; h <= 5; h++)
    for (let m = 1; m <= 5; m++)
      assert.equal(mask.allows(h, m), h !== m && (h === 0 || Math.abs(h - m) <= 2), `${h}→${m}`);
  // Limit ≥ n − 1 removes nothing; limit 1 leaves the root arcs and the neighbours.
  const all = ArcMask.full(7);
  pruneLength(all, 6);
  assert.equal(all.count(), 49);
  pruneLength(all, 1);
  assert.equal(all.count(), 7 + 2 * 6);
});

test("Len-Vine: only removes arcs, cascades after other passes, and round-trips as a filter file", () => {
  const vocab = new Vocabularies();
  const train = sentencesOf(toyTreebank(150, 3), vocab);
  const dev = sentencesOf(toyTreebank(40, 4), vocab);
  const { pass } = trainLenVine(train, vocab, { coverage: 95 });
  assert.ok(pass.limit >= 1);
  const removed = checkOnlyRemoves(pass, dev, vocab);
  assert.ok(removed > 0.05, `removed ${removed}`);
  // With an earlier pass the training coverage counts what that pass lost too.
  const prefix = new PruningCascade([new RandomDropPass(3, 0.02)]);
  const after = trainLenVine(train, vocab, { coverage: 95, prefix });
  assert.ok(after.pass.limit >= pass.limit);
  const back = checkRoundTrip(pass, dev, vocab) as LenVinePruner;
  assert.equal(back.limit, pass.limit);
  assert.deepEqual(back.info, pass.info);
  assert.match(back.describe(), new RegExp(`more than ${pass.limit} apart`));
});

test("Len-Vine: bad model files are one-line model errors", () => {
  const bad = (meta: Record<string, unknown>, code: string) =>
    assert.throws(
      () => prunerFromModelData({ kind: "lenvine", meta, arrays: {} }, "f.vpf"),
      (e: unknown) => e instanceof VineparseError && e.code === code && !e.message.includes("\n"),
    );
  bad({ version: 1, limit: 0 }, "model-corrupt");
  bad({ version: 1, limit: 2.5 }, "model-corrupt");
  bad({ version: 1 }, "model-corrupt");
  bad({ version: 9, limit: 3 }, "model-version");
});
