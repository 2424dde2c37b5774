import { MAX_FEATURES, staticFeatures } from "./feature-templates.js";
import type { Lexicon } from "./lexicon.js";
import type { WordGuesser } from "./word-guesser.js";
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
  /** Words of the current sentence. */
  words: readonly string[] = [];
  /** Number of static features per token (the same for every token). */
  numStatic = 0;

  /**
   * Computes atoms (with lexicon atoms from `lex`, guess atoms from `guesser`) and static features
   * for a sentence. Tokens with `unknown[i] === 1` look like unseen words (training only: word dropout).
   */
  set(words: readonly string[], lex?: Lexicon, unknown?: Uint8Array, guesser?: WordGuesser | null): void {
    const n = words.length;
    this.words = words;
    this.atoms.set(words, lex, guesser);
    if (unknown !== undefined) for (let i = 0; i < n; i++) if (unknown[i] === 1) this.atoms.forget(i);
    if (n * MAX_FEATURES > this.feats.length) this.feats = new Int32Array(n * 2 * MAX_FEATURES);
    for (let i = 0; i < n; i++) {
      this.numStatic = staticFeatures(this.atoms, i, this.feats, i * MAX_FEATURES) - i * MAX_FEATURES;
    }
  }
}
