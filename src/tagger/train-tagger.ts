import { checkTaggerTrainingData } from "../corpus/training-data.js";
import { Rng } from "../util/rng.js";
import type { WordVectors } from "../vectors/word-vectors.js";
import { type TagAccuracy, tagAccuracy } from "./accuracy.js";
import { Perceptron } from "./perceptron.js";
import { SentenceFeatures } from "./sentence-features.js";
import { buildLexicon, type LexiconOptions } from "./lexicon.js";
import { PAIR_SEPARATOR, TagDecoder, type TaggerMode } from "./tag-decoder.js";
import { buildTagDictionary, type TagDictionaryOptions } from "./tag-dictionary.js";
import { TagModel } from "./tag-model.js";
import type { TaggedSentence } from "./tagged-sentence.js";
import { trainWordGuesser, type WordGuesser, type WordGuesserOptions } from "./word-guesser.js";

/** Progress report after each training epoch. */
export interface EpochProgress {
  epoch: number;
  epochs: number;
  seconds: number;
  tokensPerSecond: number;
  /** Accuracy of the on-line predictions during the epoch (joint tag or UPOS), in percent. */
  trainAccuracy: number;
  /** Accuracy of the averaged model on the dev set, if one was given. */
  dev?: TagAccuracy;
}

/** Options of `trainTagDecoder` / `Tagger.train`. */
export interface TaggerTrainOptions {
  /** Passes over the training data (default 8, the best on en_ewt dev). */
  epochs?: number;
  /** Seed of the per-epoch shuffles (default 1); same data + seed → same model. */
  seed?: number;
  /** "joint" (default): one model over (UPOS, XPOS) pairs; "separate": one per tag set. */
  mode?: TaggerMode;
  /** Tag dictionary thresholds, or false to disable it. */
  dictionary?: TagDictionaryOptions | false;
  /** Beam width of training and tagging (default 1: greedy, updating at every mistake). */
  beam?: number;
  /** Word dropout: training tokens of words seen at most this often (default 0: none) ... */
  dropoutMaxCount?: number;
  /** ... are made to look unseen with this probability (default 0). */
  dropout?: number;
  /** Thresholds of the lexicon behind the ambiguity-class features. */
  lexicon?: LexiconOptions;
  /**
   * Word vectors from unlabelled text: a `WordGuesser` learns from them a tag guess for every word
   * they cover, and the guess features are on (the guesses are stored with the tagger).
   */
  vectors?: WordVectors | null;
  /** Options of that guesser. */
  guesser?: WordGuesserOptions;
  /** Sentences to report accuracy on after each epoch (never trained on). */
  dev?: readonly TaggedSentence[];
  /** Called after each epoch. */
  onEpoch?: (p: EpochProgress) => void;
}

/** Class strings of a column in order of decreasing frequency (ties by string), and each token's class id. */
function classIds(
  sentences: readonly TaggedSentence[],
  key: (s: TaggedSentence, i: number) => string,
): { classes: string[]; gold: Int32Array[] } {
  const freq = new Map<string, number>();
  for (const s of sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const k = key(s, i);
      freq.set(k, (freq.get(k) ?? 0) + 1);
    }
  }
  const classes = [...freq.keys()].sort(
    (a, b) => freq.get(b)! - freq.get(a)! || (a < b ? -1 : a > b ? 1 : 0),
  );
  const id = new Map(classes.map((c, i) => [c, i]));
  const gold = sentences.map((s) => {
    const g = new Int32Array(s.words.length);
    for (let i = 0; i < g.length; i++) g[i] = id.get(key(s, i))!;
    return g;
  });
  return { classes, gold };
}

/** Trains the tag models of a tagger with greedy averaged-perceptron updates (Collins 2002). */
export function trainTagDecoder(
  sentences: readonly TaggedSentence[],
  opts: TaggerTrainOptions = {},
): TagDecoder {
  checkTaggerTrainingData(sentences);
  const epochs = opts.epochs ?? 8;
  const mode = opts.mode ?? "joint";
  const columns =
    mode === "joint"
      ? [classIds(sentences, (s, i) => s.upos[i]! + PAIR_SEPARATOR + s.xpos[i]!)]
      : [classIds(sentences, (s, i) => s.upos[i]!), classIds(sentences, (s, i) => s.xpos[i]!)];
  const models = columns.map((c) => {
    const dict =
      opts.dictionary === false
        ? new Map<string, number>()
        : buildTagDictionary(
            sentences.map((s, j) => ({ words: s.words, tags: c.gold[j]! })),
            c.classes.length,
            opts.dictionary,
          );
    return new TagModel(c.classes, new Perceptron(c.classes.length), dict);
  });
  const lexicon = buildLexicon(
    sentences.map((s, j) => ({ words: s.words, tags: columns[0]!.gold[j]! })),
    columns[0]!.classes.length,
    opts.lexicon,
  );
  const beam = opts.beam ?? 1;
  let guesser: WordGuesser | null = null;
  if (opts.vectors != null) {
    const upos = mode === "joint" ? classIds(sentences, (s, i) => s.upos[i]!) : columns[0]!;
    guesser = trainWordGuesser(
      opts.vectors,
      sentences.map((s, j) => ({ words: s.words, tags: upos.gold[j]! })),
      upos.classes.length,
      opts.guesser,
    );
  }
  const training = new TagDecoder(mode, models, lexicon, beam, guesser);
  const rng = new Rng(opts.seed ?? 1);
  const order = new Int32Array(sentences.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const sf = new SentenceFeatures();
  const dropMax = opts.dropoutMaxCount ?? 0;
  const dropP = opts.dropout ?? 0;
  const wordCount = new Map<string, number>();
  for (const s of sentences) for (const w of s.words) wordCount.set(w, (wordCount.get(w) ?? 0) + 1);
  const dropRng = new Rng((opts.seed ?? 1) ^ 0x5eed);
  let unknown = new Uint8Array(64);
  let out = new Int32Array(64);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const t0 = performance.now();
    rng.shuffle(order);
    let tokens = 0;
    let correct = 0;
    for (let j = 0; j < order.length; j++) {
      const s = sentences[order[j]!]!;
      const n = s.words.length;
      if (n > out.length) out = new Int32Array(n * 2);
      if (n > unknown.length) unknown = new Uint8Array(n * 2);
      for (let i = 0; i < n; i++)
        unknown[i] = dropP > 0 && wordCount.get(s.words[i]!)! <= dropMax && dropRng.next() < dropP ? 1 : 0;
      sf.set(s.words, lexicon, unknown, guesser);
      for (let m = 0; m < models.length; m++) {
        const gold = columns[m]!.gold[order[j]!]!;
        models[m]!.decode(s.words, sf, out, gold, beam);
        if (m === 0) for (let i = 0; i < n; i++) if (out[i] === gold[i]) correct++;
      }
      tokens += n;
    }
    const seconds = (performance.now() - t0) / 1000;
    if (opts.onEpoch !== undefined) {
      const p: EpochProgress = {
        epoch,
        epochs,
        seconds,
        tokensPerSecond: tokens / seconds,
        trainAccuracy: (100 * correct) / Math.max(1, tokens),
      };
      if (opts.dev !== undefined) {
        const avg = training.frozen();
        p.dev = tagAccuracy(
          opts.dev,
          opts.dev.map((s) => avg.tag(s.words)),
        );
      }
      opts.onEpoch(p);
    }
  }
  return training.frozen();
}
