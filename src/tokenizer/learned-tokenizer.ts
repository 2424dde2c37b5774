/**
 * A tokenizer and sentence splitter learned from a treebank, for languages the rule-based English
 * tokenizer does not fit. Three parts, all trained on a UD training file's raw text (`# text` and
 * `SpaceAfter=No`; the sentences of a document joined by a space inside a paragraph and by a line
 * break between paragraphs):
 *
 * - token boundaries: at every place between two non-space characters, an averaged perceptron over
 *   hashed character n-grams around it, character classes, the token so far and the white-space-free
 *   chunk's part before and after it decides whether a token ends there (white space always ends one);
 * - sentence boundaries: after every token, a second perceptron over the token, its neighbours, their
 *   shapes and the white space between decides whether a sentence ends there;
 * - multiword tokens: a surface token the training data splits into several words more often than not
 *   (Greek "στο" = "σε" + "το") is split the same way, by a dictionary of exact forms, then of
 *   lowercased forms with the token's capitalisation put back; a token not in it is split where a
 *   third perceptron, on the token-boundary features, finds a word boundary inside it (Turkish
 *   "kökenli" = "köken" + "li": the multiword tokens whose words spell them out).
 *
 * Decoding is greedy, left to right, in one pass over the characters and one over the tokens; the
 * features are hashed integers, so no string is built per character.
 */
import type { ConlluSentence } from "../conllu/types.js";
import { VineparseError } from "../errors.js";
import {
  fromModelContent,
  int16FromPacked,
  int16Weights,
  type ModelData,
  packedFits,
  type PackedWeights,
  packInt16,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import { ENGLISH_RULES, type Segmenter } from "../pipeline/sentence-split.js";
import { type GoldSentence, goldSentences, sentenceSeparator, type Spacing } from "../pipeline/token-eval.js";
import { isSpaceCode, type Tokenization, type TokToken, type TokWord } from "../pipeline/tokenize.js";
import { averagedWeights } from "../morph/hashed-perceptron.js";
import { finishBits, hashString, mix } from "../util/hash.js";
import { Rng } from "../util/rng.js";

/** Model-file kind of a learned tokenizer. */
export const TOKENIZER_KIND = "tokenizer";
/** Version of the feature set and the file layout. */
export const TOKENIZER_VERSION = 1;
/**
 * The same with a lexicon (`LearnedTokenizer.lexicon`) and its token-boundary features, so that readers
 * that would score such a model without them refuse it.
 */
export const TOKENIZER_LEXICON_VERSION = 2;

// Character classes.
const K_OUT = 0; // before the block's start or after its end
const K_SPACE = 1;
const K_NEWLINE = 2;
const K_UPPER = 3;
const K_LOWER = 4;
const K_LETTER = 5; // letters without case (CJK, Arabic, ...), combining marks
const K_DIGIT = 6;
const K_PUNCT = 7;
const K_OTHER = 8;

const UPPER_RE = /\p{Lu}|\p{Lt}/u;
const LOWER_RE = /\p{Ll}/u;
const LETTER_RE = /[\p{L}\p{M}]/u;
const DIGIT_RE = /\p{N}/u;
const PUNCT_RE = /\p{P}/u;
const SPACE_RE = /[\s\p{Cc}]/u;

const kindCache = new Map<number, number>();

/** Class of UTF-16 code unit c (surrogates count as letters without case). */
function kindOf(c: number): number {
  let k = kindCache.get(c);
  if (k !== undefined) return k;
  const s = String.fromCharCode(c);
  if (c === 10 || c === 13) k = K_NEWLINE;
  else if (c >= 0xd800 && c <= 0xdfff) k = K_LETTER;
  else if (SPACE_RE.test(s)) k = K_SPACE;
  else if (UPPER_RE.test(s)) k = K_UPPER;
  else if (LOWER_RE.test(s)) k = K_LOWER;
  else if (LETTER_RE.test(s)) k = K_LETTER;
  else if (DIGIT_RE.test(s)) k = K_DIGIT;
  else if (PUNCT_RE.test(s)) k = K_PUNCT;
  else k = K_OTHER;
  kindCache.set(c, k);
  return k;
}

/** Whether a character of class k belongs to a chunk (is not white space or beyond the block). */
function inChunk(k: number): boolean {
  return k !== K_SPACE && k !== K_NEWLINE && k !== K_OUT;
}

/** The code a character stands for in the features: every digit is "0", every space " ". */
function featureCode(c: number, k: number): number {
  if (k === K_DIGIT) return 48;
  if (k === K_SPACE) return 32;
  if (k === K_NEWLINE) return 10;
  return c;
}

/** Seeds of the running hashes of the token so far and of the chunk so far. */
const TOKEN_SEED = 0x3c6ef372;
const CHUNK_SEED = 0x1b873593;

/** Chunks (white-space-free runs) longer than this get no whole-chunk features. */
const MAX_CHUNK = 24;
/** Context characters on each side of a decision (the loaded text starts at this local position). */
export const PAD = 4;
/** Longest lexicon word (characters) the token-boundary features look for (≤ PAD). */
const LEXICON_MAX_LENGTH = 4;
/**
 * A training token goes into the lexicon when it is seen at least this often: with every training
 * token in it, the lexicon features are never wrong in training and the model leans on them more
 * than new text allows (on zh_gsd dev all tokens did worse than no lexicon; twice did best, three
 * and four times a little less well; docs/results.md).
 */
const LEXICON_MIN_COUNT = 2;
/** Seed of the lexicon's word hashes. */
const LEXICON_SEED = 0x51ed27;

/** A multiword-token dictionary entry: the words of a surface form. */
type MwtEntry = readonly string[];

/**
 * Where a learned tokenizer's words come from: its own token model and multiword dictionary ("model"),
 * or the rule-based English tokenizer ("rules"; the learned sentence splitter then works on its
 * tokens), which finds English words better than the model does (docs/results.md).
 */
export type WordsBy = "model" | "rules";

/** Training options. */
export interface TokenizerTrainOptions {
  /** Where the tokenizer's words come from (default "model"); see `WordsBy`. */
  wordsBy?: WordsBy;
  /** Passes over the training documents (default 8). */
  epochs?: number;
  /** log2 of each weight table's size (default 20). */
  bits?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /**
   * How the training file's raw text is spaced where it has no `# text`, and what joins the sentences
   * of a paragraph (default "space"; "none" for Chinese or Japanese): see `Spacing`.
   */
  spacing?: Spacing;
  /**
   * Whether the token-boundary features ask a lexicon of the training tokens (those seen at least
   * twice, of up to four characters) whether a word ends before the place, starts after it or spans it:
   * by default with spacing "none", where they find words better (zh_gsd dev: `npm run bench --
   * tokenizer`); in spaced text they did not help (tr_imst, el_gdt; docs/results.md).
   */
  lexicon?: boolean;
  /** Called after each epoch. */
  onEpoch?: (epoch: number, tokenErrors: number, sentenceErrors: number) => void;
}

/** One training document: its text, the gold token spans, and the tokens after which a sentence ends. */
interface TrainingBlock {
  text: string;
  /** [start, end) of each gold surface token, flattened, in order. */
  tokens: number[];
  /** 1 after a token that ends a sentence (the block's last token excluded). */
  sentenceEnd: Uint8Array;
  /** Offsets of the word boundaries inside tokens (see `GoldSentence.innerSplits`). */
  inner: number[];
}

/**
 * Margin the training of token and word boundaries asks of every decision: a perceptron that updates
 * only on mistakes stops after a few dozen of them on regular text (every comma and period cut alike),
 * and its weights then hang on whichever features those few updates touched; asking for a margin keeps
 * it learning until every decision is clear. The sentence splitter, which makes plenty of mistakes,
 * learns from its mistakes alone (margin 0), which found sentences slightly better on dev.
 */
const BOUNDARY_MARGIN = 1;

/** Binary averaged perceptron over hashed features (one weight each), trained with a margin. */
class BinaryPerceptron {
  readonly w: Float32Array;
  private readonly u: Float32Array;
  private clock = 1;
  constructor(
    bits: number,
    /** Updates while the score is on the wrong side or closer than this to 0 (0: on mistakes only). */
    private readonly margin: number,
  ) {
    this.w = new Float32Array(1 << bits);
    this.u = new Float32Array(1 << bits);
  }
  score(f: Int32Array, n: number): number {
    const w = this.w;
    let s = 0;
    for (let k = 0; k < n; k++) s += w[f[k]!]!;
    return s;
  }
  /**
   * Moves the weights towards `gold` (true: positive) when `score` (theirs for f) is wrong or less
   * than the margin away from 0 on the right side (on 0 itself it counts as negative); advances the clock.
   */
  update(f: Int32Array, n: number, gold: boolean, score: number): void {
    const m = this.margin;
    if (gold ? score < m || score <= 0 : score > -m || score > 0) {
      const d = gold ? 1 : -1;
      const dc = d * this.clock;
      for (let k = 0; k < n; k++) {
        this.w[f[k]!]! += d;
        this.u[f[k]!]! += dc;
      }
    }
    this.clock++;
  }
  averaged(): Float32Array {
    return averagedWeights(this.w, this.u, this.clock);
  }
}

/** Sum of 16-bit weights at the feature indices (kept apart from the float scorer: one array type each). */
function scoreInt16(w: Int16Array, f: Int32Array, n: number): number {
  let s = 0;
  for (let k = 0; k < n; k++) s += w[f[k]!]!;
  return s;
}

/**
 * Per-block buffers and the feature extraction shared by training and decoding. Character features
 * read `code`/`kind` at local position p = offset in the block + PAD; the PAD cells on either side
 * hold K_OUT.
 */
export class Extractor {
  code = new Int32Array(64);
  kind = new Uint8Array(64);
  /** Hash of the chunk's characters from p to the chunk's end (0 when the chunk is too long). */
  suffix = new Int32Array(64);
  readonly feats = new Int32Array(64);
  /** Per loaded position: the lengths of the lexicon words that start there (see `fillLexStarts`). */
  lexStarts = new Uint8Array(64);
  /** What `lexiconAt` found: ends, starts, spans. */
  readonly lexOut = new Int32Array(3);
  constructor(
    readonly mask: number,
    /** Hashes of the lexicon's words (`lexiconHash`), or null: no lexicon features. */
    readonly lexicon: ReadonlySet<number> | null,
  ) {}

  /** Loads text[start, end) into the buffers. */
  load(text: string, start: number, end: number): void {
    const len = end - start + 2 * PAD;
    if (this.code.length < len) {
      const cap = Math.max(len, this.code.length * 2);
      this.code = new Int32Array(cap);
      this.kind = new Uint8Array(cap);
      this.suffix = new Int32Array(cap);
      this.lexStarts = new Uint8Array(cap);
    }
    const code = this.code;
    const kind = this.kind;
    for (let p = 0; p < PAD; p++) {
      code[p] = -1;
      kind[p] = K_OUT;
      code[len - 1 - p] = -1;
      kind[len - 1 - p] = K_OUT;
    }
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      const k = kindOf(c);
      kind[i - start + PAD] = k;
      code[i - start + PAD] = featureCode(c, k);
    }
    // Suffix hashes of each chunk, right to left.
    const suffix = this.suffix;
    let p = end - start + PAD - 1;
    while (p >= PAD) {
      if (!inChunk(kind[p]!)) {
        suffix[p] = 0;
        p--;
        continue;
      }
      let q = p;
      while (q >= PAD && inChunk(kind[q]!)) q--;
      // chunk is (q, p]
      const long = p - q > MAX_CHUNK;
      let h = 0x2545f491;
      for (let r = p; r > q; r--) {
        h = mix(h, code[r]!);
        suffix[r] = long ? 0 : h;
      }
      p = q;
    }
    if (this.lexicon !== null) this.fillLexStarts(len);
  }

  /**
   * lexStarts[i] for the loaded positions: bit L set when the L characters from i (L ≤
   * LEXICON_MAX_LENGTH) lie in one chunk and spell a lexicon word (0 outside chunks).
   */
  private fillLexStarts(len: number): void {
    const lex = this.lexicon!;
    const c = this.code;
    const k = this.kind;
    const ls = this.lexStarts;
    for (let i = 0; i < len; i++) {
      let bits = 0;
      let h = LEXICON_SEED;
      for (let j = i; j < i + LEXICON_MAX_LENGTH && j < len && inChunk(k[j]!); j++) {
        h = mix(h, c[j]!);
        if (lex.has(h)) bits |= 1 << (j - i + 1);
      }
      ls[i] = bits;
    }
  }

  /**
   * Cuts text[start, end) into tokens, flattened spans: white space always ends a token, the two
   * halves of a surrogate pair never part, and at every other place between two characters
   * `decide(features, count, place)` says whether a token ends there (1), a word ends inside the
   * token (2: its offset is added to `splits`) or neither (0); place is the text offset of the
   * character after it. Loads the block (see `load`).
   */
  tokenSpans(
    text: string,
    start: number,
    end: number,
    decide: (feats: Int32Array, n: number, place: number) => number,
    splits: number[] | null,
  ): number[] {
    this.load(text, start, end);
    const kind = this.kind;
    const code = this.code;
    const spans: number[] = [];
    const last = end - start + PAD;
    const shift = start - PAD; // text offset = local position + shift
    let p = PAD;
    while (p < last) {
      if (!inChunk(kind[p]!)) {
        p++;
        continue;
      }
      // A chunk, from p to the next white space.
      let tokStart = p;
      let tokHash = TOKEN_SEED;
      let chunkHash = CHUNK_SEED;
      let chunkLen = 0;
      do {
        tokHash = mix(tokHash, code[p]!);
        chunkHash = mix(chunkHash, code[p]!);
        chunkLen++;
        let cut: boolean;
        if (p + 1 >= last || !inChunk(kind[p + 1]!)) cut = true;
        else if (isHighSurrogateAt(text, p + shift)) cut = false;
        else {
          const n = this.boundaryFeatures(p, tokHash, p - tokStart + 1, chunkHash, chunkLen);
          const d = decide(this.feats, n, p + 1 + shift);
          cut = d === 1;
          if (d === 2 && splits !== null) splits.push(p + 1 + shift);
        }
        if (cut) {
          spans.push(tokStart + shift, p + 1 + shift);
          tokStart = p + 1;
          tokHash = TOKEN_SEED;
        }
        p++;
      } while (p < last && inChunk(kind[p]!));
    }
    return spans;
  }

  /**
   * Features of the place after local position p (both p and p + 1 non-space), given the hash and
   * length of the token so far (from its first character to p) and of the chunk so far.
   */
  boundaryFeatures(p: number, tokHash: number, tokLen: number, chunkHash: number, chunkLen: number): number {
    const c = this.code;
    const k = this.kind;
    const f = this.feats;
    const m = this.mask;
    // Only the chunk's own characters are read; beyond it every place reads as a space, so that a
    // chunk is cut the same whatever surrounds it (a stream cut at white space gives the same tokens).
    const inLeft1 = chunkLen >= 2;
    const inLeft2 = chunkLen >= 3;
    const inRight2 = inChunk(k[p + 2]!);
    const inRight3 = inRight2 && inChunk(k[p + 3]!);
    const cm2 = inLeft2 ? c[p - 2]! : 32;
    const cm1 = inLeft1 ? c[p - 1]! : 32;
    const c0 = c[p]!;
    const c1 = c[p + 1]!;
    const c2 = inRight2 ? c[p + 2]! : 32;
    const c3 = inRight3 ? c[p + 3]! : 32;
    const km2 = inLeft2 ? k[p - 2]! : K_SPACE;
    const km1 = inLeft1 ? k[p - 1]! : K_SPACE;
    const k0 = k[p]!;
    const k1 = k[p + 1]!;
    const k2 = inRight2 ? k[p + 2]! : K_SPACE;
    const k3 = inRight3 ? k[p + 3]! : K_SPACE;
    const pattern = (((((km2 * 16 + km1) * 16 + k0) * 16 + k1) * 16 + k2) * 16 + k3) | 0;
    let n = 0;
    f[n++] = finishBits(1) & m; // bias
    f[n++] = finishBits(mix(2, c0)) & m;
    f[n++] = finishBits(mix(3, c1)) & m;
    f[n++] = finishBits(mix(mix(4, cm1), c0)) & m;
    f[n++] = finishBits(mix(mix(5, c0), c1)) & m;
    f[n++] = finishBits(mix(mix(6, c1), c2)) & m;
    f[n++] = finishBits(mix(mix(mix(7, cm1), c0), c1)) & m;
    f[n++] = finishBits(mix(mix(mix(8, c0), c1), c2)) & m;
    f[n++] = finishBits(mix(mix(mix(9, cm2), cm1), c0)) & m;
    f[n++] = finishBits(mix(mix(mix(10, c1), c2), c3)) & m;
    f[n++] = finishBits(mix(11, pattern)) & m;
    f[n++] = finishBits(mix(12, k0 * 16 + k1)) & m;
    f[n++] = finishBits(mix(mix(13, c0), k1 * 16 + k2)) & m;
    f[n++] = finishBits(mix(mix(14, km1 * 16 + k0), c1)) & m;
    f[n++] = finishBits(mix(15, tokHash)) & m;
    f[n++] = finishBits(mix(mix(16, tokHash), c1)) & m;
    f[n++] = finishBits(mix(17, (tokLen < 10 ? tokLen : 10) * 256 + k0 * 16 + k1)) & m;
    if (this.lexicon !== null) n = this.lexiconFeatures(p, chunkLen, n);
    const rest = this.suffix[p + 1]!;
    if (rest !== 0 && chunkLen <= MAX_CHUNK) {
      f[n++] = finishBits(mix(mix(18, chunkHash), rest)) & m; // the whole chunk and where the place is
      f[n++] = finishBits(mix(19, rest)) & m;
      f[n++] = finishBits(mix(mix(20, rest), k0)) & m;
      f[n++] = finishBits(mix(21, chunkHash)) & m;
      f[n++] = finishBits(mix(mix(22, chunkHash), c1)) & m;
    }
    return n;
  }

  /**
   * What the lexicon says of the place after local position p (the chunk's first `chunkLen`
   * characters end at p): which lengths of lexicon word end at p and which start at p + 1 (bit L set
   * for length L), and the length of the longest lexicon word that spans the place (0: none), all
   * within the chunk, written to `lexOut` (ends, starts, spans). From `lexStarts`, which `load` fills.
   */
  lexiconAt(p: number, chunkLen: number): void {
    const ls = this.lexStarts;
    let ends = 0;
    for (let len = 1; len <= LEXICON_MAX_LENGTH && len <= chunkLen; len++)
      if ((ls[p - len + 1]! & (1 << len)) !== 0) ends |= 1 << len;
    let spans = 0;
    for (let i = p; i > p - LEXICON_MAX_LENGTH && p - i < chunkLen; i--)
      for (let len = LEXICON_MAX_LENGTH; len >= p - i + 2 && len > spans; len--)
        if ((ls[i]! & (1 << len)) !== 0) {
          spans = len;
          break;
        }
    const out = this.lexOut;
    out[0] = ends;
    out[1] = ls[p + 1]!;
    out[2] = spans;
  }

  /** Writes at feats[n…] the lexicon features of the place after local position p (`lexiconAt`); returns the new count. */
  private lexiconFeatures(p: number, chunkLen: number, n: number): number {
    const f = this.feats;
    const m = this.mask;
    this.lexiconAt(p, chunkLen);
    const ends = this.lexOut[0]!;
    const starts = this.lexOut[1]!;
    const spans = this.lexOut[2]!;
    f[n++] = finishBits(mix(27, ends)) & m;
    f[n++] = finishBits(mix(28, starts)) & m;
    f[n++] = finishBits(mix(29, spans)) & m;
    f[n++] = finishBits(mix(mix(30, ends), starts * 8 + spans)) & m;
    return n;
  }
}

/** The lexicon hash of text[start, end) (characters as the features code them). */
export function lexiconHash(text: string, start: number, end: number): number {
  let h = LEXICON_SEED;
  for (let i = start; i < end; i++) {
    const ch = text.charCodeAt(i);
    h = mix(h, featureCode(ch, kindOf(ch)));
  }
  return h;
}

/**
 * The lexicon of the training documents: the hashes of the gold tokens of up to LEXICON_MAX_LENGTH
 * characters seen at least LEXICON_MIN_COUNT times, sorted.
 */
function trainingLexicon(blocks: readonly TrainingBlock[]): Int32Array {
  const counts = new Map<number, number>();
  for (const b of blocks)
    for (let t = 0; t < b.tokens.length; t += 2) {
      const s = b.tokens[t]!;
      const e = b.tokens[t + 1]!;
      if (e - s > LEXICON_MAX_LENGTH) continue;
      const h = lexiconHash(b.text, s, e);
      counts.set(h, (counts.get(h) ?? 0) + 1);
    }
  const out: number[] = [];
  for (const [h, c] of counts) if (c >= LEXICON_MIN_COUNT) out.push(h);
  return Int32Array.from(out).sort();
}

/** What the sentence splitter knows of a token. */
interface TokenInfo {
  /** Hash of the form and of the lowercased form. */
  form: number;
  lower: number;
  /** Class of its first and last character, its last character's feature code, its length (capped). */
  firstKind: number;
  lastKind: number;
  lastCode: number;
  len: number;
  /** The white space before the next token: 0 none, 1 spaces, 2 a line break. */
  gap: number;
}

const NO_TOKEN: TokenInfo = {
  form: 7,
  lower: 7,
  firstKind: K_OUT,
  lastKind: K_OUT,
  lastCode: -1,
  len: 0,
  gap: 0,
};

/** Builds the splitter's view of the tokens [start, end) of `text` given as flattened spans. */
function tokenInfos(text: string, spans: readonly number[], blockEnd: number): TokenInfo[] {
  const out: TokenInfo[] = [];
  for (let t = 0; t < spans.length; t += 2) {
    const s = spans[t]!;
    const e = spans[t + 1]!;
    const form = text.slice(s, e);
    const next = t + 2 < spans.length ? spans[t + 2]! : blockEnd;
    let gap = 0;
    for (let i = e; i < next; i++) {
      const k = kindOf(text.charCodeAt(i));
      if (k === K_NEWLINE) {
        gap = 2;
        break;
      }
      if (k === K_SPACE) gap = 1;
    }
    const lc = text.charCodeAt(e - 1);
    const lk = kindOf(lc);
    out.push({
      form: hashString(form),
      lower: hashString(form.toLowerCase()),
      firstKind: kindOf(text.charCodeAt(s)),
      lastKind: lk,
      lastCode: featureCode(lc, lk),
      len: e - s < 8 ? e - s : 8,
      gap,
    });
  }
  return out;
}

/** Features of "a sentence ends after token t" into f; `since` is the number of tokens since the last end. */
function sentenceFeatures(
  tokens: readonly TokenInfo[],
  t: number,
  since: number,
  f: Int32Array,
  m: number,
): number {
  const a = tokens[t]!;
  const b = t + 1 < tokens.length ? tokens[t + 1]! : NO_TOKEN;
  const c = t + 2 < tokens.length ? tokens[t + 2]! : NO_TOKEN;
  const z = t > 0 ? tokens[t - 1]! : NO_TOKEN;
  let n = 0;
  f[n++] = finishBits(101) & m;
  f[n++] = finishBits(mix(102, a.form)) & m;
  f[n++] = finishBits(mix(103, a.lower)) & m;
  f[n++] = finishBits(mix(104, b.form)) & m;
  f[n++] = finishBits(mix(105, b.lower)) & m;
  f[n++] = finishBits(mix(106, b.firstKind)) & m;
  f[n++] = finishBits(mix(mix(107, a.form), b.firstKind)) & m;
  f[n++] = finishBits(mix(mix(108, z.form), a.form)) & m;
  f[n++] = finishBits(mix(109, (a.gap * 16 + a.lastKind) * 16 + b.firstKind)) & m;
  f[n++] = finishBits(mix(mix(110, a.form), b.form)) & m;
  f[n++] = finishBits(mix(mix(111, a.len), a.lastCode)) & m;
  f[n++] = finishBits(mix(112, (since < 12 ? since : 12) * 16 + a.lastKind)) & m;
  f[n++] = finishBits(mix(mix(113, b.form), c.form)) & m;
  f[n++] = finishBits(mix(mix(114, a.lastCode), b.firstKind * 4 + a.gap)) & m;
  f[n++] = finishBits(mix(mix(115, a.form), a.gap)) & m;
  f[n++] = finishBits(mix(mix(116, z.lower), b.firstKind)) & m;
  f[n++] = finishBits(mix(mix(117, c.firstKind), b.form)) & m;
  return n;
}

/** A learned tokenizer and sentence splitter (see the module comment). Implements `Segmenter`. */
export class LearnedTokenizer implements Segmenter {
  private readonly ex: Extractor;
  private readonly mask: number;
  private readonly sf = new Int32Array(64);
  private readonly tables: (Int16Array | PackedWeights | null)[];

  constructor(
    /** log2 of each weight table's size. */
    readonly bits: number,
    /**
     * Token-boundary weights (16-bit; only their signs' sums matter), or their packed form, expanded
     * the first time they are read (a model whose words come from rules never reads them).
     */
    tokenWeights: Int16Array | PackedWeights,
    /** Sentence-boundary weights, or their packed form (expanded on first read). */
    sentenceWeights: Int16Array | PackedWeights,
    /** Multiword tokens by exact surface form. */
    readonly mwt: ReadonlyMap<string, MwtEntry>,
    /** Multiword tokens by lowercased surface form (words lowercased). */
    readonly mwtLower: ReadonlyMap<string, MwtEntry>,
    /** Where the words come from (see `WordsBy`). */
    readonly wordsBy: WordsBy = "model",
    /**
     * Weights of word boundaries inside a token, or their packed form (null: none are found but by
     * the dictionary).
     */
    wordWeights: Int16Array | PackedWeights | null = null,
    /**
     * The words (lowercased) that follow another inside a multiword token spelled out by its words in
     * training ("li", "ki", "ydi"): a word boundary the model finds inside a token is kept only when
     * every word after the first is one of them ("Στουρνάρας" is not "Σ" + "τουρνάρας").
     */
    readonly tails: ReadonlySet<string> = new Set(),
    /**
     * Hashes of the lexicon's words, sorted (see `TokenizerTrainOptions.lexicon`), or null: the token
     * boundaries are decided without lexicon features.
     */
    readonly lexicon: Int32Array | null = null,
  ) {
    this.mask = (1 << bits) - 1;
    this.tables = [tokenWeights, sentenceWeights, wordWeights];
    for (const t of this.tables)
      if (t instanceof Int16Array ? t.length !== 1 << bits : t !== null && !packedFits(t, 1 << bits))
        throw new RangeError("tokenizer weights do not match their size");
    this.ex = new Extractor(this.mask, lexicon === null ? null : new Set(lexicon));
  }

  /** The table at `this.tables[k]`, expanded (and kept) if it is still packed. */
  private table(k: number): Int16Array {
    const t = this.tables[k]!;
    if (t instanceof Int16Array) return t;
    const w = int16FromPacked(t, 1 << this.bits).weights;
    this.tables[k] = w;
    return w;
  }

  /** The stored form of `this.tables[k]`: as loaded if it was never expanded, else packed anew. */
  private packed(k: number): PackedWeights {
    const t = this.tables[k]!;
    return t instanceof Int16Array ? packInt16({ weights: t, scale: 1 }) : t;
  }

  /** Token-boundary weights (16-bit; only their signs' sums matter). */
  get tokenWeights(): Int16Array {
    return this.table(0);
  }

  /** Sentence-boundary weights. */
  get sentenceWeights(): Int16Array {
    return this.table(1);
  }

  /** Weights of word boundaries inside a token (null: none are found but by the dictionary). */
  get wordWeights(): Int16Array | null {
    return this.tables[2] === null ? null : this.table(2);
  }

  /**
   * Token spans of text[start, end), flattened; with `splits`, the offsets of the word boundaries the
   * model finds inside tokens are added to it.
   */
  tokenSpans(text: string, start = 0, end = text.length, splits: number[] | null = null): number[] {
    const w = this.tokenWeights;
    const ww = this.wordWeights;
    return this.ex.tokenSpans(
      text,
      start,
      end,
      (f, n) => (scoreInt16(w, f, n) > 0 ? 1 : ww !== null && scoreInt16(ww, f, n) > 0 ? 2 : 0),
      splits,
    );
  }

  /** Indices of the tokens (of `spans`) after which a sentence ends, the last token excluded. */
  sentenceEnds(text: string, spans: readonly number[], blockEnd: number): number[] {
    const infos = tokenInfos(text, spans, blockEnd);
    const out: number[] = [];
    const w = this.sentenceWeights;
    let since = 0;
    for (let t = 0; t + 1 < infos.length; t++) {
      since++;
      const n = sentenceFeatures(infos, t, since, this.sf, this.mask);
      if (scoreInt16(w, this.sf, n) > 0) {
        out.push(t);
        since = 0;
      }
    }
    return out;
  }

  /** `Segmenter.tokenize`: words and surface tokens of text[start, end). */
  tokenize(text: string, start = 0, end = text.length): Tokenization {
    if (this.wordsBy === "rules") return ENGLISH_RULES.tokenize(text, start, end);
    const splits: number[] = [];
    return this.expand(text, this.tokenSpans(text, start, end, splits), splits);
  }

  /** `Segmenter.sentenceStarts`: word indices at which new sentences start (index 0 excluded). */
  sentenceStarts(text: string, tok: Tokenization): number[] {
    const spans: number[] = [];
    for (const t of tok.tokens) spans.push(t.start, t.end);
    const end = tok.tokens.length === 0 ? 0 : tok.tokens[tok.tokens.length - 1]!.end;
    return this.sentenceEnds(text, spans, end).map((t) => tok.tokens[t]!.lastWord + 1);
  }

  /** Words of a multiword token, or null: the exact form's entry, else the lowercased one recased. */
  splitToken(form: string): MwtEntry | null {
    const exact = this.mwt.get(form);
    if (exact !== undefined) return exact;
    const lower = form.toLowerCase();
    const entry = this.mwtLower.get(lower);
    if (entry === undefined) return null;
    if (form === lower) return entry;
    if (form === form.toUpperCase()) return entry.map((w) => w.toUpperCase());
    const first = entry[0]!;
    return [first.charAt(0).toUpperCase() + first.slice(1), ...entry.slice(1)];
  }

  /**
   * Words and tokens from token spans: a multiword token's words start where the one before ends and
   * take their own length where the text does not spell them out, cut at its end, and the last ends with
   * it (as the evaluation's gold spans do, `goldSentences`).
   */
  private expand(text: string, spans: readonly number[], splits: readonly number[]): Tokenization {
    const words: TokWord[] = [];
    const tokens: TokToken[] = [];
    let q = 0; // next of `splits`
    for (let t = 0; t < spans.length; t += 2) {
      const s = spans[t]!;
      const e = spans[t + 1]!;
      const spaceAfter = e >= text.length || isSpaceCode(text.charCodeAt(e));
      const form = text.slice(s, e);
      const parts = this.mwt.size + this.mwtLower.size > 0 ? this.splitToken(form) : null;
      const first = words.length;
      while (q < splits.length && splits[q]! <= s) q++;
      let q1 = q;
      while (q1 < splits.length && splits[q1]! < e) q1++;
      if (parts === null && q1 > q && this.knownTails(text, splits, q, q1, e)) {
        // Words the model found inside the token, each spelled out.
        let ws = s;
        for (; q < q1; q++) {
          const we = splits[q]!;
          words.push({ form: text.slice(ws, we), start: ws, end: we, spaceAfter: false });
          ws = we;
        }
        words.push({ form: text.slice(ws, e), start: ws, end: e, spaceAfter });
      } else if (parts === null || parts.length < 2) words.push({ form, start: s, end: e, spaceAfter });
      else {
        let pos = s;
        for (let k = 0; k < parts.length; k++) {
          const wf = parts[k]!;
          const ws = pos;
          const we =
            k === parts.length - 1
              ? e
              : text.startsWith(wf, pos)
                ? pos + wf.length
                : Math.min(e, pos + wf.length);
          pos = we;
          words.push({
            form: wf,
            start: ws,
            end: we,
            spaceAfter: k === parts.length - 1 ? spaceAfter : false,
          });
        }
      }
      tokens.push({ start: s, end: e, firstWord: first, lastWord: words.length - 1 });
    }
    return { words, tokens };
  }

  /** Whether every word after splits[from..to) up to `end` is a known tail (see `tails`). */
  private knownTails(
    text: string,
    splits: readonly number[],
    from: number,
    to: number,
    end: number,
  ): boolean {
    for (let k = from; k < to; k++) {
      const we = k + 1 < to ? splits[k + 1]! : end;
      if (!this.tails.has(text.slice(splits[k]!, we).toLowerCase())) return false;
    }
    return true;
  }

  /** Trains a tokenizer on CoNLL-U sentences (with `# text`, or forms joined by spaces). */
  static train(sentences: readonly ConlluSentence[], opts: TokenizerTrainOptions = {}): LearnedTokenizer {
    const bits = opts.bits ?? 20;
    if (!Number.isInteger(bits) || bits < 8 || bits > 26) throw new RangeError(`bad table bits ${bits}`);
    const epochs = opts.epochs ?? 8;
    const mask = (1 << bits) - 1;
    const blocks = trainingBlocks(goldSentences(sentences, { spacing: opts.spacing }));
    const lexicon = (opts.lexicon ?? opts.spacing === "none") ? trainingLexicon(blocks) : null;
    const { exact, lower, tails } = multiwordDictionary(sentences);
    const tokP = new BinaryPerceptron(bits, BOUNDARY_MARGIN);
    const wordP = new BinaryPerceptron(bits, BOUNDARY_MARGIN);
    const sentP = new BinaryPerceptron(bits, 0);
    const ex = new Extractor(mask, lexicon === null ? null : new Set(lexicon));
    const sf = new Int32Array(64);
    const rng = new Rng(opts.seed ?? 1);
    const order = blocks.map((_, i) => i);
    let boundary = new Uint8Array(0);
    for (let epoch = 1; epoch <= epochs; epoch++) {
      rng.shuffle(order);
      let tokenErrors = 0;
      let sentenceErrors = 0;
      for (const bi of order) {
        const b = blocks[bi]!;
        const len = b.text.length;
        ex.load(b.text, 0, len);
        if (boundary.length < len + 1) boundary = new Uint8Array(len + 1);
        boundary.fill(0, 0, len + 1);
        for (let t = 0; t < b.tokens.length; t += 2) {
          boundary[b.tokens[t]!] = 1;
          boundary[b.tokens[t + 1]!] = 1;
        }
        for (const i of b.inner) if (boundary[i] === 0) boundary[i] = 2;
        // Token boundaries, following the gold ones.
        ex.tokenSpans(
          b.text,
          0,
          len,
          (f, n, place) => {
            const gold = boundary[place]!;
            const score = tokP.score(f, n);
            if ((gold === 1) !== score > 0) tokenErrors++;
            tokP.update(f, n, gold === 1, score);
            if (gold !== 1) {
              // Inside a gold token: is a word boundary here?
              const inner = wordP.score(f, n);
              if ((gold === 2) !== inner > 0) tokenErrors++;
              wordP.update(f, n, gold === 2, inner);
            }
            return gold === 1 ? 1 : 0;
          },
          null,
        );
        // Sentence boundaries over the gold tokens.
        const infos = tokenInfos(b.text, b.tokens, len);
        let since = 0;
        for (let t = 0; t + 1 < infos.length; t++) {
          since++;
          const n = sentenceFeatures(infos, t, since, sf, mask);
          const gold = b.sentenceEnd[t] === 1;
          const score = sentP.score(sf, n);
          if (gold !== score > 0) sentenceErrors++;
          sentP.update(sf, n, gold, score);
          if (gold) since = 0;
        }
      }
      opts.onEpoch?.(epoch, tokenErrors, sentenceErrors);
    }
    return new LearnedTokenizer(
      bits,
      int16Weights(tokP.averaged()).weights,
      int16Weights(sentP.averaged()).weights,
      exact,
      lower,
      opts.wordsBy ?? "model",
      int16Weights(wordP.averaged()).weights,
      tails,
      lexicon,
    );
  }

  /** The same model with its words from `wordsBy`. */
  withWordsBy(wordsBy: WordsBy): LearnedTokenizer {
    return new LearnedTokenizer(
      this.bits,
      this.tables[0]!,
      this.tables[1]!,
      this.mwt,
      this.mwtLower,
      wordsBy,
      this.tables[2],
      this.tails,
      this.lexicon,
    );
  }

  /** Model-file content. */
  toModelData(): ModelData {
    const t = this.packed(0);
    const s = this.packed(1);
    const w = this.tables[2] === null ? null : this.packed(2);
    const entries = (m: ReadonlyMap<string, MwtEntry>): string[][] => [...m].map(([k, v]) => [k, ...v]);
    return {
      kind: TOKENIZER_KIND,
      meta: {
        version: this.lexicon === null ? TOKENIZER_VERSION : TOKENIZER_LEXICON_VERSION,
        bits: this.bits,
        mwt: entries(this.mwt),
        mwtLower: entries(this.mwtLower),
        wordsBy: this.wordsBy,
        tails: [...this.tails],
      },
      arrays: {
        tokenDelta: t.delta,
        tokenValue: t.value,
        sentenceDelta: s.delta,
        sentenceValue: s.value,
        ...(w === null ? {} : { wordDelta: w.delta, wordValue: w.value }),
        ...(this.lexicon === null ? {} : { lexicon: this.lexicon }),
      },
    };
  }

  /** Writes the model file (atomically). */
  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Builds a tokenizer from model-file content; a bad file gives a one-line error naming it. */
  static fromModelData(m: ModelData, file: string): LearnedTokenizer {
    return fromModelContent(file, () => {
      if (m.kind !== TOKENIZER_KIND)
        throw new VineparseError("model-kind", `not a tokenizer model (kind "${m.kind}")`);
      const meta = m.meta;
      if (meta.version !== TOKENIZER_VERSION && meta.version !== TOKENIZER_LEXICON_VERSION)
        throw new VineparseError(
          "model-version",
          `unsupported tokenizer model version ${String(meta.version)}`,
        );
      const bits = meta.bits;
      if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 8 || bits > 26)
        throw new Error("bad bits");
      const strings = (v: unknown): string[] => {
        if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new Error("bad tails");
        return v as string[];
      };
      const dict = (v: unknown, what: string): Map<string, MwtEntry> => {
        if (
          !Array.isArray(v) ||
          !v.every((e) => Array.isArray(e) && e.length >= 3 && e.every((s) => typeof s === "string"))
        )
          throw new Error(`bad ${what}`);
        return new Map((v as string[][]).map((e) => [e[0]!, e.slice(1)]));
      };
      const arr = <T>(name: string, ctor: new (n: number) => T): T => {
        const a = m.arrays[name];
        if (!(a instanceof ctor)) throw new Error(`missing or mistyped array ${name}`);
        return a;
      };
      const wordsBy = meta.wordsBy;
      if (wordsBy !== "model" && wordsBy !== "rules") throw new Error("bad wordsBy");
      // Kept packed (the constructor checks them against the size): expanded when first read.
      const table = (p: string): PackedWeights => ({
        delta: arr(`${p}Delta`, Uint32Array),
        value: arr(`${p}Value`, Int16Array),
        scale: 1,
      });
      return new LearnedTokenizer(
        bits,
        table("token"),
        table("sentence"),
        dict(meta.mwt, "multiword tokens"),
        dict(meta.mwtLower, "multiword tokens"),
        wordsBy,
        m.arrays.wordDelta === undefined && m.arrays.wordValue === undefined ? null : table("word"),
        new Set(meta.tails === undefined ? [] : strings(meta.tails)),
        meta.version === TOKENIZER_LEXICON_VERSION ? arr("lexicon", Int32Array) : null,
      );
    });
  }

  /** Reads a tokenizer model file. */
  static load(path: string): LearnedTokenizer {
    return LearnedTokenizer.fromModelData(readModelFile(path, TOKENIZER_KIND), path);
  }
}

/** Whether text[i] is the first half of a surrogate pair (never cut between the two halves). */
function isHighSurrogateAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The training documents: the sentences of each document (of the whole file when the treebank marks
 * none), those of a paragraph joined by a space (by nothing in a text written without spaces) and
 * paragraphs by a line break, as raw text reads.
 */
function trainingBlocks(gold: readonly GoldSentence[]): TrainingBlock[] {
  const out: TrainingBlock[] = [];
  let text = "";
  let tokens: number[] = [];
  let ends: number[] = [];
  let inner: number[] = [];
  const flush = () => {
    if (tokens.length === 0) return;
    const sentenceEnd = new Uint8Array(tokens.length / 2);
    for (const e of ends) if (e < sentenceEnd.length - 1) sentenceEnd[e] = 1;
    out.push({ text, tokens, sentenceEnd, inner });
    text = "";
    tokens = [];
    ends = [];
    inner = [];
  };
  for (const g of gold) {
    if (g.newdoc) flush();
    if (g.tokens.length === 0) continue;
    if (text.length > 0) text += sentenceSeparator(g);
    const off = text.length;
    text += g.text;
    for (const i of g.innerSplits) inner.push(i + off);
    for (let k = 0; k < g.tokens.length; k += 2) {
      const s = g.tokens[k]! + off;
      const e = g.tokens[k + 1]! + off;
      // A gold token that is not in the text as it stands (a mismatch of `# text` and the forms) or holds
      // white space cannot be learned as one token: left out, its characters still go by their neighbours.
      if (e <= s || (tokens.length > 0 && s < tokens[tokens.length - 1]!)) continue;
      tokens.push(s, e);
    }
    ends.push(tokens.length / 2 - 1);
  }
  flush();
  return out;
}

/**
 * The multiword-token dictionaries: each surface form the training data splits into words more often
 * than it leaves whole, with its most frequent split (exactly, and lowercased).
 */
function multiwordDictionary(sentences: readonly ConlluSentence[]): {
  exact: Map<string, MwtEntry>;
  lower: Map<string, MwtEntry>;
  tails: Set<string>;
} {
  const tails = new Set<string>();
  const splits = [new Map<string, Map<string, number>>(), new Map<string, Map<string, number>>()];
  const whole = [new Map<string, number>(), new Map<string, number>()];
  for (const s of sentences) {
    let left = 0;
    let surface = "";
    let parts: string[] = [];
    for (const line of s.lines) {
      if (line.charCodeAt(0) === 35) continue;
      const tab1 = line.indexOf("\t");
      const id = line.slice(0, tab1);
      if (id.includes(".")) continue;
      const form = line.slice(tab1 + 1, line.indexOf("\t", tab1 + 1));
      const dash = id.indexOf("-");
      if (dash >= 0) {
        left = Number(id.slice(dash + 1)) - Number(id.slice(0, dash)) + 1;
        surface = form;
        parts = [];
        continue;
      }
      if (left > 0) {
        parts.push(form);
        if (--left === 0) {
          if (parts.join("") === surface) for (const w of parts.slice(1)) tails.add(w.toLowerCase());
          for (const [i, f] of [surface, surface.toLowerCase()].entries()) {
            const key = i === 0 ? parts.join("\u0000") : parts.join("\u0000").toLowerCase();
            let m = splits[i]!.get(f);
            if (m === undefined) splits[i]!.set(f, (m = new Map()));
            m.set(key, (m.get(key) ?? 0) + 1);
          }
        }
      } else {
        whole[0]!.set(form, (whole[0]!.get(form) ?? 0) + 1);
        const lf = form.toLowerCase();
        whole[1]!.set(lf, (whole[1]!.get(lf) ?? 0) + 1);
      }
    }
  }
  const pick = (i: number): Map<string, MwtEntry> => {
    const out = new Map<string, MwtEntry>();
    for (const [form, m] of [...splits[i]!].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      let best = "";
      let bestCount = 0;
      let total = 0;
      for (const [k, c] of m) {
        total += c;
        if (c > bestCount || (c === bestCount && k < best)) {
          best = k;
          bestCount = c;
        }
      }
      if (total > (whole[i]!.get(form) ?? 0)) out.set(form, best.split("\u0000"));
    }
    return out;
  };
  return { exact: pick(0), lower: pick(1), tails };
}
