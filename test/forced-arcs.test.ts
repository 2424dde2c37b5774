import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import type { Sentence } from "../src/corpus/sentence.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { scoreGrandSiblingTree, scoreSiblingTree } from "../src/decode/parts.js";
import { isTree, treeScore } from "../src/decode/tree-predicates.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { ArcScorer } from "../src/parser/arc-scorer.js";
import type { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { HigherOrderScorer } from "../src/parser/higher-order-scorer.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser, ParseResult } from "../src/parser/types.js";
import { applyArcThreshold, MaxMarginalPass } from "../src/prune/max-marginal-pass.js";
import { Rng } from "../src/util/rng.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(150, 11))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(60, 12))].map((r) => toSentence(r, vocab)).filter((s) => s.n >= 4);
const first = trainParser(train, vocab, { epochs: 2, bits: 16, labelBits: 10 }).parser;
const higher = new Map<2 | 3, HigherOrderParser>();
function higherOrder(order: 2 | 3): HigherOrderParser {
  let p = higher.get(order);
  if (p === undefined) {
    p = trainHigherOrderParser(train, vocab, { order, k: 0, epochs: 1, bits: 16, firstOrder: first }).parser;
    higher.set(order, p);
  }
  return p;
}

/**
 * Random masks of `s` in which about half the modifiers keep only their gold head (forced) and the
 * others keep the gold head and each other head with probability 0.4; with `broken`, one non-forced
 * modifier loses every head, so that no tree is left and the decoders fall back.
 */
function randomMask(s: Sentence, rng: Rng, broken = false): ArcMask {
  const n = s.n;
  const mask = ArcMask.empty(n);
  const open: number[] = [];
  for (let m = 1; m <= n; m++) {
    mask.allow(s.head[m]!, m);
    if (rng.next() < 0.5) continue;
    open.push(m);
    for (let h = 0; h <= n; h++) if (h !== m && rng.next() < 0.4) mask.allow(h, m);
  }
  if (broken) {
    const m = open.length > 0 ? open[rng.int(open.length)]! : 1;
    for (let h = 0; h <= n; h++) mask.remove(h, m);
  }
  return mask;
}

/**
 * Parses `s` under `mask` with forced parts skipped and with every part scored; checks that both
 * give trees and agree on falling back, and that a fallback is the very same decode.
 */
function parseBothWays(p: DependencyParser, s: Sentence, mask: ArcMask): [ParseResult, ParseResult] {
  p.skipForced = true;
  const a = p.parse(s, vocab, mask);
  p.skipForced = false;
  const b = p.parse(s, vocab, mask);
  p.skipForced = true;
  assert.ok(isTree(a.heads));
  assert.equal(a.fallback, b.fallback);
  if (a.fallback) assert.deepEqual(a.heads, b.heads);
  return [a, b];
}

function forcedModifiers(mask: ArcMask): number {
  let k = 0;
  for (let m = 1; m <= mask.n; m++) if (mask.headCount(m) === 1) k++;
  return k;
}

test("ArcScorer.skipForced gives a modifier's only allowed head 0 and scores every other arc as before", () => {
  const q = first.quantizedArcWeights;
  const on = new ArcScorer(q.weights, q.scale);
  on.skipForced = true;
  const off = new ArcScorer(q.weights, q.scale);
  const rng = new Rng(5);
  let forcedSeen = 0;
  for (const s of dev.slice(0, 25)) {
    const mask = randomMask(s, rng);
    const x = first.prepare(s, vocab);
    const a = on.scoreAll(x, mask).slice();
    const b = off.scoreAll(x, mask);
    const size = s.n + 1;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        const i = h * size + m;
        if (!mask.allows(h, m)) assert.equal(a[i], Number.NEGATIVE_INFINITY);
        else if (mask.headCount(m) === 1) assert.equal(a[i], 0);
        else assert.equal(a[i], b[i]);
      }
    assert.equal(on.forced, forcedModifiers(mask));
    assert.equal(on.scored + on.forced, mask.count());
    assert.equal(off.forced, 0);
    assert.equal(off.scored, mask.count());
    forcedSeen += on.forced;
    // Without a mask nothing is forced.
    on.scoreAll(x, null);
    assert.equal(on.forced, 0);
  }
  assert.ok(forcedSeen > 50, `${forcedSeen} forced arcs`);
});

test("first-order parses skipping forced arcs find trees as good as with every arc scored, fallbacks included", () => {
  const q = first.quantizedArcWeights;
  const full = new ArcScorer(q.weights, q.scale);
  const rng = new Rng(7);
  let fallbacks = 0;
  for (const broken of [false, true])
    for (const s of dev.slice(0, 40)) {
      const mask = randomMask(s, rng, broken);
      const [a, b] = parseBothWays(first, s, mask);
      const forced = forcedModifiers(mask);
      if (a.fallback) {
        fallbacks++;
        // A fallback decodes again with every arc scored.
        assert.equal(a.arcsScored, mask.count() - forced + (forced > 0 ? mask.count() : 0));
      } else assert.equal(a.arcsScored, mask.count() - forced);
      const scores = full.scoreAll(first.prepare(s, vocab), null);
      const sa = treeScore(a.heads, scores, s.n);
      const sb = treeScore(b.heads, scores, s.n);
      assert.ok(Math.abs(sa - sb) <= 1e-9 * (1 + Math.abs(sb)), `${sa} against ${sb}`);
      assert.deepEqual(a.labels, first.label(first.prepare(s, vocab), a.heads));
    }
  assert.ok(fallbacks >= 20, `${fallbacks} fallbacks`);
});

for (const order of [2, 3] as const) {
  test(`order ${order}: parses skipping forced arcs find trees as good as with every arc scored`, () => {
    const p = higherOrder(order);
    const full = new HigherOrderScorer(p.weights, 1, p.config.partBits);
    const rng = new Rng(order);
    for (const broken of [false, true])
      for (const s of dev.slice(0, 25)) {
        const mask = randomMask(s, rng, broken);
        const [a, b] = parseBothWays(p, s, mask);
        if (!a.fallback) assert.equal(a.arcsScored, mask.count() - forcedModifiers(mask));
        full.prepare(first.prepare(s, vocab), ArcMask.full(s.n));
        const score = order === 2 ? scoreSiblingTree : scoreGrandSiblingTree;
        const sa = score(a.heads, full);
        const sb = score(b.heads, full);
        assert.ok(Math.abs(sa - sb) <= 1e-6 * (1 + Math.abs(sb)), `${sa} against ${sb}`);
      }
  });
}

test("max-marginal passes skipping forced arcs keep the same arcs; max-marginals move by one constant", () => {
  const passes = [
    [
      MaxMarginalPass.fromFloats(1, first.arcWeights, 0.5),
      MaxMarginalPass.fromFloats(1, first.arcWeights, 0.5),
    ],
    [
      MaxMarginalPass.fromFloats(1, first.arcWeights, 0.3, "coarse"),
      MaxMarginalPass.fromFloats(1, first.arcWeights, 0.3, "coarse"),
    ],
    [
      MaxMarginalPass.fromFloats(2, higherOrder(2).weights, 0.6),
      MaxMarginalPass.fromFloats(2, higherOrder(2).weights, 0.6),
    ],
  ] as const;
  const rng = new Rng(9);
  let pruned = 0;
  for (const [on, off] of passes) {
    assert.equal(on.skipForced, true);
    off.skipForced = false;
    for (const s of dev.slice(0, 30)) {
      const mask = randomMask(s, rng);
      const x = first.prepare(s, vocab);
      const a = on.maxMarginals(x, mask);
      const ma = a.marginals.slice();
      const b = off.maxMarginals(x, mask);
      // Every tree holds each forced arc: one constant (the forced arcs' scores) separates the two.
      const shift = b.best - a.best;
      for (let i = 0; i < (s.n + 1) ** 2; i++) {
        if (ma[i] === Number.NEGATIVE_INFINITY) assert.equal(b.marginals[i], Number.NEGATIVE_INFINITY);
        else assert.ok(Math.abs(ma[i]! + shift - b.marginals[i]!) <= 1e-6 * (1 + Math.abs(b.best)));
      }
      const ka = ArcMask.empty(s.n);
      ka.bits.set(mask.bits);
      const kb = ArcMask.empty(s.n);
      kb.bits.set(mask.bits);
      on.prune({ sentence: s, vocab, atoms: x }, ka);
      off.prune({ sentence: s, vocab, atoms: x }, kb);
      assert.deepEqual(ka.bits, kb.bits);
      pruned += mask.count() - ka.count();
    }
  }
  assert.ok(pruned > 100, `${pruned} arcs pruned`);
});

test("a first-order pass's mean and threshold over the mask's listed cells equal those over every cell", () => {
  const rng = new Rng(13);
  let listed = 0;
  let pruned = 0;
  for (const pass of [
    MaxMarginalPass.fromFloats(1, first.arcWeights, 0.5),
    MaxMarginalPass.fromFloats(1, first.arcWeights, 0.2, "coarse"),
  ])
    for (const s of dev.slice(0, 30)) {
      const n = s.n;
      const mask = randomMask(s, rng);
      const x = first.prepare(s, vocab);
      const mm = pass.maxMarginals(x, mask);
      assert.ok(mm.cells !== undefined && mm.cellCount === mask.count());
      listed++;
      // The mean of every finite max-marginal, summed cell by cell over the whole table.
      let arcs = 0;
      let sum = 0;
      for (let i = 0; i < (n + 1) ** 2; i++)
        if (mm.marginals[i]! > Number.NEGATIVE_INFINITY) {
          arcs++;
          sum += mm.marginals[i]!;
        }
      assert.equal(mm.arcs, arcs);
      assert.equal(mm.mean, arcs > 0 ? sum / arcs : mm.best);
      // Thresholds between the mean and the best: the listed cells and a scan of every cell agree.
      for (const t of [mm.mean, (mm.mean + mm.best) / 2, mm.best]) {
        const viaList = ArcMask.empty(n);
        viaList.bits.set(mask.bits);
        applyArcThreshold(mm, t, viaList);
        const viaAll = ArcMask.empty(n);
        viaAll.bits.set(mask.bits);
        applyArcThreshold({ ...mm, cells: undefined, cellCount: undefined }, t, viaAll);
        assert.deepEqual(viaList.bits, viaAll.bits);
        pruned += mask.count() - viaList.count();
      }
    }
  assert.equal(listed, 60);
  assert.ok(pruned > 100, `${pruned} arcs pruned`);
});
