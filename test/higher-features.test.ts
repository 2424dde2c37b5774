import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { createFirstOrderDecoder } from "../src/decode/first-order-factory.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../src/features/first-order.js";
import {
  GRAND_FEATURES,
  GRAND_SIBLING_FEATURES,
  grandDir,
  grandFeatures,
  grandSiblingFeatures,
  NO_GRANDPARENT,
} from "../src/features/grand.js";
import {
  NO_SIBLING,
  noSiblingFeatures,
  SIBLING_FEATURES,
  SIBLING_PAIR_FEATURES,
  SIBLING_TRIPLE_BITS,
  siblingFeatures,
  siblingPairFeatures,
} from "../src/features/sibling.js";
import { HigherOrderScorer } from "../src/parser/higher-order-scorer.js";
import { TopKPruner } from "../src/prune/top-k.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { finish, mix } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";

// "the big dog saw a cat ." — 7 tokens.
const CONLLU = `1\tthe\tthe\tDET\tDT\t_\t3\tdet\t_\t_
2\tbig\tbig\tADJ\tJJ\t_\t3\tamod\t_\t_
3\tdog\tdog\tNOUN\tNN\t_\t4\tnsubj\t_\t_
4\tsaw\tsee\tVERB\tVBD\t_\t0\troot\t_\t_
5\ta\ta\tDET\tDT\t_\t6\tdet\t_\t_
6\tcat\tcat\tNOUN\tNN\t_\t4\tobj\t_\t_
7\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_

`;
const vocab = new Vocabularies();
const sentence = toSentence([...parseConllu(CONLLU)][0]!, vocab);
const x = new AtomCache().prepare(sentence, vocab, new FeatureSentence());
const BITS = 16;
const MASK = (1 << BITS) - 1;

function feats(fn: (out: Int32Array) => number): number[] {
  const out = new Int32Array(64);
  const k = fn(out);
  return Array.from(out.subarray(0, k));
}

test("sibling triple features stay in the table's first 2^SIBLING_TRIPLE_BITS weights; pair features do not", () => {
  const big = (1 << 23) - 1;
  const region = 1 << SIBLING_TRIPLE_BITS;
  let pairsOutside = 0;
  for (let h = 0; h <= x.n; h++)
    for (let m = 1; m <= x.n; m++) {
      if (h === m) continue;
      const sibs = [h];
      for (let s = Math.min(h, m) + 1; s < Math.max(h, m); s++) if (s !== h) sibs.push(s);
      for (const s of sibs) {
        const f = feats((o) => siblingFeatures(x, h, s, m, o, big));
        for (const i of f.slice(SIBLING_PAIR_FEATURES)) assert.ok(i < region, `triple index ${i}`);
        pairsOutside += f.slice(0, SIBLING_PAIR_FEATURES).filter((i) => i >= region).length;
      }
    }
  assert.ok(pairsOutside > 0, "pair features use the whole table");
});

test("sibling features: fixed counts, in range, deterministic", () => {
  for (const [h, s, m] of [
    [4, 4, 6],
    [4, 6, 7],
    [4, 3, 1],
    [3, 2, 1],
    [0, 0, 4],
  ] as const) {
    const a = feats((o) => siblingFeatures(x, h, s, m, o, MASK));
    const b = feats((o) => siblingFeatures(x, h, s, m, o, MASK));
    assert.equal(a.length, SIBLING_FEATURES);
    assert.deepEqual(a, b);
    for (const i of a) assert.ok(i >= 0 && i <= MASK);
  }
});

test("sibling pair features do not depend on the head; triple features do", () => {
  // (s, m) = (5, 6) under two different heads (both to the left of s).
  const a = feats((o) => siblingFeatures(x, 4, 5, 6, o, MASK));
  const b = feats((o) => siblingFeatures(x, 3, 5, 6, o, MASK));
  const pair = feats((o) => siblingPairFeatures(x, 5, 6, o, 0, MASK));
  assert.deepEqual(a.slice(0, SIBLING_PAIR_FEATURES), pair);
  assert.deepEqual(b.slice(0, SIBLING_PAIR_FEATURES), pair);
  assert.notDeepEqual(a.slice(SIBLING_PAIR_FEATURES), b.slice(SIBLING_PAIR_FEATURES));
});

test("no-sibling part (s = h): hand-computed tag-pair feature with the NO_SIBLING atom", () => {
  const a = feats((o) => siblingFeatures(x, 4, 4, 6, o, MASK));
  assert.deepEqual(
    a,
    feats((o) => noSiblingFeatures(x, 4, 6, o, 0, MASK)),
  );
  // Template 101: (sibling XPOS, modifier XPOS, direction right = 1).
  assert.equal(a[0], finish(mix(mix(mix(101, NO_SIBLING), x.xpos[6]!), 1)) & MASK);
  // Template 111 (XPOS of h and m, direction, then the sibling) is the first triple feature.
  assert.equal(
    a[SIBLING_PAIR_FEATURES],
    finish(mix(mix(mix(mix(111, x.xpos[4]!), x.xpos[6]!), 1), NO_SIBLING)) & MASK,
  );
  // A real sibling gives different features than none.
  const b = feats((o) => siblingFeatures(x, 4, 5, 6, o, MASK));
  assert.notEqual(a[0], b[0]);
  // Direction matters: left "no sibling" part of the same tags differs from a right one.
  const left = feats((o) => siblingFeatures(x, 4, 4, 3, o, MASK));
  assert.equal(left[0], finish(mix(mix(mix(101, NO_SIBLING), x.xpos[3]!), 2)) & MASK);
});

test("every sibling template is conjoined with direction: mirrored parts share no feature", () => {
  // "a b c b a": tokens mirrored around 3, so (3, 2, 1) and (3, 4, 5) see the same words and tags.
  const rows = ["a\tDET\tDT", "b\tADJ\tJJ", "c\tNOUN\tNN", "b\tADJ\tJJ", "a\tDET\tDT"].map((r, i) => {
    const [w, c, p] = r.split("\t");
    return `${i + 1}\t${w}\t${w}\t${c}\t${p}\t_\t${i === 2 ? 0 : 3}\tdep\t_\t_`;
  });
  const v = new Vocabularies();
  const y = new AtomCache().prepare(
    toSentence([...parseConllu(`${rows.join("\n")}\n\n`)][0]!, v),
    v,
    new FeatureSentence(),
  );
  const big = (1 << 30) - 1;
  for (const [left, right] of [
    [
      [3, 2, 1],
      [3, 4, 5],
    ],
    [
      [3, 3, 2],
      [3, 3, 4],
    ],
  ] as const) {
    const l = feats((o) => siblingFeatures(y, left[0], left[1], left[2], o, big));
    const r = new Set(feats((o) => siblingFeatures(y, right[0], right[1], right[2], o, big)));
    assert.equal(l.length, SIBLING_FEATURES);
    for (const f of l) assert.ok(!r.has(f), `feature ${f} shared by mirrored parts`);
  }
});

test("grandparent and grand-sibling features: counts, root grandparent, hand checks", () => {
  const g = feats((o) => grandFeatures(x, 4, 6, 5, o, MASK));
  assert.equal(g.length, GRAND_FEATURES);
  assert.equal(grandDir(4, 6, 5), (1 << 2) | 2);
  assert.equal(g[0], finish(mix(mix(mix(mix(201, x.xpos[4]!), x.xpos[6]!), x.xpos[5]!), 6)) & MASK);
  const r = feats((o) => grandFeatures(x, -1, 0, 4, o, MASK));
  assert.equal(grandDir(-1, 0, 4), (3 << 2) | 1);
  assert.equal(r[0], finish(mix(mix(mix(mix(201, NO_GRANDPARENT), x.xpos[0]!), x.xpos[4]!), 13)) & MASK);
  const gs = feats((o) => grandSiblingFeatures(x, 4, 6, 6, 5, o, MASK));
  assert.equal(gs.length, GRAND_SIBLING_FEATURES);
  assert.equal(
    gs[0],
    finish(mix(mix(mix(mix(mix(301, x.xpos[4]!), x.xpos[6]!), x.xpos[5]!), 6), NO_SIBLING)) & MASK,
  );
  assert.deepEqual(
    gs,
    feats((o) => grandSiblingFeatures(x, 4, 6, 6, 5, o, MASK)),
  );
  assert.notDeepEqual(
    gs,
    feats((o) => grandSiblingFeatures(x, 0, 6, 6, 5, o, MASK)),
  );
});

test("HigherOrderScorer sums exactly the weights of each part's features; scores only allowed arcs", () => {
  const rng = new Rng(7);
  const w = new Float32Array(1 << BITS);
  for (let i = 0; i < w.length; i++) w[i] = rng.next() - 0.5;
  const sc = new HigherOrderScorer(w);
  const mask = ArcMask.full(x.n);
  mask.remove(2, 6);
  mask.remove(0, 1);
  sc.prepare(x, mask);
  assert.equal(sc.arcsScored, mask.count());
  const sum = (idx: number[]) => idx.reduce((a, i) => a + w[i]!, 0);
  const buf = new Int32Array(MAX_ARC_FEATURES);
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  close(sc.arc(4, 6), sum(Array.from(buf.subarray(0, arcFeatures(x, 4, 6, buf, MASK)))));
  for (const [h, s, m] of [
    [4, 4, 6],
    [4, 6, 7],
    [4, 3, 1],
    [4, 3, 1],
    [0, 0, 4],
  ] as const) {
    close(sc.sib(h, s, m), sum(feats((o) => siblingFeatures(x, h, s, m, o, MASK))));
  }
  close(sc.grand(0, 4, 6), sum(feats((o) => grandFeatures(x, 0, 4, 6, o, MASK))));
  close(sc.gsib(-1, 4, 3, 1), sum(feats((o) => grandSiblingFeatures(x, -1, 4, 3, 1, o, MASK))));
  // A pruned arc asked for after a decoder fallback is scored on demand.
  close(sc.arc(2, 6), sum(Array.from(buf.subarray(0, arcFeatures(x, 2, 6, buf, MASK)))));
});

test("TopKPruner keeps each token's k best heads inside the caller's mask", () => {
  const rng = new Rng(3);
  const w = new Float32Array(1 << BITS);
  for (let i = 0; i < w.length; i++) w[i] = rng.next() - 0.5;
  const scores = new HigherOrderScorer(w);
  scores.prepare(x, ArcMask.full(x.n));
  for (const k of [1, 2, 3]) {
    const mask = new TopKPruner(w, k, Number.POSITIVE_INFINITY, "score").maskOf(x, null);
    for (let m = 1; m <= x.n; m++) {
      assert.equal(mask.headCount(m), k);
      // Every kept head outscores every dropped one.
      let minKept = Number.POSITIVE_INFINITY;
      let maxDropped = Number.NEGATIVE_INFINITY;
      for (let h = 0; h <= x.n; h++) {
        if (h === m) continue;
        const v = scores.arc(h, m);
        if (mask.allows(h, m)) minKept = Math.min(minKept, v);
        else maxDropped = Math.max(maxDropped, v);
      }
      assert.ok(minKept >= maxDropped);
    }
  }
  const caller = ArcMask.fromHeads(sentence.head, x.n);
  const m2 = new TopKPruner(w, 3).maskOf(x, caller);
  assert.deepEqual(Array.from(m2.bits), Array.from(caller.bits));
  // A margin of 0 keeps only the best head(s).
  const m3 = new TopKPruner(w, 5, 0, "score").maskOf(x, null);
  for (let m = 1; m <= x.n; m++) assert.equal(m3.headCount(m), 1);
});

test("TopKPruner by max-marginal: top-1 is the first-order best projective tree; top-k ⊇ top-1", () => {
  const rng = new Rng(11);
  const w = new Float32Array(1 << BITS);
  for (let i = 0; i < w.length; i++) w[i] = rng.next() - 0.5;
  const scorer = new HigherOrderScorer(w);
  scorer.prepare(x, ArcMask.full(x.n));
  const size = x.n + 1;
  const scores = new Float64Array(size * size).fill(Number.NEGATIVE_INFINITY);
  for (let h = 0; h <= x.n; h++)
    for (let m = 1; m <= x.n; m++) if (h !== m) scores[h * size + m] = scorer.arc(h, m);
  const best = createFirstOrderDecoder("eisner").decode(x.n, scores, null).heads;
  const top1 = new TopKPruner(w, 1).maskOf(x, null);
  assert.deepEqual(Array.from(top1.bits), Array.from(ArcMask.fromHeads(best, x.n).bits));
  const top3 = new TopKPruner(w, 3).maskOf(x, null);
  for (let m = 1; m <= x.n; m++) {
    assert.ok(top3.allows(best[m]!, m));
    assert.ok(top3.headCount(m) <= 3);
  }
});
