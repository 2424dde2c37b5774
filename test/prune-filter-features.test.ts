import assert from "node:assert/strict";
import { test } from "node:test";
import { type Sentence, sentenceFromWords } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import {
  ARC_TEMPLATES,
  ArcFilterFeatures,
  arcFeatureIndex,
  coarseFeatureIndex,
  distanceBucket,
  MAX_ARC_FILTER_FEATURES,
  spanValue,
} from "../src/prune/arc-filter-features.js";
import { PruningCascade } from "../src/prune/cascade.js";
import {
  prefixAtom,
  prefixOf,
  shapeAtom,
  suffixAtom,
  suffixOf,
  wordAtom,
  wordShape,
} from "../src/prune/form-atoms.js";
import type { PruneInput } from "../src/prune/pruner.js";
import { TagMap } from "../src/prune/tag-map.js";
import {
  MAX_TOKEN_FEATURES,
  TOKEN_CONJOINED,
  TOKEN_TEMPLATES,
  tokenFeatureIndex,
  TokenRoleFeatures,
} from "../src/prune/token-role-features.js";

const vocab = new Vocabularies();
const runner = new PruningCascade();
const input = (s: Sentence): PruneInput => runner.prepare(s, vocab);

test("word shape, 4-letter prefix and suffix", () => {
  assert.equal(wordShape("McDonald's"), "AaAa'a");
  assert.equal(wordShape("U.S.A."), "A.A.A.");
  assert.equal(wordShape("1999-2000"), "0-0");
  assert.equal(wordShape("Ärger"), "Aa");
  assert.equal(prefixOf("Running"), "runn");
  assert.equal(suffixOf("Running"), "ning");
  assert.equal(prefixOf("Up"), "up");
  assert.equal(suffixOf("Up"), "up");
});

test("Table 2: the token features of a hand-worked sentence", () => {
  const s = sentenceFromWords(
    ["The", "dog", "barked", "."],
    ["DET", "NOUN", "VERB", "PUNCT"],
    ["DT", "NN", "VBD", "."],
    vocab,
  );
  const tags = new TagMap(["DT", "NN", "VBD", "."], "xpos");
  const bits = 24;
  const fx = new TokenRoleFeatures(tags, bits);
  fx.prepare(input(s));
  const [DT, NN, VBD, P] = [1, 2, 3, 4];
  const ROOT = 0;
  const END = tags.size; // the end-of-sentence tag
  const T = TOKEN_TEMPLATES;
  const dog = wordAtom("dog");
  // The base features of "dog" (i = 2, n = 4), worked out by hand from Table 2.
  const base: [number, number, number, string][] = [
    [T.tag, NN, 0, "tag[i]=NN"],
    [T.tagPrev, NN, DT, "tag[i]=NN tag[i-1]=DT"],
    [T.tagNext, NN, VBD, "tag[i]=NN tag[i+1]=VBD"],
    [T.prevNext, DT, VBD, "tag[i-1]=DT tag[i+1]=VBD"],
    [T.prev2, ROOT, DT, "tag[i-2]=<root> tag[i-1]=DT"],
    [T.next2, VBD, P, "tag[i+1]=VBD tag[i+2]=."],
    [T.leftBag, DT, 0, "left5 has DT"],
    [T.leftAt, DT, 1, "tag[i-1]=DT"],
    [T.leftBag, ROOT, 0, "left5 has <root>"],
    [T.leftAt, ROOT, 2, "tag[i-2]=<root>"],
    [T.rightBag, VBD, 0, "right5 has VBD"],
    [T.rightAt, VBD, -1, "tag[i+1]=VBD"],
    [T.rightBag, P, 0, "right5 has ."],
    [T.rightAt, P, -2, "tag[i+2]=."],
    [T.rightBag, END, 0, "right5 has </s>"],
    [T.rightAt, END, -3, "tag[i+3]=</s>"],
    [T.word, dog, 0, "word[i]=dog"],
    [T.nextWord, wordAtom("barked"), 0, "word[i+1]=barked"],
    [T.prevWord, wordAtom("the"), 0, "word[i-1]=the"],
    [T.shape, shapeAtom("dog"), 0, "shape[i]=a"],
    [T.prefix, prefixAtom("dog"), 0, "prefix[i]=dog"],
    [T.suffix, suffixAtom("dog"), 0, "suffix[i]=dog"],
    [T.position, 2, 0, "i=2"],
    [T.positionLength, 2, 4, "i=2 n=4"],
    [T.fromEnd, 2, 0, "n-i=2"],
    [T.bias, 0, 0, "bias"],
  ];
  // Conjunctions of token i's word, tag, shape, prefix and suffix, unless redundant.
  const attrs = [dog, NN, shapeAtom("dog"), prefixAtom("dog"), suffixAtom("dog")];
  const attrNames = ["word=dog", "tag=NN", "shape=a", "prefix=dog", "suffix=dog"];
  const expected: [number, string][] = [];
  for (const [t, a, b, name] of base) {
    expected.push([tokenFeatureIndex(t, a, b, -1, 0, bits), name]);
    for (let c = 0; c < 5; c++)
      if ((TOKEN_CONJOINED[t]! & (1 << c)) !== 0)
        expected.push([tokenFeatureIndex(t, a, b, c, attrs[c]!, bits), `${name} & ${attrNames[c]}`]);
  }
  const out = new Int32Array(MAX_TOKEN_FEATURES);
  const names: string[] = [];
  const k = fx.extract(2, out, names);
  assert.deepEqual(
    Array.from(out.subarray(0, k)).map((f, j) => [f, names[j]]),
    expected,
  );
  // Redundant conjunctions are left out: no tag_i feature meets tag_i, the word never meets its affixes.
  assert.ok(!names.includes("tag[i]=NN & tag=NN"));
  assert.ok(!names.includes("word[i]=dog & prefix=dog"));
  assert.ok(names.includes("word[i]=dog & shape=a"));
  assert.ok(names.includes("tag[i-1]=DT tag[i+1]=VBD & tag=NN"));
  // "The" and "the" share their word atom (lower-cased) but not their shape; "cat" has the shape of "the".
  assert.equal(wordAtom("The"), wordAtom("the"));
  assert.notEqual(shapeAtom("The"), shapeAtom("the"));
  assert.equal(shapeAtom("the"), shapeAtom("cat"));
  assert.equal(prefixAtom("Cats"), prefixAtom("catsup"));
  assert.notEqual(prefixAtom("cats"), suffixAtom("cats"));
  const s2 = sentenceFromWords(["the", "The", "cat"], ["DET", "DET", "NOUN"], ["DT", "DT", "NN"], vocab);
  fx.prepare(input(s2));
  // Windows stop at the sentence's ends; every token stays within the feature bound.
  for (let i = 1; i <= 3; i++) assert.ok(fx.extract(i, out) <= MAX_TOKEN_FEATURES);
  // Tags the filter never saw map to its unknown id.
  const s3 = sentenceFromWords(["Wow"], ["INTJ"], ["UH"], vocab);
  fx.prepare(input(s3));
  assert.equal(fx.tag[1], tags.unknown);
  const n3: string[] = [];
  fx.extract(1, out, n3);
  assert.ok(n3.includes("tag[i]=<unk>"));
  assert.ok(n3.includes("tag[i-1]=<root> tag[i+1]=</s>"));
});

test("Table 3: the arc features of hand-worked arcs (binary, distance, counts between)", () => {
  const words = ["The", "dog", "barked", "loudly", "."];
  const s = sentenceFromWords(
    words,
    ["DET", "NOUN", "VERB", "ADV", "PUNCT"],
    ["DT", "NN", "VBD", "RB", "."],
    vocab,
  );
  const tags = new TagMap(["DT", "NN", "VBD", "RB", "."], "xpos");
  const bits = 24;
  const fx = new ArcFilterFeatures(tags, bits, 10);
  fx.prepare(input(s));
  const [DT, NN, VBD, RB] = [1, 2, 3, 4];
  const A = ARC_TEMPLATES;
  const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
  const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
  const names: string[] = [];
  // barked (3) → dog (2): head right of the modifier, nothing between.
  let k = fx.extract(3, 2, idx, val, names);
  const left = 1; // sign(h - m) > 0
  const expected: [number, number, string][] = [
    [arcFeatureIndex(A.dir, left, 0, 0, 0, bits), 1, "h>m"],
    [arcFeatureIndex(A.triple, left, VBD, NN, 0, bits), 1, "h>m tag[h]=VBD tag[m]=NN"],
    [arcFeatureIndex(A.modPrev, left, VBD, NN, DT, bits), 1, "h>m tag[h]=VBD tag[m]=NN tag[m-1]=DT"],
    [arcFeatureIndex(A.modNext, left, VBD, NN, VBD, bits), 1, "h>m tag[h]=VBD tag[m]=NN tag[m+1]=VBD"],
    [arcFeatureIndex(A.headPrev, left, VBD, NN, NN, bits), 1, "h>m tag[h]=VBD tag[m]=NN tag[h-1]=NN"],
    [arcFeatureIndex(A.headNext, left, VBD, NN, RB, bits), 1, "h>m tag[h]=VBD tag[m]=NN tag[h+1]=RB"],
    [arcFeatureIndex(A.tagWord, left, VBD, 0, wordAtom("dog"), bits), 1, "h>m tag[h]=VBD word[m]=dog"],
    [arcFeatureIndex(A.wordTag, left, 0, NN, wordAtom("barked"), bits), 1, "h>m word[h]=barked tag[m]=NN"],
    [arcFeatureIndex(A.bias, 0, 0, 0, 0, bits), 1, "bias"],
    [arcFeatureIndex(A.distance, left, 0, 0, 0, bits), 0.1, "h>m ⇒ distance"],
    [arcFeatureIndex(A.pairDistance, VBD, NN, 0, 0, bits), 0.1, "tag[h]=VBD tag[m]=NN ⇒ distance"],
  ];
  const got = (n: number) =>
    Array.from(idx.subarray(0, n)).map((f, j) => [f, Math.round(val[j]! * 1e6) / 1e6, names[j]]);
  assert.deepEqual(got(k), expected);
  // root (0) → barked (3): the root's own tag, "before the root" left of it, and two tokens between.
  names.length = 0;
  k = fx.extract(0, 3, idx, val, names);
  assert.equal(k, 11 + 4);
  assert.deepEqual(names.slice(0, 6), [
    "h<m",
    "h<m tag[h]=<root> tag[m]=VBD",
    "h<m tag[h]=<root> tag[m]=VBD tag[m-1]=NN",
    "h<m tag[h]=<root> tag[m]=VBD tag[m+1]=RB",
    "h<m tag[h]=<root> tag[m]=VBD tag[h-1]=<s>",
    "h<m tag[h]=<root> tag[m]=VBD tag[h+1]=DT",
  ]);
  assert.equal(val[9], Math.fround(-0.3));
  assert.deepEqual(names.slice(11), [
    "h<m tag[h]=<root> tag[m]=VBD ⇒ count tag DT",
    "h<m tag[h]=<root> tag[m]=VBD ⇒ count word the",
    "h<m tag[h]=<root> tag[m]=VBD ⇒ count tag NN",
    "h<m tag[h]=<root> tag[m]=VBD ⇒ count word dog",
  ]);
  assert.equal(idx[11], arcFeatureIndex(A.betweenTag, 0, 0, VBD, DT, bits));
  assert.equal(idx[12], arcFeatureIndex(A.betweenWord, 0, 0, VBD, wordAtom("the"), bits));
});

test("Table 3: between-counts look only within 5 positions of either end, repeats count", () => {
  // 14 tokens: x x x x x x x x x x x x x V — the arc root → V (13) has 12 tokens between.
  const forms = ["a", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "saw", "."];
  const xp = ["DT", "DT", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "VBD", "."];
  const s = sentenceFromWords(forms, xp, xp, vocab);
  const tags = new TagMap(["DT", "NN", "VBD", "."], "xpos");
  const fx = new ArcFilterFeatures(tags, 22, 10);
  fx.prepare(input(s));
  const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
  const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
  const names: string[] = [];
  const k = fx.extract(0, 13, idx, val, names);
  const between = names.slice(11, k);
  const words = between.filter((n) => n.includes("count word")).map((n) => n.split(" ").pop());
  // Positions 1–5 and 8–12: e (6) and f (7) are more than 5 from both ends.
  assert.deepEqual(words, ["a", "a", "b", "c", "d", "g", "h", "i", "j", "k"]);
  assert.equal(between.filter((n) => n.endsWith("count tag DT")).length, 2);
  assert.equal(between.filter((n) => n.endsWith("count tag NN")).length, 8);
  assert.ok(k <= MAX_ARC_FILTER_FEATURES);
  // A left arc: saw (13) → a (1) has the same between positions.
  const k2 = fx.extract(13, 1, idx, val);
  assert.equal(k2, 11 + 2 * 10);
});

test("coarse templates: UPOS triple, length bucket, neighbours and span counts of hand-worked arcs", () => {
  const words = ["The", "dog", "barked", "at", "the", "cat", "."];
  const up = ["DET", "NOUN", "VERB", "ADP", "DET", "NOUN", "PUNCT"];
  const xp = ["DT", "NN", "VBD", "IN", "DT", "NN", "."];
  const s = sentenceFromWords(words, up, xp, vocab);
  const tags = new TagMap(["DT", "NN", "VBD", "IN", "."], "xpos");
  const coarse = new TagMap(["DET", "NOUN", "VERB", "ADP", "PUNCT"], "upos");
  const bits = 24;
  const fx = new ArcFilterFeatures(tags, bits, 10, coarse);
  const plain = new ArcFilterFeatures(tags, bits, 10);
  fx.prepare(input(s));
  plain.prepare(input(s));
  const [DET, NOUN, VERB, ADP] = [1, 2, 3, 4];
  const END = coarse.size; // after the last token
  const cS = coarse.size + 2; // and before-root
  const A = ARC_TEMPLATES;
  const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
  const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
  const names: string[] = [];
  // barked (3) → cat (6): head left, "at the" between (ADP, DET), cat's right neighbour is ".".
  const k = fx.extract(3, 6, idx, val, names);
  const base = plain.extract(
    3,
    6,
    new Int32Array(MAX_ARC_FILTER_FEATURES),
    new Float32Array(MAX_ARC_FILTER_FEATURES),
  );
  assert.equal(k, base + 6 + 2);
  const right = 0; // sign(h - m) < 0
  const PUNCT = 5;
  const expected: [number, number, string][] = [
    [coarseFeatureIndex(A.coarseTriple, right, VERB, NOUN, 0, bits, cS), 1, "h<m ctag[h]=VERB ctag[m]=NOUN"],
    [
      coarseFeatureIndex(A.coarseDistance, right, VERB, NOUN, 3, bits, cS),
      1,
      "h<m ctag[h]=VERB ctag[m]=NOUN length 3-4",
    ],
    [
      coarseFeatureIndex(A.coarseModPrev, right, VERB, NOUN, DET, bits, cS),
      1,
      "h<m ctag[h]=VERB ctag[m]=NOUN ctag[m-1]=DET",
    ],
    [
      coarseFeatureIndex(A.coarseModNext, right, VERB, NOUN, PUNCT, bits, cS),
      1,
      "h<m ctag[h]=VERB ctag[m]=NOUN ctag[m+1]=PUNCT",
    ],
    [
      coarseFeatureIndex(A.coarseHeadPrev, right, VERB, NOUN, NOUN, bits, cS),
      1,
      "h<m ctag[h]=VERB ctag[m]=NOUN ctag[h-1]=NOUN",
    ],
    [
      coarseFeatureIndex(A.coarseHeadNext, right, VERB, NOUN, ADP, bits, cS),
      1,
      "h<m ctag[h]=VERB ctag[m]=NOUN ctag[h+1]=ADP",
    ],
    [
      coarseFeatureIndex(A.coarseSpan, right, VERB, NOUN, ADP, bits, cS),
      0.5,
      "h<m ctag[h]=VERB ctag[m]=NOUN ⇒ span count ADP (1)",
    ],
    [
      coarseFeatureIndex(A.coarseSpan, right, VERB, NOUN, DET, bits, cS),
      0.5,
      "h<m ctag[h]=VERB ctag[m]=NOUN ⇒ span count DET (1)",
    ],
  ];
  const got = Array.from(idx.subarray(base, k)).map((f, j) => [f, val[base + j], names[base + j]]);
  // A span shorter than the tag set lists its tags in order of first occurrence ("at the").
  assert.deepEqual(got, expected);
  // root (0) → "." (7): before-root left of the root, the end tag after ".", and the whole span
  // counted (not only ±5): DET ×2, NOUN ×2, VERB, ADP, listed in tag-id order (6 positions, as many
  // as the coarse table has token tags and more).
  names.length = 0;
  const k2 = fx.extract(0, 7, idx, val, names);
  const b2 = k2 - 6 - 4;
  assert.deepEqual(names.slice(b2 + 2, b2 + 6), [
    "h<m ctag[h]=<root> ctag[m]=PUNCT ctag[m-1]=NOUN",
    "h<m ctag[h]=<root> ctag[m]=PUNCT ctag[m+1]=</s>",
    "h<m ctag[h]=<root> ctag[m]=PUNCT ctag[h-1]=<s>",
    "h<m ctag[h]=<root> ctag[m]=PUNCT ctag[h+1]=DET",
  ]);
  assert.equal(idx[b2 + 3], coarseFeatureIndex(A.coarseModNext, right, 0, PUNCT, END, bits, cS));
  assert.equal(idx[b2 + 4], coarseFeatureIndex(A.coarseHeadPrev, right, 0, PUNCT, END + 1, bits, cS));
  assert.deepEqual(Array.from(val.subarray(b2 + 6, k2)), [
    spanValue(2),
    spanValue(2),
    spanValue(1),
    spanValue(1),
  ]);
  assert.equal(spanValue(2), Math.fround(Math.log2(3) / 2));
  assert.deepEqual(
    [1, 2, 3, 4, 5, 7, 8, 12, 13, 20, 21, 90].map(distanceBucket),
    [1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7],
  );
});

test("Table 3: scoreArc sums exactly the weights of the features extract writes", () => {
  // 14 tokens, so arcs both shorter and longer than the between window, in both directions.
  const forms = ["a", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "saw", "."];
  const xp = ["DT", "DT", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "NN", "VBD", "."];
  const s = sentenceFromWords(forms, xp, xp, vocab);
  const bits = 12;
  const tags = new TagMap(["DT", "NN", "VBD", "."], "xpos");
  for (const coarse of [null, new TagMap(["DT", "VBD"], "upos")]) {
    const fx = new ArcFilterFeatures(tags, bits, 7, coarse);
    fx.prepare(input(s));
    let seed = 12345;
    const w = Int16Array.from({ length: fx.dim }, () => {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      return (seed >> 8) % 3000;
    });
    const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
    const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (h === m) continue;
        const k = fx.extract(h, m, idx, val);
        let want = 0;
        for (let j = 0; j < k; j++) want += w[idx[j]!]! * val[j]!;
        const got = fx.scoreArc(h, m, w);
        assert.ok(Math.abs(got - want) < 1e-6 * (1 + Math.abs(want)), `arc ${h}→${m}: ${got} vs ${want}`);
        assert.notEqual(got, 0);
      }
  }
});

test("Table 3: scoreMasked writes exactly scoreArc's sum for the arcs a mask allows, and nothing else", () => {
  // 24 tokens: spans longer and shorter than the coarse tag set, both directions, repeated tags.
  const forms =
    "the a dog saw a cat and the old dog ran to the big red barn near the mill by the river .".split(" ");
  const xp = [
    "DT",
    "DT",
    "NN",
    "VBD",
    "DT",
    "NN",
    "CC",
    "DT",
    "JJ",
    "NN",
    "VBD",
    "IN",
    "DT",
    "JJ",
    "JJ",
    "NN",
    "IN",
    "DT",
    "NN",
    "IN",
    "DT",
    "NN",
    ".",
  ];
  const up = xp.map(
    (t) => ({ DT: "DET", NN: "NOUN", VBD: "VERB", CC: "CCONJ", JJ: "ADJ", IN: "ADP", ".": "PUNCT" })[t]!,
  );
  const s = sentenceFromWords(forms, xp, up, vocab);
  const tags = new TagMap(["DT", "NN", "VBD", "IN", "JJ", "."], "xpos");
  for (const coarse of [
    null,
    new TagMap(["DET", "NOUN", "VERB"], "upos"),
    new TagMap(["DET", "NOUN", "VERB", "ADJ", "ADP", "CCONJ", "PUNCT"], "upos"),
  ]) {
    const fx = new ArcFilterFeatures(tags, 12, 9, coarse);
    fx.prepare(input(s));
    let seed = 777;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8;
    const w = Int16Array.from({ length: fx.dim }, () => (rnd() % 6001) - 3000);
    const size = s.n + 1;
    for (const keep of [1, 0.5, 0.1]) {
      const bits = Uint8Array.from({ length: size * size }, (_, i) => {
        const h = Math.floor(i / size);
        const m = i % size;
        return m > 0 && h !== m && (keep === 1 || (rnd() % 1000) / 1000 < keep) ? 1 : 0;
      });
      const out = new Float64Array(size * size).fill(Number.NaN);
      fx.scoreMasked(bits, size, w, out);
      for (let i = 0; i < size * size; i++) {
        const h = Math.floor(i / size);
        const m = i % size;
        if (bits[i] === 1) assert.equal(out[i], fx.scoreArc(h, m, w), `arc ${h}→${m}`);
        else assert.ok(Number.isNaN(out[i]), `arc ${h}→${m} is masked but was written`);
      }
    }
    // Other weights: the rows copied from the first table are not reused.
    const w2 = w.map((x) => -x);
    const bits = Uint8Array.from({ length: size * size }, (_, i) =>
      i % size > 0 && Math.floor(i / size) !== i % size ? 1 : 0,
    );
    const out = new Float64Array(size * size);
    fx.scoreMasked(bits, size, w2, out);
    assert.equal(out[3 * size + 5], fx.scoreArc(3, 5, w2));
    assert.equal(out[3 * size + 5], -fx.scoreArc(3, 5, w));
  }
});
