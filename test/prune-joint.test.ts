import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { type Sentence, toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { decodeModel, encodeModel } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import {
  arcFeatureCount,
  EVENT_VINE,
  htdFeature,
  JointEventScorer,
  LEN_BUCKETS,
  lenFeature,
  LEX_BITS,
  LEX_SLOTS,
  LexAtoms,
  lexSlot,
  pairLengthFeature,
  SPAN_FLAGS,
  SPAN_SIGS,
  spanFeature,
  SpanFlagTable,
  spanLengthFeature,
} from "../src/prune/joint-events.js";
import { JointFilter, type JointTrainInfo } from "../src/prune/joint-filter.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { TagMap } from "../src/prune/tag-map.js";
import { NUM_ROLES, ROLE, roleHi, roleLo } from "../src/prune/token-role-decisions.js";
import { wordAtom } from "../src/prune/form-atoms.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { finish, mix } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const toy = [...parseConllu(toyTreebank(40, 5))].map((r) => toSentence(r, vocab));
// The toy grammar puts a verb between some heads and modifiers but never punctuation or a
// conjunction: a third of the tokens get those UPOS tags instead (the filter's tags are XPOS).
const sents: Sentence[] = (() => {
  const rng = new Rng(77);
  const swap = ["PUNCT", "CCONJ", "AUX", "NOUN"].map((t) => vocab.upos.add(t));
  return toy.map((s) => ({
    ...s,
    upos: s.upos.map((u, i) => (i > 0 && rng.next() < 0.33 ? swap[rng.int(swap.length)]! : u)),
  }));
})();
const tags = new TagMap(TagMap.collect(sents, vocab, "xpos"), "xpos");
const BITS = 12;
const S = tags.size;
const A = arcFeatureCount(S);
/** Index of the first lexical arc feature (after the span block). */
const L0 = arcFeatureCount(S, true, true, false);

/** Token-role subclassifiers with random weights (scores spread around 0). */
function randomRoles(rng: Rng, crossRoot: boolean): TokenRoleFilter {
  const w = new Int16Array(NUM_ROLES << BITS);
  for (let i = 0; i < w.length; i++) w[i] = rng.int(2001) - 1000;
  const scales = Float64Array.from({ length: NUM_ROLES }, () => 0.0002 + 0.0004 * rng.next());
  return new TokenRoleFilter(
    tags,
    BITS,
    w,
    scales,
    new Float64Array(NUM_ROLES).fill(Number.POSITIVE_INFINITY),
    crossRoot,
  );
}

function randomArcWeights(
  rng: Rng,
  scale: number,
  pairLength = true,
  span = pairLength,
  lexical = false,
): Float32Array {
  return Float32Array.from(
    { length: arcFeatureCount(S, pairLength, span, lexical) },
    () => (rng.next() * 2 - 1) * scale,
  );
}

/**
 * A joint filter with random token roles and, as `kind` says ([Vine, None, pair-length, span,
 * lexical]), random Vine weights (spread `vineScale`) and None weights (spread 1).
 */
function randomFilter(
  rng: Rng,
  crossRoot: boolean,
  kind: readonly [boolean, boolean, boolean, boolean, boolean],
  vineScale: number,
  bias: number,
  info: JointTrainInfo = {},
): JointFilter {
  const [withVine, withNone, pairLength, span, lexical] = kind;
  return new JointFilter(
    randomRoles(rng, crossRoot),
    withVine ? randomArcWeights(rng, vineScale, pairLength, span, lexical) : null,
    withNone ? randomArcWeights(rng, 1, pairLength, span, lexical) : null,
    bias,
    info,
    pairLength,
    span,
    lexical,
  );
}

/** Word atoms of a sentence's positions straight from the definition (lower-cased form; "<root>" at 0). */
function wordsOf(s: Sentence): Int32Array {
  return Int32Array.from({ length: s.n + 1 }, (_, i) =>
    wordAtom(i === 0 ? "<root>" : vocab.form.strings[s.form[i]!]!),
  );
}

/** Span flags of a sentence's tokens straight from the definition (UPOS → `SPAN_FLAGS`). */
function flagsOf(s: Sentence): Uint8Array {
  return Uint8Array.from({ length: s.n + 1 }, (_, i) =>
    i === 0 ? 0 : (SPAN_FLAGS[vocab.upos.strings[s.upos[i]!]!] ?? 0),
  );
}

test("joint arc features: hand-worked indices of htd, Len, [htd LenClass] and the span features", () => {
  const H = 2 * S * S;
  assert.equal(L0, H + LEN_BUCKETS + H * 7 + H * 8 + 8 * 2 * 7);
  assert.equal(A, L0 + (1 << 16));
  assert.equal(LEX_SLOTS, 1 << LEX_BITS);
  assert.equal(arcFeatureCount(S, true, false), H + LEN_BUCKETS + H * 7);
  assert.equal(arcFeatureCount(S, false), H + LEN_BUCKETS);
  assert.throws(() => arcFeatureCount(S, false, true), RangeError);
  assert.throws(() => arcFeatureCount(S, true, false, true), RangeError);
  assert.equal(SPAN_SIGS, 8);
  // [htd SpanSig] after the pair-length block; [SpanSig Dir LenClass] after that.
  assert.equal(spanFeature(S, 13, 5), H + 32 + 7 * H + 13 * 8 + 5);
  assert.equal(spanLengthFeature(S, 5, 1, 9), H + 32 + 7 * H + 8 * H + (5 * 2 + 1) * 7 + 4);
  assert.equal(spanLengthFeature(S, 7, 1, 90), L0 - 1);
  // Head tag 2, modifier tag 3, head on the right (dir 1).
  const htd = htdFeature(S, 2, 3, 1);
  assert.equal(htd, (2 * S + 3) * 2 + 1);
  assert.equal(lenFeature(S, 1), H);
  assert.equal(lenFeature(S, 32), H + 31);
  assert.equal(lenFeature(S, 90), H + 31);
  // Classes 1, 2, 3–4, 5–7, 8–12, 13–20, 21+.
  const cls = [1, 2, 3, 4, 5, 7, 8, 12, 13, 20, 21, 32, 90].map(
    (d) => pairLengthFeature(S, htd, d) - (H + 32 + htd * 7),
  );
  assert.deepEqual(cls, [0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6]);
});

test("lexical arc features: hand-worked slots of [HeadTag ModWord Dir] and [HeadWord ModTag Dir]", () => {
  // The slot: the hash of (template seed, dir, tag) XOR the word atom, times the golden constant, top bits.
  const slot = (seed: number, dir: number, tag: number, word: number) =>
    Math.imul(finish(mix(mix(seed, dir), tag)) ^ word, 0x9e3779b1 | 0) >>> (32 - LEX_BITS);
  const dog = wordAtom("Dog");
  assert.equal(dog, wordAtom("dog"));
  assert.equal(lexSlot(false, 1, 3, dog), slot(0x6a09e667, 1, 3, dog));
  assert.equal(lexSlot(true, 0, 5, dog), slot(0x3c6ef373, 0, 5, dog));
  // Slots spread over the block, and the templates, directions and tags differ.
  const seen = new Set<number>();
  for (const side of [false, true])
    for (let dir = 0; dir < 2; dir++)
      for (let t = 0; t < 20; t++) {
        const v = lexSlot(side, dir, t, dog);
        assert.ok(v >= 0 && v < LEX_SLOTS);
        seen.add(v);
      }
  assert.ok(seen.size >= 78, `${seen.size} distinct slots of 80`);
  // LexAtoms: the same atoms as the definition, cached per form.
  const atoms = new LexAtoms();
  for (const s of sents.slice(0, 5))
    assert.deepEqual(atoms.fill(s, vocab.form).slice(0, s.n + 1), wordsOf(s));
});

test("span flags: punctuation 1, verb or auxiliary 2, coordinating conjunction 4, by UPOS; the table follows the vocabulary", () => {
  // A vocabulary as the table reads it: its strings by id, and their number as it grows.
  const vocabOf = (strings: string[]) => ({
    strings,
    get size() {
      return strings.length;
    },
  });
  const strings = ["NOUN", "PUNCT", "VERB", "AUX", "CCONJ", "SCONJ"];
  const tags = vocabOf(strings);
  const out = new Uint8Array(8);
  const table = new SpanFlagTable();
  table.fill(Int32Array.of(0, 0, 1, 2, 3, 4, 5), 6, tags, out);
  assert.deepEqual(Array.from(out.subarray(0, 7)), [0, 0, 1, 2, 2, 4, 0]);
  // Tags the vocabulary learns later (a stream of sentences) are looked up.
  strings.push("CCONJ2", "PUNCT");
  table.fill(Int32Array.of(0, 7, 6), 2, tags, out);
  assert.deepEqual(Array.from(out.subarray(0, 3)), [0, 1, 0]);
  // Other vocabularies start again, a large one and a small one.
  const more = [...strings, ...Array.from({ length: 40 }, (_, i) => `T${i}`), "CCONJ"];
  table.fill(Int32Array.of(0, 48, 47), 2, vocabOf(more), out);
  assert.deepEqual(Array.from(out.subarray(0, 3)), [0, 4, 0]);
  table.fill(Int32Array.of(0, 0, 1), 2, vocabOf(["VERB", "NOUN"]), out);
  assert.deepEqual(Array.from(out.subarray(0, 3)), [0, 2, 0]);
});

/**
 * Z_a straight from the definitions: the token-role events whose decision would remove h→m, Root
 * events (of tokens whose root arc `input` allows) and the Vine event.
 */
function eventsOf(
  h: number,
  m: number,
  n: number,
  input: ArcMask,
  crossRoot: boolean,
  vine: boolean,
): number[] {
  const z: number[] = [];
  if (vine) z.push(EVENT_VINE);
  if (h >= 1) z.push(h * NUM_ROLES + ROLE.noHead);
  for (let d = 1; d < ROLE.root; d++) if (h < roleLo(d, m) || h > roleHi(d, m, n)) z.push(m * NUM_ROLES + d);
  for (let j = 1; j <= n; j++) {
    if (!input.allows(0, j)) continue;
    const filters =
      (j === m && h !== 0) ||
      (h === 0 && j !== m) ||
      (crossRoot && h >= 1 && Math.min(h, m) < j && j < Math.max(h, m));
    if (filters) z.push(j * NUM_ROLES + ROLE.root);
  }
  return z;
}

function arcScore(
  w: Float32Array | null,
  tagOf: Int32Array,
  flags: Uint8Array,
  words: Int32Array,
  h: number,
  m: number,
): number {
  if (w === null) return 0;
  const dir = h < m ? 0 : 1;
  const htd = htdFeature(S, tagOf[h]!, tagOf[m]!, dir);
  const len = Math.abs(h - m);
  const conj = w.length > arcFeatureCount(S, false) ? w[pairLengthFeature(S, htd, len)]! : 0;
  let sig = 0;
  for (let i = Math.min(h, m) + 1; i < Math.max(h, m); i++) sig |= flags[i]!;
  const span = w.length >= L0 ? w[spanFeature(S, htd, sig)]! + w[spanLengthFeature(S, sig, dir, len)]! : 0;
  const lex =
    w.length === A
      ? w[L0 + lexSlot(false, dir, tagOf[h]!, words[m]!)]! + w[L0 + lexSlot(true, dir, tagOf[m]!, words[h]!)]!
      : 0;
  return w[htd]! + w[lenFeature(S, len)]! + conj + span + lex;
}

test("joint events: best event, its id and None of every arc equal brute force over Z_a (n ≤ 20, random masks)", () => {
  const rng = new Rng(9);
  const runner = new PruningCascade();
  let arcs = 0;
  for (const crossRoot of [true, false])
    for (const withVine of [true, false])
      for (const withNone of [true, false]) {
        const roles = randomRoles(rng, crossRoot);
        const vine = withVine ? randomArcWeights(rng, 1.5, true, true, true) : null;
        const none = withNone ? randomArcWeights(rng, 1, true, true, true) : null;
        const ev = new JointEventScorer(
          S,
          crossRoot,
          vine && Float64Array.from(vine),
          none && Float64Array.from(none),
          true,
        );
        for (const s of sents.slice(0, 20)) {
          const n = s.n;
          for (const drop of [0, 0.4]) {
            const mask = ArcMask.full(n);
            for (let i = 0; i < mask.bits.length; i++)
              if (mask.bits[i] === 1 && rng.next() < drop) mask.bits[i] = 0;
            const sc = roles.scoreAll(runner.prepare(s, vocab));
            const tagOf = roles.features.tag;
            // Random span flags: every signature occurs.
            const flags = Uint8Array.from({ length: n + 1 }, (_, i) => (i === 0 ? 0 : rng.int(SPAN_SIGS)));
            const words = wordsOf(s);
            ev.prepare(sc, tagOf, flags, mask, words);
            for (let h = 0; h <= n; h++) {
              ev.scanRow(h, mask);
              for (let m = 1; m <= n; m++) {
                if (!mask.allows(h, m)) {
                  assert.equal(ev.best[m], Number.NEGATIVE_INFINITY);
                  continue;
                }
                arcs++;
                const z = eventsOf(h, m, n, mask, crossRoot, withVine);
                const score = (e: number) =>
                  e === EVENT_VINE ? arcScore(vine, tagOf, flags, words, h, m) : sc[e]!;
                const want = Math.max(...z.map(score));
                assert.ok(Math.abs(ev.best[m]! - want) < 1e-9, `best of ${h}→${m}: ${ev.best[m]} vs ${want}`);
                assert.ok(z.includes(ev.event[m]!), `event ${ev.event[m]} of ${h}→${m} is not in Z_a`);
                assert.ok(Math.abs(score(ev.event[m]!) - want) < 1e-9);
                assert.ok(Math.abs(ev.none[m]! - arcScore(none, tagOf, flags, words, h, m)) < 1e-9);
              }
            }
          }
        }
      }
  assert.ok(arcs > 10000);
});

/** The decision rule by brute force: a goes iff max_{z ∈ Z_a} score(z) > score(None_a) + bias. */
function expectedMask(f: JointFilter, s: Sentence, input: ArcMask): ArcMask {
  const runner = new PruningCascade();
  const sc = f.roles.scoreAll(runner.prepare(s, vocab)).slice();
  const tagOf = f.roles.features.tag.slice();
  const flags = flagsOf(s);
  const words = f.lexical ? wordsOf(s) : new Int32Array(s.n + 1);
  const out = input.clone();
  for (let h = 0; h <= s.n; h++)
    for (let m = 1; m <= s.n; m++) {
      if (!input.allows(h, m)) continue;
      const z = eventsOf(h, m, s.n, input, f.roles.crossRoot, f.hasVine);
      const best = Math.max(
        ...z.map((e) => (e === EVENT_VINE ? arcScore(f.vine, tagOf, flags, words, h, m) : sc[e]!)),
      );
      if (best - arcScore(f.none, tagOf, flags, words, h, m) > f.bias) out.remove(h, m);
    }
  return out;
}

test("joint filter: prunes exactly the arcs of the decision rule, only removes, margins agree", () => {
  const rng = new Rng(21);
  const runner = new PruningCascade();
  for (const crossRoot of [true, false])
    for (const [withVine, withNone, pairLength, span, lexical] of [
      [true, true, true, true, false],
      [true, true, true, true, true],
      [true, true, true, false, false],
      [true, true, false, false, false],
      [false, true, true, true, false],
      [false, true, true, true, true],
      [true, false, true, true, true],
      [false, false, true, true, false],
    ] as const) {
      const f0 = randomFilter(rng, crossRoot, [withVine, withNone, pairLength, span, lexical], 1.5, 0.8);
      let removed = 0;
      let total = 0;
      // A low bias lets No-Head clear whole sides of a head without scoring their arcs (the None
      // bound); a high one keeps most arcs.
      for (const f of [f0, f0.withBias(-3), f0.withBias(4)])
        for (const s of sents) {
          for (const drop of [0, 0.5]) {
            const mask = ArcMask.full(s.n);
            for (let i = 0; i < mask.bits.length; i++)
              if (mask.bits[i] === 1 && rng.next() < drop) mask.bits[i] = 0;
            const want = expectedMask(f, s, mask);
            const margins = new Float64Array(mask.bits.length);
            f.margins(runner.prepare(s, vocab), mask, margins);
            for (let c = 0; c < mask.bits.length; c++)
              if (mask.bits[c] === 1) assert.equal(want.bits[c] === 0, margins[c]! > f.bias);
            total += mask.count();
            f.prune(runner.prepare(s, vocab), mask);
            assert.deepEqual(mask.bits, want.bits);
            removed += total - mask.count();
          }
        }
      assert.ok(removed > 0);
      assert.ok(checkOnlyRemoves(f0, sents, vocab) > 0);
    }
});

test("joint filter survives a model-file round trip (weights, bias, flags, info) and rejects corrupt files", () => {
  const rng = new Rng(3);
  for (const [withVine, withNone, pairLength, span, lexical] of [
    [true, true, true, true, false],
    [true, true, true, true, true],
    [true, true, true, false, false],
    [true, true, false, false, false],
    [false, false, true, true, false],
  ] as const) {
    const f = randomFilter(rng, true, [withVine, withNone, pairLength, span, lexical], 1, 0.25, {
      c1: 0.1,
      c0: 1,
      alternations: 3,
      chosen: 2,
      coverage: 99.5,
      reduction: 70,
      target: 99.5,
    });
    const back = cascadeFromModelData(
      decodeModel(encodeModel(cascadeModelData(new PruningCascade([f])))),
      "x",
    );
    const g = back.passes[0] as JointFilter;
    assert.equal(g.kind, "joint");
    assert.equal(g.bias, 0.25);
    assert.equal(g.hasVine, withVine);
    assert.equal(g.hasNone, withNone);
    assert.equal(g.pairLength, pairLength);
    assert.equal(g.span, span);
    assert.equal(g.lexical, lexical);
    assert.deepEqual(g.vine, f.vine);
    assert.deepEqual(g.roles.weights, f.roles.weights);
    assert.equal(g.describe(), f.describe());
    const a = new PruningCascade([f]);
    for (const s of sents) assert.deepEqual(back.prune(s, vocab).bits, a.prune(s, vocab).bits);
  }
  const m = new JointFilter(randomRoles(rng, true), randomArcWeights(rng, 1), null, 0).toModelData();
  m.arrays.vine = new Float32Array(3);
  assert.throws(
    () => JointFilter.fromModelData(m, "bad.vpf"),
    /bad\.vpf: corrupted model: joint filter has bad vine/,
  );
  m.arrays.vine = randomArcWeights(rng, 1);
  m.meta.spanSigs = 4;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /bad span-signature count/);
  m.meta.spanSigs = SPAN_SIGS;
  m.meta.lenClasses = 5;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /bad length-class count/);
  m.meta.lenClasses = 7;
  m.meta.lexBits = 12;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /bad lexical-feature size/);
  m.meta.version = 7;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /joint filter version 7/);
});
