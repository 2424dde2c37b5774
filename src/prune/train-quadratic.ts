import type { Sentence } from "../corpus/sentence.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { round } from "../eval/percent.js";
import { ArcFilterFeatures, DEFAULT_DIST_SCALE, MAX_ARC_FILTER_FEATURES } from "./arc-filter-features.js";
import { PruningCascade } from "./cascade.js";
import { cascadeMasks, maskTotals } from "./cascade-masks.js";
import { type FilterCosts, type FilterLearner, learnAll } from "./filter-learner.js";
import { type ArcNetworkTerm, QuadraticFilter } from "./quadratic-filter.js";
import { SparseRowsBuilder } from "./sparse-rows.js";
import { type ArcMlpTrainOptions, trainArcMlp } from "./train-arc-mlp.js";
import { TagMap, type TagColumn } from "./tag-map.js";
import { Rng } from "../util/rng.js";

/**
 * Default cost grid of the quadratic filter's SVM (C1 for non-arcs, C2 for true arcs). Very strong
 * regularisation with a large C2/C1 prunes best on en_ewt dev: with the coarse features, after
 * Rules+Linear, at 99.5% coverage, C1 0.0003 reaches 72.4–72.5% reduction against 71.1% for C1
 * 0.003 and 70.7% for C1 0.00003 (squared hinge).
 */
export const DEFAULT_QUADRATIC_COSTS: readonly FilterCosts[] = [
  { c1: 0.0003, c2: 1 },
  { c1: 0.001, c2: 1 },
  { c1: 0.0003, c2: 3 },
];

/** Options of `trainQuadraticFilter`. */
export interface QuadraticTrainOptions {
  /** The learner (a cost-sensitive linear SVM). */
  learner: FilterLearner;
  /** Tag column (default "auto": XPOS when informative). */
  tags?: TagColumn | "auto";
  /** log2 of the hashed feature slots (default 20). */
  bits?: number;
  /** Cost settings to train at (default `DEFAULT_QUADRATIC_COSTS`). */
  costs?: readonly FilterCosts[];
  /** Coverage target (%) of prefix + filter on dev (default 99.5). */
  coverage?: number;
  /** Divisor of the distance features (default `DEFAULT_DIST_SCALE`). */
  distScale?: number;
  /**
   * Whether to add the coarse templates over UPOS when the filter reads XPOS (default true; they
   * are never added when the filter reads UPOS itself). False: the Table 3 features only.
   */
  coarse?: boolean;
  /** Passes before this one (e.g. rules + linear): training and tuning use the arcs they leave. */
  prefix?: PruningCascade;
  /**
   * Share of the non-arcs (the prune class) kept for training (default 1): each is kept with this
   * probability and weighted by its inverse, so the objective is unbiased; true arcs are all kept.
   */
  sample?: number;
  /** Features listed in `filter show` (default 12). */
  topFeatures?: number;
  /**
   * The arc network added to the linear score (beyond the paper; see `ArcMlp`): its training
   * options, or false for the linear classifier alone (default: a network with the defaults of
   * `trainArcMlp`). Its weight is chosen on dev among `NETWORK_LAMBDAS`; λ = 0 (no network) stays
   * a candidate, so the network is only kept when it prunes more on dev.
   */
  network?: ArcMlpTrainOptions | false;
  /** Progress output. */
  log?: (line: string) => void;
}

/** How one cost setting did on dev at the coverage target. */
export interface QuadraticSetting extends FilterCosts {
  /** The threshold reaching the coverage target. */
  threshold: number;
  /** Coverage and reduction (%) of prefix + filter on dev at that threshold. */
  coverage: number;
  reduction: number;
  /** The same at threshold 0 (the SVM's own decision, w·x > 0). */
  coverageAtZero: number;
  reductionAtZero: number;
  /** Coverage–reduction points over thresholds (Figure 2). */
  curve: { coverage: number; reduction: number }[];
}

/** Candidate factors λ of the network's weight: μ = λ · (spread of linear scores / spread of network outputs) on dev. */
export const NETWORK_LAMBDAS: readonly number[] = [0.25, 0.5, 0.7, 1, 1.4, 2];

/** How the arc network did on dev (`QuadraticTrainResult.network`). */
export interface NetworkSetting {
  /** The chosen λ (0: the network did not help and was dropped) and the weight μ it gives. */
  lambda: number;
  weight: number;
  /** Coverage and reduction (%) of prefix + filter at the coverage target, with the network. */
  coverage: number;
  reduction: number;
  /** Reduction of each candidate λ (same order as `NETWORK_LAMBDAS`). */
  tried: number[];
  /** Coverage–reduction points of the chosen combination. */
  curve: { coverage: number; reduction: number }[];
  /** Mean training loss of each epoch, and seconds spent training. */
  losses: number[];
  seconds: number;
  /** The two-fold check of tuning on dev (`twoFoldCheck`). */
  check: TwoFoldCheck;
}

/** Arcs removed and gold arcs lost on held-out halves of dev, with and without the network. */
export interface TwoFoldCheck {
  network: { removed: number; lost: number };
  linear: { removed: number; lost: number };
}

/** What `trainQuadraticFilter` returns. */
export interface QuadraticTrainResult {
  /** The filter with the chosen cost setting and threshold. */
  filter: QuadraticFilter;
  /** Every cost setting's dev results. */
  settings: QuadraticSetting[];
  /** Index of the chosen setting. */
  chosen: number;
  /** Training arcs (those the prefix leaves) and seconds spent in the learner. */
  examples: number;
  learnSeconds: number;
  /** The arc network's dev results (undefined when none was trained). */
  network?: NetworkSetting;
}

/**
 * Trains the quadratic arc filter (Bergsma & Cherry 2010, §4.4) on the arcs `prefix` leaves on train
 * (label +1: not a gold arc). For each cost setting, the threshold is the lowest at which prefix +
 * filter keeps the coverage target on dev; the setting removing most arcs there is kept.
 */
export function trainQuadraticFilter(
  train: readonly Sentence[],
  dev: readonly Sentence[],
  vocab: Vocabularies,
  opts: QuadraticTrainOptions,
): QuadraticTrainResult {
  const log = opts.log ?? (() => {});
  const bits = opts.bits ?? 20;
  const costs = opts.costs ?? DEFAULT_QUADRATIC_COSTS;
  const target = opts.coverage ?? 99.5;
  const distScale = opts.distScale ?? DEFAULT_DIST_SCALE;
  const prefix = opts.prefix ?? new PruningCascade();
  if (costs.length < 1) throw new RangeError("trainQuadraticFilter: at least one cost setting");
  const column =
    opts.tags === undefined || opts.tags === "auto" ? TagMap.chooseColumn(train, vocab) : opts.tags;
  const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
  const coarseMap =
    (opts.coarse ?? true) && column === "xpos"
      ? new TagMap(TagMap.collect(train, vocab, "upos"), "upos")
      : null;

  let t0 = performance.now();
  const fx = new ArcFilterFeatures(tagMap, bits, distScale, coarseMap);
  const rowsB = new SparseRowsBuilder();
  const labels: number[] = [];
  const sample = opts.sample ?? 1;
  if (!(sample > 0 && sample <= 1)) throw new RangeError("trainQuadraticFilter: sample in (0, 1]");
  const rng = new Rng(17);
  let candidates = 0;
  const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
  const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
  const network = opts.network ?? {};
  const trainMasks: ArcMask[] = [];
  for (const s of train) {
    const mask = prefix.prune(s, vocab);
    if (network !== false) trainMasks.push(mask);
    fx.prepare(prefix.prepare(s, vocab));
    const n = s.n;
    const size = mask.size;
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) {
        if (mask.bits[h * size + m] === 0) continue;
        candidates++;
        const gold = s.head[m] === h;
        if (!gold && sample < 1 && rng.next() >= sample) continue;
        rowsB.add(idx, val, fx.extract(h, m, idx, val));
        labels.push(gold ? -1 : 1);
      }
  }
  const x = rowsB.build();
  const rows = new Int32Array(x.rows);
  for (let r = 0; r < x.rows; r++) rows[r] = r;
  const y = Int8Array.from(labels);
  const rowWeights = sample < 1 ? Float64Array.from(labels, (l) => (l === 1 ? 1 / sample : 1)) : undefined;
  log(
    `quadratic: ${x.rows} training arcs of ${candidates} after ${prefix.name} (non-arcs sampled at ${sample}), ${x.index.length} feature entries (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const devMasks = cascadeMasks(prefix, dev, vocab);
  const tot = maskTotals(devMasks, dev);
  const prefixLost = tot.gold - tot.goldKept;
  const budget = Math.floor(tot.gold * (1 - target / 100) + 1e-9) - prefixLost;
  const dim = fx.dim;
  let learnSeconds = 0;
  const settings: QuadraticSetting[] = [];
  const models: { weights: Int16Array; scale: number }[] = [];
  t0 = performance.now();
  const problem =
    rowWeights === undefined ? { x, rows, labels: y, dim } : { x, rows, labels: y, dim, weights: rowWeights };
  const learned = learnAll(
    opts.learner,
    costs.map((c) => ({ problem, costs: c })),
  );
  learnSeconds += (performance.now() - t0) / 1000;
  for (const [ci, c] of costs.entries()) {
    const w = learned[ci]!;
    let max = 0;
    for (let f = 0; f < dim; f++) if (Math.abs(w[f]!) > max) max = Math.abs(w[f]!);
    const scale = max > 0 ? max / 32767 : 1;
    const weights = new Int16Array(dim);
    for (let f = 0; f < dim; f++) weights[f] = Math.round(w[f]! / scale);
    models.push({ weights, scale });
    const f = new QuadraticFilter(
      tagMap,
      bits,
      weights,
      scale,
      Number.POSITIVE_INFINITY,
      distScale,
      {},
      coarseMap,
    );
    const gold: number[] = [];
    const other: number[] = [];
    dev.forEach((s, k) => {
      f.scoreArcs(prefix.prepare(s, vocab), devMasks[k]!, (h, m, v) => {
        if (s.head[m] === h) gold.push(v);
        else other.push(v);
      });
    });
    const { threshold, chosen, zero, curve } = operatingPoints(gold, other, budget, tot, prefixLost);
    settings.push({
      ...c,
      threshold,
      coverage: chosen.coverage,
      reduction: chosen.reduction,
      coverageAtZero: zero.coverage,
      reductionAtZero: zero.reduction,
      curve,
    });
    log(
      `quadratic: C1 ${c.c1}, C2 ${c.c2}: dev ${chosen.coverage}% coverage, ${chosen.reduction}% reduction at threshold ${threshold.toPrecision(4)} ` +
        `(at 0: ${zero.coverage}% / ${zero.reduction}%); ${learnSeconds.toFixed(1)} s in the learner so far`,
    );
  }
  let chosen = 0;
  settings.forEach((s, i) => {
    if (s.reduction > settings[chosen]!.reduction) chosen = i;
  });
  const st = settings[chosen]!;
  const model = models[chosen]!;
  let filter = new QuadraticFilter(
    tagMap,
    bits,
    model.weights,
    model.scale,
    st.threshold,
    distScale,
    {},
    coarseMap,
  );
  const info = {
    c1: st.c1,
    c2: st.c2,
    coverage: st.coverage,
    reduction: st.reduction,
    top: topArcFeatures(filter, train, vocab, prefix, opts.topFeatures ?? 12),
  };
  if (network === false) {
    filter = filter.withThreshold(st.threshold, info);
    return { filter, settings, chosen, examples: x.rows, learnSeconds };
  }
  const trained = trainArcMlp(train, vocab, trainMasks, tagMap, coarseMap ?? tagMap, { log, ...network });
  const term: ArcNetworkTerm = { net: trained.net, weight: 0 };
  const withNet = filter.withThreshold(Number.POSITIVE_INFINITY, {}, term);
  const lin: number[] = [];
  const out: number[] = [];
  const isGold: boolean[] = [];
  const sentence: number[] = [];
  dev.forEach((s, k) => {
    withNet.scoreArcs(prefix.prepare(s, vocab), devMasks[k]!, (h, m, a, b) => {
      lin.push(a);
      out.push(b);
      isGold.push(s.head[m] === h);
      sentence.push(k);
    });
  });
  const ratio = spread(out) > 0 ? spread(lin) / spread(out) : 0;
  const check = twoFoldCheck(lin, out, isGold, sentence, dev, devMasks, target, ratio);
  const tried: number[] = [];
  let best = {
    lambda: 0,
    weight: 0,
    ...operatingPoints(...split(lin, out, isGold, 0), budget, tot, prefixLost),
  };
  for (const lambda of NETWORK_LAMBDAS) {
    const weight = lambda * ratio;
    const p = operatingPoints(...split(lin, out, isGold, weight), budget, tot, prefixLost);
    tried.push(p.chosen.reduction);
    if (p.chosen.reduction > best.chosen.reduction) best = { lambda, weight, ...p };
  }
  const result: NetworkSetting = {
    lambda: best.lambda,
    weight: best.weight,
    coverage: best.chosen.coverage,
    reduction: best.chosen.reduction,
    tried,
    curve: best.curve,
    losses: trained.losses,
    seconds: trained.seconds,
    check,
  };
  log(
    `quadratic: two-fold check on dev (weight and threshold chosen on one half of the sentences, ` +
      `applied to the other): ${check.network.removed} arcs removed, ${check.network.lost} gold arcs lost, ` +
      `against ${check.linear.removed} and ${check.linear.lost} for the linear score alone`,
  );
  log(
    `quadratic: arc network ${NETWORK_LAMBDAS.map((l, i) => `λ ${l}: ${tried[i]}%`).join(", ")}; ` +
      (best.lambda === 0 ? "none beats the linear score, dropped" : `kept λ ${best.lambda}`),
  );
  if (best.lambda === 0) filter = filter.withThreshold(st.threshold, info);
  else
    filter = filter.withThreshold(
      best.threshold,
      {
        ...info,
        coverage: result.coverage,
        reduction: result.reduction,
        networkLambda: best.lambda,
        linearReduction: st.reduction,
        twoFold: check,
      },
      { net: trained.net, weight: best.weight },
    );
  return { filter, settings, chosen, examples: x.rows, learnSeconds, network: result };
}

/**
 * Whether tuning the network's weight on dev carries over: the weight (among `NETWORK_LAMBDAS` and
 * 0) and the threshold are chosen on the even dev sentences and applied to the odd ones, then the
 * other way round; the arcs removed and gold arcs lost on the held-out halves are added up, beside
 * the same for the linear score alone (weight 0, its threshold chosen the same way).
 */
function twoFoldCheck(
  lin: readonly number[],
  out: readonly number[],
  isGold: readonly boolean[],
  sentence: readonly number[],
  dev: readonly Sentence[],
  devMasks: readonly ArcMask[],
  target: number,
  ratio: number,
): TwoFoldCheck {
  const result: TwoFoldCheck = { network: { removed: 0, lost: 0 }, linear: { removed: 0, lost: 0 } };
  for (let fold = 0; fold < 2; fold++) {
    const tuneSentences = dev.filter((_, k) => k % 2 === fold);
    const tot = maskTotals(
      devMasks.filter((_, k) => k % 2 === fold),
      tuneSentences,
    );
    const lost = tot.gold - tot.goldKept;
    const budget = Math.floor(tot.gold * (1 - target / 100) + 1e-9) - lost;
    const pick = (weights: readonly number[]) => {
      let best = { weight: 0, threshold: Number.POSITIVE_INFINITY, reduction: -1 };
      for (const weight of weights) {
        const gold: number[] = [];
        const other: number[] = [];
        for (let i = 0; i < lin.length; i++)
          if (sentence[i]! % 2 === fold) (isGold[i] ? gold : other).push(lin[i]! + weight * out[i]!);
        const p = operatingPoints(gold, other, budget, tot, lost);
        if (p.chosen.reduction > best.reduction)
          best = { weight, threshold: p.threshold, reduction: p.chosen.reduction };
      }
      return best;
    };
    const apply = (w: { weight: number; threshold: number }, into: { removed: number; lost: number }) => {
      for (let i = 0; i < lin.length; i++)
        if (sentence[i]! % 2 !== fold && lin[i]! + w.weight * out[i]! > w.threshold) {
          into.removed++;
          if (isGold[i]) into.lost++;
        }
    };
    apply(pick([0, ...NETWORK_LAMBDAS.map((l) => l * ratio)]), result.network);
    apply(pick([0]), result.linear);
  }
  return result;
}

/** Standard deviation of `a` (0 for fewer than two values). */
function spread(a: readonly number[]): number {
  if (a.length < 2) return 0;
  let mean = 0;
  for (const v of a) mean += v;
  mean /= a.length;
  let sq = 0;
  for (const v of a) sq += (v - mean) * (v - mean);
  return Math.sqrt(sq / a.length);
}

/** Scores linear + weight · network, split into gold arcs and others. */
function split(
  lin: readonly number[],
  out: readonly number[],
  isGold: readonly boolean[],
  weight: number,
): [number[], number[]] {
  const gold: number[] = [];
  const other: number[] = [];
  for (let i = 0; i < lin.length; i++) (isGold[i] ? gold : other).push(lin[i]! + weight * out[i]!);
  return [gold, other];
}

/**
 * The operating points of a score on dev, given the scores of the gold and other arcs the prefix
 * leaves: the lowest threshold that keeps the coverage target (at most `budget` more gold arcs
 * lost), the point it gives, the point at threshold 0, and the coverage–reduction curve (Figure 2).
 */
function operatingPoints(
  gold: number[],
  other: number[],
  budget: number,
  tot: { arcs: number; kept: number; gold: number; goldKept: number },
  prefixLost: number,
): {
  threshold: number;
  chosen: { coverage: number; reduction: number };
  zero: { coverage: number; reduction: number };
  curve: { coverage: number; reduction: number }[];
} {
  const point = (removed: number, lost: number) => ({
    coverage: round((100 * (tot.goldKept - lost)) / tot.gold, 3),
    reduction: round((100 * (tot.arcs - tot.kept + removed)) / tot.arcs, 3),
  });
  gold.sort((a, b) => b - a);
  other.sort((a, b) => b - a);
  const above = (a: number[], t: number) => {
    // a is sorted descending: how many exceed t.
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid]! > t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const at = (t: number) => {
    const g = above(gold, t);
    return point(g + above(other, t), g);
  };
  const thrFor = (b: number) =>
    b < 0
      ? Number.POSITIVE_INFINITY
      : b < gold.length
        ? gold[b]!
        : (other.length > 0 ? Math.min(other[other.length - 1]!, gold[gold.length - 1] ?? 0) : 0) - 1e-6;
  const threshold = thrFor(budget);
  const curve: { coverage: number; reduction: number }[] = [];
  for (const cov of [99.95, 99.9, 99.8, 99.7, 99.6, 99.5, 99.4, 99.3, 99.2, 99.0, 98.5, 98]) {
    const b = Math.floor(tot.gold * (1 - cov / 100) + 1e-9) - prefixLost;
    if (b >= 0) curve.push(at(thrFor(b)));
  }
  return { threshold, chosen: at(threshold), zero: at(0), curve };
}

/** The `count` features with the largest weights (evidence against an arc), named from training arcs. */
function topArcFeatures(
  filter: QuadraticFilter,
  train: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade,
  count: number,
): [string, number][] {
  if (count <= 0) return [];
  const names = new Map<number, string>();
  const fx = new ArcFilterFeatures(filter.tagMap, filter.bits, filter.distScale, filter.coarseMap);
  const idx = new Int32Array(MAX_ARC_FILTER_FEATURES);
  const val = new Float32Array(MAX_ARC_FILTER_FEATURES);
  const list: string[] = [];
  for (const s of train.slice(0, 300)) {
    fx.prepare(prefix.prepare(s, vocab));
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (h === m) continue;
        list.length = 0;
        const k = fx.extract(h, m, idx, val, list);
        for (let j = 0; j < k; j++) if (!names.has(idx[j]!)) names.set(idx[j]!, list[j]!);
      }
  }
  const scored: [string, number][] = [];
  for (const [f, name] of names) scored.push([name, round(filter.weights[f]! * filter.scale, 4)]);
  scored.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return scored.slice(0, count);
}
