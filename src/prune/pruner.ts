import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";

/**
 * What a pruning pass sees of one sentence. The cascade reuses one object for every sentence, so a pass
 * must not keep references to it (or to its arrays) after `prune` returns.
 */
export interface PruneInput {
  /** The sentence; its ids refer to `vocab`. */
  readonly sentence: Sentence;
  /** The vocabularies the sentence's ids refer to. */
  readonly vocab: Vocabularies;
  /** Hashed feature atoms of the sentence (word, prefix, suffix, tags), prepared once, when first read. */
  readonly atoms: FeatureSentence;
}

/**
 * One pass that removes head→modifier arcs before (or between) parsing passes: a Len-Vine or Tag-Vine
 * limit, PoS rules, token-role or arc classifiers, first-order top-k, a max-marginal pass of a vine
 * cascade. A pass only ever removes arcs: it reads the mask the previous pass left and clears bits in
 * place, and must never set one. Passes are loaded by the `kind` stored in their model file.
 */
export interface ArcPruner {
  /** Model-file kind of the pass (e.g. "lenvine", "topk"); chooses its loader. */
  readonly kind: string;
  /** Removes implausible arcs of `input`'s sentence from `mask`, in place (never adds one). */
  prune(input: PruneInput, mask: ArcMask): void;
  /** The pass as model-file content (kind = `this.kind`, versioned metadata, arrays). */
  toModelData(): ModelData;
  /** A human-readable description of what the pass learned (for `vineparse filter show`). */
  describe(): string;
}
