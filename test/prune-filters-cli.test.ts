import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { filterImpact } from "../src/eval/filter-impact.js";
import { round } from "../src/eval/percent.js";
import { loadParser } from "../src/parser/load-parser.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { loadCascade } from "../src/prune/load-pruner.js";
import { runInProcess, toyModels } from "./toy-models.js";
import { noisyTags } from "./tiny-treebank.js";
import { toyTreebank } from "./toy-treebank.js";

const dir = mkdtempSync(join(tmpdir(), "vp-filters-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const trainPath = join(dir, "train.conllu");
const devPath = join(dir, "dev.conllu");
writeFileSync(trainPath, noisyTags(toyTreebank(200, 41), 0.03, 1));
writeFileSync(devPath, noisyTags(toyTreebank(50, 42), 0.03, 2));

/** Runs `vineparse ARGS` in this process, capturing stdout too. */
async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stdout.write;
  try {
    const r = await runInProcess(args);
    return { ...r, stdout };
  } finally {
    process.stdout.write = write;
  }
}

/** Trains a filter through the CLI and returns its path. */
async function trainFilter(name: string, args: string[]): Promise<string> {
  const out = join(dir, `${name}.vpf`);
  const r = await run(["filter", "train", "--train", trainPath, "--dev", devPath, "--out", out, ...args]);
  assert.equal(r.status, 0, r.stderr);
  return out;
}

test("CLI: filter train --kind lenvine|tagvine|rules, then filter eval --json agrees with the library", async () => {
  const files = {
    lenvine: await trainFilter("lenvine", ["--kind", "lenvine", "--coverage", "99"]),
    tagvine: await trainFilter("tagvine", ["--kind", "tagvine", "--dev-coverage", "97"]),
    rules: await trainFilter("rules", ["--kind", "rules", "--coverage", "99", "--ratios", "10,1000"]),
  };
  const vocab = new Vocabularies();
  const dev = loadCorpus(devPath, vocab).sentences;
  for (const [kind, f] of Object.entries(files)) {
    const r = await run(["filter", "eval", "--filter", f, "--gold", devPath, "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as {
      filter: string;
      coverage: number;
      reduction: number;
      tokensPerSecond: number;
      goldLost: number;
      goldLostNoPunct: number;
      lostByRelation: Record<string, { gold: number; lost: number }>;
    };
    assert.equal(j.filter, kind);
    const ev = evaluateCascade(loadCascade(f), dev, vocab);
    const e = ev.scores;
    assert.equal(j.coverage, round(e.coverage));
    assert.equal(j.reduction, round(e.reduction));
    // Lost gold arcs: the complement of coverage, split by relation without remainder.
    assert.equal(j.goldLost, e.tokens - e.goldKept);
    assert.equal(j.goldLost, ev.lost.lost);
    assert.ok(j.goldLostNoPunct <= j.goldLost);
    const byRel = Object.values(j.lostByRelation);
    assert.equal(
      byRel.reduce((a, r) => a + r.lost, 0),
      j.goldLost,
    );
    assert.ok(byRel.every((r) => r.lost > 0 && r.lost <= r.gold));
    assert.ok(j.reduction > 0 && j.tokensPerSecond > 0, `${kind}: ${r.stdout}`);
  }
  const tv = JSON.parse(
    (await run(["filter", "eval", "--filter", files.tagvine, "--gold", devPath, "--json"])).stdout,
  );
  assert.ok(tv.coverage >= 97);
  const rules = JSON.parse(
    (await run(["filter", "eval", "--filter", files.rules, "--gold", devPath, "--json"])).stdout,
  );
  assert.ok(rules.coverage >= 99);
});

test("CLI: filter show prints limits and Table 1 style rules; --after trains on an earlier pass", async () => {
  const lv = await trainFilter("lv-show", ["--kind", "lenvine", "--limit", "4"]);
  const show = await run(["filter", "show", lv]);
  assert.equal(show.status, 0);
  assert.match(show.stdout, /pass 1: lenvine\narcs between tokens more than 4 apart are removed/);
  const tv = await trainFilter("tv-show", ["--kind", "tagvine", "--tags", "upos", "--coverage", "99"]);
  const tvShow = (await run(["filter", "show", tv])).stdout;
  assert.match(tvShow, /a length limit per \[head tag, modifier tag, direction\] \(UPOS, \d+ tags\)/);
  assert.match(tvShow, /stopped at training coverage 99%/);
  assert.match(tvShow, /^DET\s+h←m: /m);
  const ru = await trainFilter("ru-show", ["--kind", "rules", "--coverage", "98"]);
  const ruShow = (await run(["filter", "show", ru])).stdout;
  for (const row of [
    "not a head",
    "no head left \\(∗←m\\)",
    "no head right \\(m→∗\\)",
    "not a root",
    "no h←m",
    "no m→h",
  ])
    assert.match(ruShow, new RegExp(`^${row}\\s`, "m"));
  assert.match(ruShow, /dev: coverage [\d.]+%, reduction [\d.]+% \(target coverage 98%\)/);
  // Tag-Vine after the rules: one file holding both passes, in order.
  const both = await trainFilter("rules-tagvine", ["--kind", "tagvine", "--after", ru, "--coverage", "99"]);
  const c = loadCascade(both);
  assert.deepEqual(
    c.passes.map((p) => p.kind),
    ["rules", "tagvine"],
  );
  assert.match((await run(["filter", "show", both])).stdout, /pass 1: rules[\s\S]*pass 2: tagvine/);
});

test("CLI: filter kind options are checked", async () => {
  const out = join(dir, "bad.vpf");
  const noDev = await run([
    "filter",
    "train",
    "--kind",
    "tagvine",
    "--train",
    trainPath,
    "--out",
    out,
    "--dev-coverage",
    "99",
  ]);
  assert.equal(noDev.status, 2);
  assert.match(noDev.stderr, /--dev-coverage needs --dev/);
  const badRatios = await run([
    "filter",
    "train",
    "--kind",
    "rules",
    "--train",
    trainPath,
    "--out",
    out,
    "--ratios",
    "1,x",
  ]);
  assert.equal(badRatios.status, 2);
  const badCoverage = await run([
    "filter",
    "train",
    "--kind",
    "lenvine",
    "--train",
    trainPath,
    "--out",
    out,
    "--coverage",
    "101",
  ]);
  assert.equal(badCoverage.status, 2);
  // Without dev the rules use one fixed C1 and C2/C1 for every classifier.
  const fixed = await run([
    "filter",
    "train",
    "--kind",
    "rules",
    "--train",
    trainPath,
    "--out",
    out,
    "--c1",
    "0.01",
    "--ratio",
    "100",
  ]);
  assert.equal(fixed.status, 0, fixed.stderr);
  assert.match((await run(["filter", "show", out])).stdout, /notHead C1 0\.01 C2\/C1 100/);
});

test("CLI: filter attach gives a bundle and a parser model a new own cascade; parse runs it by default", async () => {
  const toy = toyModels();
  try {
    const lv = await trainFilter("lv-attach", ["--kind", "lenvine", "--limit", "2"]);
    const input = join(dir, "attach-in.conllu");
    writeFileSync(input, toyTreebank(20, 43));
    const parseWith = async (model: string, extra: string[] = []): Promise<string> => {
      const out = join(dir, `attach-out-${Math.random().toString(36).slice(2)}.conllu`);
      const r = await runInProcess(["parse", "--model", model, "--input", input, "--output", out, ...extra]);
      assert.equal(r.status, 0, r.stderr);
      return readFileSync(out, "utf8");
    };
    for (const model of [toy.bundle, toy.parser]) {
      const withLv = join(dir, "attached.vpm");
      let r = await run(["filter", "attach", "--model", model, "--prune", lv, "--out", withLv]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /cascade lenvine/);
      assert.equal(loadPipeline(withLv).parser.cascade.name, "lenvine");
      // The attached cascade is what parse runs unless told otherwise.
      assert.equal(await parseWith(withLv), await parseWith(model, ["--prune", lv]));
      assert.notEqual(await parseWith(withLv), await parseWith(model));
      // "none" takes it off again: the same parses as the original model.
      const bare = join(dir, "bare.vpm");
      r = await run(["filter", "attach", "--model", withLv, "--prune", "none", "--out", bare]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(loadPipeline(bare).parser.cascade.empty);
      assert.equal(await parseWith(bare), await parseWith(model));
    }
    const r = await run(["filter", "attach", "--model", toy.bundle, "--prune", lv]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--out/);
  } finally {
    toy.cleanup();
  }
});

test("CLI: filter eval --parser reports what the filter does to that parser, as filterImpact counts it", async () => {
  const toy = toyModels();
  try {
    const lv = await trainFilter("lv-impact", ["--kind", "lenvine", "--limit", "1"]);
    const r = await run([
      "filter",
      "eval",
      "--filter",
      lv,
      "--gold",
      devPath,
      "--parser",
      toy.parser,
      "--json",
    ]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as {
      parser: {
        tokens: number;
        uasNoPunct: number;
        uasNoPunctFiltered: number;
        difference: number;
        low: number;
        high: number;
        lostParserRight: number;
        fixed: number;
        broken: number;
      };
    };
    const vocab = new Vocabularies();
    const dev = loadCorpus(devPath, vocab).sentences;
    const f = filterImpact(loadParser(toy.parser), loadCascade(lv), dev, vocab, vocab.upos.get("PUNCT"));
    assert.equal(j.parser.tokens, f.tokens);
    assert.equal(j.parser.uasNoPunct, round((100 * f.rightUnfiltered) / f.tokens));
    assert.equal(j.parser.uasNoPunctFiltered, round((100 * f.rightFiltered) / f.tokens));
    assert.ok(
      Math.abs(j.parser.difference - (100 * (f.rightFiltered - f.rightUnfiltered)) / f.tokens) < 1e-3,
    );
    assert.ok(j.parser.low <= j.parser.difference && j.parser.difference <= j.parser.high);
    assert.deepEqual(
      [j.parser.lostParserRight, j.parser.fixed, j.parser.broken],
      [f.lostParserRight, f.fixed, f.broken],
    );
    assert.ok(f.lostParserRight > 0, "length-1 arcs only must cost the toy parser some correct arcs");
    const text = await run(["filter", "eval", "--filter", lv, "--gold", devPath, "--parser", toy.parser]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /exhaustive, [\d.]+ behind the filter \([+-]\d+\.\d\d; 95% paired bootstrap interval/,
    );
    assert.match(
      text.stdout,
      new RegExp(`${f.lostParserRight} of the lost gold arcs were the exhaustive parse's choice`),
    );
  } finally {
    toy.cleanup();
  }
});
