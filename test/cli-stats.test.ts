import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fixture, repoRoot, sharedUd } from "./helpers.js";

/** Runs the compiled CLI; returns exit status and output. */
function cli(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
    input,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Asserts a failed run: the given exit status and exactly one line on stderr, matching `pattern`. */
function assertFails(r: ReturnType<typeof cli>, status: number, pattern: RegExp): void {
  assert.equal(r.status, status, r.stderr);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^vineparse: /);
  assert.match(lines[0]!, pattern);
}

test("stats --json on the fixture", () => {
  const r = cli(["stats", fixture("small.conllu"), "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    {
      sentences: j.sentences,
      tokens: j.tokens,
      meanLength: j.meanLength,
      maxLength: j.maxLength,
      nonProjectiveSentences: j.nonProjectiveSentences,
      nonProjectiveArcs: j.nonProjectiveArcs,
      oracleReduction: j.oracleReduction,
    },
    {
      sentences: 3,
      tokens: 21,
      meanLength: 7,
      maxLength: 9,
      nonProjectiveSentences: 33.33,
      nonProjectiveArcs: 4.76,
      oracleReduction: 86.45,
    },
  );
  assert.equal(r.stdout.trimEnd().split("\n").length, 1, "one JSON object on one line");
});

test("stats plain output is an aligned table; '-' reads stdin", () => {
  const r = cli(["stats", fixture("small.conllu")]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^sentences +3 +-$/m);
  assert.match(r.stdout, /^oracle reduction +- +86\.45$/m);
  const rows = r.stdout.trimEnd().split("\n").slice(1);
  const widths = new Set(rows.map((l) => l.length));
  assert.equal(widths.size, 1, `rows are aligned:\n${r.stdout}`);
  const s = cli(["stats", "-", "--json"], readFileSync(fixture("small.conllu"), "utf8"));
  assert.equal(s.status, 0, s.stderr);
  assert.equal(JSON.parse(s.stdout).tokens, 21);
});

test("stats errors: missing file, no file argument, unknown option, malformed input", () => {
  assertFails(cli(["stats", "no-such.conllu"]), 1, /no-such\.conllu: no such file/);
  assertFails(cli(["stats"]), 2, /missing FILE/);
  assertFails(cli(["stats", fixture("small.conllu"), "--jsno"]), 2, /--jsno/);
  assertFails(cli(["stats", "a", "b"]), 2, /unexpected argument "b"/);
  assertFails(
    cli(["stats", "-"], "1\ta\ta\tX\t_\t_\t2\troot\t_\t_\n"),
    1,
    /<stdin>:1: HEAD 2 is out of range/,
  );
});

test("stats --help prints usage", () => {
  const r = cli(["stats", "--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^usage: vineparse stats FILE/);
});

test("stats of en_ewt dev matches the known numbers", { skip: sharedUd() === null }, () => {
  const r = cli(["stats", join(sharedUd()!, "en_ewt", "dev.conllu"), "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.sentences, 2001);
  assert.equal(j.tokens, 25147);
  assert.equal(j.oracleReduction, 95.28);
  assert.equal(j.meanLength, 12.57);
});
