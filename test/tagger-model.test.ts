import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { readConlluFile } from "../src/conllu/read.js";
import { VineparseError } from "../src/errors.js";
import { writeModelFile } from "../src/model/model-file.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { SparseWeights } from "../src/tagger/sparse-weights.js";
import { Tagger } from "../src/tagger/tagger.js";
import { fixture } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-tagger-model-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const sentences = readConlluFile(fixture("small.conllu")).map((r) => r.sentence);
const train = sentences.map(taggedSentence);
const probes = [
  ["The", "hearing", "sat", "down", "."],
  ["I", "know", "the", "cat", ",", "really", "."],
  ["Unseen", "words-like", "these", "1984", "ещё", "字"],
  [],
];

for (const mode of ["joint", "separate"] as const) {
  test(`save → load gives identical predictions (${mode})`, () => {
    const tagger = Tagger.train(train, { epochs: 5, seed: 2, mode });
    const path = join(tmp, `${mode}.model`);
    tagger.save(path);
    const back = Tagger.load(path);
    assert.equal(back.mode, mode);
    for (const p of [...probes, ...train.map((s) => s.words)]) assert.deepEqual(back.tag(p), tagger.tag(p));
    for (const s of sentences) assert.deepEqual(back.annotate(s), tagger.annotate(s));
  });
}

test("tagSentence and annotate agree with tag on the sentence's words", () => {
  const tagger = Tagger.train(train, { epochs: 5, seed: 2 });
  for (const s of sentences) {
    const r = tagger.tagSentence(s);
    assert.deepEqual(r, tagger.tag(s.words.map((c) => c[1]!)));
    const a = tagger.annotate(s);
    assert.deepEqual(Array.from(a.upos!).slice(1), r.upos);
    assert.deepEqual(Array.from(a.xpos!).slice(1), r.xpos);
  }
});

test("loading a non-tagger model or a missing file fails with a VineparseError", () => {
  const path = join(tmp, "other.model");
  writeModelFile(path, { kind: "parser", meta: {}, arrays: {} });
  assert.throws(
    () => Tagger.load(path),
    (e) => e instanceof VineparseError && e.code === "model-kind",
  );
  assert.throws(
    () => Tagger.load(join(tmp, "nope.model")),
    (e) => e instanceof VineparseError && e.code === "no-file",
  );
  const wrong = join(tmp, "old.model");
  writeModelFile(wrong, { kind: "tagger", meta: { version: 999 }, arrays: {} });
  assert.throws(
    () => Tagger.load(wrong),
    (e) => e instanceof VineparseError && e.code === "model-version",
  );
});

test("sparse weights add exactly what their dense rows hold, whatever the number of features", () => {
  const T = 7;
  const keys = Int32Array.from({ length: 300 }, (_, r) => 1000 + 17 * r);
  const dense = new Float32Array(keys.length * T);
  for (let r = 0; r < keys.length; r++)
    for (let c = 0; c < T; c++) if ((r * 31 + c * 7) % 5 === 0) dense[r * T + c] = ((r * 13 + c) % 11) - 5.25;
  const w = SparseWeights.fromDense(keys, dense, T);
  // Lists of up to 300 features, some absent from the weights (key 1), some repeated.
  for (const length of [0, 1, 5, 64, 129, 300]) {
    const feats = Int32Array.from({ length: length + 2 }, (_, k) =>
      k === 0 || k === length + 1 ? 99 : k % 9 === 4 ? 1 : keys[(k * 37) % keys.length]!,
    );
    const got = new Float32Array(T).fill(0.5);
    w.addScores(feats, 1, length + 1, got);
    const want = new Float32Array(T).fill(0.5);
    for (let k = 1; k <= length; k++) {
      const r = keys.indexOf(feats[k]!);
      if (r >= 0) for (let c = 0; c < T; c++) if (dense[r * T + c] !== 0) want[c]! += dense[r * T + c]!;
    }
    assert.deepEqual(got, want, `${length} features`);
  }
});

test("sparse weights find rows whose keys collide in the table, and give back their arrays in row order", () => {
  const T = 5;
  // Keys that share their low bits (multiples of 2^16) all start probing at slot 0 and fill a run
  // of slots; an absent one (5 · 2^16) probes the whole run. Rows of one to three entries, one empty.
  const keys = Int32Array.from([65536, 7, 131072, 196608, 9, 262144]);
  const rowStart = Int32Array.from([0, 1, 3, 3, 6, 7, 9]);
  const cls = Uint16Array.from([0, 1, 4, 0, 2, 3, 4, 1, 2]);
  const value = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const w = new SparseWeights(T, keys, rowStart, cls, value);
  assert.equal(w.rows, 5);
  const score = (feats: number[]) => {
    const out = new Float32Array(T);
    w.score(Int32Array.from(feats), 0, feats.length, out);
    return Array.from(out);
  };
  assert.deepEqual(score([65536]), [1, 0, 0, 0, 0]);
  assert.deepEqual(score([7, 196608]), [4, 2, 5, 6, 3]);
  assert.deepEqual(score([131072, 5, 262144, 9]), [0, 8, 9, 0, 7]);
  assert.deepEqual(score([3, 327680]), [0, 0, 0, 0, 0]);
  // The empty row is gone; the others come back in entry order.
  const a = w.toArrays();
  assert.deepEqual(Array.from(a.keys), [65536, 7, 196608, 9, 262144]);
  assert.deepEqual(Array.from(a.rowLength), [1, 2, 3, 1, 2]);
  assert.equal(a.cls, cls);
  const back = SparseWeights.fromArrays(T, a.keys, a.rowLength, a.cls, a.value);
  for (const f of [[65536], [7, 196608], [131072, 5, 262144, 9]]) {
    const x = new Float32Array(T);
    back.score(Int32Array.from(f), 0, f.length, x);
    assert.deepEqual(Array.from(x), score(f));
  }
});

test("sparse weights refuse a duplicate or zero feature key and rows that do not fit their entries", () => {
  const cls = Uint16Array.from([0, 1]);
  const value = Float32Array.from([1, 2]);
  const rows = Int32Array.from([0, 1, 2]);
  assert.throws(() => new SparseWeights(2, Int32Array.from([5, 5]), rows, cls, value), /duplicate/);
  assert.throws(() => new SparseWeights(2, Int32Array.from([0, 5]), rows, cls, value), /reserved/);
  assert.throws(
    () => new SparseWeights(2, Int32Array.from([4, 5]), Int32Array.from([0, 1, 3]), cls, value),
    /inconsistent/,
  );
  assert.throws(
    () => SparseWeights.fromArrays(2, Int32Array.from([4, 5]), Uint16Array.from([1, 2]), cls, value),
    /inconsistent/,
  );
});
