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
  pairLengthFeature,
} from "../src/prune/joint-events.js";
import { JointFilter } from "../src/prune/joint-filter.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { TagMap } from "../src/prune/tag-map.js";
import { NUM_ROLES, ROLE, roleHi, roleLo } from "../src/prune/token-role-decisions.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { Rng } from "../src/util/rng.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const sents = [...parseConllu(toyTreebank(40, 5))].map((r) => toSentence(r, vocab));
const tags = new TagMap(TagMap.collect(sents, vocab, "xpos"), "xpos");
const BITS = 12;
const S = tags.size;
const A = arcFeatureCount(S);

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

function randomArcWeights(rng: Rng, scale: number, pairLength = true): Float32Array {
  return Float32Array.from({ length: arcFeatureCount(S, pairLength) }, () => (rng.next() * 2 - 1) * scale);
}

test("joint arc features: hand-worked indices of htd, Len and [htd LenClass]", () => {
  const H = 2 * S * S;
  assert.equal(A, H + LEN_BUCKETS + H * 7);
  assert.equal(arcFeatureCount(S, false), H + LEN_BUCKETS);
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

function arcScore(w: Float32Array | null, tagOf: Int32Array, h: number, m: number): number {
  if (w === null) return 0;
  const htd = htdFeature(S, tagOf[h]!, tagOf[m]!, h < m ? 0 : 1);
  const len = Math.abs(h - m);
  const conj = w.length === A ? w[pairLengthFeature(S, htd, len)]! : 0;
  return w[htd]! + w[lenFeature(S, len)]! + conj;
}

test("joint events: best event, its id and None of every arc equal brute force over Z_a (n ≤ 20, random masks)", () => {
  const rng = new Rng(9);
  const runner = new PruningCascade();
  let arcs = 0;
  for (const crossRoot of [true, false])
    for (const withVine of [true, false])
      for (const withNone of [true, false]) {
        const roles = randomRoles(rng, crossRoot);
        const vine = withVine ? randomArcWeights(rng, 1.5) : null;
        const none = withNone ? randomArcWeights(rng, 1) : null;
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
            ev.prepare(sc, tagOf, mask);
            for (let h = 0; h <= n; h++) {
              ev.scanRow(h, mask);
              for (let m = 1; m <= n; m++) {
                if (!mask.allows(h, m)) {
                  assert.equal(ev.best[m], Number.NEGATIVE_INFINITY);
                  continue;
                }
                arcs++;
                const z = eventsOf(h, m, n, mask, crossRoot, withVine);
                const score = (e: number) => (e === EVENT_VINE ? arcScore(vine, tagOf, h, m) : sc[e]!);
                const want = Math.max(...z.map(score));
                assert.ok(Math.abs(ev.best[m]! - want) < 1e-9, `best of ${h}→${m}: ${ev.best[m]} vs ${want}`);
                assert.ok(z.includes(ev.event[m]!), `event ${ev.event[m]} of ${h}→${m} is not in Z_a`);
                assert.ok(Math.abs(score(ev.event[m]!) - want) < 1e-9);
                assert.ok(Math.abs(ev.none[m]! - arcScore(none, tagOf, h, m)) < 1e-9);
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
  const out = input.clone();
  for (let h = 0; h <= s.n; h++)
    for (let m = 1; m <= s.n; m++) {
      if (!input.allows(h, m)) continue;
      const z = eventsOf(h, m, s.n, input, f.roles.crossRoot, f.hasVine);
      const best = Math.max(...z.map((e) => (e === EVENT_VINE ? arcScore(f.vine, tagOf, h, m) : sc[e]!)));
      if (best - arcScore(f.none, tagOf, h, m) > f.bias) out.remove(h, m);
    }
  return out;
}

test("joint filter: prunes exactly the arcs of the decision rule, only removes, margins agree", () => {
  const rng = new Rng(21);
  const runner = new PruningCascade();
  for (const crossRoot of [true, false])
    for (const [withVine, withNone, pairLength] of [
      [true, true, true],
      [true, true, false],
      [false, true, true],
      [true, false, true],
      [false, false, true],
    ] as const) {
      const f = new JointFilter(
        randomRoles(rng, crossRoot),
        withVine ? randomArcWeights(rng, 1.5, pairLength) : null,
        withNone ? randomArcWeights(rng, 1, pairLength) : null,
        0.8,
        {},
        pairLength,
      );
      let removed = 0;
      let total = 0;
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
      assert.ok(checkOnlyRemoves(f, sents, vocab) > 0);
    }
});

test("joint filter survives a model-file round trip (weights, bias, flags, info) and rejects corrupt files", () => {
  const rng = new Rng(3);
  for (const [withVine, withNone, pairLength] of [
    [true, true, true],
    [true, true, false],
    [false, false, true],
  ] as const) {
    const f = new JointFilter(
      randomRoles(rng, true),
      withVine ? randomArcWeights(rng, 1, pairLength) : null,
      withNone ? randomArcWeights(rng, 1, pairLength) : null,
      0.25,
      { c1: 0.1, c0: 1, alternations: 3, chosen: 2, coverage: 99.5, reduction: 70, target: 99.5 },
      pairLength,
    );
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
  m.meta.lenClasses = 5;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /bad length-class count/);
  m.meta.version = 7;
  assert.throws(() => JointFilter.fromModelData(m, "bad.vpf"), /joint filter version 7/);
});
