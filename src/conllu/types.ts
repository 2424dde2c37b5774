/** One sentence block of a CoNLL-U file, kept verbatim so that read → write is byte-exact. */
export interface ConlluSentence {
  /** Every line of the block (comments, word rows, multiword-token rows, empty nodes), without the blank terminator. */
  lines: string[];
  /** The 10 columns of each basic word; words[i - 1] is word i. */
  words: string[][];
  /** wordLine[i - 1] is the index in `lines` of word i's row. */
  wordLine: number[];
  /** File the block came from (for error messages). */
  file: string;
  /** 1-based line number of the block's first line in `file`. */
  startLine: number;
}

/** Column indices of a CoNLL-U row. */
export const ID = 0;
export const FORM = 1;
export const LEMMA = 2;
export const UPOS = 3;
export const XPOS = 4;
export const FEATS = 5;
export const HEAD = 6;
export const DEPREL = 7;
export const DEPS = 8;
export const MISC = 9;
