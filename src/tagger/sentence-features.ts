import { MAX_FEATURES, staticFeatures } from "./feature-templates.js";
import { WordAtoms } from "./word-atoms.js";

/**
 * The feature buffer of one sentence: token i owns slots [i * MAX_FEATURES, (i + 1) * MAX_FEATURES);
 * its tag-independent features are computed once by `set` (shared by every tag model), and each
 * model appends its history features after them while decoding. Buffers are reused across sentences.
 */
export class SentenceFeatures {
  /** Atoms of the current sentence. */
  readonly atoms = new WordAtoms();
  /** Feature keys, MAX_FEATURES slots per token. */
  feats = new Int32Array(64 * MAX_FEATURES);
  /** Number of static features per token (the same for every token). */
  numStatic = 0;

  /** Computes atoms and static features for a sentence. */
  set(words: readonly string[]): void {
    const n = words.length;
    this.atoms.set(words);
    if (n * MAX_FEATURES > this.feats.length) this.feats = new Int32Array(n * 2 * MAX_FEATURES);
    for (let i = 0; i < n; i++) {
      this.numStatic = staticFeatures(this.atoms, i, this.feats, i * MAX_FEATURES) - i * MAX_FEATURES;
    }
  }
}
