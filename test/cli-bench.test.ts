import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { parseVariant } from "../bench/exp-memory.js";
import { compactJson, gitCommit, machineInfo, parseWithTags, time } from "../bench/lib.js";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { repairTags } from "../src/eval/tag-errors.js";
import { evaluateParser, trainParser } from "../src/parser/train.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { repoRoot } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

/** Runs the compiled benchmark runner. */
function bench(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [join(repoRoot, "dist", "bench", "run.js"), ...args], {
    encoding: "utf8",
    env,
  });
}

test("bench without a name lists the experiments (exit 1); unknown names exit 2", () => {
  const r = bench([]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^experiments:$/m);
  assert.match(r.stdout, /^ {2}stats +\S/m);
  const u = bench(["no-such-experiment"]);
  assert.equal(u.status, 2);
  assert.match(u.stderr, /unknown experiment "no-such-experiment"/);
});

test("bench stats without UD data: a clear message and exit code 2", () => {
  const r = bench(["stats"], { ...process.env, VINEPARSE_UD: join(repoRoot, "no", "such", "ud") });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /UD data not found at .*no\/such\/ud.*VINEPARSE_UD/);
});

test("bench lib: machine info, git commit, timing, compact JSON", async () => {
  const m = machineInfo();
  assert.ok(m.cores >= 1 && m.memoryGiB > 0 && m.node.startsWith("v"));
  assert.match(gitCommit(), /^([0-9a-f]{12}(-dirty)?|unknown)$/);
  const { result, seconds } = await time(async () => 42);
  assert.equal(result, 42);
  assert.ok(seconds >= 0 && seconds < 1);
  const doc = { a: [1, "x,y", 2.5], b: [{ c: [] }], d: "[\n]" };
  assert.deepEqual(JSON.parse(compactJson(doc)), doc);
  assert.match(compactJson(doc), /"a": \[1, "x,y", 2\.5\]/);
  assert.equal(compactJson({ r: [] }), JSON.stringify({ r: [] }, null, 2));
});

test("memory bench variants: CLI, model and node's own options", () => {
  const own = join(repoRoot, "dist", "src", "cli", "main.js");
  assert.deepEqual(parseVariant("m.vpm"), {
    name: "m.vpm",
    cli: own,
    model: "m.vpm",
    nodeOptions: [],
    env: {},
    args: [],
  });
  assert.deepEqual(parseVariant("old=/x/main.js,a.vpm"), {
    name: "old",
    cli: "/x/main.js",
    model: "a.vpm",
    nodeOptions: [],
    env: {},
    args: [],
  });
  const p = parseVariant("pool=,,--v8-pool-size=0  --max-old-space-size=512");
  assert.deepEqual(
    [p.cli, p.nodeOptions, p.env],
    [own, ["--v8-pool-size=0", "--max-old-space-size=512"], {}],
  );
  assert.match(p.model, /models[\\/]en_ewt\.vpm$/);
  const e = parseVariant("huge=,,,GLIBC_TUNABLES=glibc.malloc.hugetlb=1 A=");
  assert.deepEqual([e.nodeOptions, e.env], [[], { GLIBC_TUNABLES: "glibc.malloc.hugetlb=1", A: "" }]);
  assert.throws(() => parseVariant("bad=,,,NOEQUALS"), /not KEY=VALUE/);
  assert.deepEqual(parseVariant("t2=,,,,--threads 2").args, ["--threads", "2"]);
});

test("parseWithTags scores the gold tags like the parser's own evaluation; wrong tags score lower", () => {
  const vocab = new Vocabularies();
  const train = [...parseConllu(toyTreebank(200, 1))].map((r) => toSentence(r, vocab));
  const devRead = [...parseConllu(toyTreebank(60, 2))];
  const dev = devRead.map((r) => toSentence(r, vocab));
  const { parser } = trainParser(train, vocab, { epochs: 3, bits: 16, labelBits: 10 });
  const gold = devRead.map((r) => taggedSentence(r.sentence));
  const own = evaluateParser(parser, dev, vocab);
  const g = parseWithTags(parser, devRead, gold, 2);
  assert.equal(g.scores.uasNoPunct, own.uasNoPunct);
  assert.equal(g.scores.lasNoPunct, own.lasNoPunct);
  assert.ok(g.seconds > 0);
  // Every verb tagged as a noun: the toy grammar's heads move, so UAS must drop.
  const wrong = gold.map((t) => ({
    upos: t.upos.map((u) => (u === "VERB" ? "NOUN" : u)),
    xpos: t.xpos.map((x) => (x === "VBD" ? "NN" : x)),
  }));
  const w = parseWithTags(parser, devRead, wrong);
  assert.ok(
    w.scores.uasNoPunct < g.scores.uasNoPunct - 5,
    `${w.scores.uasNoPunct} vs ${g.scores.uasNoPunct}`,
  );
  // Repairing every error restores the gold-tag score.
  const repaired = repairTags(gold, wrong, () => true);
  assert.equal(parseWithTags(parser, devRead, repaired.tags).scores.uasNoPunct, g.scores.uasNoPunct);
});
