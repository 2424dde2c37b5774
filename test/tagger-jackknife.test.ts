import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { type FoldInfo, jackknife, jackknifeFolds, jackknifeParallel } from "../src/tagger/jackknife.js";
import type { TaggedSentence } from "../src/tagger/tagged-sentence.js";
import { WordVectors } from "../src/vectors/word-vectors.js";
import { repoRoot } from "./helpers.js";
import { toyCorpus } from "./toy-tagged.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-tagger-jk-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("fold assignment: contiguous, balanced, every fold used", () => {
  for (const [n, k] of [
    [10, 10],
    [23, 10],
    [100, 3],
    [5, 2],
  ] as const) {
    const f = jackknifeFolds(n, k);
    const sizes = new Array(k).fill(0);
    for (let i = 0; i < n; i++) {
      sizes[f[i]!]++;
      if (i > 0) assert.ok(f[i]! === f[i - 1]! || f[i]! === f[i - 1]! + 1, "contiguous");
    }
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${n}/${k}: ${sizes}`);
  }
  assert.throws(() => jackknifeFolds(10, 1), RangeError);
});

/** Sentences whose only word is a nonce word unique to the sentence, tagged X or Y by sentence index. */
function nonceCorpus(n: number): TaggedSentence[] {
  return Array.from({ length: n }, (_, i) => ({
    words: [`w${i}`, "and", `v${i}`],
    upos: [i % 2 === 0 ? "X" : "SYM", "CCONJ", "NOUN"],
    xpos: [i % 2 === 0 ? "FW" : "SYM", "CC", "NN"],
  }));
}

test("jackknife: each fold is tagged by a model that never saw it", () => {
  const data = nonceCorpus(40);
  const seen: FoldInfo[] = [];
  const out = jackknife(data, 4, { epochs: 2, onFold: (f) => seen.push(f) });
  assert.equal(seen.length, 4);
  const tested = new Set<number>();
  const fold = jackknifeFolds(data.length, 4);
  for (const f of seen) {
    const train = new Set(f.train);
    for (const i of f.test) {
      assert.equal(fold[i], f.fold);
      assert.ok(!train.has(i), `sentence ${i} is both trained on and tagged in fold ${f.fold}`);
      tested.add(i);
    }
    for (const i of f.train) assert.notEqual(fold[i], f.fold);
    assert.equal(f.train.length + f.test.length, data.length);
  }
  assert.equal(tested.size, data.length);
  assert.equal(out.length, data.length);
  for (let i = 0; i < data.length; i++) assert.equal(out[i]!.upos.length, 3);
});

test("parallel jack-knife: worker threads give exactly the sequential tags (with and without vectors)", async () => {
  const data = toyCorpus(120, 11);
  const vectors = WordVectors.quantize(
    ["the", "a", "walkers", "talked"],
    2,
    Float64Array.from([1, 0, 0.9, 0.1, -1, 0.2, 0.1, -1]),
  );
  for (const v of [null, vectors]) {
    const sequential = jackknife(data, 5, { epochs: 2, vectors: v });
    const done: number[] = [];
    const parallel = await jackknifeParallel(data, 5, {
      epochs: 2,
      vectors: v,
      threads: 2,
      onFoldDone: (f) => done.push(f),
    });
    assert.deepEqual(parallel, sequential);
    assert.deepEqual(done.sort(), [0, 1, 2, 3, 4]);
  }
});

test("tag --jackknife changes only the UPOS and XPOS columns", () => {
  const data = nonceCorpus(30);
  let text = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC\n";
  data.forEach((s, i) => {
    text += `# sent_id = ${i}\n`;
    if (i === 3) text += `1-2\t${s.words[0]}and\t_\t_\t_\t_\t_\t_\t_\t_\n`;
    s.words.forEach((w, j) => {
      text += `${j + 1}\t${w}\tlemma\t${s.upos[j]}\t${s.xpos[j]}\tF=${j}\t${j === 0 ? 0 : 1}\t${j === 0 ? "root" : "dep"}\t_\tM=${i}\n`;
    });
    text += "\n";
  });
  const input = join(tmp, "in.conllu");
  const output = join(tmp, "out.conllu");
  writeFileSync(input, text);
  const r = spawnSync(
    process.execPath,
    [
      join(repoRoot, "dist", "src", "cli", "main.js"),
      "tag",
      "--jackknife",
      "3",
      "--epochs",
      "2",
      "--input",
      input,
      "--output",
      output,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /jack-knifed 30 sentences, 90 tokens with 3 folds/);
  const inLines = text.split("\n");
  const outLines = readFileSync(output, "utf8").split("\n");
  assert.equal(outLines.length, inLines.length);
  for (let i = 0; i < inLines.length; i++) {
    const a = inLines[i]!.split("\t");
    const b = outLines[i]!.split("\t");
    assert.equal(b.length, a.length);
    if (/^\d+\t/.test(inLines[i]!)) {
      a[3] = b[3]!;
      a[4] = b[4]!;
    }
    assert.deepEqual(b, a, `line ${i + 1}`);
  }
  assert.equal([...parseConllu(readFileSync(output, "utf8"))].length, 30);
});
