import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fixture, repoRoot, sharedUd } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-cli-eval-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the compiled CLI; returns exit status and output. */
function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
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

const GOLD = fixture("small.conllu");
const SYSTEM = fixture("small-system.conllu");

test("eval --json: a file against itself is 100 everywhere", () => {
  const r = cli(["eval", "--gold", GOLD, "--system", GOLD, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.sentences, 3);
  assert.equal(j.tokens, 21);
  for (const k of ["uas", "las", "uasNoPunct", "lasNoPunct", "exactMatch", "labelledExactMatch"]) {
    assert.equal(j[k], 100, k);
  }
});

test("eval --json: hand-counted scores of the shifted copy", () => {
  const r = cli(["eval", "--gold", GOLD, "--system", SYSTEM, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    [j.sentences, j.tokens, j.uas, j.las, j.uasNoPunct, j.lasNoPunct, j.exactMatch, j.labelledExactMatch],
    [3, 21, 90.48, 85.71, 94.12, 88.24, 33.33, 33.33],
  );
});

test("eval plain output is a small aligned table", () => {
  const r = cli(["eval", `--gold=${GOLD}`, `--system=${SYSTEM}`]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^UAS +90\.48 +94\.12$/m);
  assert.match(r.stdout, /^LAS +85\.71 +88\.24$/m);
  assert.match(r.stdout, /^tokens +21 +17$/m);
  const widths = new Set(
    r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.length),
  );
  assert.equal(widths.size, 1, `rows are aligned:\n${r.stdout}`);
});

test("eval errors: missing options, missing file, mismatching files", () => {
  assertFails(cli(["eval", "--gold", GOLD]), 2, /missing required option --system/);
  assertFails(cli(["eval", "--system", GOLD]), 2, /missing required option --gold/);
  assertFails(cli(["eval", "--gold", GOLD, "--system", "absent.conllu"]), 1, /absent\.conllu: no such file/);
  assertFails(cli(["eval", "--gold", GOLD, "--system", SYSTEM, "extra"]), 2, /unexpected argument "extra"/);
  const text = readFileSync(GOLD, "utf8");
  const truncated = join(tmp, "truncated.conllu");
  writeFileSync(truncated, text.slice(0, text.indexOf("# sent_id = s3")));
  assertFails(
    cli(["eval", "--gold", GOLD, "--system", truncated]),
    1,
    /small\.conllu:22: sentence 3 has no counterpart/,
  );
  const renamed = join(tmp, "renamed.conllu");
  writeFileSync(renamed, text.replace("\tcat\tcat\t", "\tdog\tdog\t"));
  assertFails(
    cli(["eval", "--gold", GOLD, "--system", renamed]),
    1,
    /renamed\.conllu:5: sentence 1, word 2 is "dog"/,
  );
});

test("eval of en_ewt dev against itself", { skip: sharedUd() === null }, () => {
  const dev = join(sharedUd()!, "en_ewt", "dev.conllu");
  const r = cli(["eval", "--gold", dev, "--system", dev, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.sentences, 2001);
  assert.equal(j.tokens, 25147);
  assert.equal(j.uas, 100);
  assert.equal(j.lasNoPunct, 100);
});

test("eval reads the system from stdin with '-'", () => {
  const r = spawnSync(
    process.execPath,
    [join(repoRoot, "dist", "src", "cli", "main.js"), "eval", "--gold", GOLD, "--system", "-", "--json"],
    { encoding: "utf8", input: readFileSync(SYSTEM, "utf8") },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).uas, 90.48);
  assertFails(cli(["eval", "--gold", "-", "--system", "-"]), 2, /cannot both be stdin/);
});
