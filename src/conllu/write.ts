import { type ConlluSentence, DEPREL, FEATS, HEAD, LEMMA, UPOS, XPOS } from "./types.js";

/** Annotation to write over a sentence's basic words (index i = word i; index 0 unused). */
export interface Annotation {
  heads?: ArrayLike<number>;
  deprels?: ArrayLike<string>;
  upos?: ArrayLike<string>;
  xpos?: ArrayLike<string>;
  lemmas?: ArrayLike<string>;
  feats?: ArrayLike<string>;
}

/**
 * Serializes a sentence block (with its terminating blank line). Without an annotation the output is
 * byte-identical to the input block; with one, only the given columns of basic words change.
 */
export function formatSentence(s: ConlluSentence, ann?: Annotation): string {
  if (ann === undefined) return s.lines.join("\n") + "\n\n";
  const out = s.lines.slice();
  for (let i = 1; i <= s.words.length; i++) {
    const cols = s.words[i - 1]!.slice();
    if (ann.heads !== undefined) cols[HEAD] = String(ann.heads[i]);
    if (ann.deprels !== undefined) cols[DEPREL] = ann.deprels[i]!;
    if (ann.upos !== undefined) cols[UPOS] = ann.upos[i]!;
    if (ann.xpos !== undefined) cols[XPOS] = ann.xpos[i]!;
    if (ann.lemmas !== undefined) cols[LEMMA] = ann.lemmas[i]!;
    if (ann.feats !== undefined) cols[FEATS] = ann.feats[i]!;
    out[s.wordLine[i - 1]!] = cols.join("\t");
  }
  return out.join("\n") + "\n\n";
}
