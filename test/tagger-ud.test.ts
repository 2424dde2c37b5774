import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu, readConlluFile } from "../src/conllu/read.js";
import { tagAccuracy } from "../src/tagger/accuracy.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { repoRoot, sharedUd } from "./helpers.js";

const ud = sharedUd();
const tmp = mkdtempSync(join(tmpdir(), "vineparse-tagger-ud-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("en_ewt: 500 training sentences tag 200 dev sentences with sane accuracy", { skip: ud === null }, () => {
  const load = (f: string, n: number) =>
    readConlluFile(join(ud!, "en_ewt", f))
      .slice(0, n)
      .map((r) => taggedSentence(r.sentence));
  const train = load("train.conllu", 500);
  const dev = load("dev.conllu", 200);
  const tagger = Tagger.train(train, { epochs: 5, seed: 1 });
  const acc = tagAccuracy(
    dev,
    dev.map((s) => tagger.tag(s.words)),
  );
  assert.ok(acc.upos > 80, `UPOS ${acc.upos}`);
  assert.ok(acc.xpos > 78, `XPOS ${acc.xpos}`);
});

test("CLI: tagger train then tag (files and stdin/stdout)", { skip: ud === null }, () => {
  const cli = (args: string[], input?: string) =>
    spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
      encoding: "utf8",
      input,
    });
  // A small slice of en_ewt keeps the test fast.
  const text = readFileSync(join(ud!, "en_ewt", "dev.conllu"), "utf8");
  const blocks = text.split("\n\n");
  const trainFile = join(tmp, "train.conllu");
  const devFile = join(tmp, "dev.conllu");
  writeFileSync(trainFile, blocks.slice(0, 300).join("\n\n") + "\n\n");
  writeFileSync(devFile, blocks.slice(300, 400).join("\n\n") + "\n\n");
  const model = join(tmp, "m.tagger");
  const tr = cli([
    "tagger",
    "train",
    "--train",
    trainFile,
    "--dev",
    devFile,
    "--epochs",
    "2",
    "--out",
    model,
  ]);
  assert.equal(tr.status, 0, tr.stderr);
  assert.match(tr.stderr, /epoch 2\/2: .* tokens\/s, .*dev UPOS \d+\.\d\d% XPOS/);
  assert.ok(statSync(model).size > 0);
  const out = join(tmp, "tagged.conllu");
  const tg = cli(["tag", "--model", model, "--input", devFile, "--output", out, "--json"]);
  assert.equal(tg.status, 0, tg.stderr);
  const summary = JSON.parse(tg.stderr.trim());
  assert.equal(summary.sentences, 100);
  assert.ok(summary.tokensPerSecond > 0);
  const viaStdio = cli(["tag", "--model", model, "--input", "-"], readFileSync(devFile, "utf8"));
  assert.equal(viaStdio.status, 0, viaStdio.stderr);
  assert.equal(viaStdio.stdout, readFileSync(out, "utf8"));
  assert.equal([...parseConllu(viaStdio.stdout)].length, 100);
  const bad = cli(["tag", "--input", devFile]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /missing required option --model/);
});
