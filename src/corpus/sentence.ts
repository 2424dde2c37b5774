import type { ReadSentence } from "../conllu/read.js";
import { type ConlluSentence, DEPREL, FORM, LEMMA, UPOS, XPOS } from "../conllu/types.js";
import type { Vocabularies } from "./vocab.js";

/**
 * A sentence as parsers see it: the basic tree in typed arrays of length n + 1, index 0 being the
 * artificial root (id 0 in every vocabulary, head -1). Strings are interned in a `Vocabularies`.
 */
export interface Sentence {
  /** Number of words (excluding the root). */
  readonly n: number;
  readonly form: Int32Array;
  readonly lemma: Int32Array;
  readonly upos: Int32Array;
  readonly xpos: Int32Array;
  /** Gold (or predicted) heads; -1 where unknown. */
  readonly head: Int32Array;
  /** Dependency relation ids; 0 where unknown. */
  readonly deprel: Int32Array;
  /** The CoNLL-U block it came from, kept only when output must be written back. */
  readonly source: ConlluSentence | undefined;
}

/** Builds a `Sentence` from a read CoNLL-U block, interning its strings. */
export function toSentence(r: ReadSentence, vocab: Vocabularies, keepSource = false): Sentence {
  const words = r.sentence.words;
  const n = words.length;
  const form = new Int32Array(n + 1);
  const lemma = new Int32Array(n + 1);
  const upos = new Int32Array(n + 1);
  const xpos = new Int32Array(n + 1);
  const deprel = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    const c = words[i - 1]!;
    form[i] = vocab.form.add(c[FORM]!);
    lemma[i] = vocab.lemma.add(c[LEMMA]!);
    upos[i] = vocab.upos.add(c[UPOS]!);
    xpos[i] = vocab.xpos.add(c[XPOS]!);
    deprel[i] = c[DEPREL] === "_" ? 0 : vocab.deprel.add(c[DEPREL]!);
  }
  return { n, form, lemma, upos, xpos, head: r.heads, deprel, source: keepSource ? r.sentence : undefined };
}

/** Builds a `Sentence` from word strings and tags (0-based arrays of the n words); heads unknown (-1). */
export function sentenceFromWords(
  forms: readonly string[],
  upos: readonly string[],
  xpos: readonly string[],
  vocab: Vocabularies,
): Sentence {
  const n = forms.length;
  const form = new Int32Array(n + 1);
  const lemma = new Int32Array(n + 1);
  const u = new Int32Array(n + 1);
  const x = new Int32Array(n + 1);
  const head = new Int32Array(n + 1).fill(-1);
  for (let i = 1; i <= n; i++) {
    form[i] = vocab.form.add(forms[i - 1]!);
    u[i] = vocab.upos.add(upos[i - 1]!);
    x[i] = vocab.xpos.add(xpos[i - 1]!);
  }
  return { n, form, lemma, upos: u, xpos: x, head, deprel: new Int32Array(n + 1), source: undefined };
}
