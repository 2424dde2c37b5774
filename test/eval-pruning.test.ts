import assert from "node:assert/strict";
import { test } from "node:test";
import { LostGoldArcs, oracleReduction, PruningEvaluator } from "../src/eval/pruning.js";
import { ArcMask } from "../src/mask/arc-mask.js";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

test("no pruning: every arc kept, full coverage, zero reduction", () => {
  const ev = new PruningEvaluator();
  ev.add(ArcMask.full(3), [-1, 2, 0, 2]);
  ev.add(ArcMask.full(1), [-1, 0]);
  const s = ev.scores();
  assert.equal(s.sentences, 2);
  assert.equal(s.tokens, 4);
  assert.equal(s.arcs, 10); // 3² + 1²
  assert.equal(s.kept, 10);
  assert.equal(s.coverage, 100);
  assert.equal(s.reduction, 0);
  assert.equal(s.sentenceCoverage, 100);
  close(s.oracleReduction, 60); // 1 − 4/10
  close(s.headsPerToken, 2.5);
});

test("oracle mask: reduction equals the oracle bound", () => {
  const ev = new PruningEvaluator();
  const heads = [-1, 2, 0, 2, 3];
  ev.add(ArcMask.fromHeads(heads, 4), heads);
  const s = ev.scores();
  assert.equal(s.arcs, 16);
  assert.equal(s.kept, 4);
  assert.equal(s.coverage, 100);
  close(s.reduction, 75);
  close(s.oracleReduction, 75);
  assert.equal(s.headsPerToken, 1);
});

test("hand-counted partial masks over a corpus", () => {
  const ev = new PruningEvaluator();
  // Sentence A (n = 3, gold heads 2 0 2): keep only adjacent arcs and root arcs.
  const a = ArcMask.empty(3);
  for (let m = 1; m <= 3; m++) {
    a.allow(0, m);
    if (m > 1) a.allow(m - 1, m);
    if (m < 3) a.allow(m + 1, m);
  }
  // kept: root→1,2,3 (3) + 2→1, 1→2, 3→2, 2→3 (4) = 7; gold 2→1 ✓, 0→2 ✓, 2→3 ✓.
  ev.add(a, [-1, 2, 0, 2]);
  // Sentence B (n = 2, gold heads 0 1): drop the gold arc 1→2, keep 0→1, 0→2, 2→1.
  const b = ArcMask.full(2);
  b.remove(1, 2);
  ev.add(b, [-1, 0, 1]);
  const s = ev.scores();
  assert.equal(s.arcs, 13);
  assert.equal(s.kept, 10);
  assert.equal(s.goldKept, 4);
  assert.equal(s.sentencesAllKept, 1);
  close(s.coverage, 80);
  close(s.reduction, (100 * 3) / 13);
  close(s.oracleReduction, 100 * (1 - 5 / 13));
  close(s.sentenceCoverage, 50);
  assert.deepEqual(ev.counts, {
    sentences: 2,
    tokens: 5,
    arcs: 13,
    kept: 10,
    goldKept: 4,
    sentencesAllKept: 1,
  });
  const other = new PruningEvaluator().merge(ev).merge(ev);
  assert.equal(other.counts.kept, 20);
  ev.reset();
  assert.equal(ev.scores().coverage, 0);
});

test("oracleReduction of an empty corpus is 0", () => {
  assert.equal(oracleReduction(0, 0), 0);
  assert.equal(new PruningEvaluator().scores().reduction, 0);
});

test("a mask smaller than its gold tree is a bug and throws", () => {
  assert.throws(() => new PruningEvaluator().add(ArcMask.full(3), [-1, 0]));
});

test("lost gold arcs: hand-counted totals, non-punctuation and per relation", () => {
  const PUNCT = 7;
  const lost = new LostGoldArcs(PUNCT);
  // n = 4, gold heads 2 0 2 2; relations 10 11 12 13; token 4 is punctuation.
  const mask = ArcMask.full(4);
  mask.remove(2, 1); // lost: relation 10
  mask.remove(2, 4); // lost: relation 13, punctuation
  mask.remove(3, 1); // not gold: not counted
  lost.add(mask, [-1, 2, 0, 2, 2], [0, 10, 11, 12, 13], [0, 1, 2, 1, PUNCT]);
  // n = 2, gold heads 0 1; relations 11 10; the gold arc 1→2 is lost.
  const b = ArcMask.full(2);
  b.remove(1, 2);
  lost.add(b, [-1, 0, 1], [0, 11, 10], [0, 1, 1]);
  assert.equal(lost.gold, 6);
  assert.equal(lost.lost, 3);
  assert.equal(lost.goldNoPunct, 5);
  assert.equal(lost.lostNoPunct, 2);
  assert.deepEqual(lost.mostLost(), [
    { relation: 10, gold: 2, lost: 2 },
    { relation: 13, gold: 1, lost: 1 },
  ]);
  assert.deepEqual(lost.byRelation.get(11), { gold: 2, lost: 0 });
  assert.throws(() => lost.add(ArcMask.full(3), [-1, 0], [0, 1], [0, 1]), /gold arrays are shorter/);
});
