import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { segmentText } from "../src/pipeline/sentence-split.js";
import {
  countMatches,
  evaluateFull,
  evaluateTokenization,
  goldSentences,
  spanScore,
} from "../src/pipeline/token-eval.js";
import { tokenize } from "../src/pipeline/tokenize.js";
import { fixture, sharedUd } from "./helpers.js";

function gold(path: string) {
  return goldSentences(parseConllu(readFileSync(path, "utf8"), path, { requireTree: false }));
}

test("gold spans come from # text, including multiword tokens", () => {
  const g = gold(fixture("tokenize-sample.conllu"));
  assert.equal(g.length, 3);
  assert.equal(g[0]!.newdoc, true);
  assert.equal(g[2]!.newpar, true);
  assert.equal(g[1]!.newpar, false);
  const s = g[0]!;
  const forms = [];
  for (let i = 0; i < s.words.length; i += 2) forms.push(s.text.slice(s.words[i], s.words[i + 1]));
  assert.deepEqual(forms, ["I", "ca", "n't", "go", ",", "Dr.", "Smith", "."]);
  assert.equal(s.tokens.length / 2, 7);
  assert.equal(s.text.slice(s.tokens[2], s.tokens[3]), "can't");
});

test("span matching ignores white space differences", () => {
  // "a b" vs "ab": span of "b" is [1,2) in the stripped text in both
  assert.equal(countMatches("a b", [0, 1, 2, 3], "ab", [0, 1, 1, 2]), 2);
  assert.equal(countMatches("ab", [0, 2], "ab", [0, 1, 1, 2]), 0);
  const sc = spanScore(10, 8, 6);
  assert.equal(sc.precision, 75);
  assert.equal(sc.recall, 60);
  assert.ok(Math.abs(sc.f1 - 66.6667) < 1e-3);
});

test("tokenizer reproduces the hand-made fixture exactly (modes a and b)", () => {
  const g = gold(fixture("tokenize-sample.conllu"));
  const a = evaluateTokenization(g);
  assert.equal(a.words.f1, 100);
  assert.equal(a.tokens.f1, 100);
  const b = evaluateFull(g, { paragraphJoin: "\n" });
  assert.equal(b.words.f1, 100);
  assert.equal(b.sentences!.f1, 100);
});

const ud = sharedUd();

test("en_ewt dev: word F1 ≥ 97.5 (mode a), full mode and speed", { skip: ud === null }, () => {
  const path = join(ud!, "en_ewt", "dev.conllu");
  const g = gold(path);
  const a = evaluateTokenization(g);
  assert.ok(a.words.f1 >= 97.5, `word F1 ${a.words.f1.toFixed(2)}`);
  assert.ok(a.tokens.f1 >= 97.5, `token F1 ${a.tokens.f1.toFixed(2)}`);
  const b = evaluateFull(g, { paragraphJoin: "\n", newlineBoundary: true });
  assert.ok(b.words.f1 >= 97.5, `full-mode word F1 ${b.words.f1.toFixed(2)}`);
  assert.ok(b.sentences!.f1 >= 80, `sentence F1 ${b.sentences!.f1.toFixed(2)}`);
  // throughput on the whole dev text (after warm-up)
  const text = g.map((s) => s.text).join("\n");
  for (let i = 0; i < 3; i++) tokenize(text);
  const reps = 5;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) segmentText(text);
  const secs = (performance.now() - t0) / 1000;
  const cps = (reps * text.length) / secs;
  console.log(
    `en_ewt dev: words F1 ${a.words.f1.toFixed(2)} (a), ${b.words.f1.toFixed(2)} (b); sentences F1 ${b.sentences!.f1.toFixed(2)}; ${(cps / 1e6).toFixed(2)} M chars/s`,
  );
  assert.ok(cps >= 1e6, `${cps.toFixed(0)} chars/s`);
});
