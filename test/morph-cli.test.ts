import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { FEATS, LEMMA } from "../src/conllu/types.js";
import { repoRoot } from "./helpers.js";
import { morphToy } from "./morph-toy.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-morph-cli-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const train = join(tmp, "train.conllu");
const dev = join(tmp, "dev.conllu");
writeFileSync(train, morphToy(300, 1));
writeFileSync(dev, morphToy(100, 2, true));
const model = join(tmp, "m.vpm");

test("train → morph → eval round trip; only LEMMA and FEATS change", () => {
  let r = cli([
    "morph",
    "train",
    "--train",
    train,
    "--dev",
    dev,
    "--out",
    model,
    "--epochs",
    "4",
    "--bits",
    "16",
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /dev lemma/);
  // Blank LEMMA and FEATS, keep a comment and everything else.
  const gold = readFileSync(dev, "utf8");
  const blanked = gold
    .split("\n")
    .map((l) => {
      const c = l.split("\t");
      if (c.length !== 10) return l;
      c[LEMMA] = "_";
      c[FEATS] = "_";
      return c.join("\t");
    })
    .join("\n");
  const input = join(tmp, "in.conllu");
  writeFileSync(input, blanked);
  const output = join(tmp, "out.conllu");
  r = cli(["morph", "--model", model, "--input", input, "--output", output]);
  assert.equal(r.status, 0, r.stderr);
  const got = readFileSync(output, "utf8").split("\n");
  const want = gold.split("\n");
  assert.equal(got.length, want.length);
  let filled = 0;
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!.split("\t");
    const w = want[i]!.split("\t");
    if (w.length !== 10) {
      assert.equal(got[i], want[i]);
      continue;
    }
    for (let c = 0; c < 10; c++) if (c !== LEMMA && c !== FEATS) assert.equal(g[c], w[c]);
    assert.ok(g[LEMMA]!.length > 0);
    if (g[LEMMA] === w[LEMMA] && g[FEATS] === w[FEATS]) filled++;
  }
  assert.ok(filled > 0.85 * want.filter((l) => l.split("\t").length === 10).length);
  r = cli(["morph", "eval", "--model", model, "--gold", dev, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const a = JSON.parse(r.stdout) as { lemma: number; ufeats: number; unseen: { words: number } };
  assert.ok(a.lemma > 85 && a.ufeats > 90 && a.unseen.words > 0, r.stdout);
  r = cli(["morph", "eval", "--model", model, "--gold", dev, "--input", output]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Lemmas +\d/);
});

test("errors are one line; a failed run leaves no output; --help", () => {
  const bad = join(tmp, "bad.vpm");
  writeFileSync(bad, "not a model");
  const out = join(tmp, "never.conllu");
  let r = cli(["morph", "--model", bad, "--input", dev, "--output", out]);
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /bad\.vpm/);
  assert.equal(existsSync(out), false);
  const broken = join(tmp, "broken.conllu");
  writeFileSync(broken, "1\tonly\tthree\n\n");
  r = cli(["morph", "--model", model, "--input", broken, "--output", out]);
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /broken\.conllu:1/);
  assert.equal(existsSync(out), false);
  r = cli(["morph", "train", "--out", out]);
  assert.equal(r.status, 2);
  r = cli(["morph", "--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /vineparse morph train/);
});
