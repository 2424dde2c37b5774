/**
 * Scores system CoNLL-U whose sentences and words may differ from the gold ones (a parse of raw text)
 * the way the CoNLL 2018 shared task's scorer does: both files must spell the same text once white
 * space is taken out; tokens, words and sentences match when their character spans in that text are
 * equal, and an aligned word's head is right when it aligns to the gold head. Words inside a
 * multiword token are placed in it by their lengths (`goldSentences`), where the official scorer
 * aligns them by their longest common subsequence.
 */
import type { ReadSentence } from "../conllu/read.js";
import { type ConlluSentence, DEPREL, FEATS, HEAD, LEMMA, UPOS } from "../conllu/types.js";
import { VineparseError } from "../errors.js";
import {
  countMatches,
  goldSentences,
  type SpanScore,
  spanScore,
  strippedOffsets,
} from "../pipeline/token-eval.js";
import { isSpaceCode } from "../pipeline/tokenize.js";
import { AlignedAttachmentEvaluator, type AlignedScores, type SpannedWords } from "./aligned-attachment.js";

/** Scores of `evaluateAligned`. */
export interface AlignedFileScores extends AlignedScores {
  /** Surface tokens, words and sentences: precision, recall, F1 of their spans. */
  tokens: SpanScore;
  words: SpanScore;
  sentences: SpanScore;
  /** Characters of the text without white space. */
  chars: number;
}

/** One file's text without white space, and its analysis with spans into it. */
interface StrippedFile {
  chars: string;
  words: SpannedWords;
  tokens: number[];
  sentences: number[];
  /** Per sentence: its first character in `chars`, its file and first line. */
  starts: number[];
  lines: { file: string; line: number }[];
}

function stripped(read: readonly ReadSentence[], gold: boolean): StrippedFile {
  const spans = goldSentences(read.map((r) => r.sentence));
  const parts: string[] = [];
  const words: SpannedWords = {
    spans: [],
    heads: [],
    deprels: [],
    upos: [],
    lemmas: [],
    feats: [],
    ...(gold ? { punct: [] } : {}),
  };
  const tokens: number[] = [];
  const sentences: number[] = [];
  const starts: number[] = [];
  const lines: { file: string; line: number }[] = [];
  let base = 0;
  spans.forEach((g, k) => {
    const s = read[k]!.sentence;
    const map = strippedOffsets(g.text);
    let own = "";
    for (let i = 0; i < g.text.length; i++) if (!isSpaceCode(g.text.charCodeAt(i))) own += g.text[i];
    parts.push(own);
    starts.push(base);
    lines.push({ file: s.file, line: s.startLine });
    appendWords(words, s, g.words, (x) => base + map[x]!);
    for (const x of g.tokens) tokens.push(base + map[x]!);
    if (g.words.length > 0)
      sentences.push(base + map[g.words[0]!]!, base + map[g.words[g.words.length - 1]!]!);
    base += own.length;
  });
  // A gold file without lemma annotation (LEMMA "_" throughout) gets no lemma score.
  if (gold && words.lemmas!.every((l) => l === "_")) delete words.lemmas;
  return { chars: parts.join(""), words, tokens, sentences, starts, lines };
}

/**
 * Appends the basic words of CoNLL-U sentence `s` to `out`: each word's span from `wordSpans` (its
 * offsets in the sentence's text, as `goldSentences` gives them) mapped by `at`, its head as an index
 * into `out` (-1 for the root, -2 for a head that is not a number, which aligns to nothing), its
 * relation, and its UPOS, lemma, FEATS and punctuation flag where `out` keeps them.
 */
export function appendWords(
  out: SpannedWords,
  s: ConlluSentence,
  wordSpans: readonly number[],
  at: (offset: number) => number,
): void {
  const first = out.heads.length;
  for (let i = 0; i < s.words.length; i++) {
    const row = s.words[i]!;
    out.spans.push(at(wordSpans[2 * i]!), at(wordSpans[2 * i + 1]!));
    const h = Number(row[HEAD]);
    out.heads.push(!Number.isInteger(h) ? -2 : h === 0 ? -1 : first + h - 1);
    out.deprels.push(row[DEPREL]!);
    out.upos?.push(row[UPOS]!);
    out.lemmas?.push(row[LEMMA]!);
    out.feats?.push(row[FEATS]!);
    out.punct?.push(row[UPOS] === "PUNCT");
  }
}

/** Index of the sentence of `f` that holds character k. */
function sentenceAt(f: StrippedFile, k: number): number {
  let lo = 0;
  let hi = f.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (f.starts[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Scores system sentences against gold ones over the same text (see the module comment). Throws
 * `VineparseError` "eval-mismatch" where the two texts first differ, naming the system file's line.
 */
export function evaluateAligned(
  gold: readonly ReadSentence[],
  system: readonly ReadSentence[],
): AlignedFileScores {
  const g = stripped(gold, true);
  const s = stripped(system, false);
  if (g.chars !== s.chars) {
    let k = 0;
    while (k < g.chars.length && k < s.chars.length && g.chars[k] === s.chars[k]) k++;
    const gs = sentenceAt(g, k);
    const ss = sentenceAt(s, k);
    const show = (t: string) => (k < t.length ? `"${t.slice(k, k + 12)}"` : "the end");
    const at = g.lines[gs];
    throw new VineparseError(
      "eval-mismatch",
      `the text differs from the gold text (${at === undefined ? "which is empty" : `${at.file}:${at.line}`}) at its character ${k + 1} without white space: ${show(s.chars)} against ${show(g.chars)}`,
      s.lines[ss]?.file ?? "system",
      s.lines[ss]?.line,
    );
  }
  const ev = new AlignedAttachmentEvaluator();
  ev.add(g.chars, g.words, s.words);
  const count = (gold: number[], sys: number[]) =>
    spanScore(gold.length / 2, sys.length / 2, countMatches(g.chars, gold, g.chars, sys));
  return {
    ...ev.scores(),
    tokens: count(g.tokens, s.tokens),
    words: count(g.words.spans, s.words.spans),
    sentences: count(g.sentences, s.sentences),
    chars: g.chars.length,
  };
}
