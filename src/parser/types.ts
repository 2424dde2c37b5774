import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData, QuantizedWeights } from "../model/model-file.js";
import type { PruningCascade } from "../prune/cascade.js";

/** The result of parsing one sentence. */
export interface ParseResult {
  /** heads[m] for m = 1..n (heads[0] = -1). */
  heads: Int32Array;
  /** labels[m] = index into the parser's `labels` (labels[0] unused). */
  labels: Int32Array;
  /** True if the decoder had to restore arcs because the mask left no tree. */
  fallback: boolean;
  /** Number of arcs whose first-order features were computed. */
  arcsScored: number;
}

/** The `labels` of a result of `parseUnlabelled`: none yet. */
export const NO_LABELS: Int32Array = new Int32Array(0);

/** What every trained parser (any order) offers: parse a sentence under an optional arc mask, save itself. */
export interface DependencyParser {
  /** Factorization order of the model. */
  readonly order: number;
  /** Dependency relation names; `ParseResult.labels` index into this list. */
  readonly labels: string[];
  /**
   * The pruning cascade stored with the model (possibly empty). `parse` does not run it: callers
   * (Pipeline, evaluateParser, the CLI) compute the mask with it, or with a cascade of their own.
   */
  cascade: PruningCascade;
  /** First-order arc weights of the model (what a top-k pass ranks heads with), or null if it has none. */
  readonly firstOrderWeights: QuantizedWeights | null;
  /**
   * Whether parsing under a mask leaves unscored the parts every allowed tree holds (a modifier's only
   * allowed head; the sibling chain of a head side whose modifiers have no other head): the same trees
   * up to exact ties, for less work. On by default; off scores every allowed part (for comparisons).
   */
  skipForced: boolean;
  /**
   * Parses a sentence (using its form/UPOS/XPOS) whose ids refer to `vocab`, using only the arcs `mask`
   * allows (null = every arc: exhaustive parsing).
   */
  parse(s: Sentence, vocab: Vocabularies, mask?: ArcMask | null): ParseResult;
  /**
   * `parse` without its last step: `labels` is left empty (length 0) for `labelTree` to fill later,
   * so that a block of sentences can be labelled together (see `parseBlock`).
   */
  parseUnlabelled(s: Sentence, vocab: Vocabularies, mask?: ArcMask | null): ParseResult;
  /** The labels `parse` gives the tree `heads` of `s` (heads[m] for m = 1..n). */
  labelTree(s: Sentence, vocab: Vocabularies, heads: Int32Array): Int32Array;
  /** Writes the model file atomically. */
  save(path: string): void;
  /** The model-file content (kind "parser"), e.g. for embedding in a pipeline bundle. */
  toModelData(): ModelData;
}
