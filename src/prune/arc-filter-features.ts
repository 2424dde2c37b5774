import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { finish, mix } from "../util/hash.js";
import type { PruneInput } from "./pruner.js";
import type { TagMap } from "./tag-map.js";

/**
 * Templates of the quadratic filter's arc features (Bergsma & Cherry 2010, Table 3) for head h and
 * modifier m, where dir = sign(h - m) and tagshm = (dir, tag_h, tag_m). The first eight are binary;
 * the last four are real-valued.
 */
export const ARC_TEMPLATES = {
  /** sign(h-m) */
  dir: 0,
  /** tagshm */
  triple: 1,
  /** tag_{m-1}, tagshm */
  modPrev: 2,
  /** tag_{m+1}, tagshm */
  modNext: 3,
  /** tag_{h-1}, tagshm */
  headPrev: 4,
  /** tag_{h+1}, tagshm */
  headNext: 5,
  /** sign(h-m), tag_h, word_m */
  tagWord: 6,
  /** sign(h-m), word_h, tag_m */
  wordTag: 7,
  /** constant (the classifier's bias) */
  bias: 8,
  /** sign(h-m) ⇒ (h-m) / distScale */
  distance: 9,
  /** tag_h, tag_m ⇒ (h-m) / distScale */
  pairDistance: 10,
  /** tag_k, tagshm ⇒ count of tag_k between h and m (within 5 of either end) */
  betweenTag: 11,
  /** word_k, tagshm ⇒ count of word_k between h and m (within 5 of either end) */
  betweenWord: 12,
} as const;

/** Names of the arc templates, indexed by template id. */
export const ARC_TEMPLATE_NAMES: readonly string[] = Object.keys(ARC_TEMPLATES);

/** Upper bound on the features one arc has (9 binary, 2 distances, 10 between tags, 10 between words). */
export const MAX_ARC_FILTER_FEATURES = 32;

/** Positions between head and modifier within this distance of either end are counted (Table 3: ±5). */
export const BETWEEN_WINDOW = 5;

/** Default divisor of the distance features: arcs of length 10 get value ±1, like a binary feature. */
export const DEFAULT_DIST_SCALE = 10;

const SEED = 0x3c6ef372;

/** Hash of a template with up to three values (the arc templates' common prefix). */
function hash3(template: number, a: number, b: number, c: number): number {
  return mix(mix(mix(mix(SEED, template), a), b), c);
}

/**
 * Weight index of arc feature `template` with values (a, b, c) — for the tagshm templates a = dir,
 * b = tag_h, c = tag_m and `x` the extra value (a neighbour tag, a between tag or word; 0 for the
 * triple itself) — hashed into 2^bits slots, as the extractor computes it.
 */
export function arcFeatureIndex(
  template: number,
  a: number,
  b: number,
  c: number,
  x: number,
  bits: number,
): number {
  const T = ARC_TEMPLATES;
  const mask = (1 << bits) - 1;
  const conjoined =
    (template >= T.modPrev && template <= T.headNext) ||
    template === T.betweenTag ||
    template === T.betweenWord;
  if (conjoined) return finish(mix(mix(hash3(T.triple, a, b, c), template), x)) & mask;
  return finish(hash3(template, a, b, c)) & mask;
}

/**
 * The quadratic filter's features of one arc (Bergsma & Cherry 2010, Table 3): O(1) per arc (at most
 * `MAX_ARC_FILTER_FEATURES`), hashed weight indices with values (1 for binary features; repeated
 * between tags or words are written once per occurrence, so their weights add up to count × weight —
 * the trainer merges them into counts). `prepare` reads a sentence once; `extract` allocates nothing.
 * Not reentrant.
 */
export class ArcFilterFeatures {
  /** Tokens of the prepared sentence. */
  n = 0;
  /** Dense tag ids, positions 0 (root) … n + 1 (end tag). */
  tag = new Int32Array(0);
  /** Lower-cased word hashes, positions 0 (root) … n + 1. */
  word: Int32Array = new Int32Array(0);
  private readonly mask: number;
  private readonly endTag: number;
  private readonly beforeRoot: number;
  private readonly invScale: number;
  private sentence: Sentence | null = null;
  private vocab: Vocabularies | null = null;

  constructor(
    /** The filter's tag map. */
    readonly tagMap: TagMap,
    /** log2 of the number of weight slots. */
    readonly bits: number,
    /** Divisor of the distance features (real-valued features are scaled to be O(1)). */
    readonly distScale = DEFAULT_DIST_SCALE,
  ) {
    this.mask = (1 << bits) - 1;
    this.endTag = tagMap.size;
    this.beforeRoot = tagMap.size + 1;
    this.invScale = 1 / distScale;
  }

  /** Reads sentence `input` (its tags through the tag map and its words). */
  prepare(input: PruneInput): void {
    const s = input.sentence;
    const n = s.n;
    if (this.tag.length < n + 2) this.tag = new Int32Array(Math.max(n + 2, this.tag.length * 2, 64));
    this.n = n;
    this.tagMap.fill(s, input.vocab, this.tag);
    this.tag[n + 1] = this.endTag;
    this.word = input.atoms.word;
    this.sentence = s;
    this.vocab = input.vocab;
  }

  /**
   * Writes the features of arc h→m: weight indices into `idx` and values into `val` (from 0), and
   * returns how many. With `names`, also pushes a readable name for each (slow; for tests and show).
   */
  extract(h: number, m: number, idx: Int32Array, val: Float32Array, names: string[] | null = null): number {
    const T = ARC_TEMPLATES;
    const mask = this.mask;
    const tag = this.tag;
    const word = this.word;
    const dir = h < m ? 0 : 1;
    const th = tag[h]!;
    const tm = tag[m]!;
    const triple = hash3(T.triple, dir, th, tm);
    const dist = (h - m) * this.invScale;
    let k = 0;
    idx[k] = finish(hash3(T.dir, dir, 0, 0)) & mask;
    val[k++] = 1;
    idx[k] = finish(triple) & mask;
    val[k++] = 1;
    idx[k] = finish(mix(mix(triple, T.modPrev), tag[m - 1]!)) & mask;
    val[k++] = 1;
    idx[k] = finish(mix(mix(triple, T.modNext), tag[m + 1]!)) & mask;
    val[k++] = 1;
    idx[k] = finish(mix(mix(triple, T.headPrev), h > 0 ? tag[h - 1]! : this.beforeRoot)) & mask;
    val[k++] = 1;
    idx[k] = finish(mix(mix(triple, T.headNext), tag[h + 1]!)) & mask;
    val[k++] = 1;
    idx[k] = finish(hash3(T.tagWord, dir, th, word[m]!)) & mask;
    val[k++] = 1;
    idx[k] = finish(hash3(T.wordTag, dir, word[h]!, tm)) & mask;
    val[k++] = 1;
    idx[k] = finish(hash3(T.bias, 0, 0, 0)) & mask;
    val[k++] = 1;
    idx[k] = finish(hash3(T.distance, dir, 0, 0)) & mask;
    val[k++] = dist;
    idx[k] = finish(hash3(T.pairDistance, th, tm, 0)) & mask;
    val[k++] = dist;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const W = BETWEEN_WINDOW;
    // Positions strictly between, within W of either end: lo+1 … lo+W and hi-W … hi-1.
    const firstEnd = hi - lo - 1 <= 2 * W ? hi - 1 : lo + W;
    const secondStart = hi - lo - 1 <= 2 * W ? hi : hi - W;
    for (let p = lo + 1; p <= firstEnd; p++) k = this.between(triple, p, idx, val, k);
    for (let p = secondStart; p < hi; p++) k = this.between(triple, p, idx, val, k);
    if (names !== null) this.pushNames(names, h, m, firstEnd, secondStart);
    return k;
  }

  private between(triple: number, p: number, idx: Int32Array, val: Float32Array, k: number): number {
    const T = ARC_TEMPLATES;
    idx[k] = finish(mix(mix(triple, T.betweenTag), this.tag[p]!)) & this.mask;
    val[k++] = 1;
    idx[k] = finish(mix(mix(triple, T.betweenWord), this.word[p]!)) & this.mask;
    val[k++] = 1;
    return k;
  }

  private tagName(id: number): string {
    if (id === 0) return "<root>";
    if (id === this.endTag) return "</s>";
    if (id === this.beforeRoot) return "<s>";
    if (id === this.tagMap.unknown) return "<unk>";
    return this.tagMap.tags[id - 1]!;
  }

  private wordName(p: number): string {
    if (p <= 0) return "<root>";
    if (p > this.n) return "</s>";
    return this.vocab!.form.strings[this.sentence!.form[p]!]!.toLowerCase();
  }

  private pushNames(names: string[], h: number, m: number, firstEnd: number, secondStart: number): void {
    const tag = this.tag;
    const t = (p: number) => this.tagName(p < 0 ? this.beforeRoot : tag[p]!);
    const d = h < m ? "h<m" : "h>m";
    const hm = `${d} tag[h]=${t(h)} tag[m]=${t(m)}`;
    names.push(
      d,
      hm,
      `${hm} tag[m-1]=${t(m - 1)}`,
      `${hm} tag[m+1]=${t(m + 1)}`,
      `${hm} tag[h-1]=${t(h - 1)}`,
      `${hm} tag[h+1]=${t(h + 1)}`,
      `${d} tag[h]=${t(h)} word[m]=${this.wordName(m)}`,
      `${d} word[h]=${this.wordName(h)} tag[m]=${t(m)}`,
      "bias",
      `${d} ⇒ distance`,
      `tag[h]=${t(h)} tag[m]=${t(m)} ⇒ distance`,
    );
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const one = (p: number) =>
      names.push(`${hm} ⇒ count tag ${t(p)}`, `${hm} ⇒ count word ${this.wordName(p)}`);
    for (let p = lo + 1; p <= firstEnd; p++) one(p);
    for (let p = secondStart; p < hi; p++) one(p);
  }
}
