/**
 * Rule-based sentence splitter for English raw text (tuned on UD English EWT): blank lines are hard
 * boundaries; otherwise a sentence ends after `.`/`?`/`!`/`…` runs (plus closing quotes and brackets)
 * when the next word can start a sentence, and after sentence-final abbreviations (`Inc.`, `etc.`).
 */
import { isSpaceCode, type Tokenization, type TokWord, tokenize } from "./tokenize.js";

/**
 * Default cap on a sentence's length in words. Higher-order parsing is cubic in sentence length: a
 * 2,000-word run of text without sentence punctuation takes the bundled parser about 40 s and 700 MB,
 * so longer runs are cut (en_ewt's longest training sentence has 159 words).
 */
export const MAX_SENTENCE_WORDS = 250;

/**
 * How a block of running text is cut into words and sentences: the rule-based English tokenizer and
 * splitter (`ENGLISH_RULES`), or a model learned from a treebank (`LearnedTokenizer`).
 */
export interface Segmenter {
  /** Words and surface tokens of text[start, end), with offsets into `text`. */
  tokenize(text: string, start: number, end: number): Tokenization;
  /** Word indices at which new sentences start inside the block `tok` (index 0 excluded). */
  sentenceStarts(text: string, tok: Tokenization): number[];
}

/** The rule-based English tokenizer and sentence splitter (UD English EWT conventions). */
export const ENGLISH_RULES: Segmenter = {
  tokenize: (text, start, end) => tokenize(text, start, end),
  sentenceStarts: (text, tok) => sentenceStarts(text, tok),
};

/** Options of the sentence splitter. */
export interface SegmentOptions {
  /** Tokenizer and sentence splitter (default `ENGLISH_RULES`). */
  segmenter?: Segmenter;
  /** Also end a sentence at every single line break (default false: only blank lines are hard boundaries). */
  newlineBoundary?: boolean;
  /**
   * Cut sentences longer than this many words (default `MAX_SENTENCE_WORDS`; 0 = no cap): at the
   * last line break, else after the last `;` or `:`, else after the last comma, else at the last
   * token boundary within the cap (never inside a token such as "didn't").
   */
  maxWords?: number;
}

/** One sentence: its span in the input and its words and tokens (offsets into the whole input). */
export interface TokenizedSentence extends Tokenization {
  /** Offset of the sentence's first character. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

/** Abbreviations with an attached period that often end a sentence (a following capital starts a new one). */
const FINAL_ABBREVIATIONS = new Set([
  "etc.",
  "Inc.",
  "Co.",
  "Corp.",
  "Ltd.",
  "Jr.",
  "Sr.",
  "a.m.",
  "p.m.",
  "A.M.",
  "P.M.",
]);

function isTerminal(form: string): boolean {
  for (let i = 0; i < form.length; i++) {
    const c = form.charCodeAt(i);
    if (c !== 46 && c !== 33 && c !== 63 && c !== 0x2026) return false;
  }
  return true;
}

/** True for ellipses: runs of two or more periods, or a `…`. */
function isEllipsis(form: string): boolean {
  if (form.includes("…")) return true;
  if (form.length < 2) return false;
  for (let i = 0; i < form.length; i++) if (form.charCodeAt(i) !== 46) return false;
  return true;
}

/** Closing quotes and brackets that stay with the sentence they follow. */
function isCloser(w: TokWord, prev: TokWord): boolean {
  const f = w.form;
  if (f.length !== 1 && f !== "''" && f !== "’’") return false;
  const c = f.charCodeAt(0);
  if (c === 0x201d || c === 0x2019 || c === 41 || c === 93 || c === 0xbb) return true; // ” ’ ) ] »
  return (c === 34 || c === 39) && !prev.spaceAfter; // " ' attached to the punctuation
}

/** True when `w` may start a sentence after sentence-final punctuation. */
function canStart(w: TokWord): boolean {
  const c = w.form.charCodeAt(0);
  if (c === 44 || c === 59 || c === 58 || c === 41 || c === 93 || c === 46) return false; // , ; : ) ] .
  return true;
}

/** True when an upper-case or digit start follows (needed after ellipses and abbreviations). */
function upperStart(w: TokWord): boolean {
  const c = w.form.charCodeAt(0);
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 34 || c === 0x201c;
}

/** True when word j is a short number opening a sentence or a line (a list item label). */
function isListNumber(text: string, words: TokWord[], j: number, starts: number[]): boolean {
  const w = words[j]!;
  if (w.form.length > 2 || w.spaceAfter) return false;
  for (let i = 0; i < w.form.length; i++) {
    const c = w.form.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  if (j === 0 || starts[starts.length - 1] === j) return true;
  const prev = words[j - 1]!;
  return text.slice(prev.end, w.start).includes("\n");
}

/** Word indices at which new sentences start inside one block of running text (index 0 excluded). */
export function sentenceStarts(text: string, tok: Tokenization): number[] {
  const words = tok.words;
  const out: number[] = [];
  for (let k = 0; k < words.length - 1; k++) {
    const w = words[k]!;
    const f = w.form;
    let kind = 0; // 1 terminal punctuation, 2 ellipsis, 3 final abbreviation
    if (isTerminal(f)) kind = isEllipsis(f) ? 2 : 1;
    else if (FINAL_ABBREVIATIONS.has(f)) kind = 3;
    if (kind === 0) continue;
    // list numbers ("1. The pricing ...") at the start of a sentence or line are not sentences
    if (kind === 1 && f === "." && k > 0 && isListNumber(text, words, k - 1, out)) continue;
    let e = k;
    while (e + 1 < words.length && isCloser(words[e + 1]!, words[e]!)) e++;
    if (e + 1 >= words.length) break;
    const n = words[e + 1]!;
    const ok = kind === 1 ? canStart(n) : upperStart(n);
    if (ok) out.push(e + 1);
    k = e;
  }
  return out;
}

/** Splits raw text into sentences (blank lines always separate sentences) and tokenizes them. */
export function segmentText(text: string, opts: SegmentOptions = {}): TokenizedSentence[] {
  const out: TokenizedSentence[] = [];
  const perLine = opts.newlineBoundary ?? false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // find the end of the block: a blank line (or any line break with `newlineBoundary`)
    let e = i;
    for (;;) {
      const nl = text.indexOf("\n", e);
      if (nl < 0) {
        e = n;
        break;
      }
      if (perLine) {
        e = nl;
        break;
      }
      let j = nl + 1;
      while (j < n && text.charCodeAt(j) !== 10 && isSpaceCode(text.charCodeAt(j))) j++;
      if (j >= n || text.charCodeAt(j) === 10) {
        e = nl;
        break;
      }
      e = j;
    }
    splitBlock(text, i, e, out, opts.maxWords ?? MAX_SENTENCE_WORDS, opts.segmenter ?? ENGLISH_RULES);
    i = e + 1;
  }
  return out;
}

/**
 * Adds cut points to sentence starts `starts` (ending with the word count) so that no sentence is
 * longer than `maxWords` words; see `SegmentOptions.maxWords` for where it cuts. Returns new starts.
 */
export function capSentenceLength(
  text: string,
  tok: Tokenization,
  starts: readonly number[],
  maxWords: number,
): number[] {
  if (maxWords <= 0) return starts.slice();
  const words = tok.words;
  const tokenStart = new Uint8Array(words.length + 1);
  for (const t of tok.tokens) tokenStart[t.firstWord] = 1;
  /** How good a cut before word k is: 4 line break, 3 after ; or :, 2 after a comma, 1 token boundary. */
  const rank = (k: number): number => {
    if (tokenStart[k] === 0) return 0;
    if (text.slice(words[k - 1]!.end, words[k]!.start).includes("\n")) return 4;
    const prev = words[k - 1]!.form;
    if (prev === ";" || prev === ":") return 3;
    return prev === "," ? 2 : 1;
  };
  const out: number[] = [];
  let first = 0;
  for (const s of starts) {
    while (s - first > maxWords) {
      let best = -1;
      let bestRank = 0;
      // Look for the best cut in the second half of the allowed window, the latest among equals.
      const lo = first + Math.max(1, Math.ceil(maxWords / 2));
      for (let k = first + maxWords; k >= lo; k--) {
        const r = rank(k);
        if (r > bestRank) {
          bestRank = r;
          best = k;
          if (r === 4) break;
        }
      }
      if (best < 0) {
        // A single token longer than the window: cut right after it.
        best = first + maxWords;
        while (best < s && tokenStart[best] === 0) best++;
        if (best >= s) break;
      }
      out.push(best);
      first = best;
    }
    out.push(s);
    first = s;
  }
  return out;
}

/** Tokenizes [start, end) and cuts it into sentences appended to `out`. */
function splitBlock(
  text: string,
  start: number,
  end: number,
  out: TokenizedSentence[],
  maxWords: number,
  segmenter: Segmenter,
): void {
  const tok = segmenter.tokenize(text, start, end);
  if (tok.words.length === 0) return;
  const found = segmenter.sentenceStarts(text, tok);
  found.push(tok.words.length);
  const starts = capSentenceLength(text, tok, found, maxWords);
  let first = 0;
  let t = 0;
  for (const s of starts) {
    const words = tok.words.slice(first, s);
    const tokens = [];
    while (t < tok.tokens.length && tok.tokens[t]!.firstWord < s) {
      const k = tok.tokens[t]!;
      tokens.push({
        start: k.start,
        end: k.end,
        firstWord: k.firstWord - first,
        lastWord: k.lastWord - first,
      });
      t++;
    }
    out.push({ start: words[0]!.start, end: words[words.length - 1]!.end, words, tokens });
    first = s;
  }
}
