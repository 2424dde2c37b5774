import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { writeModelFile } from "../src/model/model-file.js";
import type { TaggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { trainWordGuesser } from "../src/tagger/word-guesser.js";
import { Rng } from "../src/util/rng.js";
import { principalComponents, readWordVectors, WordVectors } from "../src/vectors/word-vectors.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-guesser-"));

/**
 * Two well-separated groups of word vectors: "n…" words near (+1, 0, …), "v…" words near (−1, 0, …),
 * with small seeded noise in every dimension. `spelling` maps a word to a form that does not reveal
 * its group (for the tagger, whose spelling features would otherwise tell them apart).
 */
function groups(perGroup: number, dim: number): { words: string[]; values: Float64Array } {
  const rng = new Rng(7);
  const words: string[] = [];
  const values: number[] = [];
  for (let g = 0; g < 2; g++) {
    for (let i = 0; i < perGroup; i++) {
      words.push(spelling(`${g === 0 ? "n" : "v"}${i}`));
      for (let j = 0; j < dim; j++)
        values.push((j === 0 ? (g === 0 ? 1 : -1) : 0) + (rng.next() - 0.5) * 0.4);
    }
  }
  return { words, values: Float64Array.from(values) };
}

const n = (i: number) => spelling(`n${i}`);
const v = (i: number) => spelling(`v${i}`);

/** n0…n39 → w0, w2, …; v0…v39 → w1, w3, … shuffled by a fixed permutation of the numbers. */
function spelling(w: string): string {
  const k = Number(w.slice(1)) * 2 + (w[0] === "v" ? 1 : 0);
  return `w${(k * 37) % 80}`;
}

test("word vectors: quantization keeps values within one step, and the table round-trips", () => {
  const { words, values } = groups(20, 4);
  const t = WordVectors.quantize(words, 4, values);
  const x = new Float64Array(4);
  for (let e = 0; e < words.length; e++) {
    t.vector(e, x);
    for (let j = 0; j < 4; j++)
      assert.ok(Math.abs(x[j]! - values[e * 4 + j]!) <= t.scale[j]! / 127 / 2 + 1e-9);
  }
  const path = join(tmp, "v.vpm");
  writeModelFile(path, t.toModelData());
  const back = readWordVectors(path);
  assert.deepEqual(back.words, t.words);
  assert.deepEqual([...back.data], [...t.data]);
  assert.equal(back.get(n(3)), t.get(n(3)));
  assert.equal(back.get("absent"), -1);
});

test("word vectors: text format (GloVe / word2vec), header skipped, words lower-cased, bad lines named", () => {
  const path = join(tmp, "v.txt");
  writeFileSync(path, "3 2\nDog 0.5 -1\ncat 1 0.25\ndog 9 9\n");
  const t = readWordVectors(path);
  assert.deepEqual(t.words, ["dog", "cat"]);
  const v = new Float64Array(2);
  t.vector(t.get("dog"), v);
  assert.ok(Math.abs(v[0]! - 0.5) < 0.01 && Math.abs(v[1]! + 1) < 0.01);
  writeFileSync(path, "dog 0.5 -1\ncat 1\n");
  assert.throws(() => readWordVectors(path), /v\.txt:2: expected a word and 2 numbers, found 2 fields/);
  writeFileSync(path, "dog 0.5 x\n");
  assert.throws(() => readWordVectors(path), /v\.txt:1: "x" is not a number/);
});

test("word guesser: learns separable tags from vectors; training words are guessed without their own label", () => {
  const { words, values } = groups(40, 6);
  const vectors = WordVectors.quantize(words, 6, values);
  // Training text covers half of each group; one "n" word is deliberately labelled as a verb.
  const sentences = [];
  for (let i = 0; i < 20; i++) sentences.push({ words: [n(i), v(i)], tags: [i === 3 ? 1 : 0, 1] });
  const g = trainWordGuesser(vectors, sentences, 2, { epochs: 30 });
  // Unseen words of both groups get their group's tag.
  for (let i = 20; i < 40; i++) {
    assert.equal(g.top[g.get(n(i))], 0, `n${i}`);
    assert.equal(g.top[g.get(v(i))], 1, `v${i}`);
  }
  // The mislabelled training word is guessed by a model that never saw it: it looks like a noun.
  assert.equal(g.top[g.get(n(3))], 0);
  // Atoms: same guess, same atom; unknown words get their own atom.
  assert.equal(g.topAtom(g.get(n(25))), g.topAtom(g.get(n(30))));
  assert.notEqual(g.topAtom(g.get(n(25))), g.topAtom(g.get(v(25))));
  assert.notEqual(g.topAtom(-1), g.topAtom(g.get(n(25))));
});

test("tagger with vectors: guesses tag unseen words, and survive save/load", () => {
  const { words, values } = groups(40, 6);
  const vectors = WordVectors.quantize(words, 6, values);
  // Nouns and verbs with no telling suffix or position: only the vectors tell them apart.
  const rng = new Rng(3);
  const train: TaggedSentence[] = [];
  for (let s = 0; s < 300; s++) {
    const w: string[] = [];
    const u: string[] = [];
    for (let k = 0; k < 4; k++) {
      const verb = rng.int(2) === 0;
      w.push(spelling(`${verb ? "v" : "n"}${rng.int(20)}`));
      u.push(verb ? "VERB" : "NOUN");
    }
    train.push({ words: w, upos: u, xpos: u.map((x) => x.slice(0, 2)) });
  }
  const unseen = ["n30", "v31", "v22", "n27", "v39", "n21"].map(spelling);
  const expected = ["NOUN", "VERB", "VERB", "NOUN", "VERB", "NOUN"];
  // (No tag dictionary: it would fix the tags of these frequent training words, and the tagger would
  // never learn from their features.)
  const plain = Tagger.train(train, { epochs: 5, dictionary: false });
  const withVectors = Tagger.train(train, { epochs: 5, dictionary: false, vectors });
  assert.deepEqual(withVectors.tag(unseen).upos, expected);
  assert.notDeepEqual(plain.tag(unseen).upos, expected);
  const path = join(tmp, "t.vpm");
  withVectors.save(path);
  const back = Tagger.load(path);
  assert.deepEqual(back.tag(unseen).upos, expected);
});

test("principal components: the first axis is the direction of largest variance; distances are kept", () => {
  // Points spread along (1, 1, 0) with small noise in the other directions.
  const rng = new Rng(5);
  const n = 200;
  const v = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const t = (rng.next() - 0.5) * 10;
    v[i * 3] = t + (rng.next() - 0.5) * 0.1;
    v[i * 3 + 1] = t + (rng.next() - 0.5) * 0.1;
    v[i * 3 + 2] = (rng.next() - 0.5) * 0.5;
  }
  const p = principalComponents(v, n, 3, 3);
  let var0 = 0;
  let var2 = 0;
  for (let i = 0; i < n; i++) {
    var0 += p[i * 3]! ** 2;
    var2 += p[i * 3 + 2]! ** 2;
  }
  assert.ok(var0 > 100 * var2);
  // A rotation: distances between points are unchanged.
  const d = (a: ArrayLike<number>, i: number, j: number) =>
    Math.hypot(a[i * 3]! - a[j * 3]!, a[i * 3 + 1]! - a[j * 3 + 1]!, a[i * 3 + 2]! - a[j * 3 + 2]!);
  for (const [i, j] of [
    [0, 1],
    [5, 77],
    [150, 3],
  ] as const)
    assert.ok(Math.abs(d(v, i, j) - d(p, i, j)) < 1e-4);
});
