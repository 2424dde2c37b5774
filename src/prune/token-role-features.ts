import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { finish, mix } from "../util/hash.js";
import { FormAtomCache, prefixOf, suffixOf, wordShape } from "./form-atoms.js";
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
const CONJ_KEY = 0x100;

/** The running hash of a base feature (template id and up to two values). */
function baseHash(template: number, a: number, b: number): number {
  return mix(mix(mix(SEED, template), a), b);
}

/**
 * Weight index of a token feature: template `template` with values a, b, conjoined with attribute
 * `conj` (an index into `TOKEN_CONJUNCTIONS`, or -1 for the plain feature) of value `cv`, hashed into
 * 2^bits slots. The extractor computes exactly this, sharing the base hash between conjunctions.
 */
export function tokenFeatureIndex(
  template: number,
  a: number,
  b: number,
  conj: number,
  cv: number,
  bits: number,
): number {
  const hb = baseHash(template, a, b);
  const mask = (1 << bits) - 1;
  return conj < 0 ? finish(hb) & mask : finish(mix(mix(hb, CONJ_KEY + conj), cv)) & mask;
}

const clampPos = (v: number) => (v > MAX_POSITION ? MAX_POSITION : v);

/**
 * The token-role features of one sentence (Bergsma & Cherry 2010, Table 2): one shared vector per
 * token, O(1) features (at most `MAX_TOKEN_FEATURES`), written as hashed weight indices. `prepare`
 * reads a sentence once; `extract` then writes the features of any token without allocating.
 * Features are counted, not deduplicated: a tag seen twice in a window adds its weight twice (the
 * trainer merges repeated indices into counts, so training and scoring agree). Not reentrant.
 */
export class TokenRoleFeatures {
  /** Tokens of the prepared sentence. */
  n = 0;
  /** Dense tag ids, positions 0 (root) … n + 1 (end tag). */
  tag = new Int32Array(0);
  /** Lower-cased word hashes, positions 0 (root) … n + 1 (end). */
  word: Int32Array = new Int32Array(0);
  /** Shape, prefix and suffix hashes, positions 1 … n. */
  shape = new Int32Array(0);
  prefix = new Int32Array(0);
  suffix = new Int32Array(0);
  private readonly forms = new FormAtomCache();
  private readonly mask: number;
  private readonly endTag: number;
  private sentence: Sentence | null = null;
  private vocab: Vocabularies | null = null;
  /** The token being extracted and its conjunction attributes (word, tag, shape, prefix, suffix). */
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
    this.mask = (1 << bits) - 1;
    this.endTag = tagMap.size;
  }

  /** Reads sentence `input` (its tags through the tag map, its words and their shapes and affixes). */
  prepare(input: PruneInput): void {
    const s = input.sentence;
    const n = s.n;
    if (this.tag.length < n + 2) {
      const cap = Math.max(n + 2, this.tag.length * 2, 64);
      this.tag = new Int32Array(cap);
      this.shape = new Int32Array(cap);
      this.prefix = new Int32Array(cap);
      this.suffix = new Int32Array(cap);
    }
    this.n = n;
    this.tagMap.fill(s, input.vocab, this.tag);
    this.tag[n + 1] = this.endTag;
    this.word = input.atoms.word;
    this.forms.fill(s, input.vocab, this.shape, this.prefix, this.suffix);
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
    const tag = this.tag;
    const ti = tag[i]!;
    const tPrev = tag[i - 1]!;
    const tNext = tag[i + 1]!;
    const tPrev2 = i >= 2 ? tag[i - 2]! : 0;
    const tNext2 = i + 2 <= n + 1 ? tag[i + 2]! : this.endTag;
    const word = this.word;
    const wi = word[i]!;
    const shp = this.shape[i]!;
    const pre = this.prefix[i]!;
    const suf = this.suffix[i]!;
    this.current = i;
    this.cw = wi;
    this.ct = ti;
    this.cs = shp;
    this.cp = pre;
    this.cx = suf;
    let k = 0;
    k = this.emit(out, k, T.tag, ti, 0, names);
    k = this.emit(out, k, T.tagPrev, ti, tPrev, names);
    k = this.emit(out, k, T.tagNext, ti, tNext, names);
    k = this.emit(out, k, T.prevNext, tPrev, tNext, names);
    k = this.emit(out, k, T.prev2, tPrev2, tPrev, names);
    k = this.emit(out, k, T.next2, tNext, tNext2, names);
    for (let j = i - 1; j >= i - TOKEN_WINDOW && j >= 0; j--) {
      k = this.emit(out, k, T.leftBag, tag[j]!, 0, names, j);
      k = this.emit(out, k, T.leftAt, tag[j]!, i - j, names, j);
    }
    for (let j = i + 1; j <= i + TOKEN_WINDOW && j <= n + 1; j++) {
      k = this.emit(out, k, T.rightBag, tag[j]!, 0, names, j);
      k = this.emit(out, k, T.rightAt, tag[j]!, i - j, names, j);
    }
    k = this.emit(out, k, T.word, wi, 0, names);
    k = this.emit(out, k, T.nextWord, word[i + 1]!, 0, names);
    k = this.emit(out, k, T.prevWord, word[i - 1]!, 0, names);
    k = this.emit(out, k, T.shape, shp, 0, names);
    k = this.emit(out, k, T.prefix, pre, 0, names);
    k = this.emit(out, k, T.suffix, suf, 0, names);
    k = this.emit(out, k, T.position, clampPos(i), 0, names);
    k = this.emit(out, k, T.positionLength, clampPos(i), clampPos(n), names);
    k = this.emit(out, k, T.fromEnd, clampPos(n - i), 0, names);
    k = this.emit(out, k, T.bias, 0, 0, names);
    return k;
  }

  /** Writes base feature (template, a, b) and its conjunctions with token i's attributes. */
  private emit(
    out: Int32Array,
    k: number,
    template: number,
    a: number,
    b: number,
    names: string[] | null,
    j = -1,
  ): number {
    const hb = baseHash(template, a, b);
    const mask = this.mask;
    out[k++] = finish(hb) & mask;
    const conj = TOKEN_CONJOINED[template]!;
    // The conjoined attributes are token i's, cached by `extract`.
    if ((conj & CONJ_WORD) !== 0) out[k++] = finish(mix(mix(hb, CONJ_KEY), this.cw)) & mask;
    if ((conj & CONJ_TAG) !== 0) out[k++] = finish(mix(mix(hb, CONJ_KEY + 1), this.ct)) & mask;
    if ((conj & CONJ_SHAPE) !== 0) out[k++] = finish(mix(mix(hb, CONJ_KEY + 2), this.cs)) & mask;
    if ((conj & CONJ_PREFIX) !== 0) out[k++] = finish(mix(mix(hb, CONJ_KEY + 3), this.cp)) & mask;
    if ((conj & CONJ_SUFFIX) !== 0) out[k++] = finish(mix(mix(hb, CONJ_KEY + 4), this.cx)) & mask;
    if (names !== null) this.pushNames(names, template, a, b, j);
    return k;
  }

  private pushNames(names: string[], template: number, a: number, b: number, j: number): void {
    const base = this.baseName(template, a, b, j);
    names.push(base);
    const conj = TOKEN_CONJOINED[template]!;
    const i = this.current;
    const attrs = this.attributeNames(i);
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

  private baseName(template: number, a: number, b: number, j: number): string {
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
      case T.rightAt:
        return `tag[i${j < i ? "-" : "+"}${Math.abs(b)}]=${tn(a)}`;
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
