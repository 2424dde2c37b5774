import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { isTree } from "../src/decode/tree-predicates.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { readModelFile, writeModelFile } from "../src/model/model-file.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { loadParser } from "../src/parser/load-parser.js";
import { Parser } from "../src/parser/parser.js";
import { blockTimes, PARSE_BLOCK, parseBlock, parsePruned } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { bundleFromModelData, bundleToModelData } from "../src/pipeline/bundle.js";
import { CascadeStats, PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { MaxMarginalPass } from "../src/prune/max-marginal-pass.js";
import { cascadeModelData, loadCascade } from "../src/prune/load-pruner.js";
import { parsePruneSpec, resolvePruneSpec } from "../src/prune/spec.js";
import { TopKPruner } from "../src/prune/top-k.js";
import { trainTopKFilter } from "../src/prune/train-top-k.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { repoRoot } from "./helpers.js";
import { checkOnlyRemoves, KeepAllPass, RandomDropPass } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(200, 1))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(60, 2))].map((r) => toSentence(r, vocab));
const eisner = trainParser(train, vocab, { epochs: 3, bits: 16, labelBits: 10 }).parser;
const mst = trainParser(train, vocab, { epochs: 3, bits: 16, labelBits: 10, decoder: "mst" }).parser;
const higher = new Map<number, HigherOrderParser>();
for (const order of [2, 3] as const)
  higher.set(
    order,
    trainHigherOrderParser(train, vocab, { order, k: 0, epochs: 2, bits: 16, firstOrder: eisner }).parser,
  );
const parsers: [string, DependencyParser][] = [
  ["eisner", eisner],
  ["mst", mst],
  ["order 2", higher.get(2)!],
  ["order 3", higher.get(3)!],
];
const dir = mkdtempSync(join(tmpdir(), "vp-prune-"));

test("a cascade applies its passes in order on one mask, each only removing arcs", () => {
  const top = new TopKPruner(eisner.quantizedArcWeights, 3);
  assert.ok(checkOnlyRemoves(top, dev, vocab) > 0.3);
  const drop = new RandomDropPass(5, 0.2);
  assert.ok(checkOnlyRemoves(drop, dev, vocab) > 0.1);
  // Pass 2 sees pass 1's output: top-k after random drops keeps a subset of what the drops left.
  const cascade = new PruningCascade([
    new RandomDropPass(7, 0.3),
    new TopKPruner(eisner.quantizedArcWeights, 2),
  ]);
  const first = new PruningCascade([new RandomDropPass(7, 0.3)]);
  for (const s of dev.slice(0, 20)) {
    const a = first.prune(s, vocab);
    const b = cascade.prune(s, vocab);
    for (let i = 0; i < a.bits.length; i++) assert.ok(b.bits[i]! <= a.bits[i]!);
    for (let m = 1; m <= s.n; m++) assert.ok(b.headCount(m) <= 2);
  }
  assert.equal(new PruningCascade().maskFor(dev[0]!, vocab), null);
  assert.equal(new PruningCascade().name, "none");
  assert.equal(cascade.name, "random-drop+topk");
});

test("every parser parses identically with and without a cascade that removes nothing", () => {
  const keep = new KeepAllPass();
  const cascade = new PruningCascade([keep, new TopKPruner(eisner.quantizedArcWeights, 1000)]);
  for (const [name, p] of parsers) {
    for (const s of dev) {
      const a = p.parse(s, vocab, null);
      const b = parsePruned(p, s, vocab, cascade);
      assert.deepEqual(Array.from(b.heads), Array.from(a.heads), name);
      assert.deepEqual(Array.from(b.labels), Array.from(a.labels), name);
    }
  }
  assert.equal(keep.calls, parsers.length * dev.length);
});

test("parseBlock (the cascade over a block, then the trees, then their labels) gives each sentence's parsePruned result", () => {
  // Over PARSE_BLOCK sentences, so that the block is cut; the masks are random, drawn in sentence
  // order both ways (a pass with its own random state, seeded alike).
  const many = Array.from({ length: Math.ceil((PARSE_BLOCK + 10) / dev.length) }, () => dev).flat();
  for (const [name, p] of parsers) {
    const cascade = new PruningCascade([new RandomDropPass(9, 0.3)]);
    const each = many.map((s) => parsePruned(p, s, vocab, cascade));
    const again = new PruningCascade([new RandomDropPass(9, 0.3)]);
    // With phase times asked for (the results must not change): one entry per pass, each phase's
    // seconds at least 0 and together no more than the whole call.
    const times = blockTimes();
    const t0 = performance.now();
    const block = parseBlock(p, many, vocab, again, times);
    const wall = (performance.now() - t0) / 1000;
    const pass = times.cascade.passes;
    assert.equal(pass.length, 1);
    assert.equal(times.cascade.sentences, many.length);
    assert.equal(
      times.cascade.arcs,
      many.reduce((a, s) => a + s.n * s.n, 0),
    );
    assert.ok(pass[0]!.seconds >= 0 && times.parse > 0 && times.label >= 0, name);
    assert.ok(pass[0]!.seconds + times.parse + times.label <= wall + 1e-6, name);
    assert.equal(block.length, many.length);
    block.forEach((r, i) => {
      assert.deepEqual(Array.from(r.heads), Array.from(each[i]!.heads), `${name} sentence ${i}`);
      assert.deepEqual(Array.from(r.labels), Array.from(each[i]!.labels), `${name} sentence ${i}`);
    });
  }
  assert.deepEqual(parseBlock(eisner, [], vocab), []);
});

test("masksFor (a pass at a time over a block) gives each sentence's maskFor", () => {
  // Deterministic passes of three kinds, the max-marginal one reading the feature atoms.
  const cascade = new PruningCascade([
    new TopKPruner(eisner.quantizedArcWeights, 5),
    new MaxMarginalPass(1, eisner.quantizedArcWeights, 0.2),
    new TopKPruner(eisner.quantizedArcWeights, 2, 1.5, "score"),
  ]);
  const stats = new CascadeStats();
  const block = cascade.masksFor(dev, vocab, stats);
  assert.equal(block.length, dev.length);
  // The same counts as sentence by sentence; each pass timed.
  const each = new CascadeStats();
  for (const s of dev) cascade.maskFor(s, vocab, each);
  assert.deepEqual(
    stats.passes.map((p) => p.kind),
    each.passes.map((p) => p.kind),
  );
  assert.equal(stats.sentences, each.sentences);
  assert.equal(stats.arcs, each.arcs);
  assert.ok(stats.passes.every((p) => p.seconds >= 0));
  let removed = 0;
  dev.forEach((s, i) => {
    const one = cascade.maskFor(s, vocab)!;
    assert.deepEqual(Array.from(block[i]!.bits), Array.from(one.bits), `sentence ${i}`);
    removed += s.n * s.n - one.count();
  });
  assert.ok(removed > 0);
  assert.deepEqual(new PruningCascade().masksFor(dev.slice(0, 2), vocab), [null, null]);
});

test("whatever a cascade removes, every parser still returns a tree (fallback flagged)", () => {
  for (const [name, p] of parsers) {
    const cascade = new PruningCascade([new RandomDropPass(3, 0.97)]);
    let fallbacks = 0;
    for (const s of dev) {
      const mask = cascade.prune(s, vocab);
      const r = p.parse(s, vocab, mask);
      assert.ok(isTree(r.heads), name);
      if (r.fallback) fallbacks++;
      else for (let m = 1; m <= s.n; m++) assert.ok(mask.allows(r.heads[m]!, m), name);
    }
    assert.ok(fallbacks > 0, name);
  }
});

test("filter files: a pass or a cascade round-trips and prunes identically; kinds are checked", () => {
  const own = trainTopKFilter(train, dev, vocab, { k: 3, epochs: 2, bits: 14 });
  const single = join(dir, "topk.vpf");
  writeModelFile(single, cascadeModelData(new PruningCascade([own])));
  assert.equal(readModelFile(single).kind, "topk");
  const both = new PruningCascade([own, new TopKPruner(eisner.quantizedArcWeights, 2, 1.5, "score")]);
  const file = join(dir, "cascade.vpf");
  writeModelFile(file, cascadeModelData(both));
  assert.equal(readModelFile(file).kind, "cascade");
  const loaded = loadCascade(file);
  assert.deepEqual(
    loaded.passes.map((p) => p.kind),
    ["topk", "topk"],
  );
  for (const s of dev) assert.deepEqual(loaded.prune(s, vocab).bits, both.prune(s, vocab).bits);
  assert.match(loaded.describe(), /3 best heads by max-marginal[\s\S]*2 best heads by score, margin 1.5/);
  // A pass bound to a parser's first-order model cannot be loaded on its own.
  const bound = join(dir, "bound.vpf");
  writeModelFile(
    bound,
    new TopKPruner(
      eisner.quantizedArcWeights,
      2,
      Number.POSITIVE_INFINITY,
      "max-marginal",
      "parser",
    ).toModelData(),
  );
  assert.throws(() => loadCascade(bound), /load it with that parser/);
  // A model of another kind is refused with one clear line.
  const parserFile = join(dir, "parser.bin");
  eisner.save(parserFile);
  assert.throws(
    () => loadCascade(parserFile),
    /a parser model, not a filter or cascade file \("default" names a model's own cascade\)/,
  );
  const other = join(dir, "other.bin");
  writeModelFile(other, { kind: "word-vectors", meta: {}, arrays: {} });
  assert.throws(() => loadCascade(other), /unknown pruning pass kind "word-vectors"/);
});

test("a parser's default cascade is saved with it, nested under prune/<i>/, also inside a bundle", () => {
  const filter = trainTopKFilter(train, undefined, vocab, { k: 4, epochs: 1, bits: 14 });
  for (const order of [1, 2] as const) {
    const p: DependencyParser =
      order === 1
        ? trainParser(train, vocab, {
            epochs: 1,
            bits: 14,
            labelBits: 8,
            cascade: new PruningCascade([filter]),
          }).parser
        : trainHigherOrderParser(train, vocab, {
            order,
            k: 3,
            epochs: 1,
            bits: 14,
            firstOrder: eisner,
            prefix: new PruningCascade([filter]),
          }).parser;
    assert.equal(p.cascade.name, order === 1 ? "topk" : "topk+topk");
    const data = p.toModelData();
    assert.ok(Object.keys(data.arrays).some((k) => k.startsWith("prune/0/")));
    const path = join(dir, `with-cascade-${order}.bin`);
    p.save(path);
    const q = loadParser(path);
    assert.equal(q.cascade.name, p.cascade.name);
    for (const s of dev) {
      assert.deepEqual(q.cascade.prune(s, vocab).bits, p.cascade.prune(s, vocab).bits);
      assert.deepEqual(parsePruned(q, s, vocab).heads, parsePruned(p, s, vocab).heads);
    }
    // Inside a bundle the passes nest once more (parser/prune/0/…).
    const tagger = Tagger.train(
      [...parseConllu(toyTreebank(50, 3))].map((r) => taggedSentence(r.sentence)),
      { epochs: 1 },
    );
    const b = bundleToModelData({ tagger, parser: p, info: {} });
    assert.ok(Object.keys(b.arrays).some((k) => k.startsWith("parser/prune/0/")));
    assert.equal(bundleFromModelData(b, "<bundle>").parser.cascade.name, p.cascade.name);
  }
});

test("models written before the pruning layer load their built-in top-k as the default cascade", () => {
  const p = trainHigherOrderParser(train, vocab, {
    order: 2,
    k: 3,
    epochs: 1,
    bits: 14,
    firstOrder: eisner,
  }).parser;
  const data = p.toModelData(false);
  Object.assign(data.meta, { k: 3, margin: null, rank: "max-marginal" });
  const old = HigherOrderParser.fromModel(data, "<old>");
  assert.equal(old.cascade.name, "topk");
  for (const s of dev) assert.deepEqual(old.cascade.prune(s, vocab).bits, p.cascade.prune(s, vocab).bits);
});

test("--prune specs: none, default, topk[:K] and files; bad specs are one-line usage errors", () => {
  assert.deepEqual(parsePruneSpec("none"), [{ type: "none" }]);
  assert.deepEqual(parsePruneSpec("topk,topk:3,a.vpf,topk:4:6"), [
    { type: "topk", k: 10, above: 0 },
    { type: "topk", k: 3, above: 0 },
    { type: "file", path: "a.vpf" },
    { type: "topk", k: 4, above: 6 },
  ]);
  assert.throws(() => parsePruneSpec("topk:4:0"), /A ≥ 1/);
  assert.throws(() => parsePruneSpec("none,topk"), /cannot be combined/);
  assert.throws(() => parsePruneSpec("topk,,x"), /empty item/);
  assert.throws(() => parsePruneSpec("topk:0"), /K ≥ 1/);
  assert.throws(() => parsePruneSpec("topk:x"), /neither topk:K nor topk:K:A/);
  assert.throws(() => parsePruneSpec("a.vpf,topk:3:"), /neither topk:K nor topk:K:A/);
  const p = higher.get(2)!;
  assert.equal(resolvePruneSpec("none", p).name, "none");
  assert.equal(resolvePruneSpec("topk:2,default", p).name, "topk");
  const r = resolvePruneSpec("topk:2", p);
  for (const s of dev.slice(0, 5))
    for (let m = 1; m <= s.n; m++) assert.ok(r.prune(s, vocab).headCount(m) <= 2);
});

test("top-k as a guard (topk:K:A) acts only on masks keeping more than A heads per token on average", () => {
  const p = higher.get(3)!;
  const k = 2;
  let acted = 0;
  let seen = 0;
  for (const s of dev) {
    const full = ArcMask.full(s.n);
    // A full mask keeps n heads per token (the root and the n − 1 other words). With A = n the guard
    // leaves it alone; with A = n − 1 it acts.
    const heads = full.count() / s.n;
    assert.equal(heads, s.n);
    const below = resolvePruneSpec(`topk:${k}:${Math.max(1, heads - 1)}`, p).prune(s, vocab);
    const at = resolvePruneSpec(`topk:${k}:${heads}`, p).prune(s, vocab);
    assert.deepEqual(at.bits, full.bits);
    seen++;
    if (heads >= 2) {
      acted++;
      for (let m = 1; m <= s.n; m++) assert.ok(below.headCount(m) <= k);
      // Ranked by arc score: each token keeps its k best-scoring heads.
      const plain = new PruningCascade([new TopKPruner(p.firstOrderWeights, k, Infinity, "score")]);
      assert.deepEqual(below.bits, plain.prune(s, vocab).bits);
    }
  }
  assert.ok(acted > 10 && seen === dev.length, `acted on ${acted}`);
  // Stored in the parser's cascade and read back (layout 2 with "above"; layout 1 means always).
  const g = resolvePruneSpec("topk:3:4", p).passes[0] as TopKPruner;
  const data = g.toModelData();
  assert.equal((data.meta as { version: number; above: number }).above, 4);
  const back = TopKPruner.fromModelData(data, "g.vpf", p.firstOrderWeights);
  assert.equal(back.above, 4);
  assert.equal(back.rank, "score");
  const v1 = TopKPruner.fromModelData(
    { ...data, meta: { ...data.meta, version: 1 } },
    "g.vpf",
    p.firstOrderWeights,
  );
  assert.equal(v1.above, 0);
  assert.equal(new TopKPruner(p.firstOrderWeights, 3).toModelData().meta.version, 1);
});

test("evaluateCascade: coverage and reduction after each pass, time per pass", () => {
  const c = new PruningCascade([
    new TopKPruner(eisner.quantizedArcWeights, 5),
    new TopKPruner(eisner.quantizedArcWeights, 2),
  ]);
  const e = evaluateCascade(c, dev, vocab);
  assert.equal(e.afterPass.length, 2);
  assert.ok(e.afterPass[0]!.reduction <= e.afterPass[1]!.reduction);
  assert.ok(e.afterPass[0]!.coverage >= e.afterPass[1]!.coverage);
  assert.deepEqual(e.scores, e.afterPass[1]);
  assert.equal(e.stats.passes.length, 2);
  assert.equal(e.stats.passes[1]!.kept, e.scores.kept);
  assert.ok(e.seconds > 0);
  const st = new CascadeStats();
  c.prune(dev[0]!, vocab, ArcMask.full(dev[0]!.n), st);
  assert.equal(st.sentences, 1);
  assert.equal(evaluateCascade(new PruningCascade(), dev, vocab).scores.reduction, 0);
});

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
  });
}

test("CLI: filter train/eval/show, train --prune FILTER stores it, parse --prune replaces it", () => {
  const trainPath = join(dir, "train.conllu");
  const devPath = join(dir, "dev.conllu");
  writeFileSync(trainPath, toyTreebank(150, 1));
  writeFileSync(devPath, toyTreebank(40, 2));
  const f = join(dir, "k3.vpf");
  const t = cli([
    "filter",
    "train",
    "--kind",
    "topk",
    "--k",
    "3",
    "--epochs",
    "2",
    "--bits",
    "14",
    "--train",
    trainPath,
    "--dev",
    devPath,
    "--out",
    f,
    "--quiet",
  ]);
  assert.equal(t.status, 0, t.stderr);
  const e = cli(["filter", "eval", "--filter", f, "--gold", devPath, "--json"]);
  assert.equal(e.status, 0, e.stderr);
  const j = JSON.parse(e.stdout) as Record<string, number>;
  for (const k of ["arcs", "kept", "coverage", "reduction", "oracleReduction", "seconds"])
    assert.equal(typeof j[k], "number", k);
  assert.ok(j.coverage! > 90 && j.reduction! > 50);
  assert.match(cli(["filter", "show", f]).stdout, /3 best heads/);
  assert.match(cli(["filter", "train", "--kind", "nope"]).stderr, /unknown --kind "nope"/);
  assert.equal(cli(["filter", "eval", "--filter", "topk", "--gold", devPath]).status, 2);

  const model = join(dir, "filtered.bin");
  const tr = cli([
    "train",
    "--train",
    trainPath,
    "--dev",
    devPath,
    "--epochs",
    "2",
    "--bits",
    "14",
    "--prune",
    f,
    "--out",
    model,
    "--quiet",
  ]);
  assert.equal(tr.status, 0, tr.stderr);
  assert.ok(loadParser(model) instanceof Parser);
  assert.equal(loadParser(model).cascade.name, "topk");
  const summary = (args: string[]) => {
    const r = cli([
      "parse",
      "--model",
      model,
      "--input",
      devPath,
      "--output",
      join(dir, "out.conllu"),
      "--json",
      ...args,
    ]);
    assert.equal(r.status, 0, r.stderr);
    return {
      json: JSON.parse(r.stderr.trim()) as { prune: string; sentences: number },
      out: readFileSync(join(dir, "out.conllu"), "utf8"),
    };
  };
  assert.equal(summary([]).json.prune, "topk");
  const none = summary(["--prune", "none"]);
  assert.equal(none.json.prune, "none");
  assert.equal(none.json.sentences, 40);
  assert.equal(summary(["--prune", `${f},${f}`]).json.prune, "topk+topk");
  const bad = cli(["parse", "--model", model, "--input", devPath, "--prune", join(dir, "missing.vpf")]);
  assert.equal(bad.status, 1);
  assert.equal(bad.stderr.trim().split("\n").length, 1);
});
