import { checkParserTrainingData } from "../corpus/training-data.js";
import type { Sentence } from "../corpus/sentence.js";
import { BestEpoch, evaluateParser } from "./evaluate.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { grandSiblingParts, siblingParts } from "../decode/parts.js";
import { SecondOrderDecoder } from "../decode/second-order.js";
import { ThirdOrderDecoder } from "../decode/third-order.js";
import { PruningEvaluator, type PruningScores } from "../eval/pruning.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import { grandFeatures, grandSiblingFeatures } from "../features/grand.js";
import { siblingFeatures } from "../features/sibling.js";
import { AveragedWeights, dot, miraStep, SparseDelta } from "../learn/averaged-weights.js";
import { quantizeWeights } from "../model/model-file.js";
import { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "../prune/cascade.js";
import { type PruneRank, TopKPruner } from "../prune/top-k.js";
import { Rng } from "../util/rng.js";
import { type HigherOrderConfig, HigherOrderParser } from "./higher-order-parser.js";
import { HigherOrderScorer, partRegionMask } from "./higher-order-scorer.js";
import type { Parser } from "./parser.js";
import { type EpochReport, trainParser } from "./train.js";

/** What to do with a training sentence whose gold tree uses an arc the top-k mask pruned. */
export type GoldPrunedPolicy = "update" | "skip" | "restore";

/** Options of `trainHigherOrderParser`. */
export interface HigherOrderTrainOptions {
  /** 2 (sibling) or 3 (grand-sibling). */
  order: 2 | 3;
  /** Training passes over the data (default 10). */
  epochs?: number;
  /** "mira" (1-best MIRA, default) or "perceptron". */
  algorithm?: "mira" | "perceptron";
  /** MIRA's aggressiveness cap C (default 0.1). */
  C?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /** log2 of the higher-order weight-vector size (default `defaultHigherOrderBits(order)`). */
  bits?: number;
  /**
   * log2 of the region at the start of the table that the part features (sibling, grandparent,
   * grand-sibling) hash into (`partRegionMask`); undefined: the whole table.
   */
  partBits?: number;
  /**
   * Pruning passes run before everything else (e.g. arc filters): the first-order model is trained on
   * their masks, the top-k pass prunes what they leave, and the parser keeps them in its cascade.
   */
  prefix?: PruningCascade;
  /**
   * The passes whose masks the first-order and higher-order models train on, when not `prefix`'s
   * (e.g. only the filters in front of a vine cascade, so that the parser learns from more arcs than
   * the cascade leaves); the top-k pass, if any, follows them. The parser still keeps `prefix`.
   */
  trainPrefix?: PruningCascade;
  /**
   * The training sentences' masks, given (one per sentence; null = every arc) instead of computed
   * with `trainPrefix` or `prefix`: e.g. each fold masked by filters trained without it. Needs k = 0.
   */
  trainMasks?: readonly (ArcMask | null)[];
  /** Heads kept per token by the first-order top-k pass (default 10; 0 = no top-k pass). */
  k?: number;
  /** How the pruner ranks heads (default "max-marginal"; or "score"). */
  rank?: PruneRank;
  /** Optional score margin of the pruner (heads below best − margin dropped); null = none. */
  margin?: number | null;
  /**
   * Gold trees with pruned arcs: "update" (default) decodes under the mask and still updates toward the
   * gold parts; "skip" ignores the sentence; "restore" adds the gold arcs back to its mask.
   */
  goldPruned?: GoldPrunedPolicy;
  /**
   * Loss-augmented decoding during training (default true): every non-gold arc scores +1 while the
   * training sentence is decoded (margin rescaling, as the first-order trainer does).
   */
  costAugmented?: boolean;
  /** A trained first-order model to prune and label with; trained here (same data) when absent. */
  firstOrder?: Parser;
  /** Epochs of the first-order model when it is trained here (default: `epochs`). */
  firstOrderEpochs?: number;
  /** log2 of the first-order weight-vector size when it is trained here (default 23). */
  firstOrderBits?: number;
  /** log2 of the label feature rows of the first-order labeller trained here (default 18). */
  labelBits?: number;
  /** Dev sentences (same vocabulary) for per-epoch evaluation and model selection. */
  dev?: Sentence[];
  /** Called after every higher-order epoch. */
  onEpoch?: (r: HigherOrderEpochReport) => void;
  /** Called after every epoch of the first-order model trained here. */
  onFirstOrderEpoch?: (r: EpochReport) => void;
}

/** What one higher-order training epoch did. */
export interface HigherOrderEpochReport extends EpochReport {
  /** Sentences skipped because the mask pruned a gold arc (policy "skip"). */
  skipped: number;
}

/** Everything `trainHigherOrderParser` produced. */
export interface HigherOrderTrainResult {
  /** The parser of the best epoch (by dev UAS without punctuation; the last without dev). */
  parser: HigherOrderParser;
  history: HigherOrderEpochReport[];
  bestEpoch: number;
  /** The first-order model (pruner and labeller); its training history when it was trained here. */
  firstOrder: { parser: Parser; history: EpochReport[]; bestEpoch: number; seconds: number };
  /** Coverage of the training masks (prefix passes and top-k; null when there is no pass). */
  trainPruning: PruningScores | null;
  /** Seconds spent computing the training masks. */
  pruneSeconds: number;
}

/**
 * Default log2 size of a higher-order weight table. Second order uses 2^23 16-bit weights (16 MB),
 * which mostly stay in the host's cache: unpruned second order on en_ewt dev parses 8.1k tokens/s
 * against 6.7k with 2^26, for 89.44 against 89.55 UAS-P. Third order has more part types and uses
 * 2^24 (32 MB): trained behind the filters and max-marginal passes it scored as with 2^26 (en_ewt
 * 86.18 against 86.16 UAS-P, zh_gsd 81.41 / 81.45, tr_imst 68.97 / 68.78) and parsed about 1.04×
 * faster, in a quarter of the memory.
 */
export function defaultHigherOrderBits(order: 2 | 3): number {
  return order === 2 ? 23 : 24;
}

/**
 * Trains a second- or third-order parser with 1-best MIRA (or the averaged perceptron) and Hamming loss:
 * first a first-order model (pruner and labeller) unless one is given, then the higher-order weights,
 * decoding each training sentence under its top-k mask and updating on the parts (arcs, siblings,
 * grandparents, grand-siblings) where the gold and predicted trees differ.
 */
export function trainHigherOrderParser(
  train: Sentence[],
  vocab: Vocabularies,
  opts: HigherOrderTrainOptions,
): HigherOrderTrainResult {
  checkParserTrainingData(train, vocab);
  const order = opts.order;
  const epochs = opts.epochs ?? 10;
  const algorithm = opts.algorithm ?? "mira";
  const C = opts.C ?? 0.1;
  const bits = opts.bits ?? defaultHigherOrderBits(order);
  const k = opts.k ?? 10;
  const margin = opts.margin ?? null;
  const rank = opts.rank ?? "max-marginal";
  const policy = opts.goldPruned ?? "update";
  const costAugmented = opts.costAugmented ?? true;
  const rng = new Rng(opts.seed ?? 1);
  const prefix = opts.prefix ?? new PruningCascade();
  const trainPrefix = opts.trainPrefix ?? prefix;
  const given = opts.trainMasks;
  if (given !== undefined && given.length !== train.length)
    throw new RangeError(`trainHigherOrderParser: ${given.length} masks for ${train.length} sentences`);
  if (given !== undefined && (opts.k ?? 10) > 0)
    throw new RangeError("trainHigherOrderParser: given training masks need k = 0 (no top-k pass)");
  // `trainPrefix`'s masks of the training sentences, made once for both models.
  let prefixMasks: (ArcMask | null)[] | undefined;
  const trainPrefixMasks = () => (prefixMasks ??= trainPrefix.masksFor(train, vocab));

  // 1. The first-order model (trained on the masks of the prefix passes, or of `trainPrefix`).
  let firstOrder: HigherOrderTrainResult["firstOrder"];
  if (opts.firstOrder !== undefined) {
    firstOrder = { parser: opts.firstOrder, history: [], bestEpoch: 0, seconds: 0 };
  } else {
    const t0 = process.hrtime.bigint();
    const r = trainParser(train, vocab, {
      decoder: "eisner",
      epochs: opts.firstOrderEpochs ?? epochs,
      algorithm,
      C,
      seed: opts.seed ?? 1,
      bits: opts.firstOrderBits ?? 23,
      labelBits: opts.labelBits ?? 18,
      dev: opts.dev,
      cascade: prefix,
      ...(given !== undefined
        ? { masks: given }
        : trainPrefix === prefix
          ? {}
          : { masks: trainPrefixMasks() }),
      onEpoch: opts.onFirstOrderEpoch,
    });
    firstOrder = { ...r, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }
  const fo = firstOrder.parser;
  const topK =
    k > 0
      ? new TopKPruner(fo.quantizedArcWeights, k, margin ?? Number.POSITIVE_INFINITY, rank, "parser")
      : null;
  const cascade = topK === null ? prefix : prefix.concat([topK]);
  const trainCascade =
    trainPrefix === prefix ? cascade : topK === null ? trainPrefix : trainPrefix.concat([topK]);

  // 2. Training masks (computed once: the pruner is fixed).
  const atoms = new AtomCache();
  const fs = new FeatureSentence();
  const masks: ArcMask[] = new Array(train.length);
  const p0 = process.hrtime.bigint();
  let trainPruning: PruningScores | null = null;
  const hasMasks = given !== undefined || !trainCascade.empty;
  if (hasMasks) {
    const pev = new PruningEvaluator();
    const pruned =
      given ??
      (topK === null && trainPrefix !== prefix ? trainPrefixMasks() : trainCascade.masksFor(train, vocab));
    for (let i = 0; i < train.length; i++) {
      const s = train[i]!;
      // Given masks are copied: the "restore" policy below adds gold arcs to the mask.
      const mask = given === undefined ? pruned[i]! : (given[i]?.clone() ?? ArcMask.full(s.n));
      pev.add(mask, s.head);
      if (policy === "restore") for (let m = 1; m <= s.n; m++) mask.allow(s.head[m]!, m);
      masks[i] = mask;
    }
    trainPruning = pev.scores();
  }
  const pruneSeconds = Number(process.hrtime.bigint() - p0) / 1e9;

  // 3. Higher-order weights.
  const size = 1 << bits;
  const wmask = size - 1;
  const partBits = opts.partBits === undefined ? undefined : Math.min(opts.partBits, bits);
  const pmask = partRegionMask(size, partBits);
  const model = new AveragedWeights(size);
  const delta = new SparseDelta(size);
  const w = model.w;
  const scorer = new HigherOrderScorer(w, 1, partBits);
  const second = order === 2 ? new SecondOrderDecoder() : null;
  const third = order === 3 ? new ThirdOrderDecoder() : null;
  const fbuf = new Int32Array(MAX_ARC_FEATURES);
  const perceptron = algorithm === "perceptron";
  const config: HigherOrderConfig = partBits === undefined ? { order, bits } : { order, bits, partBits };
  const pruned = hasMasks;
  const indices = Array.from(train.keys());
  let margin0 = 0;
  /** Adds the features in fbuf[0..n) with sign ±1 to the update and their score to the margin. */
  const apply = (n: number, sign: number): void => {
    margin0 += sign * dot(w, fbuf, n);
    if (perceptron) model.update(fbuf, n, sign);
    else delta.add(fbuf, n, sign);
  };

  const history: HigherOrderEpochReport[] = [];
  const best = new BestEpoch<HigherOrderParser>();
  for (let epoch = 1; epoch <= epochs; epoch++) {
    rng.shuffle(indices);
    const t0 = process.hrtime.bigint();
    let correct = 0;
    let total = 0;
    let skipped = 0;
    for (const idx of indices) {
      const s = train[idx]!;
      const n = s.n;
      const gold = s.head;
      const mask = pruned ? masks[idx]! : ArcMask.full(n);
      if (policy === "skip" && pruned) {
        let pruned = false;
        for (let m = 1; m <= n && !pruned; m++) pruned = !mask.allows(gold[m]!, m);
        if (pruned) {
          skipped++;
          model.tick();
          continue;
        }
      }
      const x = atoms.prepare(s, vocab, fs);
      scorer.prepare(x, mask);
      if (costAugmented) scorer.augmentLoss(gold, 1);
      const pred = second !== null ? second.decode(mask, scorer).heads : third!.decode(mask, scorer).heads;
      let wrong = 0;
      for (let m = 1; m <= n; m++) if (pred[m] !== gold[m]) wrong++;
      correct += n - wrong;
      total += n;
      if (wrong > 0) {
        margin0 = 0;
        if (order === 2) {
          const gp = siblingParts(gold);
          const pp = siblingParts(pred);
          for (let i = 0; i < 3 * n; i += 3) {
            const gh = gp[i]!;
            const gs = gp[i + 1]!;
            const m = gp[i + 2]!;
            const ph = pp[i]!;
            const ps = pp[i + 1]!;
            if (gh !== ph) {
              apply(arcFeatures(x, gh, m, fbuf, wmask), 1);
              apply(arcFeatures(x, ph, m, fbuf, wmask), -1);
            }
            if (gh !== ph || gs !== ps) {
              apply(siblingFeatures(x, gh, gs, m, fbuf, pmask), 1);
              apply(siblingFeatures(x, ph, ps, m, fbuf, pmask), -1);
            }
          }
        } else {
          const gp = grandSiblingParts(gold);
          const pp = grandSiblingParts(pred);
          for (let i = 0; i < 4 * n; i += 4) {
            const gg = gp[i]!;
            const gh = gp[i + 1]!;
            const gs = gp[i + 2]!;
            const m = gp[i + 3]!;
            const pg = pp[i]!;
            const ph = pp[i + 1]!;
            const ps = pp[i + 2]!;
            if (gh !== ph) {
              apply(arcFeatures(x, gh, m, fbuf, wmask), 1);
              apply(arcFeatures(x, ph, m, fbuf, wmask), -1);
            }
            if (gh !== ph || gs !== ps) {
              apply(siblingFeatures(x, gh, gs, m, fbuf, pmask), 1);
              apply(siblingFeatures(x, ph, ps, m, fbuf, pmask), -1);
            }
            if (gh !== ph || gg !== pg) {
              apply(grandFeatures(x, gg, gh, m, fbuf, pmask), 1);
              apply(grandFeatures(x, pg, ph, m, fbuf, pmask), -1);
            }
            if (gh !== ph || gg !== pg || gs !== ps) {
              apply(grandSiblingFeatures(x, gg, gh, gs, m, fbuf, pmask), 1);
              apply(grandSiblingFeatures(x, pg, ph, ps, m, fbuf, pmask), -1);
            }
          }
        }
        if (!perceptron) delta.applyAndClear(model, miraStep(wrong, margin0, delta.squaredNorm(), C));
      }
      model.tick();
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    // Quantized like the model file, so a saved and reloaded parser parses identically.
    const parser = new HigherOrderParser(config, quantizeWeights(model.averaged()), fo, cascade);
    const dev =
      opts.dev !== undefined && opts.dev.length > 0 ? evaluateParser(parser, opts.dev, vocab) : null;
    best.offer(epoch, parser, dev);
    const r: HigherOrderEpochReport = {
      epoch,
      seconds,
      sentencesPerSecond: train.length / seconds,
      trainUas: total === 0 ? 0 : (100 * correct) / total,
      dev,
      skipped,
    };
    history.push(r);
    opts.onEpoch?.(r);
  }
  return { parser: best.parser!, history, bestEpoch: best.epoch, firstOrder, trainPruning, pruneSeconds };
}

/** Parses gold sentences with any parser and scores them (same as `evaluateParser`). */
export const evaluateDependencyParser = evaluateParser;
