import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import { encodeModel } from "../src/model/model-file.js";
import { evaluateParser } from "../src/parser/evaluate.js";
import { loadParser } from "../src/parser/load-parser.js";
import { parseBlock } from "../src/parser/pruned-parse.js";
import { TransitionParser } from "../src/transition/parser.js";
import { classCount } from "../src/transition/system.js";
import { trainTransitionParser } from "../src/transition/train.js";
import { Rng } from "../src/util/rng.js";
import { repoRoot } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(300, 1))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(100, 2))].map((r) => toSentence(r, vocab));

test("the averaged perceptron learns the toy grammar (dev UAS-P ≥ 95, LAS-P ≥ 93; random weights far below)", () => {
  const { parser, history, bestEpoch } = trainTransitionParser(train, vocab, { epochs: 5, bits: 14, dev });
  assert.equal(history.length, 5);
  assert.ok(bestEpoch >= 1 && bestEpoch <= 5);
  assert.ok(history[4]!.trainAccuracy > history[0]!.trainAccuracy);
  const s = evaluateParser(parser, dev, vocab);
  assert.ok(s.uasNoPunct >= 95, `UAS ${s.uasNoPunct}`);
  assert.ok(s.lasNoPunct >= 93, `LAS ${s.lasNoPunct}`);
  // The same parser with random weights: what a learner that learned nothing would reach.
  const rng = new Rng(5);
  const w = new Int16Array(parser.weights.weights.length);
  for (let i = 0; i < w.length; i++) w[i] = rng.int(2001) - 1000;
  const random = new TransitionParser(parser.config, { weights: w, scale: 1 }, parser.labels);
  const r = evaluateParser(random, dev, vocab);
  assert.ok(r.uasNoPunct < 70, `random weights reach UAS ${r.uasNoPunct}`);
});

test("skipping non-projective trees, training is deterministic; save → load parses identically", () => {
  const a = trainTransitionParser(train, vocab, { epochs: 2, bits: 12, seed: 3, nonProjective: "skip" });
  const b = trainTransitionParser(train, vocab, { epochs: 2, bits: 12, seed: 3, nonProjective: "skip" });
  assert.equal(a.trainedSentences, train.length - a.nonProjectiveSentences);
  assert.deepEqual(a.parser.weights.weights, b.parser.weights.weights);
  const path = join(mkdtempSync(join(tmpdir(), "vp-transition-")), "m.vpm");
  a.parser.save(path);
  const c = loadParser(path);
  assert.ok(c instanceof TransitionParser);
  assert.equal(c.order, 0);
  assert.ok(c.cascade.empty);
  const block = parseBlock(c, dev, vocab);
  dev.forEach((s, i) => {
    const p = a.parser.parse(s, vocab);
    const q = c.parse(s, vocab);
    assert.deepEqual(p.heads, q.heads);
    assert.deepEqual(p.labels, q.labels);
    assert.deepEqual(block[i]!.heads, p.heads);
    assert.deepEqual(block[i]!.labels, p.labels);
    // Labels of a tree it did not produce (the gold one): one per token, in range.
    const g = c.labelTree(s, vocab, s.head);
    assert.equal(g.length, s.n + 1);
    for (let m = 1; m <= s.n; m++) assert.ok(g[m]! >= 0 && g[m]! < c.labels.length);
  });
});

test("truncated, corrupted and mismatched transition models fail with one VineparseError line", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-transition-bad-"));
  const labels = ["a", "b"];
  const good = new TransitionParser(
    { bits: 10 },
    { weights: new Int16Array(1024 * classCount(2)), scale: 1 },
    labels,
  );
  const data = good.toModelData();
  const bytes = encodeModel(data);
  const cases: [string, Uint8Array][] = [
    ["truncated", bytes.subarray(0, bytes.length - 40)],
    [
      "flipped",
      (() => {
        const b = bytes.slice();
        b[b.length - 7]! ^= 0xff;
        return b;
      })(),
    ],
    ["layout", encodeModel({ ...data, meta: { ...data.meta, layout: 99 } })],
    ["features", encodeModel({ ...data, meta: { ...data.meta, featureVersion: 99 } })],
    ["bits", encodeModel({ ...data, meta: { ...data.meta, bits: 11 } })],
    ["labels", encodeModel({ ...data, meta: { ...data.meta, labels: "ab" } })],
    ["no weights", encodeModel({ ...data, arrays: {} })],
    ["float weights", encodeModel({ ...data, arrays: { weights: new Float32Array(1024 * 5) } })],
  ];
  for (const [name, b] of cases) {
    const path = join(dir, `${name}.vpm`);
    writeFileSync(path, b);
    assert.throws(
      () => loadParser(path),
      (e: unknown) => e instanceof VineparseError && !e.message.includes("\n") && e.message.startsWith(path),
      name,
    );
  }
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("CLI: train --parser transition, parse --model, eval", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-transition-cli-"));
  const trainPath = join(dir, "train.conllu");
  const devPath = join(dir, "dev.conllu");
  writeFileSync(trainPath, toyTreebank(200, 1));
  writeFileSync(devPath, toyTreebank(40, 2));
  const model = join(dir, "t.vpm");
  const base = ["train", "--parser", "transition", "--train", trainPath, "--dev", devPath];
  const t = cli([...base, "--out", model, "--epochs", "4", "--bits", "12", "--seed", "2"]);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stderr, /kept epoch \d/);
  const out = join(dir, "out.conllu");
  const p = cli(["parse", "--model", model, "--input", devPath, "--output", out, "--json"]);
  assert.equal(p.status, 0, p.stderr);
  assert.equal(JSON.parse(p.stderr.trim()).sentences, 40);
  const e = cli(["eval", "--gold", devPath, "--system", out, "--json"]);
  assert.equal(e.status, 0, e.stderr);
  assert.ok(JSON.parse(e.stdout).uasNoPunct >= 90, e.stdout);
  assert.ok(readFileSync(out, "utf8").includes("\troot\t"));
  // Options of the graph-based trainer are refused, not ignored.
  const bad = cli([...base, "--out", model, "--order", "2"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--order does not go with --parser transition/);
  const bad2 = cli(["train", "--train", trainPath, "--out", model, "--nonprojective", "skip"]);
  assert.equal(bad2.status, 2);
});
