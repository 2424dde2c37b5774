import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { type EpochReport, trainParser } from "../parser/train.js";
import type { PruningCascade } from "./cascade.js";
import { type PruneRank, TopKPruner } from "./top-k.js";

/** Options of `trainTopKFilter`. */
export interface TopKFilterOptions {
  /** Heads kept per token (default 10). */
  k?: number;
  /** Ranking of the heads (default max-marginal). */
  rank?: PruneRank;
  /** Heads scoring more than this below a token's best are dropped too (default: no margin). */
  margin?: number;
  /** Training epochs of the first-order model (default 10; the best on dev is kept). */
  epochs?: number;
  /** log2 of its weight table (default 20: 2 MB of 16-bit weights, which stay in cache). */
  bits?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /** Passes before this one: the first-order model trains on their masks. */
  prefix?: PruningCascade;
  /** Called after every epoch. */
  onEpoch?: (r: EpochReport) => void;
}

/**
 * Trains a standalone first-order top-k pass (the FirstOnly baseline of Rush & Petrov 2012): a
 * first-order arc model trained with MIRA, whose weights the pass keeps in its own file.
 */
export function trainTopKFilter(
  train: Sentence[],
  dev: Sentence[] | undefined,
  vocab: Vocabularies,
  opts: TopKFilterOptions = {},
): TopKPruner {
  const { parser } = trainParser(train, vocab, {
    epochs: opts.epochs ?? 10,
    bits: opts.bits ?? 20,
    labelBits: 10,
    seed: opts.seed ?? 1,
    dev,
    cascade: opts.prefix,
    onEpoch: opts.onEpoch,
  });
  return new TopKPruner(
    parser.quantizedArcWeights,
    opts.k ?? 10,
    opts.margin ?? Number.POSITIVE_INFINITY,
    opts.rank ?? "max-marginal",
    "own",
  );
}
