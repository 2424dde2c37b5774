import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { readConlluFile } from "../src/conllu/read.js";
import { loadCorpus } from "../src/corpus/load.js";
import { VineparseError } from "../src/errors.js";
import { AttachmentEvaluator, evaluateFiles } from "../src/eval/attachment.js";
import { round } from "../src/eval/percent.js";
import { fixture } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-eval-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `text` to a temporary file and returns its path. */
function tmpFile(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

test("a file scored against itself is 100 everywhere", () => {
  const s = evaluateFiles(fixture("small.conllu"), fixture("small.conllu"));
  assert.equal(s.sentences, 3);
  assert.equal(s.tokens, 21);
  assert.equal(s.tokensNoPunct, 17);
  for (const k of [
    "uas",
    "las",
    "uasNoPunct",
    "lasNoPunct",
    "exactMatch",
    "labelledExactMatch",
    "exactMatchNoPunct",
    "labelledExactMatchNoPunct",
  ] as const) {
    assert.equal(s[k], 100, k);
  }
});

test("hand-counted scores of a copy with shifted heads and a changed label", () => {
  // small-system.conllu differs from small.conllu in: s1 "cat" head 3→4, s1 "down" advmod→obl,
  // s2 "," (PUNCT) head 6→4. 21 tokens, 4 of them PUNCT.
  const s = evaluateFiles(fixture("small.conllu"), fixture("small-system.conllu"));
  assert.equal(s.sentences, 3);
  assert.equal(s.tokens, 21);
  assert.equal(s.tokensNoPunct, 17);
  assert.equal(round(s.uas), 90.48); // 19/21
  assert.equal(round(s.las), 85.71); // 18/21
  assert.equal(round(s.uasNoPunct), 94.12); // 16/17
  assert.equal(round(s.lasNoPunct), 88.24); // 15/17
  assert.equal(round(s.exactMatch), 33.33); // only s3
  assert.equal(round(s.labelledExactMatch), 33.33);
  assert.equal(round(s.exactMatchNoPunct), 66.67); // s2 and s3
  assert.equal(round(s.labelledExactMatchNoPunct), 66.67);
});

test("AttachmentEvaluator on Sentence ids agrees with the file evaluation", () => {
  const gold = loadCorpus(fixture("small.conllu"));
  const sys = loadCorpus(fixture("small-system.conllu"), gold.vocab);
  const ev = new AttachmentEvaluator({ punctUpos: gold.vocab.upos.get("PUNCT") });
  for (let i = 0; i < gold.sentences.length; i++) {
    ev.addSentence(gold.sentences[i]!, sys.sentences[i]!.head, sys.sentences[i]!.deprel);
  }
  assert.deepEqual(ev.scores(), evaluateFiles(fixture("small.conllu"), fixture("small-system.conllu")));
  const c = ev.counts;
  assert.equal(c.headCorrect, 19);
  assert.equal(c.labelledCorrect, 18);
  assert.equal(c.headCorrectNoPunct, 16);
  assert.equal(c.labelledCorrectNoPunct, 15);
});

test("incremental use: add with strings, merge, reset, unlabelled system", () => {
  const ev = new AttachmentEvaluator();
  // 3 words, word 3 punctuation; the system gets word 3's head wrong.
  ev.add(
    3,
    [-1, 2, 0, 2],
    ["", "det", "root", "obj"],
    [-1, 2, 0, 1],
    ["", "det", "root", "obj"],
    [0, 0, 0, 1],
  );
  let s = ev.scores();
  assert.equal(round(s.uas), 66.67);
  assert.equal(s.uasNoPunct, 100);
  assert.equal(s.exactMatch, 0);
  assert.equal(s.exactMatchNoPunct, 100);
  const other = new AttachmentEvaluator();
  other.add(2, new Int32Array([-1, 0, 1]), new Int32Array([0, 1, 2]), new Int32Array([-1, 0, 1]), null);
  s = other.scores();
  assert.equal(s.uas, 100);
  assert.equal(s.las, 0);
  assert.equal(s.exactMatch, 100);
  assert.equal(s.labelledExactMatch, 0);
  ev.merge(other);
  s = ev.scores();
  assert.equal(s.sentences, 2);
  assert.equal(s.tokens, 5);
  assert.equal(s.uas, 80);
  assert.equal(s.las, 40);
  ev.reset();
  s = ev.scores();
  assert.equal(s.sentences, 0);
  assert.equal(s.uas, 0, "an empty evaluation scores 0, not NaN");
});

function expectMismatch(fn: () => unknown, file: string, line: number, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof VineparseError, String(e));
    assert.equal(e.code, "eval-mismatch");
    assert.equal(e.file, file);
    assert.equal(e.line, line);
    assert.match(e.message, pattern);
    assert.ok(!e.message.includes("\n"), "one line");
    return true;
  });
}

test("mismatched inputs fail at the first mismatching sentence with file and line", () => {
  const gold = fixture("small.conllu");
  const text = readFileSync(gold, "utf8");
  const blocks = text.trimEnd().split("\n\n");
  // System missing the last sentence: reported at the gold sentence without counterpart (line 22).
  const short = tmpFile("short.conllu", blocks.slice(0, 2).join("\n\n") + "\n\n");
  expectMismatch(() => evaluateFiles(gold, short), gold, 22, /sentence 3 has no counterpart/);
  // System with an extra sentence: reported in the system file.
  const long = tmpFile("long.conllu", text + blocks[0] + "\n\n");
  expectMismatch(() => evaluateFiles(gold, long), long, 34, /sentence 4 has no counterpart/);
  // A word dropped from sentence 2 (its last word, ".").
  const lines = text.split("\n");
  const dropped = lines.filter((_, i) => i !== 19); // line 20: `7 . . PUNCT`
  const fewer = tmpFile("fewer.conllu", dropped.join("\n"));
  expectMismatch(() => evaluateFiles(gold, fewer), fewer, 10, /sentence 2 has 6 words .* has 7/);
  // A changed form in sentence 3, word 7 (line 30).
  const changed = lines.slice();
  changed[29] = changed[29]!.replace("\tissue\t", "\tmatter\t");
  const forms = tmpFile("forms.conllu", changed.join("\n"));
  expectMismatch(() => evaluateFiles(gold, forms), forms, 30, /sentence 3, word 7 is "matter" .* "issue"/);
});

test("a missing file is a VineparseError naming it", () => {
  assert.throws(
    () => evaluateFiles(fixture("small.conllu"), join(tmp, "absent.conllu")),
    (e: unknown) => e instanceof VineparseError && e.code === "no-file" && /absent\.conllu/.test(e.message),
  );
});

test("the fixture is what the hand counts assume", () => {
  const rs = readConlluFile(fixture("small.conllu"));
  assert.deepEqual(
    rs.map((r) => r.sentence.startLine),
    [1, 10, 22],
  );
  assert.equal(rs[2]!.sentence.words[6]![1], "issue");
});
