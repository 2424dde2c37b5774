import { finishBits, mix } from "../util/hash.js";
import { countWordTags, type TaggedWords } from "./tag-dictionary.js";

/** Thresholds for `buildLexicon`. */
export interface LexiconOptions {
  /** Minimum number of training occurrences of a word form (default 30, the best of 2/10/30/50 on en_ewt dev). */
  minCount?: number;
  /** A tag joins a word's ambiguity class if it has at least this share of its occurrences (default 0.05). */
  minShare?: number;
}

/**
 * What the training data says about frequent word forms, used as "distributional" feature atoms of
 * every window position (so the left-to-right tagger gets a hint of the tags to its right): the
 * word's ambiguity class (hash of the set of tags it was seen with) and its most frequent tag.
 * Computed from the training text only; rare words are left out so that the classes the model
 * trusts in training are as reliable as on unseen text.
 */
export class Lexicon {
  /** Word form → entry. */
  private readonly entry = new Map<string, number>();
  /** Sorted word forms (entry e = words[e]). */
  readonly words: readonly string[];
  /** Ambiguity-class atom of each entry. */
  readonly amb: Int32Array;
  /** Most frequent tag id of each entry. */
  readonly top: Int32Array;

  constructor(words: readonly string[], amb: Int32Array, top: Int32Array) {
    if (amb.length !== words.length || top.length !== words.length)
      throw new RangeError("inconsistent lexicon arrays");
    this.words = words;
    this.amb = amb;
    this.top = top;
    for (let e = 0; e < words.length; e++) this.entry.set(words[e]!, e);
  }

  /** Entry of a word form, or -1 if unknown. */
  get(word: string): number {
    return this.entry.get(word) ?? -1;
  }

  static empty(): Lexicon {
    return new Lexicon([], new Int32Array(0), new Int32Array(0));
  }
}

/** Builds the lexicon of tagged training sentences (tags are ids of one tag set). */
export function buildLexicon(sentences: TaggedWords, numTags: number, opts: LexiconOptions = {}): Lexicon {
  const minCount = opts.minCount ?? 30;
  const minShare = opts.minShare ?? 0.05;
  const counts = countWordTags(sentences, numTags);
  const words = [...counts.keys()]
    .filter((w) => counts.get(w)!.reduce((a, b) => a + b, 0) >= minCount)
    .sort();
  const amb = new Int32Array(words.length);
  const top = new Int32Array(words.length);
  words.forEach((w, e) => {
    const c = counts.get(w)!;
    let total = 0;
    let best = 0;
    for (let t = 0; t < numTags; t++) {
      total += c[t]!;
      if (c[t]! > c[best]!) best = t;
    }
    let h = 0x2545f491;
    for (let t = 0; t < numTags; t++) if (c[t]! >= minShare * total) h = mix(h, t);
    amb[e] = finishBits(h) | 0;
    top[e] = best;
  });
  return new Lexicon(words, amb, top);
}
