/** Tagged sentences as the tag dictionary and the lexicon read them (tags are ids of one tag set). */
export type TaggedWords = readonly { words: readonly string[]; tags: ArrayLike<number> }[];

/** How often each word form carries each tag: word → counts indexed by tag id. */
export function countWordTags(sentences: TaggedWords, numTags: number): Map<string, Int32Array> {
  const counts = new Map<string, Int32Array>();
  for (const s of sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const w = s.words[i]!;
      let c = counts.get(w);
      if (c === undefined) {
        c = new Int32Array(numTags);
        counts.set(w, c);
      }
      c[s.tags[i]!]!++;
    }
  }
  return counts;
}

/** Thresholds for `buildTagDictionary` (Honnibal-style: frequent words with one dominant tag). */
export interface TagDictionaryOptions {
  /** Minimum number of training occurrences (default 20). */
  minCount?: number;
  /** Minimum share of the most frequent tag (default 0.97). */
  minRatio?: number;
}

/**
 * Maps frequent, nearly unambiguous words to their tag id so the tagger can assign it directly
 * (skipping feature scoring): a word qualifies if seen ≥ minCount times with ≥ minRatio of one tag.
 */
export function buildTagDictionary(
  sentences: TaggedWords,
  numTags: number,
  opts: TagDictionaryOptions = {},
): Map<string, number> {
  const minCount = opts.minCount ?? 20;
  const minRatio = opts.minRatio ?? 0.97;
  const counts = countWordTags(sentences, numTags);
  const dict = new Map<string, number>();
  for (const [w, c] of counts) {
    let total = 0;
    let best = 0;
    for (let t = 0; t < numTags; t++) {
      total += c[t]!;
      if (c[t]! > c[best]!) best = t;
    }
    if (total >= minCount && c[best]! >= minRatio * total) dict.set(w, best);
  }
  return dict;
}
