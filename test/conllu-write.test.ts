import assert from "node:assert/strict";
import { test } from "node:test";
import { readConlluFile } from "../src/conllu/read.js";
import { DEPREL, HEAD } from "../src/conllu/types.js";
import { formatSentence } from "../src/conllu/write.js";
import { fixture } from "./helpers.js";

test("annotating heads and relations changes only those columns of basic words", () => {
  const [, s2] = readConlluFile(fixture("small.conllu"));
  const { sentence } = s2!;
  const n = sentence.words.length;
  // A flat tree: every word attached to word 4 ("know"), which attaches to the root.
  const heads = Int32Array.from({ length: n + 1 }, (_, i) => (i === 0 ? -1 : i === 4 ? 0 : 4));
  const rels = Array.from({ length: n + 1 }, (_, i) => (i === 4 ? "root" : "dep"));
  const out = formatSentence(sentence, { heads, deprels: rels });
  assert.ok(out.endsWith("\n\n"));
  const before = sentence.lines;
  const after = out.slice(0, -2).split("\n");
  assert.equal(after.length, before.length);
  for (let k = 0; k < before.length; k++) {
    const b = before[k]!;
    const a = after[k]!;
    const word = sentence.wordLine.indexOf(k);
    if (word < 0) {
      // Comments, the multiword token "2-3" and the empty node "4.1" are untouched.
      assert.equal(a, b);
      continue;
    }
    const bc = b.split("\t");
    const ac = a.split("\t");
    assert.equal(ac[HEAD], String(heads[word + 1]));
    assert.equal(ac[DEPREL], rels[word + 1]);
    bc[HEAD] = ac[HEAD]!;
    bc[DEPREL] = ac[DEPREL]!;
    assert.deepEqual(ac, bc, "only HEAD and DEPREL change");
  }
  assert.ok(after.includes("2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_"));
  assert.ok(after.some((l) => l.startsWith("4.1\tknow\t")));
  assert.ok(after[0] === "# sent_id = s2" && after[1] === "# text = I don't know, really.");
  // The source block itself is not modified.
  assert.equal(formatSentence(sentence), before.join("\n") + "\n\n");
});

test("annotating tags changes UPOS/XPOS only; no annotation is byte-identical", () => {
  const [s1] = readConlluFile(fixture("small.conllu"));
  const { sentence } = s1!;
  const n = sentence.words.length;
  const upos = Array.from({ length: n + 1 }, () => "NOUN");
  const out = formatSentence(sentence, { upos, xpos: upos });
  const rows = out
    .trimEnd()
    .split("\n")
    .filter((l) => !l.startsWith("#"));
  for (const r of rows) {
    const c = r.split("\t");
    assert.equal(c[3], "NOUN");
    assert.equal(c[4], "NOUN");
  }
  assert.equal(formatSentence(sentence), sentence.lines.join("\n") + "\n\n");
});
