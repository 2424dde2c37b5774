import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { UPOS, XPOS } from "../src/conllu/types.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { isTree } from "../src/decode/tree-predicates.js";
import { PARSE_BLOCK, PARSE_BLOCK_WORDS } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import { writeModelFile } from "../src/model/model-file.js";
import { bundleToModelData, readBundle, writeBundle } from "../src/pipeline/bundle.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { Pipeline, toConllu, toJson, toJsonLine, toTreeText } from "../src/pipeline/pipeline.js";
import { formatTree } from "../src/pipeline/tree-format.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { repoRoot } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const dir = mkdtempSync(join(tmpdir(), "vp-pipeline-"));
const trainText = toyTreebank(300, 11);
const read = [...parseConllu(trainText)];
const vocab = new Vocabularies();
const tagger = Tagger.train(
  read.map((r) => taggedSentence(r.sentence)),
  { epochs: 3 },
);
const { parser } = trainParser(
  read.map((r) => toSentence(r, vocab)),
  vocab,
  { epochs: 3, bits: 16, labelBits: 10 },
);
const bundlePath = join(dir, "toy.vpm");
writeBundle(bundlePath, { tagger, parser, info: { treebank: "toy" } });

test("bundle round-trips: same info, same tags and trees", () => {
  const b = readBundle(bundlePath);
  assert.deepEqual(b.info, { treebank: "toy" });
  const p1 = new Pipeline(tagger, parser);
  const p2 = new Pipeline(b.tagger, b.parser);
  const text = "the big dog saw a cat near the house . every man slept";
  assert.equal(p1.parseText(text).map(toConllu).join(""), p2.parseText(text).map(toConllu).join(""));
  assert.deepEqual(readdirSync(dir).sort(), ["toy.vpm"]);
});

test("raw text → CoNLL-U: sentence ids, # text, multiword range rows, SpaceAfter=No, a tree per sentence", () => {
  const p = new Pipeline(tagger, parser);
  const out = p.parseText("The dog didn't sleep. A cat ran!");
  assert.equal(out.length, 2);
  const first = toConllu(out[0]!);
  assert.match(first, /^# sent_id = s1\n# text = The dog didn't sleep\.\n/);
  assert.match(first, /\n3-4\tdidn't\t/);
  assert.match(first, /\n3\tdid\t/);
  assert.match(first, /\n4\tn't\t/);
  assert.match(first, /\n5\tsleep\t_\t\w+\t[^\t]+\t_\t\d+\t\w+\t_\tSpaceAfter=No\n/);
  for (const a of out) assert.ok(isTree(a.heads));
  // The output is valid CoNLL-U that our own reader accepts as a complete tree.
  const back = [...parseConllu(out.map(toConllu).join(""))];
  assert.equal(back.length, 2);
  assert.equal(back[0]!.sentence.words.length, 6);
});

test("annotateBlock gives what annotate gives each sentence, in order (input tags and retagged)", () => {
  const p = new Pipeline(tagger, parser);
  // Every word tagged NOUN / NN, so that retagging changes the input and both ways are tested.
  const cs = read.slice(0, 40).map((r) => ({
    ...r.sentence,
    words: r.sentence.words.map((w) => w.map((v, j) => (j === UPOS ? "NOUN" : j === XPOS ? "NN" : v))),
  }));
  const asIs = p.annotateBlock(cs, false).map(toConllu);
  const retagged = p.annotateBlock(cs, true).map(toConllu);
  assert.deepEqual(
    asIs,
    cs.map((c) => toConllu(p.annotate(c, false))),
  );
  assert.deepEqual(
    retagged,
    cs.map((c) => toConllu(p.annotate(c, true))),
  );
  assert.notDeepEqual(asIs, retagged);
  assert.deepEqual(p.annotateBlock([]), []);
});

test("annotateEach yields annotateBlock's results in turn, emptying its input as it goes", () => {
  const p = new Pipeline(tagger, parser);
  const cs = read.slice(0, 30).map((r) => r.sentence);
  for (const retag of [false, true]) {
    const expected = p.annotateBlock(cs, retag).map(toConllu);
    const own = cs.slice();
    const got: string[] = [];
    for (const a of p.annotateEach(own, retag)) {
      // Sentences already yielded are no longer held.
      assert.equal(own[got.length], undefined);
      got.push(toConllu(a));
    }
    assert.deepEqual(got, expected);
    assert.equal(own.length, 0);
  }
  assert.deepEqual([...p.annotateEach([])], []);
});

test("a tagger given as a function is built once, when a sentence first needs tagging", () => {
  let builds = 0;
  const p = new Pipeline(() => {
    builds++;
    return tagger;
  }, parser);
  const eager = new Pipeline(tagger, parser);
  assert.ok(p.hasTagger);
  assert.ok(!new Pipeline(null, parser).hasTagger);
  const cs = read.slice(0, 20).map((r) => r.sentence);
  // Tagged input, not retagged: no tagger.
  assert.deepEqual(p.annotateBlock(cs, false).map(toConllu), eager.annotateBlock(cs, false).map(toConllu));
  assert.equal(builds, 0);
  // A sentence without tags, retagging, raw text: the one tagger, built once.
  const untagged = { ...cs[0]!, words: cs[0]!.words.map((w) => w.map((v, j) => (j === UPOS ? "_" : v))) };
  assert.equal(toConllu(p.annotate(untagged)), toConllu(eager.annotate(untagged)));
  assert.equal(builds, 1);
  assert.deepEqual(p.annotateBlock(cs, true).map(toConllu), eager.annotateBlock(cs, true).map(toConllu));
  assert.equal(
    p.parseText("the dog slept .").map(toConllu).join(""),
    eager.parseText("the dog slept .").map(toConllu).join(""),
  );
  assert.equal(p.tagger, tagger);
  assert.equal(builds, 1);
});

test("loadPipeline builds a bundle's tagger only when needed, with the same results either way", () => {
  const lazy = loadPipeline(bundlePath);
  const now = loadPipeline(bundlePath, { lazyTagger: false });
  const cs = read.slice(0, 20).map((r) => r.sentence);
  assert.deepEqual(lazy.annotateBlock(cs, false).map(toConllu), now.annotateBlock(cs, false).map(toConllu));
  assert.deepEqual(lazy.annotateBlock(cs, true).map(toConllu), now.annotateBlock(cs, true).map(toConllu));
  const text = "the big dog saw a cat near the house . every man slept";
  assert.equal(lazy.parseText(text).map(toConllu).join(""), now.parseText(text).map(toConllu).join(""));
  // A parser model alone: no tagger, and raw text is refused as before.
  const parserPath = join(mkdtempSync(join(tmpdir(), "vp-pipeline-parser-")), "parser.vpm");
  parser.save(parserPath);
  const bare = loadPipeline(parserPath);
  assert.ok(!bare.hasTagger);
  assert.equal(bare.tagger, null);
  assert.throws(() => bare.parseText("a dog ."), /no tagger/);
});

test("CLI parse of long sentences (blocks cut at PARSE_BLOCK_WORDS words): the library's output for each", () => {
  // 120 sentences of 150 words (10 toy sentences each, untagged heads): more than one block's words.
  const words = read.flatMap((r) => r.sentence.words);
  const long: string[] = [];
  for (let k = 0; k < 120; k++) {
    const rows: string[] = [`# sent_id = long-${k}`];
    for (let i = 0; i < 150; i++) {
      const w = words[(k * 150 + i) % words.length]!;
      rows.push([i + 1, w[1], "_", w[3], w[4], "_", "_", "_", "_", "_"].join("\t"));
    }
    long.push(rows.join("\n") + "\n\n");
  }
  assert.ok(120 * 150 > PARSE_BLOCK_WORDS && 120 < PARSE_BLOCK);
  const input = join(dir, "long.conllu");
  writeFileSync(input, long.join(""));
  const out = join(dir, "long.out.conllu");
  const c = run(["parse", "--model", bundlePath, "--input", input, "--output", out, "--quiet"]);
  assert.equal(c.status, 0, c.stderr);
  const p = loadPipeline(bundlePath);
  const expected = [...parseConllu(long.join(""), input, { requireTree: false })]
    .map((r) => toConllu(p.annotate(r.sentence)))
    .join("");
  assert.equal(readFileSync(out, "utf8"), expected);
  rmSync(input);
  rmSync(out);
});

test("a bundle whose tagger cannot be built still parses tagged input; tagging reports the error, each time", () => {
  const data = bundleToModelData({ tagger, parser, info: {} });
  (data.meta.tagger as { meta: { version: number } }).meta.version = 999;
  const path = join(mkdtempSync(join(tmpdir(), "vp-pipeline-badtagger-")), "bad.vpm");
  writeModelFile(path, data);
  const p = loadPipeline(path);
  assert.ok(p.hasTagger);
  const cs = read.slice(0, 5).map((r) => r.sentence);
  const eager = new Pipeline(tagger, parser);
  assert.deepEqual(p.annotateBlock(cs, false).map(toConllu), eager.annotateBlock(cs, false).map(toConllu));
  for (let k = 0; k < 2; k++) assert.throws(() => p.annotateBlock(cs, true), /tagger model version 999/);
  assert.throws(() => loadPipeline(path, { lazyTagger: false }), /tagger model version 999/);
  // The command line: tagged input parses; --retag fails at once, in one line.
  const input = join(dir, "tagged.conllu");
  writeFileSync(input, toyTreebank(3, 5));
  assert.equal(run(["parse", "--model", path, "--input", input, "--quiet"]).status, 0);
  const r = run(["parse", "--model", path, "--input", input, "--retag", "--quiet"]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /tagger model version 999/);
  assert.equal(r.stderr.trim().split("\n").length, 1);
  rmSync(input);
});

test("tree rendering: hand-worked example", () => {
  const text = formatTree({
    forms: ["", "The", "cat", "sat", "."],
    upos: ["", "DET", "NOUN", "VERB", "PUNCT"],
    heads: [-1, 2, 3, 0, 3],
    deprels: ["", "det", "nsubj", "root", "punct"],
    n: 4,
  });
  assert.equal(
    text,
    [
      "sat VERB [3] root",
      "├── cat NOUN [2] nsubj",
      "│   └── The DET [1] det",
      "└── . PUNCT [4] punct",
      "",
    ].join("\n"),
  );
  const p = new Pipeline(tagger, parser);
  assert.match(toTreeText(p.parseText("the dog slept .")[0]!), /^# text = the dog slept \.\n/);
});

test("JSON rendering: the CoNLL-U columns, null for '_', multiword tokens, offsets into raw text", () => {
  const p = new Pipeline(tagger, parser);
  const text = "The dog didn't sleep.";
  const [a] = p.parseText(text);
  const j = toJson(a!);
  assert.equal(j.id, "s1");
  assert.equal(j.text, text);
  assert.deepEqual(
    j.words.map((w) => [w.id, w.form, text.slice(w.start, w.end)]),
    [
      [1, "The", "The"],
      [2, "dog", "dog"],
      [3, "did", "did"],
      [4, "n't", "n't"],
      [5, "sleep", "sleep"],
      [6, ".", "."],
    ],
  );
  assert.deepEqual(j.tokens, [{ first: 3, last: 4, form: "didn't", misc: null }]);
  // Every word agrees with the CoNLL-U rendering of the same sentence, column by column.
  const rows = toConllu(a!)
    .split("\n")
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split("\t"));
  const v = (x: string) => (x === "_" ? null : x);
  for (const [i, w] of j.words.entries()) {
    const r = rows[i]!;
    assert.deepEqual(
      [w.id, w.form, w.lemma, w.upos, w.xpos, w.feats, w.head, w.deprel, w.misc],
      [Number(r[0]), r[1], v(r[2]!), v(r[3]!), v(r[4]!), v(r[5]!), Number(r[6]), r[7], v(r[9]!)],
    );
  }
  assert.equal(j.words[4]!.misc, "SpaceAfter=No");
  assert.equal(toJsonLine(a!), JSON.stringify(j) + "\n");
  // CoNLL-U input: its lemmas and features are kept; no offsets.
  const c = [
    ...parseConllu("# sent_id = x\n1\tdogs\tdog\tNOUN\tNNS\tNumber=Plur\t_\t_\t_\t_\n\n", "<t>", {
      requireTree: false,
    }),
  ][0]!.sentence;
  const w = toJson(p.annotate(c)).words[0]!;
  assert.deepEqual([w.lemma, w.feats, w.head, w.start], ["dog", "Number=Plur", 0, undefined]);
});

const cli = join(repoRoot, "dist", "src", "cli", "main.js");
function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input });
}

test("CLI parse: --text, --raw from stdin, CoNLL-U input (own tags kept), --format tree, errors", () => {
  const t = run(["parse", "--model", bundlePath, "--text", "the dog slept . a cat ran", "--quiet"]);
  assert.equal(t.status, 0, t.stderr);
  assert.equal((t.stdout.match(/^# sent_id/gm) ?? []).length, 2);
  const raw = run(
    ["parse", "--model", bundlePath, "--raw", "--format", "tree", "--quiet"],
    "the old man saw a dog .",
  );
  assert.equal(raw.status, 0, raw.stderr);
  assert.match(raw.stdout, /\[\d+\] root/);
  // --raw FILE and --raw --input FILE read the same text; a stray FILE without --raw is refused.
  const rawPath = join(dir, "raw.txt");
  writeFileSync(rawPath, "the old man saw a dog .");
  const rawFile = run(["parse", "--model", bundlePath, "--raw", rawPath, "--format", "tree", "--quiet"]);
  assert.equal(rawFile.status, 0, rawFile.stderr);
  assert.equal(rawFile.stdout, raw.stdout);
  const rawInput = run([
    "parse",
    "--model",
    bundlePath,
    "--raw",
    "--input",
    rawPath,
    "--format",
    "tree",
    "--quiet",
  ]);
  assert.equal(rawInput.stdout, raw.stdout);
  // --format json: JSON Lines, one object per sentence.
  const json = run(["parse", "--model", bundlePath, "--raw", rawPath, "--format", "json", "--quiet"]);
  assert.equal(json.status, 0, json.stderr);
  const lines = json.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1);
  assert.deepEqual(
    (JSON.parse(lines[0]!) as { words: { form: string }[] }).words.map((w) => w.form),
    ["the", "old", "man", "saw", "a", "dog", "."],
  );
  const stray = run(["parse", "--model", bundlePath, "--text", "a dog", rawPath]);
  assert.notEqual(stray.status, 0);
  assert.match(stray.stderr, /goes with --raw/);
  const twice = run(["parse", "--model", bundlePath, "--raw", rawPath, "--input", rawPath]);
  assert.notEqual(twice.status, 0);
  assert.match(twice.stderr, /raw text file once/);
  // --max-words cuts long sentences of raw text.
  const cut = run([
    "parse",
    "--model",
    bundlePath,
    "--text",
    "the dog saw the cat near the old house",
    "--max-words",
    "4",
    "--quiet",
  ]);
  assert.equal(cut.status, 0, cut.stderr);
  assert.equal((cut.stdout.match(/^# sent_id/gm) ?? []).length, 3);
  const badMax = run(["parse", "--model", bundlePath, "--text", "a dog", "--max-words", "-1"]);
  assert.notEqual(badMax.status, 0);
  assert.match(badMax.stderr, /max-words/);
  const input = join(dir, "in.conllu");
  writeFileSync(input, toyTreebank(5, 99));
  const out = join(dir, "out.conllu");
  const c = run(["parse", "--model", bundlePath, "--input", input, "--output", out, "--json"]);
  assert.equal(c.status, 0, c.stderr);
  const summary = JSON.parse(c.stderr.trim());
  assert.equal(summary.sentences, 5);
  assert.ok(summary.tokensPerSecond > 0);
  assert.equal(summary.stages, undefined);
  // --timing: the seconds of each stage, in order (each pass of the cascade by kind), the same output.
  const prunedOut = join(dir, "pruned.conllu");
  const timedOut = join(dir, "timed.conllu");
  const topk = ["--prune", "topk:3", "--input", input, "--json"];
  const p = run(["parse", "--model", bundlePath, ...topk, "--output", prunedOut]);
  assert.equal(p.status, 0, p.stderr);
  const tm = run(["parse", "--model", bundlePath, ...topk, "--output", timedOut, "--timing"]);
  assert.equal(tm.status, 0, tm.stderr);
  const timed = JSON.parse(tm.stderr.trim());
  assert.deepEqual(
    timed.stages.map((x: { stage: string }) => x.stage),
    ["tagging", "topk", "parsing", "labelling", "rest"],
  );
  assert.ok(timed.stages.every((x: { seconds: number }) => x.seconds >= 0));
  const staged = timed.stages.reduce((a: number, x: { seconds: number }) => a + x.seconds, 0);
  assert.ok(staged <= timed.seconds + 0.01, `${staged} > ${timed.seconds}`);
  assert.equal(readFileSync(timedOut, "utf8"), readFileSync(prunedOut, "utf8"));
  const line = run(["parse", "--model", bundlePath, "--text", "the dog saw the cat", "--timing"]);
  assert.equal(line.status, 0, line.stderr);
  assert.match(
    line.stderr,
    /^time: tagging [0-9.]+ s, .*parsing [0-9.]+ s, labelling [0-9.]+ s, rest [0-9.]+ s$/m,
  );
  const e = run(["eval", "--gold", input, "--system", out, "--json"]);
  assert.equal(e.status, 0, e.stderr);
  assert.ok(JSON.parse(e.stdout).uas > 80);
  // Errors: one line, non-zero exit, no partial output file.
  const missing = run(["parse", "--model", join(dir, "nope.vpm"), "--text", "x"]);
  assert.notEqual(missing.status, 0);
  assert.equal(missing.stderr.trim().split("\n").length, 1);
  const bad = join(dir, "bad.conllu");
  writeFileSync(bad, "1\tthe\t_\tDET\tDT\t_\t0\troot\t_\t_\n\n1\ttoo\tfew\n\n");
  const badOut = join(dir, "bad.out");
  const b = run(["parse", "--model", bundlePath, "--input", bad, "--output", badOut]);
  assert.notEqual(b.status, 0);
  assert.match(b.stderr, /bad\.conllu:3: expected 10 tab-separated columns/);
  assert.ok(!readdirSync(dir).includes("bad.out"));
  assert.equal(run(["parse", "--model", bundlePath]).status, 2); // a usage error
});
