import { type ConlluSentence, FORM, UPOS, XPOS } from "../conllu/types.js";

/** A sentence as the tagger sees it: word strings and (gold or predicted) UPOS and XPOS tags. */
export interface TaggedSentence {
  words: string[];
  upos: string[];
  xpos: string[];
}

/** The words and tags of a CoNLL-U block's basic words. */
export function taggedSentence(s: ConlluSentence): TaggedSentence {
  const n = s.words.length;
  const words = new Array<string>(n);
  const upos = new Array<string>(n);
  const xpos = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const c = s.words[i]!;
    words[i] = c[FORM]!;
    upos[i] = c[UPOS]!;
    xpos[i] = c[XPOS]!;
  }
  return { words, upos, xpos };
}
