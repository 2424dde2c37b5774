import { checkParserTrainingData } from "../corpus/training-data.js";
import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { createFirstOrderDecoder } from "../decode/first-order-factory.js";
import type { FirstOrderDecoderName as DecoderName } from "../decode/types.js";
import type { AttachmentScores } from "../eval/attachment.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import { AveragedWeights, dot, miraStep, SparseDelta } from "../learn/averaged-weights.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { packWeights } from "../model/model-file.js";
import { PruningCascade } from "../prune/cascade.js";
import { Rng } from "../util/rng.js";
import { ArcScorer } from "./arc-scorer.js";
import {
  ChildSummary,
  LABEL_FEATURE_SET,
  labelFeatures,
  labelTemplates,
  MAX_LABEL_FEATURES,
} from "./labeler.js";
import { BestEpoch, evaluateParser } from "./evaluate.js";
import { Parser } from "./parser.js";

export { evaluateParser };

/** Options of `trainParser`. */
export interface TrainOptions {
  decoder?: DecoderName;
  /** Training passes over the data (default 10). */
  epochs?: number;
  /** "mira" (1-best MIRA, default) or "perceptron". */
  algorithm?: "mira" | "perceptron";
  /** MIRA's aggressiveness cap C (default 0.1). */
  C?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /** log2 of the arc weight-vector size (default 23). */
  bits?: number;
  /** log2 of the number of label feature rows (default 18). */
  labelBits?: number;
  /**
   * Loss-augmented decoding during training (default true): every non-gold arc gets +1 before
   * decoding, so updates enforce a margin proportional to the Hamming loss (margin rescaling).
   */
  costAugmented?: boolean;
  /** Dev sentences (same vocabulary) for per-epoch evaluation and model selection. */
  dev?: Sentence[];
  /**
   * Pruning cascade applied before scoring, in training (each sentence decoded under its mask; updates
   * still move toward the gold tree) and on dev; the parser keeps it as its default cascade.
   */
  cascade?: PruningCascade;
  /**
   * Training masks (one per training sentence; null = every arc), instead of `cascade`'s: its masks
   * computed beforehand, or looser ones (e.g. only its filters') for a parser that should learn from
   * more arcs than the cascade leaves.
   */
  masks?: readonly (ArcMask | null)[];
  /** Called after every epoch. */
  onEpoch?: (r: EpochReport) => void;
}

/** What one training epoch did. */
export interface EpochReport {
  epoch: number;
  seconds: number;
  sentencesPerSecond: number;
  /** Head accuracy on training sentences during the pass (before each update). */
  trainUas: number;
  /** Dev scores with the averaged weights after this epoch (if dev was given). */
  dev: AttachmentScores | null;
}

/** Trains a first-order parser and labeller; with dev data, returns the epoch with the best dev UAS (no punct). */
export function trainParser(
  train: Sentence[],
  vocab: Vocabularies,
  opts: TrainOptions = {},
): { parser: Parser; history: EpochReport[]; bestEpoch: number } {
  checkParserTrainingData(train, vocab);
  const decoderName = opts.decoder ?? "eisner";
  const epochs = opts.epochs ?? 10;
  const algorithm = opts.algorithm ?? "mira";
  const C = opts.C ?? 0.1;
  const bits = opts.bits ?? 23;
  const labelBits = opts.labelBits ?? 18;
  const rng = new Rng(opts.seed ?? 1);
  const costAugmented = opts.costAugmented ?? true;

  // Labels: every relation used in the training data, in first-seen order.
  const { labels, labelOf } = trainingLabels(train, vocab);
  const L = labels.length;
  const rowMask = (1 << labelBits) - 1;

  const arcModel = new AveragedWeights(1 << bits);
  const labModel = new AveragedWeights((1 << labelBits) * L);
  const delta = new SparseDelta(1 << bits);
  const scorer = new ArcScorer(arcModel.w);
  const decoder = createFirstOrderDecoder(decoderName);
  const atoms = new AtomCache();
  const fs = new FeatureSentence();
  const fbuf = new Int32Array(MAX_ARC_FEATURES);
  const lbuf = new Int32Array(MAX_LABEL_FEATURES);
  const kids = new ChildSummary();
  const lidx = new Int32Array(MAX_LABEL_FEATURES);
  const lsc = new Float64Array(L);
  const wmask = (1 << bits) - 1;
  const order = Array.from(train.keys());
  const labelSet = labelTemplates(LABEL_FEATURE_SET);
  const config = {
    order: 1 as const,
    decoder: decoderName,
    bits,
    labelBits,
    labelFeatures: LABEL_FEATURE_SET,
  };
  const cascade = opts.cascade ?? new PruningCascade();
  const masks: readonly (ArcMask | null)[] = opts.masks ?? cascade.masksFor(train, vocab);
  if (masks.length !== train.length)
    throw new RangeError(`trainParser: ${masks.length} masks for ${train.length} sentences`);

  const history: EpochReport[] = [];
  const best = new BestEpoch<Parser>();
  for (let epoch = 1; epoch <= epochs; epoch++) {
    rng.shuffle(order);
    const t0 = process.hrtime.bigint();
    let correct = 0;
    let total = 0;
    for (const idx of order) {
      const s = train[idx]!;
      const x = atoms.prepare(s, vocab, fs);
      const n = x.n;
      const size = n + 1;
      const mask = masks[idx]!;
      const scores = scorer.scoreAll(x, mask);
      const gold = s.head;
      if (costAugmented) {
        for (let m = 1; m <= n; m++) {
          for (let h = 0; h <= n; h++) if (h !== m && h !== gold[m]) scores[h * size + m]! += 1;
        }
      }
      const pred = decoder.decode(n, scores, mask).heads;
      let wrong = 0;
      let margin = 0;
      for (let m = 1; m <= n; m++) {
        if (pred[m] === gold[m]) continue;
        wrong++;
        // A gold arc the cascade pruned, or an arc a decoder's fallback restored, has no score in the
        // matrix: its score is computed from its features (plus the loss, for a non-gold arc).
        let k = arcFeatures(x, gold[m]!, m, fbuf, wmask);
        let sg = scores[gold[m]! * size + m]!;
        if (sg === Number.NEGATIVE_INFINITY) sg = dot(arcModel.w, fbuf, k);
        if (algorithm === "perceptron") arcModel.update(fbuf, k, 1);
        else delta.add(fbuf, k, 1);
        k = arcFeatures(x, pred[m]!, m, fbuf, wmask);
        let sp = scores[pred[m]! * size + m]!;
        if (sp === Number.NEGATIVE_INFINITY) sp = dot(arcModel.w, fbuf, k) + (costAugmented ? 1 : 0);
        margin += sg - sp + (costAugmented ? 1 : 0);
        if (algorithm === "perceptron") arcModel.update(fbuf, k, -1);
        else delta.add(fbuf, k, -1);
      }
      if (wrong > 0 && algorithm === "mira") {
        delta.applyAndClear(arcModel, miraStep(wrong, margin, delta.squaredNorm(), C));
      }
      correct += n - wrong;
      total += n;
      // Labeller: multiclass perceptron on gold arcs.
      const lw = labModel.w;
      const kidSummary = kids.fill(x, gold);
      for (let m = 1; m <= n; m++) {
        const k = labelFeatures(x, kidSummary, gold[m]!, m, lbuf, rowMask, labelSet);
        lsc.fill(0);
        for (let i = 0; i < k; i++) {
          const base = lbuf[i]! * L;
          for (let l = 0; l < L; l++) lsc[l] += lw[base + l]!;
        }
        let p = 0;
        for (let l = 1; l < L; l++) if (lsc[l]! > lsc[p]!) p = l;
        const g = labelOf[s.deprel[m]!]!;
        if (p !== g) {
          for (let i = 0; i < k; i++) lidx[i] = lbuf[i]! * L + g;
          labModel.update(lidx, k, 1);
          for (let i = 0; i < k; i++) lidx[i] = lbuf[i]! * L + p;
          labModel.update(lidx, k, -1);
        }
      }
      arcModel.tick();
      labModel.tick();
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    // Quantized as a saved model is, so the returned parser behaves exactly like the file it writes.
    const parser = new Parser(
      config,
      packWeights(arcModel.averaged()),
      packWeights(labModel.averaged()),
      labels.slice(),
    );
    parser.cascade = cascade;
    const dev =
      opts.dev !== undefined && opts.dev.length > 0 ? evaluateParser(parser, opts.dev, vocab) : null;
    best.offer(epoch, parser, dev);
    const r: EpochReport = {
      epoch,
      seconds,
      sentencesPerSecond: train.length / seconds,
      trainUas: total === 0 ? 0 : (100 * correct) / total,
      dev,
    };
    history.push(r);
    opts.onEpoch?.(r);
  }
  return { parser: best.parser!, history, bestEpoch: best.epoch };
}

/**
 * The relation labels of a training set, in first-seen order, and each deprel id's label index
 * (`labelOf[deprel]`, -1 for relations the set does not use).
 */
export function trainingLabels(
  train: readonly Sentence[],
  vocab: Vocabularies,
): { labels: string[]; labelOf: Int32Array } {
  const labels: string[] = [];
  const labelOf = new Int32Array(vocab.deprel.size + 1).fill(-1);
  for (const s of train) {
    for (let m = 1; m <= s.n; m++) {
      const d = s.deprel[m]!;
      if (labelOf[d] === -1) {
        labelOf[d] = labels.length;
        labels.push(vocab.deprel.strings[d]!);
      }
    }
  }
  return { labels, labelOf };
}
