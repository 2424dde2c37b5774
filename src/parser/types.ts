import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { ModelData } from "../model/model-file.js";
import type { ArcMask } from "../prune/arc-mask.js";

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

/** What every trained parser (any order) offers: parse a sentence under an optional arc mask, save itself. */
export interface DependencyParser {
  /** Factorization order of the model. */
  readonly order: number;
  /** Dependency relation names; `ParseResult.labels` index into this list. */
  readonly labels: string[];
  /** Parses a sentence (using its form/UPOS/XPOS) whose ids refer to `vocab`; `mask` restricts the arcs. */
  parse(s: Sentence, vocab: Vocabularies, mask?: ArcMask | null): ParseResult;
  /** Writes the model file atomically. */
  save(path: string): void;
  /** The model-file content (kind "parser"), e.g. for embedding in a pipeline bundle. */
  toModelData(): ModelData;
}
