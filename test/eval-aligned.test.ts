import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { evaluateAligned } from "../src/eval/aligned-files.js";
import { VineparseError } from "../src/errors.js";
import { fixture } from "./helpers.js";
import { runCli } from "./toy-models.js";

const dir = mkdtempSync(join(tmpdir(), "vp-eval-aligned-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const row = (id: number, form: string, upos: string, head: number, rel: string, misc = "_") =>
  `${id}\t${form}\t${form.toLowerCase()}\t${upos}\t_\t_\t${head}\t${rel}\t_\t${misc}`;

// Two gold sentences; the system reads them as one and leaves "barks." whole.
const GOLD = [
  "# text = The dog barks.",
  row(1, "The", "DET", 2, "det"),
  row(2, "dog", "NOUN", 3, "nsubj"),
  row(3, "barks", "VERB", 0, "root", "SpaceAfter=No"),
  row(4, ".", "PUNCT", 3, "punct"),
  "",
  "# text = It runs.",
  row(1, "It", "PRON", 2, "nsubj"),
  row(2, "runs", "VERB", 0, "root", "SpaceAfter=No"),
  row(3, ".", "PUNCT", 2, "punct"),
  "",
  "",
].join("\n");
const SYSTEM = [
  "# text = The dog barks. It runs.",
  row(1, "The", "DET", 2, "det"),
  row(2, "dog", "NOUN", 3, "nsubj"),
  row(3, "barks.", "VERB", 0, "root"),
  row(4, "It", "PRON", 5, "obj"),
  row(5, "runs", "VERB", 3, "conj", "SpaceAfter=No"),
  row(6, ".", "PUNCT", 5, "punct"),
  "",
  "",
].join("\n");

const read = (text: string, name: string) => [...parseConllu(text, name, { strict: false })];

test("aligned scores, worked by hand", () => {
  const s = evaluateAligned(read(GOLD, "gold"), read(SYSTEM, "system"));
  // Tokens = words: The, dog, It, runs and the last "." match (5 of 6 system, 7 gold).
  assert.deepEqual([s.words.correct, s.words.system, s.words.gold], [5, 6, 7]);
  assert.equal(s.tokens.correct, 5);
  assert.equal(Math.round(s.words.f1 * 100) / 100, 76.92);
  // No sentence matches.
  assert.deepEqual([s.sentences.correct, s.sentences.system, s.sentences.gold], [0, 1, 2]);
  // Heads: The→dog, It→runs and .→runs are right (dog's gold head "barks" aligns to nothing, runs is
  // no longer a root); LAS loses "It" (obj for nsubj).
  assert.equal(s.uasCorrect, 3);
  assert.equal(s.lasCorrect, 2);
  assert.equal(Math.round(s.uasF1 * 100) / 100, 46.15);
  assert.equal(Math.round(s.lasF1 * 100) / 100, 30.77);
  // Gold words but punctuation: The, dog, barks, It, runs; right: The, It.
  assert.equal(s.uasNoPunct, 40);
  // UPOS and lemmas of the 5 aligned words are right.
  assert.equal(Math.round(s.uposF1! * 100) / 100, 76.92);
  assert.equal(Math.round(s.lemmasF1! * 100) / 100, 76.92);
  assert.equal(s.chars, "Thedogbarks.Itruns.".length);
});

test("a gold file against itself scores 100; a gold file without lemmas gets no lemma score", () => {
  const g = read(GOLD, "gold");
  const s = evaluateAligned(g, g);
  for (const v of [s.tokens.f1, s.words.f1, s.sentences.f1, s.uasF1, s.lasF1, s.uposF1, s.lemmasF1])
    assert.equal(v, 100);
  const noLemmas = GOLD.split("\n")
    .map((l) => l.replace(/^(\d+\t[^\t]*\t)[^\t]*/, "$1_"))
    .join("\n");
  assert.equal(evaluateAligned(read(noLemmas, "gold"), read(SYSTEM, "system")).lemmasF1, null);
});

test("texts that differ: one line naming the system file's line where they part", () => {
  const other = SYSTEM.replace("# text = The dog barks. It runs.", "# text = The dog barks. It ran.").replace(
    "\truns\t",
    "\tran\t",
  );
  assert.throws(
    () => evaluateAligned(read(GOLD, "gold"), read(other, "system")),
    (e: unknown) =>
      e instanceof VineparseError &&
      /^system:1: the text differs from the gold text \(gold:7\) at its character 16/.test(e.message) &&
      /"an\." against "uns\."/.test(e.message),
  );
});

test("an empty file on either side is a mismatch, not a crash", () => {
  assert.throws(() => evaluateAligned([], read(SYSTEM, "system")), /which is empty\) at its character 1/);
  assert.throws(() => evaluateAligned(read(GOLD, "gold"), []), /: system: .*the end against "Thedogbarks\./);
  const none = evaluateAligned([], []);
  assert.equal(none.words.f1, 0);
});

test("CLI: eval --aligned prints the table and --json; mismatches are one line", () => {
  const gold = join(dir, "gold.conllu");
  const system = join(dir, "system.conllu");
  writeFileSync(gold, GOLD);
  writeFileSync(system, SYSTEM);
  const j = runCli(["eval", "--gold", gold, "--system", system, "--aligned", "--json"]);
  assert.equal(j.status, 0, j.stderr);
  const o = JSON.parse(j.stdout) as { words: { f1: number }; uas: { precision: number; recall: number } };
  assert.equal(o.words.f1, 76.92);
  assert.deepEqual([o.uas.precision, o.uas.recall], [50, 42.86]);
  const t = runCli(["eval", "--gold", gold, "--system", system, "--aligned"]);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /sentences\s+0\.00\s+0\.00\s+0\.00/);
  assert.match(t.stdout, /UAS\s+50\.00\s+42\.86\s+46\.15/);
  // Without --aligned the words must be the same.
  const plain = runCli(["eval", "--gold", gold, "--system", system]);
  assert.equal(plain.status, 1);
  const bad = runCli(["eval", "--gold", fixture("small.conllu"), "--system", system, "--aligned"]);
  assert.equal(bad.status, 1);
  assert.equal(bad.stderr.trim().split("\n").length, 1, bad.stderr);
  assert.match(bad.stderr, /the text differs from the gold text/);
});

test("tokenizer text: the raw text eval --aligned scores against, documents apart by a blank line", () => {
  const gold = join(dir, "docs.conllu");
  writeFileSync(gold, `# newdoc\n${GOLD.replace("# text = It runs.", "# newdoc\n# text = It runs.")}`);
  const t = runCli(["tokenizer", "text", "--gold", gold]);
  assert.equal(t.status, 0, t.stderr);
  assert.equal(t.stdout, "The dog barks.\n\nIt runs.\n");
  const one = join(dir, "one.conllu");
  writeFileSync(one, GOLD);
  assert.equal(runCli(["tokenizer", "text", "--gold", one]).stdout, "The dog barks. It runs.\n");
  const none = runCli(["tokenizer", "text", "--gold", one, "--spacing", "none"]);
  assert.equal(none.stdout, "The dog barks.It runs.\n");
  const out = join(dir, "text.txt");
  assert.equal(runCli(["tokenizer", "text", "--gold", one, "--out", out]).status, 0);
  assert.equal(readFileSync(out, "utf8"), "The dog barks. It runs.\n");
});
