import { readFileSync } from "node:fs";
import { parseConllu, type ReadSentence, readText } from "../conllu/read.js";
import { DEPREL, FORM, UPOS } from "../conllu/types.js";
import type { Sentence } from "../corpus/sentence.js";
import { VineparseError } from "../errors.js";
import { decodeUtf8 } from "../util/utf8.js";
import { percent } from "./percent.js";

/** Raw counts behind the attachment scores (tokens are basic words; "NoPunct" excludes gold UPOS PUNCT). */
export interface AttachmentCounts {
  sentences: number;
  tokens: number;
  /** Tokens with the correct head. */
  headCorrect: number;
  /** Tokens with the correct head and the correct (full, subtype-included) relation. */
  labelledCorrect: number;
  tokensNoPunct: number;
  headCorrectNoPunct: number;
  labelledCorrectNoPunct: number;
  /** Sentences whose every head is correct. */
  exactUnlabelled: number;
  /** Sentences whose every head and relation is correct. */
  exactLabelled: number;
  /** Sentences whose every non-punctuation head is correct. */
  exactUnlabelledNoPunct: number;
  /** Sentences whose every non-punctuation head and relation is correct. */
  exactLabelledNoPunct: number;
}

/** Attachment scores in percent, with the token and sentence totals they are over. */
export interface AttachmentScores {
  sentences: number;
  tokens: number;
  tokensNoPunct: number;
  uas: number;
  las: number;
  uasNoPunct: number;
  lasNoPunct: number;
  /** % of sentences with every head correct (unlabelled exact match). */
  exactMatch: number;
  /** % of sentences with every head and relation correct (labelled exact match). */
  labelledExactMatch: number;
  exactMatchNoPunct: number;
  labelledExactMatchNoPunct: number;
}

/** Options of an `AttachmentEvaluator`. */
export interface AttachmentOptions {
  /** UPOS id of punctuation for `addSentence` (e.g. `vocab.upos.get("PUNCT")`); -1 (default) = no token is punctuation. */
  punctUpos?: number;
}

function zeroCounts(): AttachmentCounts {
  return {
    sentences: 0,
    tokens: 0,
    headCorrect: 0,
    labelledCorrect: 0,
    tokensNoPunct: 0,
    headCorrectNoPunct: 0,
    labelledCorrectNoPunct: 0,
    exactUnlabelled: 0,
    exactLabelled: 0,
    exactUnlabelledNoPunct: 0,
    exactLabelledNoPunct: 0,
  };
}

/**
 * Accumulates UAS/LAS and exact match over sentences, one at a time (e.g. a dev set evaluated after
 * every training epoch). Arrays are indexed like `Sentence`: index 0 is the root and ignored, words 1..n.
 * Relations are compared exactly (ids or strings, subtypes included).
 */
export class AttachmentEvaluator {
  private c: AttachmentCounts = zeroCounts();
  private readonly punctUpos: number;
  /** Scratch punctuation flags for `addSentence`. */
  private punct = new Uint8Array(64);

  constructor(opts: AttachmentOptions = {}) {
    this.punctUpos = opts.punctUpos ?? -1;
  }

  /**
   * Adds one sentence of n words. `sysRels` may be null for an unlabelled parser (every label then counts
   * as wrong); `punct[i]` truthy marks word i as punctuation (null = none is).
   */
  add<L extends number | string>(
    n: number,
    goldHeads: ArrayLike<number>,
    goldRels: ArrayLike<L>,
    sysHeads: ArrayLike<number>,
    sysRels: ArrayLike<L> | null,
    punct: ArrayLike<boolean | number> | null = null,
  ): void {
    const c = this.c;
    let head = 0;
    let lab = 0;
    let tokNp = 0;
    let headNp = 0;
    let labNp = 0;
    for (let i = 1; i <= n; i++) {
      const h = goldHeads[i] === sysHeads[i] ? 1 : 0;
      const l = h === 1 && sysRels !== null && goldRels[i] === sysRels[i] ? 1 : 0;
      head += h;
      lab += l;
      if (punct === null || !punct[i]) {
        tokNp++;
        headNp += h;
        labNp += l;
      }
    }
    c.sentences++;
    c.tokens += n;
    c.headCorrect += head;
    c.labelledCorrect += lab;
    c.tokensNoPunct += tokNp;
    c.headCorrectNoPunct += headNp;
    c.labelledCorrectNoPunct += labNp;
    if (head === n) c.exactUnlabelled++;
    if (lab === n) c.exactLabelled++;
    if (headNp === tokNp) c.exactUnlabelledNoPunct++;
    if (labNp === tokNp) c.exactLabelledNoPunct++;
  }

  /** Adds a gold `Sentence` and the system's heads and relation ids (same vocabulary); punctuation by `punctUpos`. */
  addSentence(gold: Sentence, sysHeads: ArrayLike<number>, sysRels: ArrayLike<number> | null): void {
    const n = gold.n;
    if (this.punct.length < n + 1) this.punct = new Uint8Array(2 * (n + 1));
    const punct = this.punct;
    for (let i = 1; i <= n; i++) punct[i] = gold.upos[i] === this.punctUpos ? 1 : 0;
    this.add(n, gold.head, gold.deprel, sysHeads, sysRels, punct);
  }

  /** Adds the counts of another evaluator (e.g. one per worker thread). */
  merge(other: AttachmentEvaluator): this {
    const o = other.counts;
    for (const k of Object.keys(this.c) as (keyof AttachmentCounts)[]) this.c[k] += o[k];
    return this;
  }

  /** Forgets everything added so far. */
  reset(): void {
    this.c = zeroCounts();
  }

  /** A copy of the raw counts. */
  get counts(): AttachmentCounts {
    return { ...this.c };
  }

  /** The scores so far, in percent (0 for an empty denominator). */
  scores(): AttachmentScores {
    const c = this.c;
    return {
      sentences: c.sentences,
      tokens: c.tokens,
      tokensNoPunct: c.tokensNoPunct,
      uas: percent(c.headCorrect, c.tokens),
      las: percent(c.labelledCorrect, c.tokens),
      uasNoPunct: percent(c.headCorrectNoPunct, c.tokensNoPunct),
      lasNoPunct: percent(c.labelledCorrectNoPunct, c.tokensNoPunct),
      exactMatch: percent(c.exactUnlabelled, c.sentences),
      labelledExactMatch: percent(c.exactLabelled, c.sentences),
      exactMatchNoPunct: percent(c.exactUnlabelledNoPunct, c.sentences),
      labelledExactMatchNoPunct: percent(c.exactLabelledNoPunct, c.sentences),
    };
  }
}

/** Throws a located error unless the system sentence has the gold sentence's words (same count, same forms). */
export function checkAligned(gold: ReadSentence, system: ReadSentence, index: number): void {
  const g = gold.sentence;
  const s = system.sentence;
  const where = `${g.file}:${g.startLine}`;
  if (g.words.length !== s.words.length) {
    throw new VineparseError(
      "eval-mismatch",
      `sentence ${index} has ${s.words.length} words but the gold sentence (${where}) has ${g.words.length}`,
      s.file,
      s.startLine,
    );
  }
  for (let i = 0; i < g.words.length; i++) {
    const gf = g.words[i]![FORM]!;
    const sf = s.words[i]![FORM]!;
    if (gf !== sf) {
      throw new VineparseError(
        "eval-mismatch",
        `sentence ${index}, word ${i + 1} is "${sf}" but the gold sentence (${where}) has "${gf}"`,
        s.file,
        s.startLine + s.wordLine[i]!,
      );
    }
  }
}

/**
 * Scores system sentences against gold sentences read from CoNLL-U (punctuation = gold UPOS PUNCT,
 * relations compared as strings). Throws `VineparseError` "eval-mismatch" at the first sentence that
 * does not line up (count, words or forms), naming its file and line.
 */
export function evaluateConllu(
  gold: Iterable<ReadSentence>,
  system: Iterable<ReadSentence>,
  names: { gold: string; system: string } = { gold: "gold", system: "system" },
): AttachmentScores {
  const ev = new AttachmentEvaluator();
  const gi = gold[Symbol.iterator]();
  const si = system[Symbol.iterator]();
  let index = 0;
  for (;;) {
    const g = gi.next();
    const s = si.next();
    if (g.done && s.done) break;
    index++;
    if (s.done) {
      const gs = (g.value as ReadSentence).sentence;
      throw new VineparseError(
        "eval-mismatch",
        `sentence ${index} has no counterpart: ${names.system} has only ${index - 1} sentences`,
        gs.file,
        gs.startLine,
      );
    }
    if (g.done) {
      const ss = (s.value as ReadSentence).sentence;
      throw new VineparseError(
        "eval-mismatch",
        `sentence ${index} has no counterpart: ${names.gold} has only ${index - 1} sentences`,
        ss.file,
        ss.startLine,
      );
    }
    checkAligned(g.value, s.value, index);
    const gw = g.value.sentence.words;
    const sw = s.value.sentence.words;
    const n = gw.length;
    const goldRels = new Array<string>(n + 1);
    const sysRels = new Array<string>(n + 1);
    const punct = new Uint8Array(n + 1);
    for (let i = 1; i <= n; i++) {
      goldRels[i] = gw[i - 1]![DEPREL]!;
      sysRels[i] = sw[i - 1]![DEPREL]!;
      punct[i] = gw[i - 1]![UPOS] === "PUNCT" ? 1 : 0;
    }
    ev.add(n, g.value.heads, goldRels, s.value.heads, sysRels, punct);
  }
  return ev.scores();
}

/** Text of a file, or of stdin for "-" (named "<stdin>"). */
export function readInput(path: string): [text: string, name: string] {
  return path === "-" ? [decodeUtf8(readFileSync(0), "<stdin>"), "<stdin>"] : [readText(path), path];
}

/** Scores a system CoNLL-U file against a gold file (see `evaluateConllu`); either path may be "-" for stdin. */
export function evaluateFiles(goldPath: string, systemPath: string): AttachmentScores {
  if (goldPath === "-" && systemPath === "-") {
    throw new VineparseError("usage", "gold and system cannot both be read from stdin");
  }
  const [goldText, goldName] = readInput(goldPath);
  const [systemText, systemName] = readInput(systemPath);
  const gold = parseConllu(goldText, goldName);
  // The gold file is checked like training data (one root, non-empty forms); system output leniently.
  const system = parseConllu(systemText, systemName, { strict: false });
  return evaluateConllu(gold, system, { gold: goldName, system: systemName });
}
