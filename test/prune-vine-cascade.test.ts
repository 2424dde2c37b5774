import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { enumerateTrees, treeScore } from "../src/decode/brute-force.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { alphaThreshold } from "../src/decode/max-marginal-pruning.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { VINE_LEFT, VINE_RIGHT, vineShortIndex } from "../src/decode/vine-structure.js";
import { VineparseError } from "../src/errors.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../src/features/first-order.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import {
  decodeModel,
  encodeModel,
  int16Weights,
  type ModelData,
  packInt16,
} from "../src/model/model-file.js";
import { ArcScorer } from "../src/parser/arc-scorer.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { HigherOrderScorer } from "../src/parser/higher-order-scorer.js";
import { loadParser } from "../src/parser/load-parser.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { prunerFromModelData, PRUNER_KINDS } from "../src/prune/load-pruner.js";
import { LenVinePruner } from "../src/prune/len-vine.js";
import { MaxMarginalPass } from "../src/prune/max-marginal-pass.js";
import { parsePruneSpec } from "../src/prune/spec.js";
import { alphaCurve, chooseAlpha, prepareAtoms, trainVineCascade } from "../src/prune/train-spc.js";
import { VinePartScorer } from "../src/prune/vine-features.js";
import { VinePass } from "../src/prune/vine-pass.js";
import { Rng } from "../src/util/rng.js";
import { checkRoundTrip } from "./filter-round-trip.js";
import { checkOnlyRemoves } from "./prune-helpers.js";
import { runCli, toyVineTrainArgs } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(150, 11))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(50, 12))].map((r) => toSentence(r, vocab));
const BITS = 14;

/** Random weights (length 2^bits), so every pass prunes something at every α. */
function randomWeights(seed: number, bits = BITS): Float32Array {
  const rng = new Rng(seed);
  const w = new Float32Array(1 << bits);
  for (let i = 0; i < w.length; i++) w[i] = rng.next() * 2 - 1;
  return w;
}

const atoms = new AtomCache();
function prepared(i: number, fs = new FeatureSentence()): FeatureSentence {
  return atoms.prepare(train[i]!, vocab, fs);
}

/** A random sub-mask of the full mask that keeps each arc with probability p. */
function randomMask(rng: Rng, n: number, p: number): ArcMask {
  const m = ArcMask.full(n);
  for (let i = 0; i < m.bits.length; i++) if (m.bits[i] === 1 && rng.next() > p) m.bits[i] = 0;
  return m;
}

test("vine and max-marginal passes are registered kinds and only remove arcs", () => {
  assert.ok(PRUNER_KINDS.includes("vine"));
  assert.ok(PRUNER_KINDS.includes("maxmarginal"));
  for (const alpha of [0, 0.5, 0.9]) {
    const passes = [
      VinePass.fromFloats(randomWeights(1), 2, alpha),
      VinePass.fromFloats(randomWeights(2), 4, alpha),
      MaxMarginalPass.fromFloats(1, randomWeights(3), alpha),
      MaxMarginalPass.fromFloats(2, randomWeights(4), alpha),
    ];
    for (const p of passes) {
      const share = checkOnlyRemoves(p, train.slice(0, 40), vocab);
      if (alpha > 0) assert.ok(share > 0, `${p.kind} at α ${alpha} removes something`);
    }
  }
});

test("first-order pass, full or coarse features: keeps exactly the arcs whose brute-force max-marginal reaches t_α; the best tree survives", () => {
  for (const features of ["full", "coarse"] as const) firstOrderPassAgainstBruteForce(features);
});

function firstOrderPassAgainstBruteForce(features: "full" | "coarse"): void {
  const rng = new Rng(5);
  const w = randomWeights(6);
  const pass = MaxMarginalPass.fromFloats(1, w, 0.6, features);
  const scorer = new ArcScorer(pass.weights.weights, pass.weights.scale, features === "coarse");
  const decoder = new EisnerDecoder();
  let checked = 0;
  for (let i = 0; i < train.length && checked < 25; i++) {
    const x = prepared(i);
    const n = x.n;
    if (n < 2 || n > 7) continue;
    const input = checked % 2 === 0 ? ArcMask.full(n) : randomMask(rng, n, 0.7);
    const scores = scorer.scoreAll(x, input).slice();
    const size = n + 1;
    // Brute force: best projective single-rooted tree through each allowed arc.
    const mm = new Float64Array(size * size).fill(-Infinity);
    let best = -Infinity;
    for (const t of enumerateTrees(n, { projective: true, singleRoot: true })) {
      let ok = true;
      for (let m = 1; m <= n && ok; m++) ok = input.allows(t[m]!, m);
      if (!ok) continue;
      const s = treeScore(t, scores, n);
      best = Math.max(best, s);
      for (let m = 1; m <= n; m++) mm[t[m]! * size + m] = Math.max(mm[t[m]! * size + m]!, s);
    }
    const out = input.clone();
    pass.pruneAtoms(x, out);
    if (!(best > -Infinity)) {
      assert.deepEqual(out.bits, input.bits, "no tree: nothing pruned");
      continue;
    }
    let sum = 0;
    let cnt = 0;
    for (const v of mm)
      if (v > -Infinity) {
        sum += v;
        cnt++;
      }
    const t = alphaThreshold(best, sum / cnt, 0.6);
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) {
        if (h === m) continue;
        const v = mm[h * size + m]!;
        const expect = v > -Infinity && Math.abs(v - t) > 1e-6 ? v >= t : out.allows(h, m);
        assert.equal(out.allows(h, m), expect, `arc ${h}→${m}`);
      }
    const tree = decoder.decode(n, scores, input).heads;
    for (let m = 1; m <= n; m++) assert.ok(out.allows(tree[m]!, m), "best tree survives");
    checked++;
  }
  assert.ok(checked >= 10);
}

test("second-order pass: the best second-order tree survives every α", () => {
  const rng = new Rng(7);
  const pass = MaxMarginalPass.fromFloats(2, randomWeights(8), 0);
  const scorer = new HigherOrderScorer(pass.weights.weights, pass.weights.scale);
  const decoder = new SecondOrderDecoder();
  for (const alpha of [0, 0.7, 1]) {
    pass.alpha = alpha;
    for (let i = 0; i < 30; i++) {
      const x = prepared(i);
      if (x.n < 2) continue;
      const input = i % 2 === 0 ? ArcMask.full(x.n) : randomMask(rng, x.n, 0.8);
      scorer.prepare(x, input);
      const r = decoder.decode(input, scorer);
      const out = input.clone();
      pass.pruneAtoms(x, out);
      if (r.fallback) continue;
      for (let m = 1; m <= x.n; m++) assert.ok(out.allows(r.heads[m]!, m), `α ${alpha}: best tree survives`);
      if (alpha === 1) {
        // α = 1: only arcs of maximal trees survive.
        for (let m = 1; m <= x.n; m++) assert.ok(out.headCount(m) >= 1);
      }
    }
  }
});

test("vine pass: the best vine structure survives; pruned outer arcs remove their long arcs", () => {
  const rng = new Rng(9);
  const b = 2;
  const pass = VinePass.fromFloats(randomWeights(10), b, 0.8);
  for (let i = 0; i < 60; i++) {
    const x = prepared(i);
    const n = x.n;
    if (n < 2) continue;
    const input = i % 2 === 0 ? ArcMask.full(n) : randomMask(rng, n, 0.8);
    const mm = pass.maxMarginals(x, input);
    const heads = mm.heads.slice();
    const outerMm = mm.outer.slice();
    const best = mm.best;
    const t = alphaThreshold(mm.best, mm.mean, pass.alpha);
    const out = input.clone();
    pass.pruneAtoms(x, out);
    if (!(best > -Infinity)) {
      assert.deepEqual(out.bits, input.bits);
      continue;
    }
    for (let m = 1; m <= n; m++) {
      const h = heads[m]!;
      if (h >= 0) assert.ok(out.allows(h, m), "best structure's arc kept");
      if (h === VINE_LEFT) {
        let any = false;
        for (let g = 1; g < m - b; g++) any ||= out.allows(g, m);
        assert.ok(any, "best structure's left outer arc keeps a long arc");
      }
      if (h === VINE_RIGHT) {
        let any = false;
        for (let g = m + b + 1; g <= n; g++) any ||= out.allows(g, m);
        assert.ok(any, "best structure's right outer arc keeps a long arc");
      }
      if (h !== VINE_LEFT && !(outerMm[2 * m]! >= t))
        for (let g = 1; g < m - b; g++)
          assert.ok(!out.allows(g, m), "pruned left outer arc removes its long arcs");
      if (h !== VINE_RIGHT && !(outerMm[2 * m + 1]! >= t))
        for (let g = m + b + 1; g <= n; g++)
          assert.ok(!out.allows(g, m), "pruned right outer arc removes its long arcs");
    }
  }
});

test("vine and max-marginal passes: model round trip and one-line errors for bad files", () => {
  const passes = [
    VinePass.fromFloats(randomWeights(11), 3, 0.4),
    VinePass.fromFloats(randomWeights(13), 2, 0.6, true),
    MaxMarginalPass.fromFloats(2, randomWeights(12), 0.3),
  ];
  for (const p of passes) {
    const back = checkRoundTrip(p, train.slice(0, 30), vocab);
    assert.equal(back.describe(), p.describe());
    const m = decodeModel(encodeModel(p.toModelData()));
    const bad = (meta: Record<string, unknown>, arrays = m.arrays): ModelData => ({
      kind: m.kind,
      meta: { ...m.meta, ...meta },
      arrays,
    });
    for (const [data, code] of [
      [bad({ version: 99 }), "model-version"],
      [bad({ alpha: 7 }), "model-corrupt"],
      [bad({ size: 1000 }), "model-corrupt"],
      [bad({}, {}), "model-corrupt"],
      [bad({ band: 0, order: 5 }), "model-corrupt"],
      ...(p instanceof VinePass ? ([[bad({ headOuter: "yes" }), "model-corrupt"]] as const) : []),
    ] as const) {
      assert.throws(
        () => prunerFromModelData(data, "f.vpm"),
        (e: unknown) => e instanceof VineparseError && e.code === code && !e.message.includes("\n"),
      );
    }
  }
});

test("vine part scorer: 16-bit short and root arc scores equal the per-arc feature sums exactly (full and coarse features)", () => {
  const q = int16Weights(randomWeights(16));
  const rng = new Rng(17);
  let checked = 0;
  for (const [b, coarse] of [
    [1, false],
    [3, false],
    [3, true],
  ] as const) {
    const scorer = new VinePartScorer(q.weights, b, q.scale, true, coarse);
    const buf = new Int32Array(MAX_ARC_FEATURES);
    const wmask = q.weights.length - 1;
    for (let i = 0; i < 40; i++) {
      const x = prepared(i);
      const n = x.n;
      const mask = i % 2 === 0 ? null : randomMask(rng, n, 0.7);
      const sc = scorer.score(x, mask);
      const sum = (h: number, m: number) => {
        const k = arcFeatures(x, h, m, buf, wmask, coarse);
        let s = 0;
        for (let j = 0; j < k; j++) s += q.weights[buf[j]!]!;
        return s * q.scale;
      };
      for (let m = 1; m <= n; m++) {
        for (let h = Math.max(1, m - b); h <= Math.min(n, m + b); h++) {
          if (h === m) continue;
          const v = sc.short[vineShortIndex(b, h, m)]!;
          if (mask !== null && !mask.allows(h, m)) assert.equal(v, -Infinity);
          else {
            assert.equal(v, sum(h, m), `${h}→${m}`);
            checked++;
          }
        }
        if (mask === null || mask.allows(0, m)) assert.equal(sc.root[m], sum(0, m));
      }
    }
  }
  assert.ok(checked > 700, `checked ${checked}`);
});

test("vine pass: a version-1 file (no head-side outer arcs) still loads and prunes as before", () => {
  const pass = VinePass.fromFloats(randomWeights(14), 2, 0.5);
  const m = decodeModel(encodeModel(pass.toModelData()));
  const meta: Record<string, unknown> = { ...m.meta, version: 1 };
  delete meta.headOuter;
  // Version 1 stored the non-zero weights delta-coded.
  const { delta, value } = packInt16(pass.weights);
  const old = prunerFromModelData({ kind: m.kind, meta, arrays: { delta, value } }, "old.vpm") as VinePass;
  assert.equal(old.headOuter, false);
  for (let i = 0; i < 20; i++) {
    const x = prepared(i);
    const a = ArcMask.full(x.n);
    const b = ArcMask.full(x.n);
    pass.pruneAtoms(x, a);
    old.pruneAtoms(x, b);
    assert.deepEqual(a.bits, b.bits);
  }
});

test("vine pass with head-side outer arcs: a long arc needs the outer arcs at both of its ends", () => {
  const b = 2;
  const pass = VinePass.fromFloats(randomWeights(15), b, 0.3, true);
  let cut = 0;
  for (let i = 0; i < 60; i++) {
    const x = prepared(i);
    const n = x.n;
    if (n < 2) continue;
    const mm = pass.maxMarginals(x, null);
    const ho = mm.headOuter.slice();
    const outer = mm.outer.slice();
    const heads = mm.heads.slice();
    const t = alphaThreshold(mm.best, mm.mean, pass.alpha);
    const out = ArcMask.full(n);
    pass.pruneAtoms(x, out);
    for (let m = 1; m <= n; m++) {
      let incoming = 0;
      for (let h = 0; h <= n; h++) incoming += out.allows(h, m) ? 1 : 0;
      assert.ok(incoming > 0, "every token keeps a head");
      for (let h = 1; h <= n; h++) {
        if (Math.abs(h - m) <= b) continue;
        const side = h < m ? 0 : 1;
        const inBest = heads[m] === (side === 0 ? VINE_LEFT : VINE_RIGHT);
        if (out.allows(h, m) && !inBest) {
          assert.ok(outer[2 * m + side]! >= t, "modifier-side outer arc kept");
          assert.ok(ho[2 * h + 1 - side]! >= t, "head-side outer arc kept");
        }
        if (!out.allows(h, m) && outer[2 * m + side]! >= t) cut++;
      }
    }
  }
  assert.ok(cut > 0, "some long arcs are removed by their head-side outer arc alone");
});

test("structured prediction cascade: a tiny order-3 cascade trained on a toy treebank", () => {
  const logs: string[] = [];
  const r = trainVineCascade(train, dev, vocab, {
    order: 3,
    bands: [2, 3],
    maxLoss: [0.005, 0.01, 0.01],
    spc: { epochs: 4, bits: BITS },
    log: (l) => logs.push(l),
  });
  assert.deepEqual(
    r.cascade.passes.map((p) => p.kind),
    ["vine", "maxmarginal", "maxmarginal"],
  );
  assert.equal(r.passes.length, 3);
  for (const p of r.passes) {
    assert.ok(p.dev !== null);
    // Each pass only removes, and keeps within its dev loss target.
    assert.ok(p.dev.keptAfter <= p.dev.keptBefore && p.train.keptAfter <= p.train.keptBefore);
    assert.ok(p.dev.goldBefore - p.dev.goldAfter <= 0.01 * p.dev.goldBefore + 1e-9, p.name);
  }
  const last = r.passes[2]!;
  assert.ok(last.dev!.keptAfter < 0.6 * last.dev!.arcs, "the cascade prunes at least 40% of dev arcs");
  assert.ok(last.train.goldAfter >= 0.97 * last.train.gold, "keeps ≥ 97% of the gold training arcs");
  // Training loss falls over the epochs.
  const losses = logs
    .filter((l) => l.includes("mean loss"))
    .map((l) => Number(/mean loss ([\d.]+)/.exec(l)![1]));
  assert.ok(losses[3]! < losses[0]!, "vine loss falls");
  // The returned masks are what the cascade leaves.
  const c = new PruningCascade(r.cascade.passes);
  for (let i = 0; i < 20; i++) assert.deepEqual(c.prune(train[i]!, vocab).bits, r.trainMasks[i]!.bits);
  // α is the largest grid value within the loss target on dev.
  const vine = r.cascade.passes[0] as VinePass;
  assert.ok(vine.headOuter, "head-side outer arcs by default");
  const curve = alphaCurve(
    vine,
    dev,
    prepareAtoms(dev, vocab),
    dev.map((s) => ArcMask.full(s.n)),
  );
  assert.equal(chooseAlpha(curve, 0.005).alpha, vine.alpha);
});

test("structured prediction cascade behind a filter: its passes train on the filter's masks, which lead the cascade", () => {
  const filter = new LenVinePruner(4);
  const prefix = new PruningCascade([filter]);
  const logs: string[] = [];
  const r = trainVineCascade(train, dev, vocab, {
    order: 3,
    prefix,
    vinePass: false,
    maxLoss: [0.005, 0.01, 0.01],
    spc: { epochs: 3, bits: BITS },
    log: (l) => logs.push(l),
  });
  assert.deepEqual(
    r.cascade.passes.map((p) => p.kind),
    ["lenvine", "maxmarginal", "maxmarginal"],
  );
  assert.equal(r.cascade.passes[0], filter);
  // One report per pass, the filter's first (no α of its own), with the gold arcs it loses.
  assert.deepEqual(
    r.passes.map((p) => p.name),
    ["lenvine", "first-order", "second-order"],
  );
  assert.ok(Number.isNaN(r.passes[0]!.alpha));
  const byFilter = train.map((s) => prefix.prune(s, vocab));
  assert.equal(
    r.passes[0]!.train.keptAfter,
    byFilter.reduce((a, m) => a + m.count(), 0),
  );
  assert.ok(r.passes[0]!.train.goldAfter < r.passes[0]!.train.gold, "the filter loses some long gold arcs");
  assert.ok(logs.some((l) => l.startsWith("cascade lenvine: train loses")));
  // Every later pass only removes arcs the filter left (never one it removed), and the masks returned
  // are what the whole cascade leaves.
  for (let i = 0; i < train.length; i++) {
    const m = r.trainMasks[i]!;
    for (let c = 0; c < m.bits.length; c++) assert.ok(m.bits[c]! <= byFilter[i]!.bits[c]!);
  }
  for (let i = 0; i < 20; i++)
    assert.deepEqual(r.cascade.prune(train[i]!, vocab).bits, r.trainMasks[i]!.bits);
  // The first max-marginal pass is tuned with the first-order loss (the second entry of maxLoss).
  for (const p of r.passes.slice(1))
    assert.ok(p.dev!.goldBefore - p.dev!.goldAfter <= 0.01 * p.dev!.goldBefore + 1e-9, p.name);
  assert.throws(() => trainVineCascade(train, dev, vocab, { order: 1, vinePass: false }), RangeError);
});

test("order-3 cascade without the second-order pass: the filter, then the first-order pass alone", () => {
  const filter = new LenVinePruner(4);
  const r = trainVineCascade(train, dev, vocab, {
    order: 3,
    prefix: new PruningCascade([filter]),
    vinePass: false,
    secondOrderPass: false,
    maxLoss: [0.005, 0.01, 0.01],
    spc: { epochs: 2, bits: BITS },
  });
  assert.deepEqual(
    r.passes.map((p) => p.name),
    ["lenvine", "first-order"],
  );
  assert.deepEqual(
    r.cascade.passes.map((p) => (p instanceof MaxMarginalPass ? `${p.kind}:${p.order}` : p.kind)),
    ["lenvine", "maxmarginal:1"],
  );
  for (let i = 0; i < 20; i++)
    assert.deepEqual(r.cascade.prune(train[i]!, vocab).bits, r.trainMasks[i]!.bits);

  // The same with the coarse features: the pass is trained and scores with them.
  const c = trainVineCascade(train, dev, vocab, {
    order: 3,
    prefix: new PruningCascade([filter]),
    vinePass: false,
    secondOrderPass: false,
    passFeatures: "coarse",
    maxLoss: [0.005, 0.01, 0.01],
    spc: { epochs: 2, bits: BITS },
  });
  assert.equal(c.passes[1]!.name, "first-order (coarse features)");
  const pass = c.cascade.passes[1] as MaxMarginalPass;
  assert.equal(pass.features, "coarse");
  for (let i = 0; i < 20; i++)
    assert.deepEqual(c.cascade.prune(train[i]!, vocab).bits, c.trainMasks[i]!.bits);
});

test("order-1 cascade without a vine pass: the filter, then a coarse first-order pass in front of the first-order parser", () => {
  const filter = new LenVinePruner(4);
  const prefix = new PruningCascade([filter]);
  const r = trainVineCascade(train, dev, vocab, {
    order: 1,
    prefix,
    vinePass: false,
    passFeatures: "coarse",
    maxLoss: [0.005, 0.01],
    spc: { epochs: 2, bits: BITS },
  });
  assert.deepEqual(
    r.passes.map((p) => p.name),
    ["lenvine", "first-order (coarse features)"],
  );
  const pass = r.cascade.passes[1] as MaxMarginalPass;
  assert.equal(pass.order, 1);
  assert.equal(pass.features, "coarse");
  // The pass only removes arcs the filter left, within its dev loss budget (the second entry).
  const p = r.passes[1]!;
  assert.ok(p.dev!.goldBefore - p.dev!.goldAfter <= 0.01 * p.dev!.goldBefore + 1e-9);
  for (let i = 0; i < 20; i++) {
    const m = r.cascade.prune(train[i]!, vocab);
    assert.deepEqual(m.bits, r.trainMasks[i]!.bits);
    const f = prefix.prune(train[i]!, vocab);
    for (let c = 0; c < m.bits.length; c++) assert.ok(m.bits[c]! <= f.bits[c]!);
  }
});

test("given prefix masks replace the prefix's own on train (fold masks), not on dev", () => {
  const prefix = new PruningCascade([new LenVinePruner(4)]);
  // Looser masks than the prefix's: every arc of length ≤ 6.
  const looser = new PruningCascade([new LenVinePruner(6)]).masksFor(train, vocab);
  const opts = {
    order: 1 as const,
    prefix,
    vinePass: false,
    maxLoss: [0.005, 0.01],
    spc: { epochs: 1, bits: BITS },
  };
  const r = trainVineCascade(train, dev, vocab, { ...opts, prefixTrainMasks: looser });
  const own = trainVineCascade(train, dev, vocab, opts);
  const kept = (ms: readonly (ArcMask | null)[]) => ms.reduce((a, m) => a + m!.count(), 0);
  assert.equal(r.passes[0]!.train.keptAfter, kept(looser));
  assert.ok(r.passes[0]!.train.keptAfter > own.passes[0]!.train.keptAfter);
  assert.equal(r.passes[0]!.dev!.keptAfter, own.passes[0]!.dev!.keptAfter);
  for (let i = 0; i < train.length; i++) {
    const m = r.trainMasks[i]!;
    for (let c = 0; c < m.bits.length; c++) assert.ok(m.bits[c]! <= looser[i]!.bits[c]!);
  }
  assert.throws(
    () => trainVineCascade(train, dev, vocab, { ...opts, prefixTrainMasks: looser.slice(1) }),
    RangeError,
  );
});

test("CLI: train --order 2 --prune vine stores the cascade in the model; parse runs it or --prune none", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-vine-cli-"));
  try {
    const trainPath = join(dir, "train.conllu");
    const devPath = join(dir, "dev.conllu");
    writeFileSync(trainPath, toyTreebank(120, 1));
    writeFileSync(devPath, toyTreebank(40, 2));
    const model = join(dir, "o2.vpm");
    const t = runCli(toyVineTrainArgs(trainPath, devPath, 2, model));
    assert.equal(t.status, 0, t.stderr);
    assert.match(
      t.stderr,
      /cascade pass vine b=3 \(both ends\) \(alpha [-\d.]+\): train \d+ of \d+ gold arcs lost/,
    );
    const parser = loadParser(model) as HigherOrderParser;
    assert.equal(parser.cascade.name, "vine+maxmarginal");
    for (const prune of ["default", "none"]) {
      const out = join(dir, `${prune}.conllu`);
      const p = runCli([
        "parse",
        "--model",
        model,
        "--input",
        devPath,
        "--output",
        out,
        "--prune",
        prune,
        "--json",
      ]);
      assert.equal(p.status, 0, p.stderr);
      const summary = JSON.parse(p.stderr.trim()) as { prune: string; minorPageFaults: number };
      assert.equal(summary.prune, prune === "none" ? "none" : "vine+maxmarginal");
      // A process touches at least some pages of its own (node's start alone takes thousands).
      assert.ok(Number.isInteger(summary.minorPageFaults) && summary.minorPageFaults > 0);
      const e = runCli(["eval", "--gold", devPath, "--system", out, "--json"]);
      assert.equal(e.status, 0, e.stderr);
      // Trained on the cascade's masks, the model is only accurate under them (arcs the cascade always
      // pruned were never penalised): unpruned parsing must work, not be accurate.
      if (prune === "default") assert.ok(JSON.parse(e.stdout).uasNoPunct >= 90, `${prune}: ${e.stdout}`);
      assert.ok(readFileSync(out, "utf8").length > 0);
    }
    const bad = runCli(["parse", "--model", model, "--input", devPath, "--prune", "vine"]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--prune vine/);
    assert.deepEqual(parsePruneSpec("vine"), [{ type: "vine" }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("CLI: train --prune FILTER,vine --vine-pass no trains max-marginal passes behind the filter", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-vine-prefix-"));
  try {
    const trainPath = join(dir, "train.conllu");
    const devPath = join(dir, "dev.conllu");
    writeFileSync(trainPath, toyTreebank(100, 3));
    writeFileSync(devPath, toyTreebank(30, 4));
    const filter = join(dir, "len.vpf");
    // A Len-Vine filter (limit 5) trained on the toy train set, with extra options.
    const lenFilter = (...extra: string[]) =>
      runCli(["filter", "train", "--kind", "lenvine", "--limit", "5", "--train", trainPath, ...extra]);
    const f = lenFilter("--out", filter);
    assert.equal(f.status, 0, f.stderr);
    const common = ["train", "--train", trainPath, "--dev", devPath, "--order", "2", "--epochs", "1"];
    const small = ["--cascade-epochs", "2", "--cascade-bits", "14", "--bits", "16"];
    const model = join(dir, "o2.vpm");
    const t = runCli([...common, ...small, "--prune", `${filter},vine`, "--vine-pass", "no", "--out", model]);
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stderr, /cascade pass lenvine: train \d+ of \d+ gold arcs lost/);
    assert.match(t.stderr, /cascade pass first-order \(alpha [-\d.]+\): train/);
    assert.equal(loadParser(model).cascade.name, "lenvine+maxmarginal");
    // Order 1: a coarse first-order pass takes the vine pass's place behind the filter.
    const model1 = join(dir, "o1.vpm");
    const o1 = [...common.slice(0, -4), "--order", "1", "--epochs", "1", ...small];
    const noVine = ["--prune", `${filter},vine`, "--vine-pass", "no"];
    const t1 = runCli([
      ...o1,
      ...noVine,
      "--pass-features",
      "coarse",
      "--train-masks",
      "none",
      "--out",
      model1,
    ]);
    assert.equal(t1.status, 0, t1.stderr);
    assert.match(t1.stderr, /cascade pass first-order \(coarse features\) \(alpha [-\d.]+\): train/);
    assert.match(t1.stderr, /the parser trains on every arc; parsing runs the whole cascade/);
    // Order 1 behind the filter with a vine pass of coarse arc features.
    const model3 = join(dir, "o1-coarse-vine.vpm");
    const t3 = runCli([...o1, "--prune", `${filter},vine`, "--vine-features", "coarse", "--out", model3]);
    assert.equal(t3.status, 0, t3.stderr);
    assert.match(t3.stderr, /cascade vine b=3 \(both ends\) \(coarse features\): α = /);
    const p3 = loadParser(model3);
    assert.equal(p3.cascade.name, "lenvine+vine");
    assert.equal((p3.cascade.passes[1] as VinePass).features, "coarse");
    // Fold filters: each trained without its fold, masking that fold of train for the parser.
    const foldFiles = [0, 1].map((f) => join(dir, `len-f${f}.vpf`));
    foldFiles.forEach((file, f) => {
      const r = lenFilter("--fold", `${f}/2`, "--out", file);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`fold ${f}/2 left out: training on 50 sentences`));
    });
    const model2 = join(dir, "o1-folds.vpm");
    const t2 = runCli([...o1, ...noVine, "--filter-folds", foldFiles.join(","), "--out", model2]);
    assert.equal(t2.status, 0, t2.stderr);
    assert.match(t2.stderr, /training masks: each of 2 folds masked by filters trained without it/);
    assert.equal(loadParser(model2).cascade.name, "lenvine+maxmarginal");
    const p1 = loadParser(model1);
    assert.equal(p1.cascade.name, "lenvine+maxmarginal");
    assert.equal((p1.cascade.passes[1] as MaxMarginalPass).features, "coarse");
    // Usage errors: one line each, nothing written.
    for (const [args, message] of [
      [["--prune", `vine,${filter}`], /vine comes last/],
      [["--prune", "vine", "--vine-pass", "no"], /--vine-pass no needs filters in front/],
      [["--prune", `${filter},vine`, "--vine-pass", "maybe"], /vine-pass/],
      [["--prune", `${filter},vine`, "--second-order-pass", "no"], /--second-order-pass goes with/],
      [["--order", "1", "--prune", "vine", "--pass-features", "coarse"], /--pass-features goes with/],
      [
        ["--prune", `${filter},vine`, "--vine-pass", "no", "--vine-features", "coarse"],
        /--vine-features goes with/,
      ],
      [["--vine-features", "coarse"], /--vine-features goes with/],
      [["--train-masks", "none"], /--train-masks goes with/],
      [["--filter-folds", `${filter},${filter}`], /--filter-folds needs the filters themselves/],
      [["--prune", filter, "--filter-folds", filter], /one file per fold/],
      [["--order", "1", "--prune", `${filter},vine`, "--train-masks", "some"], /train-masks/],
    ] as const) {
      const out = join(dir, "bad.vpm");
      const r = runCli([...common, ...small, ...args, "--out", out]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(!existsSync(out));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
