import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { loadParser } from "../src/parser/load-parser.js";
import { repoRoot } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("CLI: train --order 2 and --order 3 (reusing a first-order model), parse and eval", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-higher-cli-"));
  const trainPath = join(dir, "train.conllu");
  const devPath = join(dir, "dev.conllu");
  writeFileSync(trainPath, toyTreebank(150, 1));
  writeFileSync(devPath, toyTreebank(40, 2));
  const fo = join(dir, "o1.bin");
  const base = ["train", "--train", trainPath, "--dev", devPath, "--epochs", "3", "--bits", "16", "--quiet"];
  assert.equal(cli([...base, "--out", fo]).status, 0);
  for (const order of ["2", "3"]) {
    const model = join(dir, `o${order}.bin`);
    const t = cli([...base, "--out", model, "--order", order, "--k", "4", "--first-order", fo]);
    assert.equal(t.status, 0, t.stderr);
    const out = join(dir, `o${order}.conllu`);
    const p = cli(["parse", "--model", model, "--input", devPath, "--output", out, "--json"]);
    assert.equal(p.status, 0, p.stderr);
    assert.equal(JSON.parse(p.stderr.trim()).sentences, 40);
    assert.ok(readFileSync(out, "utf8").length > 0);
    const e = cli(["eval", "--gold", devPath, "--system", out, "--json"]);
    assert.equal(e.status, 0, e.stderr);
    assert.ok(JSON.parse(e.stdout).uasNoPunct >= 95);
  }
  const bad = cli([...base, "--out", join(dir, "x.bin"), "--order", "4"]);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--order/);
  const notFirst = cli([
    ...base,
    "--out",
    join(dir, "y.bin"),
    "--order",
    "2",
    "--first-order",
    join(dir, "o2.bin"),
  ]);
  assert.notEqual(notFirst.status, 0);
  assert.match(notFirst.stderr, /order-1/);
  // --first-order-bits sizes the first-order model trained on the way (without --first-order).
  const small = join(dir, "small.bin");
  const s = cli([...base, "--out", small, "--order", "2", "--k", "4", "--first-order-bits", "12"]);
  assert.equal(s.status, 0, s.stderr);
  const hp = loadParser(small) as HigherOrderParser;
  assert.equal(hp.firstOrder.config.bits, 12);
  assert.equal(hp.config.bits, 16);
  const badBits = cli([...base, "--out", join(dir, "z.bin"), "--order", "2", "--first-order-bits", "4"]);
  assert.notEqual(badBits.status, 0);
  assert.match(badBits.stderr, /first-order-bits/);
});
