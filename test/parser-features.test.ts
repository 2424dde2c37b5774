import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import { BOS } from "../src/features/atoms.js";
import {
  arcFeatures,
  dirDist,
  dirDistIndex,
  HEAD_SLOTS,
  MAX_ARC_FEATURES,
} from "../src/features/first-order.js";
import { mixTemplates, templateTable } from "../src/features/templates.js";
import { ChildSummary, labelFeatures, labelTemplates, MAX_LABEL_FEATURES } from "../src/parser/labeler.js";
import { finishBits, mix } from "../src/util/hash.js";
import { ArcScorer } from "../src/parser/arc-scorer.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";

function sentence(rows: [string, string, string][]) {
  const text =
    rows
      .map((r, i) => `${i + 1}\t${r[0]}\t_\t${r[1]}\t${r[2]}\t_\t${i === 0 ? 0 : 1}\tdep\t_\t_`)
      .join("\n") + "\n\n";
  const vocab = new Vocabularies();
  const s = toSentence([...parseConllu(text)][0]!, vocab);
  return { s, vocab, x: new AtomCache().prepare(s, vocab, new FeatureSentence()) };
}

/** "the old big dog slept": in-between tag sets of 0–4 positions for the feature-count tests. */
const OLD_BIG_DOG: [string, string, string][] = [
  ["the", "DET", "DT"],
  ["old", "ADJ", "JJ"],
  ["big", "ADJ", "JJ"],
  ["dog", "NOUN", "NN"],
  ["slept", "VERB", "VBD"],
];

test("dirDist bins distances 1..5, 6-10, 11-20, >20 and separates directions", () => {
  assert.equal(dirDist(1, 2), 0x101);
  assert.equal(dirDist(2, 1), 0x201);
  assert.equal(dirDist(0, 5), 0x105);
  assert.equal(dirDist(0, 6), 0x106);
  assert.equal(dirDist(0, 10), 0x106);
  assert.equal(dirDist(0, 11), 0x107);
  assert.equal(dirDist(30, 10), 0x207);
  assert.equal(dirDist(0, 21), 0x108);
  const seen = new Set<number>();
  for (let h = 0; h < 40; h++)
    for (let m = 1; m < 40; m++) if (h !== m) seen.add(dirDistIndex(dirDist(h, m)));
  assert.ok([...seen].every((i) => i >= 0 && i < 32));
  assert.equal(seen.size, 16);
});

test("atoms: lower-cased words, 5-character prefixes only for long words, sentinels", () => {
  const a = sentence([
    ["Dogs", "NOUN", "NNS"],
    ["dogs", "NOUN", "NNS"],
    ["jumped", "VERB", "VBD"],
    ["jumper", "NOUN", "NN"],
  ]).x;
  assert.equal(a.n, 4);
  assert.equal(a.word[1], a.word[2]); // case-folded
  assert.equal(a.prefix[1], a.word[1]); // "dogs" is short: prefix = word
  assert.equal(a.prefix[3], a.prefix[4]); // both "jumpe"
  assert.equal(a.suffix[1], a.suffix[2]); // both "ogs"
  assert.notEqual(a.suffix[3], a.suffix[4]); // "ped" vs "per"
  assert.notEqual(a.word[3], a.word[4]);
  assert.equal(a.xpos[1], a.xpos[2]);
  assert.notEqual(a.xpos[3], a.xpos[4]);
});

test("arc features: 84 fixed, +2 per distinct in-between UPOS and XPOS (2 for adjacent arcs), +10 prefix back-offs", () => {
  const { x } = sentence(OLD_BIG_DOG);
  const out = new Int32Array(MAX_ARC_FEATURES);
  const mask = (1 << 20) - 1;
  assert.equal(arcFeatures(x, 4, 3, out, mask), 86); // adjacent
  assert.equal(arcFeatures(x, 4, 1, out, mask), 88); // between: ADJ ADJ / JJ JJ → 1 + 1 distinct
  assert.equal(arcFeatures(x, 5, 1, out, mask), 92); // between: ADJ ADJ NOUN / JJ JJ NN → 2 + 2
  assert.equal(arcFeatures(x, 0, 5, out, mask), 96); // between: DET ADJ ADJ NOUN / DT JJ JJ NN → 3 + 3
  // Words longer than 5 characters add the prefix back-offs of the word bigrams.
  const long = sentence([
    ["dogs", "NOUN", "NNS"],
    ["barked", "VERB", "VBD"],
  ]).x;
  assert.equal(arcFeatures(long, 2, 1, out, mask), 96);
  // Same arc, same indices; reversed arc shares its unigram-without-distance features only partly.
  const a = Array.from(out.subarray(0, arcFeatures(x, 4, 1, out, mask)));
  const b = Array.from(out.subarray(0, arcFeatures(x, 4, 1, out, mask)));
  assert.deepEqual(a, b);
  const rev = Array.from(out.subarray(0, arcFeatures(x, 1, 4, out, mask)));
  assert.notDeepEqual(a, rev);
  assert.ok(a.every((i) => i >= 0 && i <= mask));
});

test("coarse arc features of a pruning pass: 32 unigram + 20 pair, +2 per distinct in-between UPOS only (2 for adjacent arcs), a subset of the full set", () => {
  const { x } = sentence(OLD_BIG_DOG);
  const out = new Int32Array(MAX_ARC_FEATURES);
  const mask = (1 << 20) - 1;
  assert.equal(arcFeatures(x, 4, 3, out, mask, true), 54); // adjacent
  assert.equal(arcFeatures(x, 4, 1, out, mask, true), 54); // between: ADJ ADJ → 1 distinct UPOS
  assert.equal(arcFeatures(x, 5, 1, out, mask, true), 56); // ADJ ADJ NOUN → 2
  assert.equal(arcFeatures(x, 0, 5, out, mask, true), 58); // DET ADJ ADJ NOUN → 3
  // No prefix back-offs for long words.
  const long = sentence([
    ["dogs", "NOUN", "NNS"],
    ["barked", "VERB", "VBD"],
  ]).x;
  assert.equal(arcFeatures(long, 2, 1, out, mask, true), 54);
  // Every coarse index is one of the full set's (the same templates, fewer of them).
  for (const [h, m] of [
    [4, 3],
    [5, 1],
    [0, 5],
    [2, 4],
  ] as const) {
    const full = new Set(out.subarray(0, arcFeatures(x, h, m, out, mask)));
    const coarse = Array.from(out.subarray(0, arcFeatures(x, h, m, out, mask, true)));
    assert.ok(
      coarse.every((i) => full.has(i)),
      `arc ${h}→${m}`,
    );
  }
});

test("arc scorer: outward walk with incremental in-between tags equals per-arc extraction, masked or not, full or coarse features; exact with 16-bit weights", () => {
  const rng = new Rng(7);
  const tags: [string, string][] = [
    ["NOUN", "NN"],
    ["VERB", "VBD"],
    ["ADJ", "JJ"],
    ["DET", "DT"],
    ["NOUN", "NNS"],
    ["ADP", "IN"],
    ["PUNCT", "."],
  ];
  const words = ["a", "dog", "barked", "loudly", "at", "the", "postman", "yesterday", "."];
  const bits = 12;
  const floats = new Float32Array(1 << bits);
  for (let i = 0; i < floats.length; i++) floats[i] = rng.next() - 0.5;
  // 16-bit weights (as parsers score with): each unigram sum covers all 16 direction/distance bins
  // of a token at once (no mask) or one bin as needed (under a mask), and integer sums must come out
  // exactly as feature by feature.
  const ints = Int16Array.from({ length: 1 << bits }, () => rng.int(65536) - 32768);
  const buf = new Int32Array(MAX_ARC_FEATURES);
  for (let trial = 0; trial < 40; trial++) {
    const weights = trial < 20 ? floats : ints;
    const scale = trial < 20 ? 1 : 0.37;
    // The coarse pair templates of a pruning pass in every third trial.
    const coarse = trial % 3 === 2;
    const scorer = new ArcScorer(weights, scale, coarse);
    const n = trial % 5 === 4 ? 25 + rng.int(10) : 1 + rng.int(14);
    const rows: [string, string, string][] = [];
    for (let i = 0; i < n; i++) rows.push([words[rng.int(words.length)]!, ...tags[rng.int(tags.length)]!]);
    const { x } = sentence(rows);
    const mask = trial % 2 === 0 ? null : ArcMask.empty(n);
    // Dense and sparse masks (sparse ones leave rows whose walk stops short of the sentence's ends).
    const density = trial % 4 === 1 ? 0.6 : 0.15;
    if (mask !== null)
      for (let h = 0; h <= n; h++)
        for (let m = 1; m <= n; m++) if (h !== m && rng.next() < density) mask.allow(h, m);
    const scores = scorer.scoreAll(x, mask);
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) {
        const got = scores[h * (n + 1) + m]!;
        if (h === m || (mask !== null && !mask.allows(h, m))) {
          assert.equal(got, Number.NEGATIVE_INFINITY);
          continue;
        }
        const k = arcFeatures(x, h, m, buf, weights.length - 1, coarse);
        let want = 0;
        for (let i = 0; i < k; i++) want += weights[buf[i]!]!;
        if (weights === ints) assert.equal(got, want * scale, `arc ${h}→${m} of n=${n}`);
        else assert.ok(Math.abs(got - want) < 1e-3, `arc ${h}→${m} of n=${n}: ${got} vs ${want}`);
      }
  }
});

test("template tables hash each row as mix(…mix(seed, atom)…), finished and masked on request", () => {
  const table = templateTable([
    [7, 0],
    [8, 1, 2],
    [9, 2, 0, 1],
  ]);
  assert.equal(table.count, 3);
  const atoms = Int32Array.from([11, -5, 123456789]);
  const states = new Int32Array(5);
  assert.equal(mixTemplates(table, atoms, states, 1, false, 0), 4);
  assert.deepEqual(
    [...states],
    [0, mix(7, 11), mix(mix(8, -5), 123456789), mix(mix(mix(9, 123456789), 11), -5), 0],
  );
  const features = new Int32Array(3);
  mixTemplates(table, atoms, features, 0, true, 1023);
  assert.deepEqual(
    [...features],
    [...states.subarray(1, 4)].map((v) => finishBits(v) & 1023),
  );
  assert.throws(() => templateTable([[7]]), /at least one atom/);
});

test("head states and label features keep their hand-worked hashes", () => {
  const { s, x } = sentence(OLD_BIG_DOG);
  const H = x.headPre;
  // Token 2 ("old"): slot 0 mixes word then XPOS, slot 3 word, XPOS and 0, slot 17 the XPOS to its
  // left then its own; the root's left neighbour is BOS.
  assert.equal(H[2 * HEAD_SLOTS], mix(mix(21, x.word[2]!), x.xpos[2]!));
  assert.equal(H[2 * HEAD_SLOTS + 3], mix(mix(mix(24, x.word[2]!), x.xpos[2]!), 0));
  assert.equal(H[2 * HEAD_SLOTS + 17], mix(mix(42, x.xpos[1]!), x.xpos[2]!));
  assert.equal(H[17], mix(mix(42, BOS), x.xpos[0]!));
  assert.equal(H[2 * HEAD_SLOTS + 33], mix(39, x.upos[2]!));
  // Label features of arc 4 → 3 ("dog" → "big") and of the root's arc 0 → 1.
  const kids = new ChildSummary().fill(x, s.head);
  const out = new Int32Array(MAX_LABEL_FEATURES);
  const mask = (1 << 18) - 1;
  assert.equal(labelFeatures(x, kids, 4, 3, out, mask), 22);
  assert.equal(out[0], finishBits(mix(1, x.word[4]!)) & mask);
  assert.equal(out[7], finishBits(mix(mix(mix(8, x.upos[4]!), x.upos[3]!), dirDist(4, 3))) & mask);
  assert.equal(out[19], finishBits(mix(mix(mix(20, x.upos[3]!), 0), dirDist(4, 3))) & mask);
  labelFeatures(x, kids, 0, 1, out, mask);
  assert.equal(out[16], finishBits(mix(mix(mix(17, BOS), x.xpos[0]!), x.xpos[1]!)) & mask);
  assert.equal(out[21], finishBits(mix(mix(22, 1), x.upos[1]!)) & mask);
});

test("label feature set 2 adds the head's and modifier's UPOS with the modifier's leftmost left child's word", () => {
  const { x } = sentence(OLD_BIG_DOG);
  // the → dog, old → dog, big → dog, dog → slept, slept → root.
  const heads = Int32Array.from([-1, 4, 4, 4, 5, 0]);
  const kids = new ChildSummary().fill(x, heads);
  // The root's only child is to its right; "slept"'s leftmost left child is "dog", "dog"'s is "the".
  assert.deepEqual(Array.from(kids.leftWord.subarray(0, 6)), [BOS, BOS, BOS, BOS, x.word[1], x.word[4]]);
  const out = new Int32Array(MAX_LABEL_FEATURES);
  const set1 = new Int32Array(MAX_LABEL_FEATURES);
  const mask = (1 << 18) - 1;
  assert.equal(labelTemplates(1).count, 22);
  // Set 2 is set 1 and one more feature: of arc 5 → 4 ("slept" → "dog"), whose leftmost left child is "the".
  assert.equal(labelFeatures(x, kids, 5, 4, out, mask, labelTemplates(2)), 23);
  assert.equal(labelFeatures(x, kids, 5, 4, set1, mask), 22);
  assert.deepEqual(out.subarray(0, 22), set1.subarray(0, 22));
  assert.equal(out[22], finishBits(mix(mix(mix(23, x.upos[5]!), x.upos[4]!), x.word[1]!)) & mask);
  // "big" has no children: BOS.
  labelFeatures(x, kids, 4, 3, out, mask, labelTemplates(2));
  assert.equal(out[22], finishBits(mix(mix(mix(23, x.upos[4]!), x.upos[3]!), BOS)) & mask);
  assert.throws(() => labelTemplates(3), /no label feature set 3/);
});
