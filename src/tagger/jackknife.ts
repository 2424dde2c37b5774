import type { ConlluSentence } from "../conllu/types.js";
import type { TagResult } from "./tag-decoder.js";
import { type TaggedSentence, taggedSentence } from "./tagged-sentence.js";
import { Tagger } from "./tagger.js";
import type { TaggerTrainOptions } from "./train-tagger.js";

/** Information passed to `JackknifeOptions.onFold` before each fold's model is trained. */
export interface FoldInfo {
  fold: number;
  folds: number;
  /** Indices of the sentences the fold's model is trained on. */
  train: Int32Array;
  /** Indices of the sentences it tags (exactly the fold; disjoint from `train`). */
  test: Int32Array;
}

/** Options of `jackknife`: training options for every fold's model plus progress hooks. */
export interface JackknifeOptions extends TaggerTrainOptions {
  /** Called before training each fold. */
  onFold?: (info: FoldInfo) => void;
  /** Called after each fold has been tagged, with its training + tagging time. */
  onFoldDone?: (fold: number, seconds: number) => void;
}

/**
 * Assigns each of `n` sentences to one of `k` folds as contiguous, near-equal blocks (so that
 * sentences of the same document mostly share a fold and do not leak into its training data).
 */
export function jackknifeFolds(n: number, k: number): Int32Array {
  if (!Number.isInteger(k) || k < 2) throw new RangeError("jackknife needs at least 2 folds");
  const fold = new Int32Array(n);
  for (let f = 0; f < k; f++) {
    const lo = Math.floor((f * n) / k);
    const hi = Math.floor(((f + 1) * n) / k);
    fold.fill(f, lo, hi);
  }
  return fold;
}

/**
 * Jack-knife tagging: splits the sentences into `k` folds and tags each fold with a tagger trained on
 * the other k − 1, so every sentence gets tags of the quality a parser will see on unseen text.
 * Returns one `TagResult` per input sentence, in input order.
 */
export function jackknife(
  sentences: readonly (ConlluSentence | TaggedSentence)[],
  k = 10,
  opts: JackknifeOptions = {},
): TagResult[] {
  const tagged = sentences.map((s) => ("lines" in s ? taggedSentence(s) : s));
  const fold = jackknifeFolds(tagged.length, k);
  const out = new Array<TagResult>(tagged.length);
  for (let f = 0; f < k; f++) {
    const t0 = performance.now();
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < tagged.length; i++) (fold[i] === f ? test : train).push(i);
    opts.onFold?.({ fold: f, folds: k, train: Int32Array.from(train), test: Int32Array.from(test) });
    if (test.length === 0) continue;
    const { onFold: _a, onFoldDone: _b, ...trainOpts } = opts;
    const tagger = Tagger.train(
      train.map((i) => tagged[i]!),
      trainOpts,
    );
    for (const i of test) out[i] = tagger.tag(tagged[i]!.words);
    opts.onFoldDone?.(f, (performance.now() - t0) / 1000);
  }
  return out;
}
