import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
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

/** The training and test sentence indices of fold f. */
function foldInfo(fold: Int32Array, f: number, k: number): FoldInfo {
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < fold.length; i++) (fold[i] === f ? test : train).push(i);
  return { fold: f, folds: k, train: Int32Array.from(train), test: Int32Array.from(test) };
}

/**
 * Trains fold `info.fold`'s tagger on its training sentences and tags its test sentences; returns
 * the tags in the order of `info.test` (used in this thread and by the jack-knife workers).
 */
export function tagFold(
  tagged: readonly TaggedSentence[],
  info: FoldInfo,
  trainOpts: TaggerTrainOptions,
): TagResult[] {
  if (info.test.length === 0) return [];
  const tagger = Tagger.train(
    Array.from(info.train, (i) => tagged[i]!),
    trainOpts,
  );
  return Array.from(info.test, (i) => tagger.tag(tagged[i]!.words));
}

function asTagged(sentences: readonly (ConlluSentence | TaggedSentence)[]): TaggedSentence[] {
  return sentences.map((s) => ("lines" in s ? taggedSentence(s) : s));
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
  const tagged = asTagged(sentences);
  const fold = jackknifeFolds(tagged.length, k);
  const out = new Array<TagResult>(tagged.length);
  const { onFold: _a, onFoldDone: _b, ...trainOpts } = opts;
  for (let f = 0; f < k; f++) {
    const t0 = performance.now();
    const info = foldInfo(fold, f, k);
    opts.onFold?.(info);
    if (info.test.length === 0) continue;
    tagFold(tagged, info, trainOpts).forEach((r, j) => (out[info.test[j]!] = r));
    opts.onFoldDone?.(f, (performance.now() - t0) / 1000);
  }
  return out;
}

/** What the main thread sends a jack-knife worker. */
export interface JackknifeWorkerData {
  tagged: TaggedSentence[];
  k: number;
  folds: number[];
  /** Training options without callbacks, dev data or vectors (which travel as `vectors`). */
  trainOpts: TaggerTrainOptions;
  vectors: { words: readonly string[]; dim: number; data: Int8Array; scale: Float32Array } | null;
}

/** What a jack-knife worker sends back for each fold. */
export interface JackknifeWorkerResult {
  fold: number;
  seconds: number;
  tags: TagResult[];
}

/**
 * `jackknife` with the folds trained on `threads` worker threads (default: the machine's available
 * parallelism, at most k). Each fold's tagger is trained exactly as in `jackknife`, so the result is
 * the same; `onFoldDone` is called as folds finish (in any order). `onFold` is not called, and the
 * per-epoch `dev` / `onEpoch` options are ignored (they cannot cross to a worker).
 */
export async function jackknifeParallel(
  sentences: readonly (ConlluSentence | TaggedSentence)[],
  k = 10,
  opts: JackknifeOptions & { threads?: number } = {},
): Promise<TagResult[]> {
  const threads = Math.max(1, Math.min(k, opts.threads ?? availableParallelism()));
  if (threads === 1) return jackknife(sentences, k, opts);
  const tagged = asTagged(sentences);
  const fold = jackknifeFolds(tagged.length, k);
  const out = new Array<TagResult>(tagged.length);
  const { onFold: _a, onFoldDone: _b, threads: _c, dev: _d, onEpoch: _e, vectors, ...trainOpts } = opts;
  const shared =
    vectors == null
      ? null
      : { words: vectors.words, dim: vectors.dim, data: vectors.data, scale: vectors.scale };
  const jobs: Promise<void>[] = [];
  for (let w = 0; w < threads; w++) {
    const folds: number[] = [];
    for (let f = w; f < k; f += threads) folds.push(f);
    const data: JackknifeWorkerData = { tagged, k, folds, trainOpts, vectors: shared };
    jobs.push(
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(new URL("./jackknife-worker.js", import.meta.url), { workerData: data });
        let done = 0;
        worker.on("message", (r: JackknifeWorkerResult) => {
          const info = foldInfo(fold, r.fold, k);
          r.tags.forEach((t, j) => (out[info.test[j]!] = t));
          opts.onFoldDone?.(r.fold, r.seconds);
          if (++done === folds.length) resolve();
        });
        worker.on("error", reject);
        worker.on("exit", (code) => {
          if (done < folds.length) reject(new Error(`jack-knife worker stopped with code ${code}`));
        });
      }),
    );
  }
  await Promise.all(jobs);
  return out;
}

/** Runs the folds a worker was given (called by jackknife-worker.ts). */
export function runJackknifeWorker(
  data: JackknifeWorkerData,
  vectors: TaggerTrainOptions["vectors"],
  send: (r: JackknifeWorkerResult) => void,
): void {
  const fold = jackknifeFolds(data.tagged.length, data.k);
  for (const f of data.folds) {
    const t0 = performance.now();
    const tags = tagFold(data.tagged, foldInfo(fold, f, data.k), { ...data.trainOpts, vectors });
    send({ fold: f, seconds: (performance.now() - t0) / 1000, tags });
  }
}
