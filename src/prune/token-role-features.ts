import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { finish, hashString, mix } from "../util/hash.js";
import {
  FormTable,
  prefixAtom,
  prefixOf,
  shapeAtom,
  suffixAtom,
  suffixOf,
  wordAtom,
  wordShape,
} from "./form-atoms.js";
import type { PruneInput } from "./pruner.js";
import type { TagMap } from "./tag-map.js";

/**
 * Base templates of the token-role features (Bergsma & Cherry 2010, Table 2) for the token at
 * position i of a sentence of n tokens. Tag templates read the filter's dense tag ids; positions
 * before the first token read the root tag (0), positions after the last one the end tag.
 */
export const TOKEN_TEMPLATES = {
  /** tag_i */
  tag: 0,
  /** tag_i, tag_{i-1} */
  tagPrev: 1,
  /** tag_i, tag_{i+1} */
  tagNext: 2,
  /** tag_{i-1}, tag_{i+1} */
  prevNext: 3,
  /** tag_{i-2}, tag_{i-1} */
  prev2: 4,
  /** tag_{i+1}, tag_{i+2} */
  next2: 5,
  /** tag_j, Left for j = i-5 … i-1 (a bag of the tags on the left; stops at the root) */
  leftBag: 6,
  /** tag_j, Right for j = i+1 … i+5 (stops at the end of the sentence) */
  rightBag: 7,
  /** tag_j, i-j for j = i-5 … i-1 */
  leftAt: 8,
  /** tag_j, i-j for j = i+1 … i+5 */
  rightAt: 9,
  /** word_i (lower-cased) */
  word: 10,
  /** word_{i+1} */
  nextWord: 11,
  /** word_{i-1} */
  prevWord: 12,
  /** shape_i */
  shape: 13,
  /** prefix_i (4 letters) */
  prefix: 14,
  /** suffix_i (4 letters) */
  suffix: 15,
  /** i */
  position: 16,
  /** i, n */
  positionLength: 17,
  /** n - i */
  fromEnd: 18,
  /** a constant feature (the classifier's bias; never conjoined) */
  bias: 19,
} as const;

/** Names of the base templates, indexed by template id. */
export const TOKEN_TEMPLATE_NAMES: readonly string[] = Object.keys(TOKEN_TEMPLATES);

/** Number of base templates. */
const NUM_TEMPLATES = 20;

/**
 * Conjunctions: each base feature is also conjoined with each of these attributes of token i
 * (Table 2: word, tag, shape, 4-letter prefix and suffix), unless redundant.
 */
export const TOKEN_CONJUNCTIONS = ["word", "tag", "shape", "prefix", "suffix"] as const;
const CONJ_WORD = 1;
const CONJ_TAG = 2;
const CONJ_SHAPE = 4;
const CONJ_PREFIX = 8;
const CONJ_SUFFIX = 16;
const ALL_CONJ = 31;

/**
 * Per template, the conjunctions that are made (a bit per entry of `TOKEN_CONJUNCTIONS`). Redundant
 * ones are left out: anything containing tag_i with tag_i; the (lower-cased) word with itself and with
 * what it determines (prefix, suffix); shape, prefix and suffix with themselves and with the word.
 * The shape reads the original case, so it is not a function of the lower-cased word.
 */
export const TOKEN_CONJOINED: Int32Array = (() => {
  const t = TOKEN_TEMPLATES;
  const c = new Int32Array(NUM_TEMPLATES).fill(ALL_CONJ);
  c[t.tag] = ALL_CONJ & ~CONJ_TAG;
  c[t.tagPrev] = ALL_CONJ & ~CONJ_TAG;
  c[t.tagNext] = ALL_CONJ & ~CONJ_TAG;
  c[t.word] = CONJ_TAG | CONJ_SHAPE;
  c[t.shape] = ALL_CONJ & ~CONJ_SHAPE;
  c[t.prefix] = CONJ_TAG | CONJ_SHAPE | CONJ_SUFFIX;
  c[t.suffix] = CONJ_TAG | CONJ_SHAPE | CONJ_PREFIX;
  c[t.bias] = 0;
  return c;
})();

/** Upper bound on the features `TokenRoleFeatures.extract` writes for one token. */
export const MAX_TOKEN_FEATURES = 256;

/** Positions and lengths above this value share one feature value (positions are O(1) features). */
export const MAX_POSITION = 50;

/** Window of the bag and distance templates (Table 2: five tokens each side). */
export const TOKEN_WINDOW = 5;

const SEED = 0x2b7e1516;
const CONJ_SEED = 0x7e3a9c4d;
/** Odd multiplier of the conjunction hash (Fibonacci hashing: the top bits are well mixed). */
const GOLDEN = 0x9e3779b1 | 0;
/** Word atoms of the positions beyond the sentence: the root (0) and the end (n + 1). */
const ROOT_WORD = hashString("<root>");
const END_WORD = hashString("</s>");

/** Running hash of a base feature: template id and two values, fully mixed. */
export function tokenBaseHash(template: number, a: number, b: number): number {
  return finish(mix(mix(mix(SEED, template), a), b));
}

/** Atom of conjunction attribute `conj` (index into `TOKEN_CONJUNCTIONS`) with value `v`. */
export function tokenConjAtom(conj: number, v: number): number {
  return finish(mix(mix(CONJ_SEED, conj), v));
}

/**
 * Weight index of a token feature: template `template` with values a, b (tags are the filter's
 * dense ids, words and affixes their atoms from form-atoms.ts, positions the clamped numbers),
 * conjoined with attribute `conj` of value `cv` (-1: the plain feature), in 2^bits slots. A plain
 * feature takes the low bits of its base hash; a conjunction multiplies base hash XOR attribute atom
 * by an odd constant and takes the top bits (one multiply per conjunction). The extractor reads the
 * same values from tables.
 */
export function tokenFeatureIndex(
  template: number,
  a: number,
  b: number,
  conj: number,
  cv: number,
  bits: number,
): number {
  const hb = tokenBaseHash(template, a, b);
  if (conj < 0) return hb & ((1 << bits) - 1);
  return Math.imul(hb ^ tokenConjAtom(conj, cv), GOLDEN) >>> (32 - bits);
}

const clampPos = (v: number) => (v > MAX_POSITION ? MAX_POSITION : v);

/** Per-form values the extractor caches: base hashes of the word templates and conjunction atoms. */
const F_WORD = 0;
const F_NEXT = 1;
const F_PREV = 2;
const F_SHAPE = 3;
const F_PREFIX = 4;
const F_SUFFIX = 5;
const F_CWORD = 6;
const F_CSHAPE = 7;
const F_CPREFIX = 8;
const F_CSUFFIX = 9;
const FORM_WIDTH = 10;

function formValues(form: string, out: Int32Array, at: number): void {
  const T = TOKEN_TEMPLATES;
  const w = wordAtom(form);
  const sh = shapeAtom(form);
  const pre = prefixAtom(form);
  const suf = suffixAtom(form);
  out[at + F_WORD] = tokenBaseHash(T.word, w, 0);
  out[at + F_NEXT] = tokenBaseHash(T.nextWord, w, 0);
  out[at + F_PREV] = tokenBaseHash(T.prevWord, w, 0);
  out[at + F_SHAPE] = tokenBaseHash(T.shape, sh, 0);
  out[at + F_PREFIX] = tokenBaseHash(T.prefix, pre, 0);
  out[at + F_SUFFIX] = tokenBaseHash(T.suffix, suf, 0);
  out[at + F_CWORD] = tokenConjAtom(0, w);
  out[at + F_CSHAPE] = tokenConjAtom(2, sh);
  out[at + F_CPREFIX] = tokenConjAtom(3, pre);
  out[at + F_CSUFFIX] = tokenConjAtom(4, suf);
}

/**
 * The token-role features of one sentence (Bergsma & Cherry 2010, Table 2): one shared vector per
 * token, O(1) features (at most `MAX_TOKEN_FEATURES`), written as hashed weight indices. Base hashes
 * of tag and position features come from tables built once per filter, those of word features from a
 * per-form cache; each conjunction then costs one multiply. `prepare` reads a sentence once; `extract`
 * writes any token's features without allocating. Features are counted, not deduplicated: a tag seen
 * twice in a window adds its weight twice (the trainer merges repeated indices into counts, so
 * training and scoring agree). Not reentrant.
 */
export class TokenRoleFeatures {
  /** Tokens of the prepared sentence. */
  n = 0;
  /** Dense tag ids, positions 0 (root) … n + 1 (end tag). */
  tag = new Int32Array(0);
  private pos = new Int32Array(0);
  private readonly forms = new FormTable(FORM_WIDTH, formValues);
  private readonly mask: number;
  private readonly shift: number;
  private readonly endTag: number;
  /** Tag tables (S = number of dense tag ids including the end tag). */
  private readonly S: number;
  private readonly tagB: Int32Array;
  private readonly pairB: Int32Array;
  private readonly bagB: Int32Array;
  private readonly atB: Int32Array;
  private readonly tagC: Int32Array;
  private readonly posB: Int32Array;
  private readonly posLenB: Int32Array;
  private readonly fromEndB: Int32Array;
  private readonly biasB: number;
  private readonly rootPrev: number;
  private readonly endNext: number;
  private sentence: Sentence | null = null;
  private vocab: Vocabularies | null = null;
  /** The token being extracted and its conjunction atoms (word, tag, shape, prefix, suffix). */
  private current = 0;
  private cw = 0;
  private ct = 0;
  private cs = 0;
  private cp = 0;
  private cx = 0;

  constructor(
    /** The filter's tag map. */
    readonly tagMap: TagMap,
    /** log2 of the number of weight slots. */
    readonly bits: number,
  ) {
    const T = TOKEN_TEMPLATES;
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.endTag = tagMap.size;
    const S = tagMap.size + 1;
    this.S = S;
    this.tagB = new Int32Array(S);
    this.tagC = new Int32Array(S);
    this.pairB = new Int32Array(5 * S * S);
    this.bagB = new Int32Array(2 * S);
    this.atB = new Int32Array(2 * TOKEN_WINDOW * S);
    const pairs = [T.tagPrev, T.tagNext, T.prevNext, T.prev2, T.next2];
    for (let a = 0; a < S; a++) {
      this.tagB[a] = tokenBaseHash(T.tag, a, 0);
      this.tagC[a] = tokenConjAtom(1, a);
      this.bagB[a] = tokenBaseHash(T.leftBag, a, 0);
      this.bagB[S + a] = tokenBaseHash(T.rightBag, a, 0);
      for (let d = 1; d <= TOKEN_WINDOW; d++) {
        this.atB[(d - 1) * S + a] = tokenBaseHash(T.leftAt, a, d);
        this.atB[(TOKEN_WINDOW + d - 1) * S + a] = tokenBaseHash(T.rightAt, a, -d);
      }
      for (let p = 0; p < 5; p++)
        for (let b = 0; b < S; b++) this.pairB[(p * S + a) * S + b] = tokenBaseHash(pairs[p]!, a, b);
    }
    const P = MAX_POSITION + 1;
    this.posB = new Int32Array(P);
    this.fromEndB = new Int32Array(P);
    this.posLenB = new Int32Array(P * P);
    for (let v = 0; v < P; v++) {
      this.posB[v] = tokenBaseHash(T.position, v, 0);
      this.fromEndB[v] = tokenBaseHash(T.fromEnd, v, 0);
      for (let w = 0; w < P; w++) this.posLenB[v * P + w] = tokenBaseHash(T.positionLength, v, w);
    }
    this.biasB = tokenBaseHash(T.bias, 0, 0);
    this.rootPrev = tokenBaseHash(T.prevWord, ROOT_WORD, 0);
    this.endNext = tokenBaseHash(T.nextWord, END_WORD, 0);
  }

  /** Reads sentence `input` (its tags through the tag map, its words' cached hashes). */
  prepare(input: PruneInput): void {
    const s = input.sentence;
    const n = s.n;
    if (this.tag.length < n + 2) {
      const cap = Math.max(n + 2, this.tag.length * 2, 64);
      this.tag = new Int32Array(cap);
      this.pos = new Int32Array(cap * FORM_WIDTH);
    }
    this.n = n;
    this.tagMap.fill(s, input.vocab, this.tag);
    this.tag[n + 1] = this.endTag;
    this.forms.bind(input.vocab.form);
    const table = this.forms.table;
    const pos = this.pos;
    const form = s.form;
    for (let i = 1; i <= n; i++) {
      const from = form[i]! * FORM_WIDTH;
      const to = i * FORM_WIDTH;
      for (let j = 0; j < FORM_WIDTH; j++) pos[to + j] = table[from + j]!;
    }
    pos[F_PREV] = this.rootPrev;
    pos[(n + 1) * FORM_WIDTH + F_NEXT] = this.endNext;
    this.sentence = s;
    this.vocab = input.vocab;
  }

  /**
   * Writes the weight indices of token i's features into `out` (from 0) and returns how many. With
   * `names`, also pushes a readable name for each (slow; for tests and `filter show`).
   */
  extract(i: number, out: Int32Array, names: string[] | null = null): number {
    const T = TOKEN_TEMPLATES;
    const n = this.n;
    const S = this.S;
    const tag = this.tag;
    const ti = tag[i]!;
    const tPrev = tag[i - 1]!;
    const tNext = tag[i + 1]!;
    const tPrev2 = i >= 2 ? tag[i - 2]! : 0;
    const tNext2 = i + 2 <= n + 1 ? tag[i + 2]! : this.endTag;
    const pos = this.pos;
    const o = i * FORM_WIDTH;
    this.current = i;
    this.cw = pos[o + F_CWORD]!;
    this.ct = this.tagC[ti]!;
    this.cs = pos[o + F_CSHAPE]!;
    this.cp = pos[o + F_CPREFIX]!;
    this.cx = pos[o + F_CSUFFIX]!;
    const pairB = this.pairB;
    let k = 0;
    k = this.emit(out, k, this.tagB[ti]!, T.tag, ti, 0, names);
    k = this.emit(out, k, pairB[ti * S + tPrev]!, T.tagPrev, ti, tPrev, names);
    k = this.emit(out, k, pairB[(S + ti) * S + tNext]!, T.tagNext, ti, tNext, names);
    k = this.emit(out, k, pairB[(2 * S + tPrev) * S + tNext]!, T.prevNext, tPrev, tNext, names);
    k = this.emit(out, k, pairB[(3 * S + tPrev2) * S + tPrev]!, T.prev2, tPrev2, tPrev, names);
    k = this.emit(out, k, pairB[(4 * S + tNext) * S + tNext2]!, T.next2, tNext, tNext2, names);
    const bagB = this.bagB;
    const atB = this.atB;
    for (let j = i - 1; j >= i - TOKEN_WINDOW && j >= 0; j--) {
      const t = tag[j]!;
      k = this.emit(out, k, bagB[t]!, T.leftBag, t, 0, names);
      k = this.emit(out, k, atB[(i - j - 1) * S + t]!, T.leftAt, t, i - j, names);
    }
    for (let j = i + 1; j <= i + TOKEN_WINDOW && j <= n + 1; j++) {
      const t = tag[j]!;
      k = this.emit(out, k, bagB[S + t]!, T.rightBag, t, 0, names);
      k = this.emit(out, k, atB[(TOKEN_WINDOW + j - i - 1) * S + t]!, T.rightAt, t, i - j, names);
    }
    k = this.emit(out, k, pos[o + F_WORD]!, T.word, 0, 0, names);
    k = this.emit(out, k, pos[o + FORM_WIDTH + F_NEXT]!, T.nextWord, 0, 0, names);
    k = this.emit(out, k, pos[o - FORM_WIDTH + F_PREV]!, T.prevWord, 0, 0, names);
    k = this.emit(out, k, pos[o + F_SHAPE]!, T.shape, 0, 0, names);
    k = this.emit(out, k, pos[o + F_PREFIX]!, T.prefix, 0, 0, names);
    k = this.emit(out, k, pos[o + F_SUFFIX]!, T.suffix, 0, 0, names);
    const pi = clampPos(i);
    const pn = clampPos(n);
    const pe = clampPos(n - i);
    k = this.emit(out, k, this.posB[pi]!, T.position, pi, 0, names);
    k = this.emit(out, k, this.posLenB[pi * (MAX_POSITION + 1) + pn]!, T.positionLength, pi, pn, names);
    k = this.emit(out, k, this.fromEndB[pe]!, T.fromEnd, pe, 0, names);
    k = this.emit(out, k, this.biasB, T.bias, 0, 0, names);
    return k;
  }

  /** Writes base feature hb (of `template`) and its conjunctions with token i's attributes. */
  private emit(
    out: Int32Array,
    k: number,
    hb: number,
    template: number,
    a: number,
    b: number,
    names: string[] | null,
  ): number {
    out[k++] = hb & this.mask;
    const conj = TOKEN_CONJOINED[template]!;
    const sh = this.shift;
    // The conjoined attributes are token i's, cached by `extract`.
    if ((conj & CONJ_WORD) !== 0) out[k++] = Math.imul(hb ^ this.cw, GOLDEN) >>> sh;
    if ((conj & CONJ_TAG) !== 0) out[k++] = Math.imul(hb ^ this.ct, GOLDEN) >>> sh;
    if ((conj & CONJ_SHAPE) !== 0) out[k++] = Math.imul(hb ^ this.cs, GOLDEN) >>> sh;
    if ((conj & CONJ_PREFIX) !== 0) out[k++] = Math.imul(hb ^ this.cp, GOLDEN) >>> sh;
    if ((conj & CONJ_SUFFIX) !== 0) out[k++] = Math.imul(hb ^ this.cx, GOLDEN) >>> sh;
    if (names !== null) this.pushNames(names, template, a, b);
    return k;
  }

  private pushNames(names: string[], template: number, a: number, b: number): void {
    const base = this.baseName(template, a, b);
    names.push(base);
    const conj = TOKEN_CONJOINED[template]!;
    const attrs = this.attributeNames(this.current);
    for (let c = 0; c < TOKEN_CONJUNCTIONS.length; c++)
      if ((conj & (1 << c)) !== 0) names.push(`${base} & ${TOKEN_CONJUNCTIONS[c]}=${attrs[c]}`);
  }

  /** Readable values of token i's conjunction attributes (word, tag, shape, prefix, suffix). */
  private attributeNames(i: number): string[] {
    const f = this.formAt(i);
    return [f.toLowerCase(), this.tagName(this.tag[i]!), wordShape(f), prefixOf(f), suffixOf(f)];
  }

  private formAt(p: number): string {
    if (p <= 0) return "<root>";
    if (p > this.n) return "</s>";
    return this.vocab!.form.strings[this.sentence!.form[p]!]!;
  }

  private tagName(id: number): string {
    if (id === 0) return "<root>";
    if (id === this.endTag) return "</s>";
    if (id === this.tagMap.unknown) return "<unk>";
    return this.tagMap.tags[id - 1]!;
  }

  private baseName(template: number, a: number, b: number): string {
    const T = TOKEN_TEMPLATES;
    const i = this.current;
    const tn = (id: number) => this.tagName(id);
    switch (template) {
      case T.tag:
        return `tag[i]=${tn(a)}`;
      case T.tagPrev:
        return `tag[i]=${tn(a)} tag[i-1]=${tn(b)}`;
      case T.tagNext:
        return `tag[i]=${tn(a)} tag[i+1]=${tn(b)}`;
      case T.prevNext:
        return `tag[i-1]=${tn(a)} tag[i+1]=${tn(b)}`;
      case T.prev2:
        return `tag[i-2]=${tn(a)} tag[i-1]=${tn(b)}`;
      case T.next2:
        return `tag[i+1]=${tn(a)} tag[i+2]=${tn(b)}`;
      case T.leftBag:
        return `left5 has ${tn(a)}`;
      case T.rightBag:
        return `right5 has ${tn(a)}`;
      case T.leftAt:
        return `tag[i-${b}]=${tn(a)}`;
      case T.rightAt:
        return `tag[i+${-b}]=${tn(a)}`;
      case T.word:
        return `word[i]=${this.formAt(i).toLowerCase()}`;
      case T.nextWord:
        return `word[i+1]=${this.formAt(i + 1).toLowerCase()}`;
      case T.prevWord:
        return `word[i-1]=${this.formAt(i - 1).toLowerCase()}`;
      case T.shape:
        return `shape[i]=${wordShape(this.formAt(i))}`;
      case T.prefix:
        return `prefix[i]=${prefixOf(this.formAt(i))}`;
      case T.suffix:
        return `suffix[i]=${suffixOf(this.formAt(i))}`;
      case T.position:
        return `i=${a}`;
      case T.positionLength:
        return `i=${a} n=${b}`;
      case T.fromEnd:
        return `n-i=${a}`;
      default:
        return "bias";
    }
  }
}
