import assert from "node:assert/strict";
import { test } from "node:test";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import { PruningEvaluator } from "../src/eval/pruning.js";
import { trainLinearSvm } from "../src/learn/linear-svm.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { prunerFromModelData } from "../src/prune/load-pruner.js";
import { emptyRules, type PosRules, PosRulesPruner } from "../src/prune/pos-rules.js";
import {
  type AggregatedProblem,
  exactRuleLearner,
  type RuleClassifierWeights,
  ruleDecision,
  ruleObjective,
} from "../src/prune/rule-learner.js";
import { SparseRowsBuilder } from "../src/prune/sparse-rows.js";
import { HEAD_LEFT, HEAD_RIGHT, tripleIndex } from "../src/prune/tag-arc-counts.js";
import { TagMap } from "../src/prune/tag-map.js";
import {
  RULE_CLASSIFIERS,
  type RuleClassifier,
  ruleProblems,
  rulesFromWeights,
  trainRules,
} from "../src/prune/train-rules.js";
import { Rng } from "../src/util/rng.js";
import { checkRoundTrip } from "./filter-round-trip.js";
import { checkOnlyRemoves, RandomDropPass } from "./prune-helpers.js";
import { noisyTags, sentencesOf, tinySentences } from "./tiny-treebank.js";
import { toyTreebank } from "./toy-treebank.js";

const problem = (pos: number[], neg: number[]): AggregatedProblem => ({
  pos: Float64Array.from(pos),
  neg: Float64Array.from(neg),
});

/** Subdifferential [lo, hi] of A·max(0, 1 − u) + B·max(0, 1 + u) at u (kinks within tol). */
function hingeSubgradient(A: number, B: number, u: number, tol: number): [number, number] {
  const lo = u < -1 + tol ? -A : u < 1 + tol ? B - A : B;
  const hi = u > 1 - tol ? B : u > -1 - tol ? B - A : -A;
  return [Math.min(lo, hi), Math.max(lo, hi)];
}

/**
 * KKT certificate of the rule SVM optimum: with g_f = −w_f, each g_f must be a subgradient of feature
 * f's hinges at u_f = w_f + β·bias, and the bias gradient bias + β·Σ g_f must vanish.
 */
function checkKkt(p: AggregatedProblem, c1: number, c2: number, r: RuleClassifierWeights): void {
  const z = r.biasValue * r.bias;
  let sum = 0;
  for (let f = 0; f < p.pos.length; f++) {
    const A = c1 * p.pos[f]!;
    const B = c2 * p.neg[f]!;
    const [lo, hi] = hingeSubgradient(A, B, r.w[f]! + z, 1e-9);
    const g = -r.w[f]!;
    const tol = 1e-9 * (1 + A + B);
    assert.ok(g >= lo - tol && g <= hi + tol, `feature ${f}: −w = ${g} not in [${lo}, ${hi}]`);
    sum += g;
  }
  assert.ok(Math.abs(r.bias + r.biasValue * sum) < 1e-7, `bias gradient ${r.bias + r.biasValue * sum}`);
}

/** Minimum of a convex function on [lo, hi] by ternary search. */
function ternary(f: (x: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const a = lo + (hi - lo) / 3;
    const b = hi - (hi - lo) / 3;
    if (f(a) <= f(b)) hi = b;
    else lo = a;
  }
  return (lo + hi) / 2;
}

/** The rule SVM optimum by brute force: an outer 1-D search on the bias over inner 1-D searches per weight. */
function bruteForce(p: AggregatedProblem, c1: number, c2: number, beta: number): number {
  const inner = (bias: number) => {
    const z = beta * bias;
    let obj = 0.5 * bias * bias;
    for (let f = 0; f < p.pos.length; f++) {
      const A = c1 * p.pos[f]!;
      const B = c2 * p.neg[f]!;
      const h = (w: number) => 0.5 * w * w + A * Math.max(0, 1 - w - z) + B * Math.max(0, 1 + w + z);
      obj += h(ternary(h, -B - 2, A + 2));
    }
    return obj;
  };
  let sumA = 0;
  let sumB = 0;
  for (let f = 0; f < p.pos.length; f++) {
    sumA += c1 * p.pos[f]!;
    sumB += c2 * p.neg[f]!;
  }
  return beta === 0 ? inner(0) : inner(ternary(inner, -beta * sumB - 1, beta * sumA + 1));
}

test("rule learner: without a bias the optimum is clamp(c1·pos − c2·neg, −1, 1) per feature", () => {
  const p = problem([5, 0, 2, 1, 0, 30], [0, 4, 0, 3, 0, 1]);
  const r = exactRuleLearner(p, 0.3, 0.9, 0);
  assert.equal(r.bias, 0);
  const want = [1, -1, 0.6, 0.3 - 2.7, 0, 1].map((x) => Math.max(-1, Math.min(1, x)));
  r.w.forEach((w, f) => assert.ok(Math.abs(w - want[f]!) < 1e-12, `feature ${f}: ${w}`));
  checkKkt(p, 0.3, 0.9, r);
});

test("rule learner: a hand-worked bias turns off a rare structural zero", () => {
  // f0: c1·pos = 0.2, never true; f1: c2·neg = 5, never removable. With β = 1 the optimum has
  // w0 = 0.2 (between the kinks), w1 = −1 − bias (at u = −1) and bias = w0 + w1, so bias = −0.4:
  // f0's decision is 0.2 − 0.4 < 0, although without a bias f0 is a rule (w0 = 0.2 > 0).
  const p = problem([2, 0], [0, 5]);
  const r = exactRuleLearner(p, 0.1, 1, 1);
  assert.ok(Math.abs(r.bias + 0.4) < 1e-12, `bias ${r.bias}`);
  assert.ok(Math.abs(r.w[0]! - 0.2) < 1e-12 && Math.abs(r.w[1]! + 0.6) < 1e-12);
  assert.ok(ruleDecision(r, 0) < 0);
  assert.ok(ruleDecision(exactRuleLearner(p, 0.1, 1, 0), 0) > 0);
  checkKkt(p, 0.1, 1, r);
});

test("rule learner: exact optimum meets KKT and matches brute-force 1-D minimisation on random problems", () => {
  const rng = new Rng(11);
  for (let trial = 0; trial < 60; trial++) {
    const F = 1 + rng.int(8);
    const pos: number[] = [];
    const neg: number[] = [];
    for (let f = 0; f < F; f++) {
      pos.push(rng.next() < 0.2 ? 0 : rng.int(rng.next() < 0.5 ? 5 : 500));
      neg.push(rng.next() < 0.4 ? 0 : rng.int(rng.next() < 0.5 ? 3 : 50));
    }
    const p = problem(pos, neg);
    const c1 = 10 ** (-4 + 4 * rng.next());
    const c2 = c1 * 10 ** (3 * rng.next());
    const beta = [0, 0.5, 1, 2][rng.int(4)]!;
    const r = exactRuleLearner(p, c1, c2, beta);
    checkKkt(p, c1, c2, r);
    const exact = ruleObjective(p, c1, c2, r);
    const brute = bruteForce(p, c1, c2, beta);
    assert.ok(exact <= brute + 1e-9 * (1 + brute), `trial ${trial}: exact ${exact} > brute ${brute}`);
    assert.ok(brute <= exact + 1e-6 * (1 + exact), `trial ${trial}: brute ${brute} ≪ exact ${exact}`);
  }
});

test("rule learner: the linear SVM (dual CD with a bias feature) reaches the exact weights", () => {
  // Each feature's positive and negative examples become two weighted rows [f: 1, bias: β].
  const p = problem([40, 0, 12, 7, 3, 0, 90, 1], [0, 25, 0, 3, 0, 0, 2, 0]);
  const F = p.pos.length;
  for (const [c1, c2, beta] of [
    [0.05, 0.5, 1],
    [0.01, 2, 1],
    [0.2, 0.2, 0.5],
    [0.05, 0.5, 0],
  ] as const) {
    const b = new SparseRowsBuilder();
    const labels: number[] = [];
    const cost: number[] = [];
    for (let f = 0; f < F; f++)
      for (const [y, count, c] of [
        [1, p.pos[f]!, c1],
        [-1, p.neg[f]!, c2],
      ] as const) {
        if (count === 0) continue;
        b.add(Int32Array.from([f, F]), Float32Array.from([1, beta]), 2);
        labels.push(y);
        cost.push(c * count);
      }
    const x = b.build();
    const svm = trainLinearSvm(
      x,
      Int32Array.from(labels.map((_, i) => i)),
      Int8Array.from(labels),
      Float64Array.from(cost),
      F + 1,
      { eps: 1e-9, maxIter: 200000 },
    );
    assert.ok(svm.converged, `C1 ${c1}, C2 ${c2}, β ${beta}: not converged`);
    const exact = exactRuleLearner(p, c1, c2, beta);
    for (let f = 0; f < F; f++)
      assert.ok(
        Math.abs(svm.w[f]! - exact.w[f]!) < 1e-5,
        `feature ${f}: SVM ${svm.w[f]} vs exact ${exact.w[f]}`,
      );
    assert.ok(Math.abs(svm.w[F]! - exact.bias) < 1e-5, `bias: SVM ${svm.w[F]} vs exact ${exact.bias}`);
  }
});

// Tags D, N, V, . (dense ids 1..4).
const TINY = ["D:2 N:3 V:0 .:3", "D:2 N:3 V:0 D:5 N:3 .:3", "N:2 V:0 .:2"];

test("rules: hand-counted aggregated problems and the rules they give without a bias", () => {
  const vocab = new Vocabularies();
  const train = tinySentences(TINY, vocab);
  const tm = new TagMap(TagMap.collect(train, vocab, "upos"), "upos");
  assert.deepEqual(tm.tags, ["D", "N", "V", "."]);
  const P = ruleProblems(train, vocab, tm);
  const at = (k: RuleClassifier) => [1, 2, 3, 4].map((t) => [P[k].pos[t], P[k].neg[t]]);
  assert.deepEqual(at("notHead"), [
    [3, 0],
    [1, 3],
    [0, 3],
    [3, 0],
  ]);
  assert.deepEqual(at("noHeadLeft"), [
    [3, 0],
    [3, 1],
    [3, 0],
    [0, 3],
  ]);
  assert.deepEqual(at("noHeadRight"), [
    [0, 3],
    [1, 3],
    [3, 0],
    [3, 0],
  ]);
  assert.deepEqual(at("notRoot"), [
    [3, 0],
    [4, 0],
    [0, 3],
    [3, 0],
  ]);
  const S = tm.size;
  // D heads no N on its right (4 candidate arcs); N heads the D on its left in 3 of 4 candidates.
  const dn = tripleIndex(HEAD_LEFT, 1, 2, S);
  const nd = tripleIndex(HEAD_RIGHT, 2, 1, S);
  assert.deepEqual([P.pairs.pos[dn], P.pairs.neg[dn]], [4, 0]);
  assert.deepEqual([P.pairs.pos[nd], P.pairs.neg[nd]], [1, 3]);
  // Without a bias a feature is a rule iff c1·pos > c2·neg: with C2/C1 = 3, N keeps its left heads.
  const r = trainRules(train, undefined, vocab, { learner: exactRuleLearner, c1: 1, ratio: 3, biasValue: 0 });
  const rules = r.pass.rules;
  assert.deepEqual(rules.notHead, ["D", "."]);
  assert.deepEqual(rules.noHeadLeft, ["D", "V"]);
  assert.deepEqual(rules.noHeadRight, ["V", "."]);
  assert.deepEqual(rules.notRoot, ["D", "N", "."]);
  assert.ok(rules.pairsHeadLeft.some(([h, m]) => h === "D" && m === "N"));
  assert.ok(!rules.pairsHeadRight.some(([h, m]) => h === "N" && m === "D"));
  // The rules lose no training arc (every rule is a structural zero here).
  assert.equal(evaluateCascade(new PruningCascade([r.pass]), train, vocab).scores.coverage, 100);
});

test("rules: the pass removes exactly the arcs its rules name", () => {
  const rules: PosRules = {
    notHead: ["D"],
    noHeadLeft: ["V"],
    noHeadRight: ["."],
    notRoot: ["D"],
    pairsHeadLeft: [["N", "."]],
    pairsHeadRight: [["V", "D"]],
  };
  const pass = new PosRulesPruner(rules, "upos");
  const vocab = new Vocabularies();
  const s = tinySentences(["D:2 N:3 V:0 .:3 D:2 X:3"], vocab)[0]!;
  const tags = ["ROOT", "D", "N", "V", ".", "D", "X"];
  const mask = new PruningCascade([pass]).prune(s, vocab);
  const has = (list: string[], t: string) => list.includes(t);
  const pair = (list: [string, string][], h: string, m: string) => list.some((p) => p[0] === h && p[1] === m);
  for (let h = 0; h <= s.n; h++)
    for (let m = 1; m <= s.n; m++) {
      if (h === m) continue;
      const th = tags[h]!;
      const tm = tags[m]!;
      const removed =
        (h === 0 && has(rules.notRoot, tm)) ||
        (h > 0 && has(rules.notHead, th)) ||
        (h > 0 && h < m && (has(rules.noHeadLeft, tm) || pair(rules.pairsHeadLeft, th, tm))) ||
        (h > m && (has(rules.noHeadRight, tm) || pair(rules.pairsHeadRight, th, tm)));
      assert.equal(mask.allows(h, m), !removed, `${h} (${th}) → ${m} (${tm})`);
    }
  assert.equal(pass.size, 6);
  // Table 1 notation: arrows point at the head.
  const shown = pass.describe();
  assert.match(shown, /not a head\s+D\n/);
  assert.match(shown, /no h←m\s+N←\.\n/);
  assert.match(shown, /no m→h\s+D→V\n/);
  // No rules: nothing removed.
  const none = new PosRulesPruner(emptyRules(), "upos");
  assert.equal(new PruningCascade([none]).prune(s, vocab).count(), ArcMask.full(s.n).count());
});

/** Per classifier: "off", then each distinct rule set the grid gives (as `trainRules` builds its options). */
function ruleSets(
  P: Record<RuleClassifier, AggregatedProblem>,
  c1s: number[],
  ratios: number[],
): Record<RuleClassifier, Uint8Array[]> {
  const out = {} as Record<RuleClassifier, Uint8Array[]>;
  for (const k of RULE_CLASSIFIERS) {
    const size = P[k].pos.length;
    const sets = [new Uint8Array(size)];
    for (const c1 of c1s)
      for (const ratio of ratios) {
        const w = exactRuleLearner(P[k], c1, c1 * ratio, 1);
        const fire = Uint8Array.from({ length: size }, (_, f) =>
          P[k].pos[f]! + P[k].neg[f]! > 0 && ruleDecision(w, f) > 0 ? 1 : 0,
        );
        if (!sets.some((s) => s.every((x, i) => x === fire[i]))) sets.push(fire);
      }
    out[k] = sets;
  }
  return out;
}

test("rules: the dev search finds the best combination (brute force with real pruning) and scores it exactly", () => {
  const vocab = new Vocabularies();
  const train = sentencesOf(noisyTags(toyTreebank(200, 21), 0.04, 1), vocab);
  const dev = sentencesOf(noisyTags(toyTreebank(40, 22), 0.04, 2), vocab);
  const c1s = [0.01, 1];
  const ratios = [3, 100];
  const column = TagMap.chooseColumn(train, vocab);
  const own = new TagMap(TagMap.collect(train, vocab, column), column);
  const sets = ruleSets(ruleProblems(train, vocab, own), c1s, ratios);
  const sizes = RULE_CLASSIFIERS.map((k) => sets[k].length);
  const total = sizes.reduce((a, b) => a * b, 1);
  // Every combination of rule sets, each pruned for real: its dev coverage and reduction.
  const scored: { coverage: number; reduction: number }[] = [];
  const choice = new Array<number>(5);
  for (let x = 0; x < total; x++) {
    let y = x;
    for (let i = 4; i >= 0; i--) {
      choice[i] = y % sizes[i]!;
      y = Math.floor(y / sizes[i]!);
    }
    const fire = Object.fromEntries(RULE_CLASSIFIERS.map((k, i) => [k, sets[k][choice[i]!]!])) as Record<
      RuleClassifier,
      Uint8Array
    >;
    const c = new PruningCascade([new PosRulesPruner(rulesFromWeights(fire, own), own.column, own.tags)]);
    const ev = new PruningEvaluator();
    for (const s of dev) ev.add(c.prune(s, vocab), s.head);
    scored.push(ev.scores());
  }
  let active = 0;
  for (const target of [95, 97, 99]) {
    const r = trainRules(train, dev, vocab, { learner: exactRuleLearner, c1s, ratios, coverage: target });
    assert.equal(r.combinations, total);
    active += Object.values(r.chosen!.settings).filter((v) => v !== null).length;
    const e = evaluateCascade(new PruningCascade([r.pass]), dev, vocab).scores;
    assert.ok(
      Math.abs(e.coverage - r.chosen!.coverage) < 1e-9,
      `${target}: ${e.coverage} vs ${r.chosen!.coverage}`,
    );
    assert.ok(Math.abs(e.reduction - r.chosen!.reduction) < 1e-9);
    assert.ok(e.coverage >= target && e.reduction > 20, `${target}: ${e.coverage} / ${e.reduction}`);
    const best = Math.max(...scored.filter((p) => p.coverage >= target - 1e-9).map((p) => p.reduction));
    assert.ok(Math.abs(best - e.reduction) < 1e-9, `${target}: brute force ${best} vs search ${e.reduction}`);
    // The frontier runs from the highest coverage down, each point removing more; the choice is on it.
    for (let i = 1; i < r.frontier.length; i++) {
      assert.ok(r.frontier[i]!.coverage < r.frontier[i - 1]!.coverage);
      assert.ok(r.frontier[i]!.reduction > r.frontier[i - 1]!.reduction);
    }
    const at = r.frontier.filter((p) => p.coverage >= target - 1e-9).at(-1)!;
    assert.ok(Math.abs(at.reduction - e.reduction) < 1e-9);
  }
  assert.ok(active >= 10, "the chosen combinations use most classifiers");
});

test("rules: only removes arcs, round-trips, and a target no combination meets leaves every classifier off", () => {
  const vocab = new Vocabularies();
  const train = sentencesOf(noisyTags(toyTreebank(150, 31), 0.03, 3), vocab);
  const dev = sentencesOf(noisyTags(toyTreebank(40, 32), 0.03, 4), vocab);
  const r = trainRules(train, dev, vocab, { learner: exactRuleLearner, coverage: 99 });
  const removed = checkOnlyRemoves(r.pass, dev, vocab);
  assert.ok(removed > 0.2, `removed ${removed}`);
  const back = checkRoundTrip(r.pass, dev, vocab) as PosRulesPruner;
  assert.deepEqual(back.rules, r.pass.rules);
  assert.deepEqual(back.info, r.pass.info);
  // After a pass that already loses dev arcs, 100% coverage is out of reach: every classifier is off.
  const prefix = new PruningCascade([new RandomDropPass(1, 0.05)]);
  const off = trainRules(train, dev, vocab, { learner: exactRuleLearner, coverage: 100, prefix });
  assert.equal(off.pass.size, 0);
  assert.ok(off.chosen!.coverage < 100);
  assert.ok(Object.values(off.chosen!.settings).every((x) => x === null));
});

test("rules: bad model files are one-line model errors", () => {
  const ok = new PosRulesPruner({ ...emptyRules(), notHead: ["D"] }, "xpos", ["D", "N"]).toModelData();
  assert.equal(prunerFromModelData(ok, "f.vpf").kind, "rules");
  const bad = (change: (m: typeof ok) => void, code: string) => {
    const m = structuredClone(ok);
    change(m);
    assert.throws(
      () => prunerFromModelData(m, "f.vpf"),
      (e: unknown) => e instanceof VineparseError && e.code === code && !e.message.includes("\n"),
    );
  };
  bad((m) => ((m.meta.rules as Record<string, unknown>).notHead = "D"), "model-corrupt");
  bad((m) => ((m.meta.rules as Record<string, unknown>).pairsHeadLeft = [["D"]]), "model-corrupt");
  bad((m) => delete (m.meta.rules as Record<string, unknown>).notRoot, "model-corrupt");
  bad((m) => (m.meta.column = 3), "model-corrupt");
  bad((m) => (m.meta.version = 7), "model-version");
});
