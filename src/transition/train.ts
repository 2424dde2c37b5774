import type { Sentence } from "../corpus/sentence.js";
import { checkParserTrainingData } from "../corpus/training-data.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { AttachmentScores } from "../eval/attachment.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import { int16Weights } from "../model/model-file.js";
import { BestEpoch, evaluateParser } from "../parser/evaluate.js";
import { trainingLabels } from "../parser/train.js";
import { Rng } from "../util/rng.js";
import { ATOM_SLOTS, stateRows, TRANSITION_FEATURES } from "./features.js";
import { MAX_TRANSITION_BITS, TransitionParser } from "./parser.js";
import {
  classCount,
  countDependents,
  isProjective,
  oracle,
  oracleApplied,
  projectivize,
  SHIFT,
  State,
} from "./system.js";

/** Options of `trainTransitionParser`. */
export interface TransitionTrainOptions {
  /** Passes over the training data (default 10). */
  epochs?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /** log2 of the number of weight rows (default 18). */
  bits?: number;
  /**
   * Non-projective training trees: "lift" (default) trains on their projectivized version (each
   * non-projective arc lifted to its head's head until the tree is projective, `projectivize`);
   * "skip" leaves such sentences out.
   */
  nonProjective?: "lift" | "skip";
  /** Development sentences: each epoch is evaluated and the best (UAS without punctuation) kept. */
  dev?: Sentence[];
  /** Called after each epoch. */
  onEpoch?: (r: TransitionEpochReport) => void;
}

/** What one training epoch did. */
export interface TransitionEpochReport {
  epoch: number;
  seconds: number;
  sentencesPerSecond: number;
  /** Share of the oracle's transitions the classifier predicted (before each update), in percent. */
  trainAccuracy: number;
  /** Dev scores with the averaged weights after this epoch (if dev was given). */
  dev: AttachmentScores | null;
}

/** The result of `trainTransitionParser`. */
export interface TransitionTrainResult {
  parser: TransitionParser;
  history: TransitionEpochReport[];
  bestEpoch: number;
  /** Training sentences whose tree was not projective (lifted or skipped). */
  nonProjectiveSentences: number;
  /** Arcs lifted to projectivize them ("lift"; 0 with "skip"). */
  liftedArcs: number;
  /** Sentences trained on. */
  trainedSentences: number;
}

/** A training sentence's target: its heads (projective, single-rooted) and label indices. */
interface Target {
  s: Sentence;
  head: Int32Array;
  label: Int32Array;
}

/**
 * Trains a greedy arc-standard parser (system.ts) with the averaged perceptron of Collins (2002):
 * at each configuration of the static oracle's derivation, the best legal transition under the
 * current weights is predicted; when it is not the oracle's, the oracle's class gains and the
 * predicted one loses 1 in every feature row (one row per template, features.ts); the oracle's
 * transition is applied either way. Averaging keeps, beside the weights w, the sum u of each update
 * times the number of decisions so far, c, so that the average is w − u / c (Daumé 2006), with no
 * pass over the table per decision. The averaged weights are quantized to 16 bits, as they are
 * saved, so the parser trained is exactly the one loaded.
 *
 * Trees with several root dependents are made single-rooted first (every later root dependent is
 * attached to the first), as the system builds only single-rooted trees.
 */
export function trainTransitionParser(
  train: Sentence[],
  vocab: Vocabularies,
  opts: TransitionTrainOptions = {},
): TransitionTrainResult {
  checkParserTrainingData(train, vocab);
  const epochs = opts.epochs ?? 10;
  const bits = opts.bits ?? 18;
  if (!Number.isInteger(bits) || bits < 1 || bits > MAX_TRANSITION_BITS)
    throw new RangeError(`bits must be an integer in 1..${MAX_TRANSITION_BITS}`);
  const rng = new Rng(opts.seed ?? 1);
  const mode = opts.nonProjective ?? "lift";

  // Labels: every relation of the training data, in first-seen order.
  const { labels, labelOf } = trainingLabels(train, vocab);
  const L = labels.length;
  const C = classCount(L);

  let nonProjectiveSentences = 0;
  let liftedArcs = 0;
  const targets: Target[] = [];
  for (const s of train) {
    const head = s.head.slice(0, s.n + 1);
    let first = 0;
    for (let m = 1; m <= s.n; m++) {
      if (head[m] !== 0) continue;
      if (first === 0) first = m;
      else head[m] = first;
    }
    if (!isProjective(head, s.n)) {
      nonProjectiveSentences++;
      if (mode === "skip") continue;
      liftedArcs += projectivize(head, s.n);
    }
    const label = new Int32Array(s.n + 1);
    for (let m = 1; m <= s.n; m++) label[m] = labelOf[s.deprel[m]!]!;
    targets.push({ s, head, label });
  }

  const size = (1 << bits) * C;
  const w = new Float32Array(size);
  const u = new Float64Array(size);
  let c = 1;
  const atomCache = new AtomCache();
  const fs = new FeatureSentence();
  const st = new State();
  const atoms = new Int32Array(ATOM_SLOTS);
  const rows = new Int32Array(TRANSITION_FEATURES);
  const sc = new Float64Array(C);
  let pend = new Int32Array(64);

  const averaged = (): TransitionParser => {
    const avg = new Float32Array(size);
    for (let i = 0; i < size; i++) avg[i] = w[i]! - u[i]! / c;
    return new TransitionParser({ bits }, int16Weights(avg), labels.slice());
  };

  const order = Array.from(targets.keys());
  const best = new BestEpoch<TransitionParser>();
  const history: TransitionEpochReport[] = [];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const t0 = performance.now();
    rng.shuffle(order);
    let decisions = 0;
    let correct = 0;
    for (const i of order) {
      const { s, head, label } = targets[i]!;
      const x = atomCache.prepare(s, vocab, fs, false);
      const n = s.n;
      if (pend.length < n + 1) pend = new Int32Array(Math.max(n + 1, pend.length * 2));
      countDependents(head, n, pend);
      st.init(n, L);
      while (!st.done) {
        const gold = oracle(st, head, label, pend);
        if (st.sp <= 2 && st.b <= n) {
          // SHIFT is the only legal transition (as in parsing, nothing is scored or learned).
          st.apply(gold);
          continue;
        }
        stateRows(x, st, atoms, rows, bits, C);
        sc.fill(0);
        for (let t = 0; t < rows.length; t++) {
          const base = rows[t]!;
          let k = 0;
          for (; k + 4 <= C; k += 4) {
            sc[k] += w[base + k]!;
            sc[k + 1] += w[base + k + 1]!;
            sc[k + 2] += w[base + k + 2]!;
            sc[k + 3] += w[base + k + 3]!;
          }
          for (; k < C; k++) sc[k] += w[base + k]!;
        }
        // The best legal class (ties to the lowest class, as in parsing).
        let pred = -1;
        let bestScore = 0;
        const shift = st.canShift();
        const left = st.canLeft();
        const right = st.canRight();
        for (let k = 0; k < C; k++) {
          if (k === SHIFT ? !shift : k <= L ? !left : !right) continue;
          if (pred < 0 || sc[k]! > bestScore) {
            pred = k;
            bestScore = sc[k]!;
          }
        }
        decisions++;
        if (pred === gold) correct++;
        else {
          for (let t = 0; t < rows.length; t++) {
            const base = rows[t]!;
            w[base + gold]! += 1;
            u[base + gold]! += c;
            w[base + pred]! -= 1;
            u[base + pred]! -= c;
          }
        }
        c++;
        st.apply(gold);
        oracleApplied(st, gold, pend);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    // Without dev data only the last epoch's model is kept: no need to average the others.
    const parser = opts.dev !== undefined || epoch === epochs ? averaged() : null;
    const dev = opts.dev === undefined || parser === null ? null : evaluateParser(parser, opts.dev, vocab);
    const report: TransitionEpochReport = {
      epoch,
      seconds,
      sentencesPerSecond: targets.length / Math.max(seconds, 1e-9),
      trainAccuracy: decisions === 0 ? 100 : (100 * correct) / decisions,
      dev,
    };
    history.push(report);
    opts.onEpoch?.(report);
    if (parser !== null) best.offer(epoch, parser, dev);
  }
  return {
    parser: best.parser!,
    history,
    bestEpoch: best.epoch,
    nonProjectiveSentences,
    liftedArcs,
    trainedSentences: targets.length,
  };
}
