import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { formatSentence } from "../src/conllu/write.js";
import { VineparseError } from "../src/errors.js";

/** A word row with the given ID, HEAD and (optional) other columns. */
function w(id: string | number, head: string | number, form = "x"): string {
  return [id, form, form, "X", "_", "_", head, head === 0 || head === "0" ? "root" : "dep", "_", "_"].join(
    "\t",
  );
}

/** A good first sentence (lines 1–4 and a blank line 5), so errors are reported further down. */
const GOOD = ["# sent_id = ok", w(1, 2), w(2, 0), w(3, 2), ""].join("\n") + "\n";

/** Expects reading `text` (named t.conllu) to fail with `code` at `line`. */
function expectError(text: string, code: string, line: number, message?: RegExp): void {
  assert.throws(
    () => [...parseConllu(text, "t.conllu")],
    (e: unknown) => {
      assert.ok(e instanceof VineparseError, `not a VineparseError: ${String(e)}`);
      assert.equal(e.code, code, e.message);
      assert.equal(e.file, "t.conllu");
      assert.equal(e.line, line, e.message);
      assert.ok(e.message.startsWith(`t.conllu:${line}: `), e.message);
      if (message !== undefined) assert.match(e.message, message);
      return true;
    },
  );
}

// The second sentence starts at line 6 in every case below.

test("wrong column count", () => {
  expectError(GOOD + ["# c", w(1, 0), "2\tonly\tthree"].join("\n") + "\n", "conllu-columns", 8, /found 3/);
  // Spaces instead of tabs: one column.
  expectError(GOOD + "1 x x X _ _ 0 root _ _\n", "conllu-columns", 6, /found 1/);
});

test("bad ID", () => {
  expectError(GOOD + [w(1, 0), w("x", 1)].join("\n") + "\n", "conllu-id", 7, /bad ID "x"/);
  expectError(GOOD + [w(0, 0)].join("\n") + "\n", "conllu-id", 6);
  expectError(GOOD + [w(1, 0), w("2-", 1)].join("\n") + "\n", "conllu-id", 7);
  expectError(GOOD + [w(1, 0), w("01", 1)].join("\n") + "\n", "conllu-id", 7);
});

test("non-integer HEAD", () => {
  expectError(GOOD + [w(1, 0), w(2, "one")].join("\n") + "\n", "conllu-head", 7, /"one" is not an integer/);
  expectError(GOOD + [w(1, 0), w(2, "-1")].join("\n") + "\n", "conllu-head", 7);
  expectError(GOOD + [w(1, 0), w(2, "1.5")].join("\n") + "\n", "conllu-head", 7);
  // "_" is only allowed when no tree is required.
  expectError(GOOD + [w(1, 0), w(2, "_")].join("\n") + "\n", "conllu-head", 7);
});

test("out-of-range HEAD", () => {
  expectError(GOOD + [w(1, 0), w(2, 3)].join("\n") + "\n", "conllu-head", 7, /out of range/);
});

test("IDs out of order", () => {
  expectError(GOOD + [w(1, 0), w(3, 1), w(2, 1)].join("\n") + "\n", "conllu-id-order", 7, /expected 2/);
  expectError(GOOD + [w(2, 0)].join("\n") + "\n", "conllu-id-order", 6);
  expectError(GOOD + [w(1, 0), w(1, 1)].join("\n") + "\n", "conllu-id-order", 7);
});

test("cycle", () => {
  // 2 → 3 → 2, with 1 the root: reported at a word of the cycle.
  const text = GOOD + ["# c", w(1, 0), w(2, 3), w(3, 2)].join("\n") + "\n";
  assert.throws(
    () => [...parseConllu(text, "t.conllu")],
    (e: unknown) =>
      e instanceof VineparseError && e.code === "conllu-cycle" && (e.line === 8 || e.line === 9),
  );
  // Self-loop.
  expectError(GOOD + [w(1, 0), w(2, 2)].join("\n") + "\n", "conllu-cycle", 7, /own head/);
});

test("no root", () => {
  expectError(GOOD + ["# c", w(1, 2), w(2, 1)].join("\n") + "\n", "conllu-no-root", 6, /no word has HEAD 0/);
});

test("empty sentence (comments only)", () => {
  expectError(GOOD + "# sent_id = empty\n# text =\n\n", "conllu-empty", 6, /no words/);
  // Only a multiword-token range, no words.
  expectError(GOOD + ["1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_"].join("\n") + "\n", "conllu-empty", 6);
});

test("a missing tree is fine when no tree is required, but partial heads are not", () => {
  const text = [w(1, "_"), w(2, "_")].join("\n") + "\n";
  const [r] = [...parseConllu(text, "t.conllu", { requireTree: false })];
  assert.deepEqual(Array.from(r!.heads), [-1, -1, -1]);
  assert.throws(
    () => [...parseConllu([w(1, "_"), w(2, 0)].join("\n") + "\n", "t.conllu", { requireTree: false })],
    (e: unknown) => e instanceof VineparseError && e.code === "conllu-head" && e.line === 1,
  );
});

test("onInvalid: skip drops bad sentences with one warning each and keeps the rest", () => {
  const bad1 = [w(1, 0), "2\tonly"].join("\n"); // lines 6–7
  const bad2 = ["# c", w(1, 2), w(2, 1)].join("\n"); // lines 9–11
  const good2 = ["# sent_id = ok2", w(1, 0)].join("\n"); // lines 13–14
  const text = GOOD + [bad1, "", bad2, "", good2].join("\n") + "\n";
  const warnings: VineparseError[] = [];
  const read = [...parseConllu(text, "t.conllu", { onInvalid: "skip", onWarning: (e) => warnings.push(e) })];
  assert.deepEqual(
    read.map((r) => [r.sentence.lines[0], r.sentence.startLine]),
    [
      ["# sent_id = ok", 1],
      ["# sent_id = ok2", 13],
    ],
  );
  assert.deepEqual(
    warnings.map((e) => [e.code, e.line]),
    [
      ["conllu-columns", 7],
      ["conllu-no-root", 9],
    ],
  );
  // Without onWarning, skipping is silent but still works.
  assert.equal([...parseConllu(text, "t.conllu", { onInvalid: "skip" })].length, 2);
});

test("line numbers count every line, including several blank lines and a missing final newline", () => {
  const text = GOOD + "\n\n" + [w(1, 0), w(2, 5)].join("\n");
  expectError(text, "conllu-head", 9);
});

test("CRLF line endings: a '\\r' line ends a sentence", () => {
  const text = [w(1, 0), w(2, 1)].join("\r\n") + "\r\n\r\n" + [w(1, 0)].join("\r\n") + "\r\n";
  const read = [...parseConllu(text, "t.conllu")];
  assert.equal(read.length, 2);
  assert.deepEqual(Array.from(read[0]!.heads), [-1, 0, 1]);
});

test("a UTF-8 byte-order mark at the start of a file is dropped, also before a comment (issue #13)", () => {
  const row = "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_";
  const rs = [...parseConllu(`\uFEFF${row}\n\n`, "bom.conllu")];
  assert.equal(rs.length, 1);
  assert.equal(rs[0]!.sentence.words[0]![1], "Hi");
  assert.equal(formatSentence(rs[0]!.sentence), `${row}\n\n`);
  // Before a comment line the mark used to be copied to the output, which the official scorer rejects.
  const withComment = `\uFEFF# sent_id = 1\n${row}\n\n`;
  const out = formatSentence([...parseConllu(withComment)][0]!.sentence);
  assert.equal(out, `# sent_id = 1\n${row}\n\n`);
  assert.equal(out.includes("\uFEFF"), false);
});

// Strict checks (issue #13): what UD's validator and the official scorer reject, named by line, when
// reading training or gold data; lenient for input to parse.

test("strict: a second root is an error at its line; lenient mode accepts it", () => {
  const text = GOOD + ["# c", w(1, 0), w(2, 0), w(3, 2)].join("\n") + "\n";
  expectError(text, "conllu-roots", 8, /second word with HEAD 0/);
  assert.equal([...parseConllu(text, "t.conllu", { strict: false })].length, 2);
  assert.equal([...parseConllu(text, "t.conllu", { requireTree: false })].length, 2);
});

test("strict: an empty FORM is an error at its line", () => {
  const text = GOOD + [w(1, 0), w(2, 1, "")].join("\n") + "\n";
  expectError(text, "conllu-form", 7, /empty FORM/);
  assert.equal([...parseConllu(text, "t.conllu", { strict: false })].length, 2);
});

test("strict: a comment inside a sentence is an error at its line", () => {
  const text = GOOD + ["# ok here", w(1, 0), "# not here", w(2, 1)].join("\n") + "\n";
  expectError(text, "conllu-comment", 8, /comment inside a sentence/);
  const lenient = [...parseConllu(text, "t.conllu", { requireTree: false })];
  assert.equal(lenient[1]!.sentence.lines[2], "# not here");
});
