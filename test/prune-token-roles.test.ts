import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { type Sentence, toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { PruningEvaluator } from "../src/eval/pruning.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { decodeModel, encodeModel } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCombination, searchCombinations, SignatureTable } from "../src/prune/combination-search.js";
import { cascadeFromModelData, cascadeModelData } from "../src/prune/load-pruner.js";
import { TagMap } from "../src/prune/tag-map.js";
import { roleAblation, roleDecisionQuality } from "../src/prune/token-role-analysis.js";
import { NUM_ROLES, ROLE, ROLE_NAMES, roleLabels } from "../src/prune/token-role-decisions.js";
import { TOKEN_TEMPLATES, tokenFeatureIndex } from "../src/prune/token-role-features.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { hasSimdKernel, tokenScoreKernel } from "../src/prune/token-score-kernel.js";
import { hashString } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const sents = [...parseConllu(toyTreebank(40, 3))].map((r) => toSentence(r, vocab));
const tags = new TagMap(TagMap.collect(sents, vocab, "xpos"), "xpos");
const BITS = 20;

/** Which tag (or, for root, which word) makes each decision fire in the hand-set filter. */
const TRIGGER: (string | null)[] = ["DT", "NN", "DT", "RB", "JJ", ".", "DT", null];
const ROOT_WORDS = ["saw", "liked", "slept"];

/** A filter whose decision d fires exactly on tokens tagged TRIGGER[d] (root: on the words ROOT_WORDS). */
function handSet(on: readonly boolean[], crossRoot = true): TokenRoleFilter {
  const w = new Int16Array(NUM_ROLES << BITS);
  for (let d = 0; d < ROLE.root; d++)
    w[(tokenFeatureIndex(TOKEN_TEMPLATES.tag, tags.id(TRIGGER[d]!), 0, -1, 0, BITS) << 3) + d] = 1;
  for (const word of ROOT_WORDS)
    w[(tokenFeatureIndex(TOKEN_TEMPLATES.word, hashString(word), 0, -1, 0, BITS) << 3) + ROLE.root] = 1;
  const thr = on.map((o) => (o ? 0.5 : Number.POSITIVE_INFINITY));
  return new TokenRoleFilter(
    tags,
    BITS,
    w,
    new Float64Array(NUM_ROLES).fill(1),
    Float64Array.from(thr),
    crossRoot,
  );
}

/**
 * Brute force: the arcs decisions remove, straight from their definitions (no intervals), given the
 * filter's scores (a decision fires above its threshold; the root is the first best-scoring token
 * above the root threshold whose root arc survives).
 */
function expected(
  s: Sentence,
  input: ArcMask,
  scores: Float64Array,
  thr: Float64Array,
  crossRoot: boolean,
): ArcMask {
  const n = s.n;
  const fires = (d: number, i: number) => i >= 1 && scores[i * NUM_ROLES + d]! > thr[d]!;
  let root = -1;
  let best = thr[ROLE.root]!;
  for (let i = 1; i <= n; i++)
    if (input.allows(0, i) && scores[i * NUM_ROLES + ROLE.root]! > best) {
      best = scores[i * NUM_ROLES + ROLE.root]!;
      root = i;
    }
  const out = input.clone();
  for (let h = 0; h <= n; h++)
    for (let m = 1; m <= n; m++) {
      if (h === m) continue;
      const gone =
        fires(ROLE.noHead, h) ||
        (fires(ROLE.headLeft, m) && h > m) ||
        (fires(ROLE.headRight, m) && h < m) ||
        (fires(ROLE.left5, m) && !(h < m && m - h <= 5)) ||
        (fires(ROLE.right5, m) && !(h > m && h - m <= 5)) ||
        (fires(ROLE.left1, m) && h !== m - 1) ||
        (fires(ROLE.right1, m) && h !== m + 1) ||
        (root >= 1 &&
          ((m === root && h !== 0) ||
            (h === 0 && m !== root) ||
            (crossRoot && h >= 1 && Math.min(h, m) < root && root < Math.max(h, m))));
      if (gone) out.remove(h, m);
    }
  return out;
}

test("each token-role decision removes exactly the arcs it should (hand-set weights)", () => {
  const rng = new Rng(4);
  const runner = new PruningCascade();
  const settings: boolean[][] = ROLE_NAMES.map((_, d) => ROLE_NAMES.map((_, e) => e === d));
  settings.push(ROLE_NAMES.map(() => true));
  let triggers = 0;
  let misfires = 0;
  for (const crossRoot of [true, false])
    for (const on of settings) {
      const f = handSet(on, crossRoot);
      for (const s of sents) {
        for (const drop of [0, 0.3]) {
          const mask = ArcMask.full(s.n);
          for (let i = 0; i < mask.bits.length; i++)
            if (mask.bits[i] === 1 && rng.next() < drop) mask.bits[i] = 0;
          const scores = f.scoreAll(runner.prepare(s, vocab)).slice();
          const want = expected(s, mask, scores, f.thresholds, crossRoot);
          // The hand-set weights make each decision fire on its trigger (hash collisions aside).
          for (let i = 1; i <= s.n; i++)
            for (let d = 0; d < ROLE.root; d++) {
              const trig = vocab.xpos.strings[s.xpos[i]!] === TRIGGER[d];
              triggers++;
              if (scores[i * NUM_ROLES + d]! > f.thresholds[d]! !== (on[d]! && trig)) misfires++;
            }
          f.prune(runner.prepare(s, vocab), mask);
          assert.deepEqual(
            mask.bits,
            want.bits,
            `decisions ${on.map(Number).join("")} on a ${s.n}-token sentence`,
          );
        }
      }
      assert.ok(checkOnlyRemoves(f, sents, vocab) > 0);
    }
  assert.ok(misfires < triggers / 200, `${misfires} of ${triggers} decisions misfire`);
});

test("token scores equal the plain sum of the 16-bit weights of the extracted features, in both kernels", () => {
  const rng = new Rng(9);
  const bits = 12;
  const w = new Int16Array(NUM_ROLES << bits);
  for (let i = 0; i < w.length; i++) w[i] = Math.floor(rng.next() * 65536) - 32768;
  w[0] = -32768;
  w[1] = 32767;
  const scales = Float64Array.from({ length: NUM_ROLES }, (_, d) => 0.5 + d);
  // The SIMD kernel wherever the runtime has it (Node 20 does), and the JavaScript loop.
  assert.equal(hasSimdKernel(), true);
  for (const kernel of ["auto", "js"] as const) {
    const f = new TokenRoleFilter(tags, bits, w, scales, new Float64Array(NUM_ROLES), true, [], kernel);
    assert.equal(f.kernelKind, kernel === "auto" ? "wasm-simd" : "js");
    assert.deepEqual(f.weights, w);
    assert.equal(f.withThresholds(f.thresholds).kernelKind, f.kernelKind);
    const runner = new PruningCascade();
    const buf = new Int32Array(256);
    for (const s of sents.slice(0, 10)) {
      const scores = f.scoreAll(runner.prepare(s, vocab)).slice();
      for (let i = 1; i <= s.n; i++) {
        const k = f.features.extract(i, buf);
        for (let d = 0; d < NUM_ROLES; d++) {
          let sum = 0;
          for (let j = 0; j < k; j++) sum += w[(buf[j]! << 3) + d]!;
          assert.equal(scores[i * NUM_ROLES + d], sum * scales[d]!, `${kernel}: token ${i}, decision ${d}`);
        }
      }
    }
  }
});

test("the token-score kernels agree at the extremes: 256 slots of ±32767 and repeated slots", () => {
  const w = new Int16Array(NUM_ROLES * 4);
  for (let d = 0; d < NUM_ROLES; d++) {
    w[d] = d % 2 === 0 ? 32767 : -32768;
    w[NUM_ROLES + d] = d - 4;
    w[2 * NUM_ROLES + d] = 0;
    w[3 * NUM_ROLES + d] = -1;
  }
  const simd = tokenScoreKernel(w, 256);
  const js = tokenScoreKernel(w, 256, "js");
  // At an odd 16-bit offset the JavaScript loop cannot view the table as int32 pairs and packs a copy.
  const store = new Int16Array(w.length + 1);
  store.set(w, 1);
  const jsOdd = tokenScoreKernel(store.subarray(1), 256, "js");
  assert.equal(simd.kind, "wasm-simd");
  assert.equal(js.kind, "js");
  const want = (k: number, slot: (j: number) => number) =>
    Array.from({ length: NUM_ROLES }, (_, d) => {
      let sum = 0;
      for (let j = 0; j < k; j++) sum += w[slot(j) * NUM_ROLES + d]!;
      return sum;
    });
  const cases: [number, (j: number) => number][] = [
    [256, () => 0],
    [255, (j) => j % 4],
    [1, () => 1],
    [0, () => 0],
    [7, (j) => 3 - (j % 3)],
  ];
  for (const [k, slot] of cases)
    for (const kern of [simd, js, jsOdd]) {
      for (let j = 0; j < k; j++) kern.slots[j] = slot(j);
      kern.sum(k);
      assert.deepEqual(Array.from(kern.sums), want(k, slot), `${kern.kind}, ${k} slots`);
    }
  assert.throws(() => tokenScoreKernel(new Int16Array(12), 8), RangeError);
});

test("the linear filter survives a model-file round trip (weights, thresholds, info)", () => {
  const f0 = handSet([true, false, true, true, false, true, false, true]);
  const f = new TokenRoleFilter(f0.tagMap, f0.bits, f0.weights, f0.scales, f0.thresholds, true, [
    { c1: 0.1, c2: 10, precision: 99.5, recall: 40, top: [["tag[i]=DT", 1]] },
  ]);
  const back = cascadeFromModelData(decodeModel(encodeModel(cascadeModelData(new PruningCascade([f])))), "x");
  assert.equal(back.passes.length, 1);
  const g = back.passes[0] as TokenRoleFilter;
  assert.equal(g.kind, "linear");
  assert.deepEqual(g.weights, f.weights);
  assert.deepEqual(Array.from(g.thresholds), Array.from(f.thresholds));
  assert.equal(g.describe(), f.describe());
  assert.match(g.describe(), /no-head \(No-Head\): fires when score > 0\.5000, C1 0\.1 C2 10/);
  assert.match(g.describe(), /head-left \(Right-∅\): off/);
  const a = new PruningCascade([f]);
  for (const s of sents) assert.deepEqual(back.prune(s, vocab).bits, a.prune(s, vocab).bits);
  // A corrupted file fails with one clear error.
  const m = f.toModelData();
  m.meta.bits = 99;
  assert.throws(
    () => TokenRoleFilter.fromModelData(m, "bad.vpf"),
    /bad\.vpf: corrupted model: linear filter/,
  );
});

test("Table 5 and Table 6: decision precision/recall and the leave-one-out ablation with oracle", () => {
  const f = handSet(ROLE_NAMES.map(() => true));
  const q = roleDecisionQuality(f, sents, vocab);
  assert.equal(q.length, NUM_ROLES);
  // Counted by hand from the labels: a determiner never heads anything and attaches to its right.
  let dets = 0;
  let detsRightHead = 0;
  const labels = new Uint8Array(64 * NUM_ROLES);
  const deps = new Int32Array(64);
  for (const s of sents) {
    roleLabels(s.head, s.n, deps, labels);
    for (let i = 1; i <= s.n; i++)
      if (vocab.xpos.strings[s.xpos[i]!] === "DT") {
        dets++;
        detsRightHead += labels[i * NUM_ROLES + ROLE.headRight]!;
      }
  }
  assert.equal(q[ROLE.noHead]!.predicted, dets);
  assert.equal(q[ROLE.noHead]!.precision, 100);
  assert.equal(q[ROLE.headRight]!.correct, detsRightHead);
  const rows = roleAblation(f, sents, vocab);
  assert.equal(rows.length, 9);
  assert.equal(rows[0]!.name, "All");
  assert.equal(rows[1]!.name, "All \\ No-Head");
  // "All" equals running the filter; dropping a decision never lowers coverage or raises reduction.
  const ev = new PruningEvaluator();
  const c = new PruningCascade([f]);
  for (const s of sents) ev.add(c.prune(s, vocab), s.head);
  assert.equal(rows[0]!.reduction, Math.round(ev.scores().reduction * 100) / 100);
  for (const r of rows.slice(1)) {
    assert.ok(r.coverage >= rows[0]!.coverage && r.reduction <= rows[0]!.reduction);
    assert.ok(r.oracleReduction <= rows[0]!.oracleReduction);
  }
  // The oracle of all decisions keeps every gold arc of these projective trees.
  assert.equal(rows[0]!.oracleCoverage, 100);
  assert.ok(rows[0]!.oracleReduction > 70);
});

test("combination search: the exact best on a hand-made grid, and brute force on random grids", () => {
  // Two decisions, two nested candidates each. Greedy by reduction would take A2 (removes 10, loses 2)
  // and then have no budget left; the best under a budget of 2 is A1 + B2 (removes 6 + 7 = 13).
  const t = new SignatureTable([2, 2]);
  t.add([1, 3], 6, 1); // A1 already removes these (6 arcs, 1 gold)
  t.add([2, 3], 4, 1); // only A2
  t.add([3, 2], 7, 1); // only B2
  t.add([3, 1], 0, 0);
  t.add([3, 3], 100, 5); // nothing removes these: ignored
  const p = t.problem();
  assert.equal(p.size, 4);
  const best = searchCombinations(p, 2);
  assert.deepEqual(best.choice, [1, 2]);
  assert.equal(best.removed, 13);
  assert.equal(best.goldLost, 2);
  assert.deepEqual(evaluateCombination(p, [2, 0]), { removed: 10, goldLost: 2 });
  // Random problems against exhaustive enumeration.
  const rng = new Rng(9);
  for (let trial = 0; trial < 40; trial++) {
    const D = 1 + rng.int(4);
    const k = Array.from({ length: D }, () => rng.int(4));
    const table = new SignatureTable(k);
    for (let s = 0; s < 30; s++)
      table.add(
        k.map((kd) => 1 + rng.int(kd + 1)),
        1 + rng.int(5),
        rng.int(3) === 0 ? 1 + rng.int(2) : 0,
      );
    const prob = table.problem();
    const budget = rng.int(8);
    let bestRemoved = -1;
    let bestLost = 0;
    const choice = new Array<number>(D).fill(0);
    const enumerate = (d: number): void => {
      if (d === D) {
        const e = evaluateCombination(prob, choice);
        if (
          e.goldLost <= budget &&
          (e.removed > bestRemoved || (e.removed === bestRemoved && e.goldLost < bestLost))
        ) {
          bestRemoved = e.removed;
          bestLost = e.goldLost;
        }
        return;
      }
      for (let j = 0; j <= k[d]!; j++) {
        choice[d] = j;
        enumerate(d + 1);
      }
    };
    enumerate(0);
    const r = searchCombinations(prob, budget);
    assert.equal(r.removed, bestRemoved, `trial ${trial}`);
    assert.equal(r.goldLost, bestLost, `trial ${trial}`);
    assert.deepEqual(evaluateCombination(prob, r.choice), { removed: r.removed, goldLost: r.goldLost });
  }
});
