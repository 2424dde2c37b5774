import assert from "node:assert/strict";
import { test } from "node:test";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { prunerFromModelData } from "../src/prune/load-pruner.js";
import { HEAD_LEFT, HEAD_RIGHT, TagArcCounts, tripleIndex } from "../src/prune/tag-arc-counts.js";
import { TagMap } from "../src/prune/tag-map.js";
import { TagVinePruner } from "../src/prune/tag-vine.js";
import { TagVinePath, trainTagVine } from "../src/prune/train-tag-vine.js";
import { checkRoundTrip } from "./filter-round-trip.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { noisyTags, sentencesOf, tinySentences } from "./tiny-treebank.js";
import { toyTreebank } from "./toy-treebank.js";

// Gold arcs by [direction, head, modifier]: N→D on the right (lengths 1, 1, 2, 2), V→N on the right
// (1, 1, 1), V→N on the left (2, 1, 3), N→J on the right (1, 1); three root arcs; 15 tokens.
const TINY = ["D:2 N:3 V:0 D:5 N:3", "D:3 J:3 N:4 V:0 N:4", "N:2 V:0 D:5 J:5 N:2"];

test("Tag-Vine: hand-worked start limits, fallback and greedy order (fewest gold arcs lost first)", () => {
  const vocab = new Vocabularies();
  const train = tinySentences(TINY, vocab);
  const tm = new TagMap(TagMap.collect(train, vocab, "upos"), "upos");
  assert.deepEqual(tm.tags, ["D", "N", "V", "J"]);
  const S = tm.size;
  const [D, N, V, J] = [1, 2, 3, 4];
  const path = new TagVinePath(TagArcCounts.collect(train, vocab, tm), tm.unknown);
  const t = (dir: number, h: number, m: number) => tripleIndex(dir, h, m, S);
  const start = new Map([
    [t(HEAD_RIGHT, N, D), 2],
    [t(HEAD_RIGHT, V, N), 1],
    [t(HEAD_LEFT, V, N), 3],
    [t(HEAD_RIGHT, N, J), 1],
  ]);
  for (const dir of [HEAD_LEFT, HEAD_RIGHT])
    for (let h = 0; h <= 4; h++)
      for (let m = 0; m <= 4; m++) assert.equal(path.initial[t(dir, h, m)], start.get(t(dir, h, m)) ?? 0);
  // Unseen tags: the longest gold arc per direction (3 with the head on the left, 2 on the right).
  assert.deepEqual(path.fallback, [3, 2]);
  assert.equal(path.initial[t(HEAD_LEFT, tm.unknown, N)], 3);
  assert.equal(path.initial[t(HEAD_RIGHT, D, tm.unknown)], 2);
  // Lost-1 steps first (left V→N, 3 → 2 → 1 → 0), then the lost-2 ones (ties: most candidate arcs
  // removed, then the lower triple: N→D before N→J), the lost-3 step last.
  assert.deepEqual(
    path.steps.map((s) => [s.triple, s.from, s.to, s.lost]),
    [
      [t(HEAD_LEFT, V, N), 3, 2, 1],
      [t(HEAD_LEFT, V, N), 2, 1, 1],
      [t(HEAD_LEFT, V, N), 1, 0, 1],
      [t(HEAD_RIGHT, N, D), 2, 1, 2],
      [t(HEAD_RIGHT, N, D), 1, 0, 2],
      [t(HEAD_RIGHT, N, J), 1, 0, 2],
      [t(HEAD_RIGHT, V, N), 1, 0, 3],
    ],
  );
  assert.deepEqual(
    path.train.map((p) => Math.round(p.coverage * 15) / 100),
    [15, 14, 13, 12, 10, 8, 6, 3],
  );
  // 90% of 15 gold arcs allows one lost arc: one step.
  const { pass, steps } = trainTagVine(train, vocab, { coverage: 90, column: "upos" });
  assert.equal(steps, 1);
  assert.equal(pass.limitOf(HEAD_LEFT, "V", "N"), 2);
  assert.equal(pass.limitOf(HEAD_RIGHT, "N", "D"), 2);
  assert.equal(pass.limitOf(HEAD_RIGHT, "D", "N"), 0);
  assert.equal(pass.limitOf(HEAD_LEFT, "Z", "N"), 3);
  const e = evaluateCascade(new PruningCascade([pass]), train, vocab);
  assert.equal(e.scores.goldKept, 14);
});

/** The greedy path recomputed naively: every step scans all triples for the fewest gold arcs lost. */
function naiveSteps(counts: TagArcCounts): [number, number, number][] {
  const L1 = counts.maxLength + 1;
  const T = 2 * counts.tags * counts.tags;
  const limit = new Int32Array(T);
  for (let t = 0; t < T; t++) for (let l = 1; l < L1; l++) if (counts.gold[t * L1 + l]! > 0) limit[t] = l;
  const out: [number, number, number][] = [];
  for (;;) {
    let best = -1;
    let bestLost = 0;
    let bestGain = 0;
    let bestTo = 0;
    for (let t = 0; t < T; t++) {
      if (limit[t] === 0) continue;
      const from = limit[t]!;
      let to = from - 1;
      while (to > 0 && counts.gold[t * L1 + to] === 0) to--;
      const lost = counts.gold[t * L1 + from]!;
      let gain = 0;
      for (let l = to + 1; l <= from; l++) gain += counts.all[t * L1 + l]!;
      if (best < 0 || lost < bestLost || (lost === bestLost && gain > bestGain)) {
        best = t;
        bestLost = lost;
        bestGain = gain;
        bestTo = to;
      }
    }
    if (best < 0) return out;
    out.push([best, limit[best]!, bestTo]);
    limit[best] = bestTo;
  }
}

test("Tag-Vine: the heap-driven path equals a naive greedy; its train/dev curves equal real pruning", () => {
  const vocab = new Vocabularies();
  const train = sentencesOf(noisyTags(toyTreebank(150, 5), 0.05, 1), vocab);
  const dev = sentencesOf(noisyTags(toyTreebank(50, 6), 0.05, 2), vocab);
  const tm = new TagMap(TagMap.collect(train, vocab, "xpos"), "xpos");
  const counts = TagArcCounts.collect(train, vocab, tm);
  const path = new TagVinePath(counts, tm.unknown);
  assert.ok(path.steps.length > 20);
  assert.deepEqual(
    path.steps.map((s) => [s.triple, s.from, s.to]),
    naiveSteps(counts),
  );
  const devCurve = path.curveOn(TagArcCounts.collect(dev, vocab, tm));
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  for (const k of [0, 1, 5, 17, Math.floor(path.steps.length / 2), path.steps.length]) {
    const pass = new TagVinePruner(tm, path.limitsAfter(k), path.fallback);
    const onTrain = evaluateCascade(new PruningCascade([pass]), train, vocab).scores;
    close(onTrain.coverage, path.train[k]!.coverage);
    close(onTrain.reduction, path.train[k]!.reduction);
    const onDev = evaluateCascade(new PruningCascade([pass]), dev, vocab).scores;
    close(onDev.coverage, devCurve[k]!.coverage);
    close(onDev.reduction, devCurve[k]!.reduction);
  }
});

test("Tag-Vine: greedy training reaches its target coverage on train (and one more step would not)", () => {
  const vocab = new Vocabularies();
  const train = sentencesOf(noisyTags(toyTreebank(200, 7), 0.05, 3), vocab);
  const dev = sentencesOf(noisyTags(toyTreebank(60, 8), 0.05, 4), vocab);
  for (const coverage of [90, 97, 99, 99.5]) {
    const r = trainTagVine(train, vocab, { coverage });
    const got = evaluateCascade(new PruningCascade([r.pass]), train, vocab).scores.coverage;
    assert.ok(got >= coverage - 1e-9, `coverage ${got} < ${coverage}`);
    if (r.steps < r.path.steps.length) assert.ok(r.path.train[r.steps + 1]!.coverage < coverage);
  }
  // Stopping on dev coverage: the last step keeping it (tag noise makes unseen triples: the start loses some).
  const r = trainTagVine(train, vocab, { dev, devCoverage: 95 });
  assert.ok(r.devCurve[0]!.coverage < 100 && r.devCurve[0]!.coverage >= 95 && r.steps > 0);
  const got = evaluateCascade(new PruningCascade([r.pass]), dev, vocab).scores;
  assert.ok(got.coverage >= 95 - 1e-9);
  assert.equal(r.pass.info.devCoverage, Math.round(got.coverage * 1e4) / 1e4);
  if (r.steps < r.path.steps.length) assert.ok(r.devCurve[r.steps + 1]!.coverage < 95);
  // A target the start already misses takes no step.
  const none = trainTagVine(train, vocab, { dev, devCoverage: 100 });
  assert.equal(none.steps, 0);
  // Stopping on training reduction.
  const red = trainTagVine(train, vocab, { reduction: 50 });
  assert.ok(red.path.train[red.steps]!.reduction >= 50 || red.steps === red.path.steps.length);
  assert.ok(red.steps === 0 || red.path.train[red.steps - 1]!.reduction < 50);
});

test("Tag-Vine: only removes arcs, reads tags through TagMap in any vocabulary, round-trips", () => {
  const vocab = new Vocabularies();
  const text = noisyTags(toyTreebank(150, 9), 0.03, 5);
  const train = sentencesOf(text, vocab);
  const dev = sentencesOf(noisyTags(toyTreebank(40, 10), 0.03, 6), vocab);
  const { pass } = trainTagVine(train, vocab, { coverage: 99 });
  const removed = checkOnlyRemoves(pass, dev, vocab);
  assert.ok(removed > 0.2, `removed ${removed}`);
  // Another vocabulary with other ids (an unseen tag interned first) gives the same masks.
  const other = new Vocabularies();
  tinySentences(["ZZ:0 QQ:1"], other);
  const devOther = sentencesOf(noisyTags(toyTreebank(40, 10), 0.03, 6), other);
  const a = new PruningCascade([pass]);
  dev.forEach((s, i) => assert.deepEqual(a.prune(devOther[i]!, other).bits, a.prune(s, vocab).bits));
  const back = checkRoundTrip(pass, dev, vocab) as TagVinePruner;
  assert.deepEqual(back.limits, pass.limits);
  assert.deepEqual(back.fallback, pass.fallback);
  // A tag the filter never saw follows the fallback limits.
  const z = tinySentences(["ZZ:0 DT:1 DT:1 DT:1 DT:1 DT:1"], vocab)[0]!;
  const m = a.prune(z, vocab);
  const [left] = pass.fallback;
  for (let k = 2; k <= 6; k++) assert.equal(m.allows(1, k), k - 1 <= left);
});

test("Tag-Vine: bad model files are one-line model errors", () => {
  const tm = new TagMap(["A", "B"], "upos");
  const ok = new TagVinePruner(tm, new Uint16Array(2 * tm.size * tm.size), [1, 1]).toModelData();
  assert.equal(prunerFromModelData(ok, "f.vpf").kind, "tagvine");
  const bad = (change: (m: typeof ok) => void, code: string) => {
    const m = structuredClone(ok);
    change(m);
    assert.throws(
      () => prunerFromModelData(m, "f.vpf"),
      (e: unknown) => e instanceof VineparseError && e.code === code && !e.message.includes("\n"),
    );
  };
  bad((m) => (m.arrays.limits = new Uint16Array(3)), "model-corrupt");
  bad((m) => (m.meta.tags = ["A", 3]), "model-corrupt");
  bad((m) => (m.meta.column = "feats"), "model-corrupt");
  bad((m) => (m.meta.fallback = [1]), "model-corrupt");
  bad((m) => (m.meta.version = 2), "model-version");
});
