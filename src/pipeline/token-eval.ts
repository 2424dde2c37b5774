/**
 * Evaluation of tokenization and sentence splitting against gold CoNLL-U, the CoNLL 2018 shared-task way:
 * units match when their character spans in the white-space-free text are equal.
 */
import type { ConlluSentence } from "../conllu/types.js";
import { ENGLISH_RULES, type SegmentOptions, type Segmenter, segmentText } from "./sentence-split.js";
import { isSpaceCode, type Tokenization } from "./tokenize.js";

/** Precision, recall and F1 (percentages) of one kind of unit. */
export interface SpanScore {
  /** Units in the gold standard. */
  gold: number;
  /** Units produced by the system. */
  system: number;
  /** Units whose spans match. */
  correct: number;
  precision: number;
  recall: number;
  f1: number;
}

/** A gold sentence with the character spans (into `text`) of its words and surface tokens. */
export interface GoldSentence {
  /** The sentence's raw text (`# text`, or rebuilt from its tokens as `GoldOptions.spacing` says). */
  text: string;
  /**
   * What joins the sentence to the one before it in the same paragraph when a document's raw text is
   * rebuilt: a space, or nothing in a text written without spaces (`spacing: "none"`).
   */
  join: string;
  /** True when the sentence starts a document (`# newdoc`). */
  newdoc: boolean;
  /** True when the sentence starts a paragraph (`# newpar` or `# newdoc`). */
  newpar: boolean;
  /** [start, end) of every word, flattened: words[2k], words[2k+1]. */
  words: number[];
  /** [start, end) of every surface token, flattened. */
  tokens: number[];
  /**
   * Offsets of the word boundaries inside multiword tokens whose words spell the token out exactly
   * (Turkish "kökenli" = "köken" + "li"), in order.
   */
  innerSplits: number[];
}

/** Builds a score from counts. */
export function spanScore(gold: number, system: number, correct: number): SpanScore {
  const precision = system === 0 ? 0 : (100 * correct) / system;
  const recall = gold === 0 ? 0 : (100 * correct) / gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { gold, system, correct, precision, recall, f1 };
}

/** Maps every offset of `text` to its offset in the text with white space removed. */
export function strippedOffsets(text: string): Int32Array {
  const map = new Int32Array(text.length + 1);
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = k;
    if (!isSpaceCode(text.charCodeAt(i))) k++;
  }
  map[text.length] = k;
  return map;
}

/**
 * Counts spans matching between two flattened span lists (sorted by start) after mapping both into
 * white-space-free coordinates; returns the number of matches.
 */
export function countMatches(goldText: string, gold: number[], sysText: string, sys: number[]): number {
  const gm = strippedOffsets(goldText);
  const sm = goldText === sysText ? gm : strippedOffsets(sysText);
  let i = 0;
  let j = 0;
  let correct = 0;
  while (i < gold.length && j < sys.length) {
    const gs = gm[gold[i]!]!;
    const ss = sm[sys[j]!]!;
    if (gs < ss) i += 2;
    else if (ss < gs) j += 2;
    else {
      if (gm[gold[i + 1]!]! === sm[sys[j + 1]!]!) correct++;
      i += 2;
      j += 2;
    }
  }
  return correct;
}

/**
 * How a treebank's raw text is spaced: "space" (words and sentences apart by white space, except
 * where MISC says SpaceAfter=No) or "none" (a script written without spaces between words, as Chinese
 * and Japanese are: words and the sentences of a paragraph follow one another directly).
 */
export type Spacing = "space" | "none";

/** The spacings, for option checks. */
export const SPACINGS: readonly Spacing[] = ["space", "none"];

/** UD language codes of scripts written without spaces between words (Chinese, Japanese, Cantonese, Classical Chinese). */
const UNSPACED_LANGUAGES = new Set(["zh", "ja", "yue", "lzh"]);

/**
 * The spacing of a UD treebank named like "zh_gsd" or "UD_Chinese-GSD/zh_gsd-ud-train": "none" when
 * its language code is one of a script written without spaces, else "space".
 */
export function treebankSpacing(name: string): Spacing {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return UNSPACED_LANGUAGES.has(base.slice(0, base.indexOf("_"))) ? "none" : "space";
}

/** Options of `goldSentences`. */
export interface GoldOptions {
  /**
   * How to rebuild a sentence's text when it has no `# text`, and what joins the sentences of a
   * paragraph (default "space").
   */
  spacing?: Spacing;
}

/** What comes before gold sentence `g` when it follows another in a rebuilt document. */
export function sentenceSeparator(g: GoldSentence, paragraphJoin = "\n"): string {
  return g.newpar ? paragraphJoin : g.join;
}

/**
 * Extracts the gold sentences (text, paragraph marks, word and token spans) from CoNLL-U blocks. A
 * sentence without `# text` gets its surface tokens joined as `opts.spacing` says.
 */
export function goldSentences(
  blocks: Iterable<ConlluSentence | { sentence: ConlluSentence }>,
  opts: GoldOptions = {},
): GoldSentence[] {
  const spacing = opts.spacing ?? "space";
  const join = spacing === "none" ? "" : " ";
  const out: GoldSentence[] = [];
  for (const item of blocks) {
    const s = "sentence" in item ? item.sentence : item;
    let text: string | null = null;
    let newdoc = false;
    let newpar = false;
    const rows: string[][] = [];
    for (const line of s.lines) {
      if (line.charCodeAt(0) === 35) {
        if (line.startsWith("# text = ")) text = line.slice(9);
        else if (line.startsWith("# newdoc")) newdoc = true;
        else if (line.startsWith("# newpar")) newpar = true;
        continue;
      }
      const cols = line.split("\t");
      if (cols[0]!.includes(".")) continue; // empty node
      rows.push(cols);
    }
    if (text === null) text = rebuiltText(rows, spacing);
    const words: number[] = [];
    const tokens: number[] = [];
    const innerSplits: number[] = [];
    let mwtSplits: number[] = [];
    let mwtSpelled = true;
    // A multiword token spans its surface form; its words start where the one before ends, take
    // their own length where the text spells them out and are cut at the token's end otherwise (Greek
    // "στο" = "σε" + "το"), and the last ends with the token.
    let pos = 0;
    let mwtLeft = 0;
    let mwtStart = 0;
    let mwtEnd = 0;
    const past = (form: string, at: number, limit: number) =>
      text.startsWith(form, at) ? at + form.length : Math.min(limit, at + form.length);
    for (const r of rows) {
      const id = r[0]!;
      const dash = id.indexOf("-");
      if (dash >= 0) {
        mwtLeft = Number(id.slice(dash + 1)) - Number(id.slice(0, dash)) + 1;
        while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
        mwtStart = pos;
        mwtEnd = past(r[1]!, pos, text.length);
        mwtSplits = [];
        mwtSpelled = text.startsWith(r[1]!, pos);
        continue;
      }
      const form = r[1]!;
      if (mwtLeft === 0) while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
      const start = pos;
      if (mwtLeft > 0) {
        mwtSpelled &&= text.startsWith(form, pos) && pos + form.length <= mwtEnd;
        pos = --mwtLeft === 0 ? mwtEnd : Math.min(past(form, pos, mwtEnd), mwtEnd);
        if (mwtLeft > 0) mwtSplits.push(pos);
        else mwtSpelled &&= start + form.length === mwtEnd;
        words.push(start, pos);
        if (mwtLeft === 0) {
          tokens.push(mwtStart, pos);
          if (mwtSpelled) innerSplits.push(...mwtSplits);
        }
      } else {
        pos = past(form, pos, text.length);
        words.push(start, pos);
        tokens.push(start, pos);
      }
    }
    out.push({ text, join, newdoc, newpar: newpar || newdoc, words, tokens, innerSplits });
  }
  return out;
}

/**
 * The raw text of gold sentences as a document collection reads: documents apart by a blank line,
 * paragraphs by a line break, the sentences of a paragraph by their `join` (a space, or nothing in a
 * text written without spaces); a line break at the end.
 */
export function rawText(gold: readonly GoldSentence[]): string {
  const parts: string[] = [];
  gold.forEach((g, i) => {
    if (i > 0) parts.push(g.newdoc ? "\n\n" : sentenceSeparator(g));
    parts.push(g.text);
  });
  return parts.length === 0 ? "" : parts.join("") + "\n";
}

/**
 * A sentence's text from its surface tokens (a multiword token's own form, not its words'): apart by a
 * space unless MISC has SpaceAfter=No, or with no space at all for `spacing` "none".
 */
function rebuiltText(rows: readonly string[][], spacing: Spacing): string {
  let text = "";
  let skip = 0;
  for (const r of rows) {
    if (skip > 0) {
      skip--;
      continue;
    }
    const id = r[0]!;
    const dash = id.indexOf("-");
    if (dash >= 0) skip = Number(id.slice(dash + 1)) - Number(id.slice(0, dash)) + 1;
    text += r[1]!;
    if (spacing === "space" && !/(^|\|)SpaceAfter=No(\||$)/.test(r[9] ?? "")) text += " ";
  }
  return spacing === "space" ? text.trimEnd() : text;
}

/** Result of an evaluation run. */
export interface TokenEvalResult {
  /** Word-level scores (syntactic words, after splitting multiword tokens). */
  words: SpanScore;
  /** Surface-token scores. */
  tokens: SpanScore;
  /** Sentence-boundary scores (null in tokenization-only mode). */
  sentences: SpanScore | null;
  /** Characters processed. */
  chars: number;
  /** Seconds spent in the tokenizer / segmenter only. */
  seconds: number;
}

function flatten(t: Tokenization, offset: number, words: number[], tokens: number[]): void {
  for (const w of t.words) words.push(w.start + offset, w.end + offset);
  for (const k of t.tokens) tokens.push(k.start + offset, k.end + offset);
}

/**
 * Mode (a): tokenizes each gold sentence's text on its own (with `segmenter`, by default the English
 * rules) and scores words and tokens.
 */
export function evaluateTokenization(
  gold: GoldSentence[],
  segmenter: Segmenter = ENGLISH_RULES,
): TokenEvalResult {
  let gw = 0;
  let sw = 0;
  let cw = 0;
  let gt = 0;
  let st = 0;
  let ct = 0;
  let chars = 0;
  let seconds = 0;
  for (const g of gold) {
    const t0 = performance.now();
    const t = segmenter.tokenize(g.text, 0, g.text.length);
    seconds += performance.now() - t0;
    chars += g.text.length;
    const words: number[] = [];
    const tokens: number[] = [];
    flatten(t, 0, words, tokens);
    gw += g.words.length / 2;
    sw += words.length / 2;
    cw += countMatches(g.text, g.words, g.text, words);
    gt += g.tokens.length / 2;
    st += tokens.length / 2;
    ct += countMatches(g.text, g.tokens, g.text, tokens);
  }
  return {
    words: spanScore(gw, sw, cw),
    tokens: spanScore(gt, st, ct),
    sentences: null,
    chars,
    seconds: seconds / 1000,
  };
}

/** Options of the full (document-level) evaluation. */
export interface FullEvalOptions extends SegmentOptions {
  /** String joining the paragraphs of a document (default "\n"); sentences inside a paragraph are joined by a space. */
  paragraphJoin?: string;
}

/** Mode (b): rebuilds each document's raw text, splits and tokenizes it, and scores words, tokens and sentences. */
export function evaluateFull(gold: GoldSentence[], opts: FullEvalOptions = {}): TokenEvalResult {
  const join = opts.paragraphJoin ?? "\n";
  let gw = 0;
  let sw = 0;
  let cw = 0;
  let gt = 0;
  let st = 0;
  let ct = 0;
  let gs = 0;
  let ss = 0;
  let cs = 0;
  let chars = 0;
  let seconds = 0;
  let i = 0;
  while (i < gold.length) {
    // one document
    let text = "";
    const goldWords: number[] = [];
    const goldTokens: number[] = [];
    const goldSents: number[] = [];
    let j = i;
    while (j < gold.length && (j === i || !gold[j]!.newdoc)) {
      const g = gold[j]!;
      if (j > i) text += sentenceSeparator(g, join);
      const off = text.length;
      text += g.text;
      for (const x of g.words) goldWords.push(x + off);
      for (const x of g.tokens) goldTokens.push(x + off);
      goldSents.push(g.words[0]! + off, g.words[g.words.length - 1]! + off);
      j++;
    }
    i = j;
    const t0 = performance.now();
    const sents = segmentText(text, opts);
    seconds += performance.now() - t0;
    chars += text.length;
    const words: number[] = [];
    const tokens: number[] = [];
    const spans: number[] = [];
    for (const s of sents) {
      flatten(s, 0, words, tokens);
      if (s.words.length > 0) spans.push(s.words[0]!.start, s.words[s.words.length - 1]!.end);
    }
    gw += goldWords.length / 2;
    sw += words.length / 2;
    cw += countMatches(text, goldWords, text, words);
    gt += goldTokens.length / 2;
    st += tokens.length / 2;
    ct += countMatches(text, goldTokens, text, tokens);
    gs += goldSents.length / 2;
    ss += spans.length / 2;
    cs += countMatches(text, goldSents, text, spans);
  }
  return {
    words: spanScore(gw, sw, cw),
    tokens: spanScore(gt, st, ct),
    sentences: spanScore(gs, ss, cs),
    chars,
    seconds: seconds / 1000,
  };
}
