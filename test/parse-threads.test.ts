import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, toyModels } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const toy = toyModels();
after(() => toy.cleanup());

// More sentences than one block (PARSE_BLOCK = 1024), so that blocks go to both workers and come
// back to be written in order.
const many = join(toy.dir, "many.conllu");
writeFileSync(many, toyTreebank(2300, 11));

test("parse --threads 2 writes what one thread writes: CoNLL-U in blocks, and raw text with offsets", () => {
  const one = join(toy.dir, "one.conllu");
  const two = join(toy.dir, "two.conllu");
  const a = runCli(["parse", "--model", toy.bundle, "--input", many, "--output", one, "--json"]);
  const b = runCli([
    "parse",
    "--model",
    toy.bundle,
    "--input",
    many,
    "--output",
    two,
    "--threads",
    "2",
    "--json",
  ]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(readFileSync(two, "utf8"), readFileSync(one, "utf8"));
  const sa = JSON.parse(a.stderr) as { sentences: number; tokens: number; prune: string };
  const sb = JSON.parse(b.stderr) as typeof sa;
  assert.deepEqual([sb.sentences, sb.tokens, sb.prune], [sa.sentences, sa.tokens, sa.prune]);
  assert.equal(sb.sentences, 2300);

  // Raw text: sentence ids run on across blocks, and the JSON output carries each word's offsets.
  const text = join(toy.dir, "many.txt");
  writeFileSync(text, Array.from({ length: 1500 }, (_, i) => `the dog saw a cat number ${i} .`).join("\n"));
  const rawArgs = ["parse", "--model", toy.bundle, "--raw", text, "--newline-breaks", "--format", "json"];
  const r1 = runCli([...rawArgs, "--output", one, "--quiet"]);
  const r2 = runCli([...rawArgs, "--output", two, "--quiet", "--threads", "3", "--timing"]);
  assert.equal(r1.status, 0, r1.stderr);
  assert.equal(r2.status, 0, r2.stderr);
  const out = readFileSync(two, "utf8");
  assert.equal(out, readFileSync(one, "utf8"));
  const lines = out.trimEnd().split("\n");
  assert.equal(lines.length, 1500);
  assert.match(lines[1499]!, /"id":"s1500"/);
});

test("parse --threads: a bad sentence in a later block stops the run with one line and leaves no output", () => {
  const bad = join(toy.dir, "bad.conllu");
  const lines = readFileSync(many, "utf8").split("\n");
  // A word row deep in the file loses its columns.
  const at = lines.findIndex((l, i) => i > lines.length * 0.8 && /^1\t/.test(l));
  lines[at] = "1\tbroken";
  writeFileSync(bad, lines.join("\n"));
  const out = join(toy.dir, "bad-out.conllu");
  const r = runCli(["parse", "--model", toy.bundle, "--input", bad, "--output", out, "--threads", "2"]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`bad\\.conllu:${at + 1}:`));
  assert.equal(existsSync(out), false);
});

test("parse --threads: a model the workers cannot load is one line; --threads 0 is a usage error", () => {
  const r = runCli(["parse", "--model", join(toy.dir, "missing.vpm"), "--input", many, "--threads", "2"]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /missing\.vpm: no such model file/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  // Raw text needs a tagger: a parser-only model is refused as on one thread.
  const p = runCli(["parse", "--model", toy.parser, "--text", "the dog saw a cat .", "--threads", "2"]);
  const q = runCli(["parse", "--model", toy.parser, "--text", "the dog saw a cat ."]);
  assert.equal(p.status, q.status);
  assert.equal(p.stderr, q.stderr);
  const u = runCli(["parse", "--model", toy.bundle, "--input", many, "--threads", "0"]);
  assert.equal(u.status, 2);
  assert.match(u.stderr, /--threads/);
});
