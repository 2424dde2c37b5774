import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { finish, mix } from "../util/hash.js";
import { FormTable, wordAtom } from "./form-atoms.js";
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
  /** ctagshm = (sign(h-m), ctag_h, ctag_m) over the coarse tags (UPOS; read with a coarse tag map) */
  coarseTriple: 13,
  /** distance bucket of |h-m| (1, 2, 3–4, 5–7, 8–12, 13–20, 21+), ctagshm */
  coarseDistance: 14,
  /** ctag_{m-1}, ctagshm */
  coarseModPrev: 15,
  /** ctag_{m+1}, ctagshm */
  coarseModNext: 16,
  /** ctag_{h-1}, ctagshm */
  coarseHeadPrev: 17,
  /** ctag_{h+1}, ctagshm */
  coarseHeadNext: 18,
  /** ctag_k, ctagshm ⇒ log2(1 + count of ctag_k anywhere between h and m) / 2 */
  coarseSpan: 19,
} as const;

/** Names of the arc templates, indexed by template id. */
export const ARC_TEMPLATE_NAMES: readonly string[] = Object.keys(ARC_TEMPLATES);

/** Most coarse tags a filter may have (dense ids: root, tags, unknown). */
export const MAX_COARSE_TAGS = 32;

/**
 * Upper bound on the features one arc has: 9 binary, 2 distances, 10 between tags, 10 between words
 * (Table 3), and with coarse tags 6 binary and one span count per coarse tag.
 */
export const MAX_ARC_FILTER_FEATURES = 32 + 6 + MAX_COARSE_TAGS;

/** Bucket of arc length d ≥ 1 for `coarseDistance`: 1, 2, 3–4, 5–7, 8–12, 13–20, 21+ → 1 … 7. */
export function distanceBucket(d: number): number {
  return d <= 2 ? d : d <= 4 ? 3 : d <= 7 ? 4 : d <= 12 ? 5 : d <= 20 ? 6 : 7;
}

/** Value of a coarse span count c ≥ 1: log2(1 + c) / 2, rounded to float32 (as feature values are stored). */
export function spanValue(c: number): number {
  return Math.fround(Math.log2(1 + c) / 2);
}

const SPAN_VALUES = Float32Array.from({ length: 64 }, (_, c) => spanValue(c));

/** Positions between head and modifier within this distance of either end are counted (Table 3: ±5). */
export const BETWEEN_WINDOW = 5;

/**
 * Default divisor of the distance features: arcs of length 100 get value ±1. Small real values make
 * the L2-regularised SVM lean on distance less; on en_ewt dev (after Rules+Linear, 99.5% coverage)
 * the scales 3 / 10 / 30 / 100 / 1000 reached 64.52 / 65.77 / 66.27 / 66.53 / 65.97% reduction.
 */
export const DEFAULT_DIST_SCALE = 100;

/**
 * The position after p in the walk over the positions counted between lo and hi (lo < p < hi): every
 * one when the gap is at most 2·BETWEEN_WINDOW, else lo+1 … lo+W and then hi−W … hi−1. Start at lo + 1,
 * stop at hi.
 */
export function nextBetween(p: number, lo: number, hi: number): number {
  return p - lo === BETWEEN_WINDOW && hi - p > BETWEEN_WINDOW + 1 ? hi - BETWEEN_WINDOW : p + 1;
}

const SEED = 0x3c6ef372;
const ATOM_SEED = 0x510e527f;
/** Odd multiplier of the conjunction hash (Fibonacci hashing: the top bits are well mixed). */
const GOLDEN = 0x9e3779b1 | 0;

/** Hash of a template with up to three values, fully mixed. */
export function arcBaseHash(template: number, a: number, b: number, c: number): number {
  return finish(mix(mix(mix(mix(SEED, template), a), b), c));
}

/** Atom of value x as conjoined by `template` (a tag id or a word atom). */
export function arcValueAtom(template: number, x: number): number {
  return finish(mix(mix(ATOM_SEED, template), x));
}

/** Whether a template is tagshm conjoined with one more value. */
function conjoined(template: number): boolean {
  const T = ARC_TEMPLATES;
  return (
    (template >= T.modPrev && template <= T.headNext) ||
    template === T.betweenTag ||
    template === T.betweenWord
  );
}

/** Number of distance buckets (`distanceBucket` values 1 … 7, and 0 unused). */
const BUCKETS = 8;

/** Ids of a coarse table (root, tags, unknown, end, before-root): the map's size + 2; 0 without one. */
function coarseIds(coarseMap: TagMap | null): number {
  return coarseMap === null ? 0 : coarseMap.size + 2;
}

/**
 * Weights of the coarse templates beyond the 2^bits hashed slots, for a coarse table of cS ids
 * (`coarseIds`): they are few, so each has its own slot (no hashing, no collisions) in blocks by
 * template, indexed by r = (dir · cS + ctag_h) · cS + ctag_m: coarseTriple r, coarseDistance
 * r · 8 + bucket, then the four neighbour templates and coarseSpan, each r · cS + coarse tag.
 */
export function coarseWeightCount(coarseMap: TagMap | null): number {
  const cS = coarseIds(coarseMap);
  return cS === 0 ? 0 : 2 * cS * cS * (1 + BUCKETS + 5 * cS);
}

/**
 * Weight index of coarse template `template` (coarseTriple … coarseSpan) for (dir, ctag_h, ctag_m)
 * and extra value x (a bucket or a coarse tag id; unused by coarseTriple), in a filter with 2^bits
 * hashed slots and a coarse table of cS ids (the coarse map's size + 2).
 */
export function coarseFeatureIndex(
  template: number,
  dir: number,
  ch: number,
  cm: number,
  x: number,
  bits: number,
  cS: number,
): number {
  const T = ARC_TEMPLATES;
  const R = 2 * cS * cS;
  const r = (dir * cS + ch) * cS + cm;
  const base = 1 << bits;
  if (template === T.coarseTriple) return base + r;
  if (template === T.coarseDistance) return base + R + r * BUCKETS + x;
  return base + R * (1 + BUCKETS) + (template - T.coarseModPrev) * R * cS + r * cS + x;
}

/**
 * Weight index of arc feature `template` in 2^bits slots, as the extractor computes it. For the
 * templates conjoined with tagshm, (a, b, c) = (dir, tag_h, tag_m) and x the extra value (a neighbour
 * or between tag id, or a between word's atom): the triple's hash XOR x's atom, times an odd constant,
 * top bits. For tagWord, (a, b) = (dir, tag_h) and x = word_m's atom; for wordTag, (a, c) =
 * (dir, tag_m) and x = word_h's atom (same construction). Other templates: the low bits of their hash
 * of (a, b, c): dir (dir, 0, 0), bias (0, 0, 0), distance (dir, 0, 0), pairDistance (tag_h, tag_m, 0).
 * Tag ids are the filter's dense ids; words are `wordAtom`s. The coarse templates are not hashed: see
 * `coarseFeatureIndex`.
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
  const shift = 32 - bits;
  if (conjoined(template))
    return Math.imul(arcBaseHash(T.triple, a, b, c) ^ arcValueAtom(template, x), GOLDEN) >>> shift;
  if (template === T.tagWord)
    return Math.imul(arcBaseHash(T.tagWord, a, b, 0) ^ arcValueAtom(T.tagWord, x), GOLDEN) >>> shift;
  if (template === T.wordTag)
    return Math.imul(arcBaseHash(T.wordTag, a, 0, c) ^ arcValueAtom(T.wordTag, x), GOLDEN) >>> shift;
  return arcBaseHash(template, a, b, c) & ((1 << bits) - 1);
}

/** Per-form word atoms cached by the extractor: as word_m of tagWord, word_h of wordTag, a between word. */
const W_TAGWORD = 0;
const W_WORDTAG = 1;
const W_BETWEEN = 2;
const WORD_WIDTH = 3;

function wordValues(form: string, out: Int32Array, at: number): void {
  const w = wordAtom(form);
  out[at + W_TAGWORD] = arcValueAtom(ARC_TEMPLATES.tagWord, w);
  out[at + W_WORDTAG] = arcValueAtom(ARC_TEMPLATES.wordTag, w);
  out[at + W_BETWEEN] = arcValueAtom(ARC_TEMPLATES.betweenWord, w);
}

/** Slots of the tag atoms of the tagshm-conjoined tag templates. */
const TAG_CONJ = [
  ARC_TEMPLATES.modPrev,
  ARC_TEMPLATES.modNext,
  ARC_TEMPLATES.headPrev,
  ARC_TEMPLATES.headNext,
  ARC_TEMPLATES.betweenTag,
];

/**
 * The quadratic filter's features of one arc (Bergsma & Cherry 2010, Table 3): O(1) per arc (at most
 * `MAX_ARC_FILTER_FEATURES`), hashed weight indices with values (1 for binary features; repeated
 * between tags or words are written once per occurrence, so their weights add up to count × weight —
 * the trainer merges them into counts). Hashes of tag combinations come from tables built once per
 * filter and word atoms from a per-form cache, so each feature costs about one multiply. `prepare`
 * reads a sentence once; `extract` allocates nothing. Not reentrant.
 */
export class ArcFilterFeatures {
  /** Tokens of the prepared sentence. */
  n = 0;
  /** Dense tag ids, positions 0 (root) … n + 1 (end tag). */
  tag = new Int32Array(0);
  private words = new Int32Array(0);
  private readonly forms = new FormTable(WORD_WIDTH, wordValues);
  private readonly mask: number;
  private readonly shift: number;
  private readonly endTag: number;
  private readonly beforeRoot: number;
  private readonly invScale: number;
  /** Number of dense tag ids in the tables (root, tags, unknown, end, before-root). */
  private readonly S: number;
  private readonly tripleH: Int32Array;
  private readonly tagAtom: Int32Array;
  private readonly tagWordH: Int32Array;
  private readonly wordTagH: Int32Array;
  private readonly pairDistIdx: Int32Array;
  private readonly dirIdx: Int32Array;
  private readonly distIdx: Int32Array;
  private readonly biasIdx: number;
  private readonly rootWords = new Int32Array(WORD_WIDTH);
  private sentence: Sentence | null = null;
  private vocab: Vocabularies | null = null;
  /** Coarse tags: dense ids 0 … n + 1, and prefix counts count[p * cS + t] of tag t in 1 … p. */
  private ctag = new Int32Array(0);
  private ccount = new Int32Array(0);
  /** Number of dense coarse ids in the tables (root, tags, unknown, end, before-root); 0 without. */
  private readonly cS: number;
  /** Start of the coarse weight blocks (see `coarseWeightCount`): triple, distance, the other five. */
  private readonly cTriple: number;
  private readonly cDist: number;
  private readonly cRest: number;
  /** `scoreMasked`'s coarse span state: count per coarse tag, and the tags counted so far. */
  private readonly spanCount = new Int32Array(MAX_COARSE_TAGS);
  private readonly spanTags = new Int32Array(MAX_COARSE_TAGS);
  /**
   * `scoreMasked`'s tag rows (see `fillRow`), in the order they were first needed; per row index, 1 +
   * where its entries start in `rows` (0: not filled yet); the weights they copy. Only the rows of the
   * tag pairs a text holds take memory (all 2 · S² of them would take some 3 MiB).
   */
  private rows = new Int16Array(0);
  private rowsUsed = 0;
  private rowAt = new Int32Array(0);
  private rowWeights: Int16Array | null = null;
  /** Weights the filter has: 2^bits hashed slots and the coarse blocks. */
  readonly dim: number;
  /** The coarse features of the current arc (written by `coarse`). */
  private readonly cIdx = new Int32Array(6 + MAX_COARSE_TAGS);
  private readonly cVal = new Float32Array(6 + MAX_COARSE_TAGS);

  constructor(
    /** The filter's tag map. */
    readonly tagMap: TagMap,
    /** log2 of the number of weight slots. */
    readonly bits: number,
    /** Divisor of the distance features (real-valued features are scaled to be O(1)). */
    readonly distScale = DEFAULT_DIST_SCALE,
    /** Coarse tags (UPOS beside XPOS) read by the coarse templates; null: Table 3 features only. */
    readonly coarseMap: TagMap | null = null,
  ) {
    const T = ARC_TEMPLATES;
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.endTag = tagMap.size;
    this.beforeRoot = tagMap.size + 1;
    this.invScale = 1 / distScale;
    const S = tagMap.size + 2;
    this.S = S;
    this.tripleH = new Int32Array(2 * S * S);
    this.tagWordH = new Int32Array(2 * S);
    this.wordTagH = new Int32Array(2 * S);
    this.pairDistIdx = new Int32Array(S * S);
    this.tagAtom = new Int32Array(TAG_CONJ.length * S);
    for (let a = 0; a < S; a++) {
      for (let dir = 0; dir < 2; dir++) {
        this.tagWordH[dir * S + a] = arcBaseHash(T.tagWord, dir, a, 0);
        this.wordTagH[dir * S + a] = arcBaseHash(T.wordTag, dir, 0, a);
        for (let b = 0; b < S; b++) this.tripleH[(dir * S + a) * S + b] = arcBaseHash(T.triple, dir, a, b);
      }
      for (let b = 0; b < S; b++)
        this.pairDistIdx[a * S + b] = arcBaseHash(T.pairDistance, a, b, 0) & this.mask;
      TAG_CONJ.forEach((t, j) => (this.tagAtom[j * S + a] = arcValueAtom(t, a)));
    }
    this.dirIdx = Int32Array.of(
      arcBaseHash(T.dir, 0, 0, 0) & this.mask,
      arcBaseHash(T.dir, 1, 0, 0) & this.mask,
    );
    this.distIdx = Int32Array.of(
      arcBaseHash(T.distance, 0, 0, 0) & this.mask,
      arcBaseHash(T.distance, 1, 0, 0) & this.mask,
    );
    this.biasIdx = arcBaseHash(T.bias, 0, 0, 0) & this.mask;
    wordValues("<root>", this.rootWords, 0);
    if (coarseMap !== null && coarseMap.size > MAX_COARSE_TAGS)
      throw new RangeError(`ArcFilterFeatures: at most ${MAX_COARSE_TAGS - 2} coarse tags`);
    const cS = coarseIds(coarseMap);
    this.cS = cS;
    const R = 2 * cS * cS;
    this.cTriple = 1 << bits;
    this.cDist = this.cTriple + R;
    this.cRest = this.cDist + R * BUCKETS;
    this.dim = (1 << bits) + coarseWeightCount(coarseMap);
  }

  /** Whether the coarse templates are read. */
  get coarse(): boolean {
    return this.cS > 0;
  }

  /** Reads sentence `input` (its tags through the tag map, its words' cached atoms). */
  prepare(input: PruneInput): void {
    const s = input.sentence;
    const n = s.n;
    if (this.tag.length < n + 2) {
      const cap = Math.max(n + 2, this.tag.length * 2, 64);
      this.tag = new Int32Array(cap);
      this.words = new Int32Array(cap * WORD_WIDTH);
    }
    this.n = n;
    this.tagMap.fill(s, input.vocab, this.tag);
    this.tag[n + 1] = this.endTag;
    this.forms.bind(input.vocab.form);
    const table = this.forms.table;
    const words = this.words;
    words.set(this.rootWords, 0);
    const form = s.form;
    for (let i = 1; i <= n; i++) {
      const from = form[i]! * WORD_WIDTH;
      const to = i * WORD_WIDTH;
      words[to] = table[from]!;
      words[to + 1] = table[from + 1]!;
      words[to + 2] = table[from + 2]!;
    }
    this.sentence = s;
    this.vocab = input.vocab;
    const cS = this.cS;
    if (cS > 0) {
      if (this.ctag.length < n + 2) this.ctag = new Int32Array(this.tag.length);
      if (this.ccount.length < (n + 1) * cS) this.ccount = new Int32Array(this.tag.length * cS);
      const ct = this.ctag;
      this.coarseMap!.fill(s, input.vocab, ct);
      ct[n + 1] = cS - 2;
      const cc = this.ccount;
      cc.fill(0, 0, cS);
      for (let p = 1; p <= n; p++) {
        cc.copyWithin(p * cS, (p - 1) * cS, p * cS);
        cc[p * cS + ct[p]!]!++;
      }
    }
  }

  /**
   * Writes the coarse features of arc h→m into `cIdx` / `cVal` and returns how many: the coarse
   * triple, its distance bucket and neighbours, and one span count per coarse tag between h and m
   * (from the prefix counts: O(span) for spans shorter than the tag set, else O(tags)).
   */
  private coarseFeatures(h: number, m: number): number {
    const cS = this.cS;
    const ct = this.ctag;
    const out = this.cIdx;
    const val = this.cVal;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const r = ((h < m ? 0 : cS) + ct[h]!) * cS + ct[m]!;
    // The neighbour and span blocks, each R · cS long (R = 2 cS²), rows of cS.
    const block = 2 * cS * cS * cS;
    const row = this.cRest + r * cS;
    out[0] = this.cTriple + r;
    out[1] = this.cDist + r * BUCKETS + distanceBucket(hi - lo);
    out[2] = row + ct[m - 1]!;
    out[3] = row + block + ct[m + 1]!;
    out[4] = row + 2 * block + (h > 0 ? ct[h - 1]! : cS - 1);
    out[5] = row + 3 * block + ct[h + 1]!;
    for (let j = 0; j < 6; j++) val[j] = 1;
    let k = 6;
    if (hi - lo <= 1) return k;
    const cc = this.ccount;
    const from = lo * cS;
    const to = (hi - 1) * cS;
    const sa = row + 4 * block;
    if (hi - lo - 1 < cS - 3) {
      // Short spans: each tag at its first position between (no earlier count since lo).
      for (let p = lo + 1; p < hi; p++) {
        const t = ct[p]!;
        if (cc[(p - 1) * cS + t] !== cc[from + t]) continue;
        const c = cc[to + t]! - cc[from + t]!;
        out[k] = sa + t;
        val[k++] = c < 64 ? SPAN_VALUES[c]! : spanValue(c);
      }
      return k;
    }
    // Long spans: every token tag in id order (root, end and before-root never occur between).
    for (let t = 1; t < cS - 2; t++) {
      const c = cc[to + t]! - cc[from + t]!;
      if (c === 0) continue;
      out[k] = sa + t;
      val[k++] = c < 64 ? SPAN_VALUES[c]! : spanValue(c);
    }
    return k;
  }

  /**
   * Writes the features of arc h→m: weight indices into `idx` and values into `val` (from 0), and
   * returns how many. With `names`, also pushes a readable name for each (slow; for tests and show).
   */
  extract(h: number, m: number, idx: Int32Array, val: Float32Array, names: string[] | null = null): number {
    const S = this.S;
    const sh = this.shift;
    const tag = this.tag;
    const words = this.words;
    const ta = this.tagAtom;
    const dir = h < m ? 0 : 1;
    const th = tag[h]!;
    const tm = tag[m]!;
    const triple = this.tripleH[(dir * S + th) * S + tm]!;
    const dist = (h - m) * this.invScale;
    idx[0] = this.dirIdx[dir]!;
    idx[1] = triple & this.mask;
    idx[2] = Math.imul(triple ^ ta[tag[m - 1]!]!, GOLDEN) >>> sh;
    idx[3] = Math.imul(triple ^ ta[S + tag[m + 1]!]!, GOLDEN) >>> sh;
    idx[4] = Math.imul(triple ^ ta[2 * S + (h > 0 ? tag[h - 1]! : this.beforeRoot)]!, GOLDEN) >>> sh;
    idx[5] = Math.imul(triple ^ ta[3 * S + tag[h + 1]!]!, GOLDEN) >>> sh;
    idx[6] = Math.imul(this.tagWordH[dir * S + th]! ^ words[m * WORD_WIDTH + W_TAGWORD]!, GOLDEN) >>> sh;
    idx[7] = Math.imul(this.wordTagH[dir * S + tm]! ^ words[h * WORD_WIDTH + W_WORDTAG]!, GOLDEN) >>> sh;
    idx[8] = this.biasIdx;
    idx[9] = this.distIdx[dir]!;
    idx[10] = this.pairDistIdx[th * S + tm]!;
    for (let j = 0; j < 9; j++) val[j] = 1;
    val[9] = dist;
    val[10] = dist;
    let k = 11;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    // Positions strictly between, within BETWEEN_WINDOW of either end.
    const bt = 4 * S;
    for (let p = lo + 1; p < hi; p = nextBetween(p, lo, hi)) {
      idx[k] = Math.imul(triple ^ ta[bt + tag[p]!]!, GOLDEN) >>> sh;
      val[k++] = 1;
      idx[k] = Math.imul(triple ^ words[p * WORD_WIDTH + W_BETWEEN]!, GOLDEN) >>> sh;
      val[k++] = 1;
    }
    if (this.cS > 0) {
      const c = this.coarseFeatures(h, m);
      idx.set(this.cIdx.subarray(0, c), k);
      val.set(this.cVal.subarray(0, c), k);
      k += c;
    }
    if (names !== null) this.pushNames(names, h, m);
    return k;
  }

  /**
   * The weighted sum of arc h→m's features under `w` (in the weights' units): the same features and
   * values as `extract`, summed as they are computed, with no index or value buffer. The binary
   * features add up exactly (integers); the two distance features add (w_dist + w_pairDist) · d once,
   * with d rounded to float32 as `extract` stores it.
   */
  scoreArc(h: number, m: number, w: Int16Array): number {
    const S = this.S;
    const sh = this.shift;
    const tag = this.tag;
    const words = this.words;
    const ta = this.tagAtom;
    const dir = h < m ? 0 : 1;
    const th = tag[h]!;
    const tm = tag[m]!;
    const triple = this.tripleH[(dir * S + th) * S + tm]!;
    let s =
      w[this.dirIdx[dir]!]! +
      w[triple & this.mask]! +
      w[Math.imul(triple ^ ta[tag[m - 1]!]!, GOLDEN) >>> sh]! +
      w[Math.imul(triple ^ ta[S + tag[m + 1]!]!, GOLDEN) >>> sh]! +
      w[Math.imul(triple ^ ta[2 * S + (h > 0 ? tag[h - 1]! : this.beforeRoot)]!, GOLDEN) >>> sh]! +
      w[Math.imul(triple ^ ta[3 * S + tag[h + 1]!]!, GOLDEN) >>> sh]! +
      w[Math.imul(this.tagWordH[dir * S + th]! ^ words[m * WORD_WIDTH + W_TAGWORD]!, GOLDEN) >>> sh]! +
      w[Math.imul(this.wordTagH[dir * S + tm]! ^ words[h * WORD_WIDTH + W_WORDTAG]!, GOLDEN) >>> sh]! +
      w[this.biasIdx]!;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const bt = 4 * S;
    for (let p = lo + 1; p < hi; p = nextBetween(p, lo, hi))
      s +=
        w[Math.imul(triple ^ ta[bt + tag[p]!]!, GOLDEN) >>> sh]! +
        w[Math.imul(triple ^ words[p * WORD_WIDTH + W_BETWEEN]!, GOLDEN) >>> sh]!;
    const d = Math.fround((h - m) * this.invScale);
    s += (w[this.distIdx[dir]!]! + w[this.pairDistIdx[th * S + tm]!]!) * d;
    return this.cS > 0 ? s + this.coarseScore(h, m, w) : s;
  }

  /**
   * The weighted sum of arc h→m's six fixed coarse features (triple, length bucket, the four
   * neighbours), for r = (dir, ctag_h, ctag_m) as `coarseFeatures` computes it and d = |h − m|.
   */
  private coarseFixed(h: number, m: number, r: number, d: number, w: Int16Array): number {
    const cS = this.cS;
    const ct = this.ctag;
    const block = 2 * cS * cS * cS;
    const row = this.cRest + r * cS;
    return (
      w[this.cTriple + r]! +
      w[this.cDist + r * BUCKETS + distanceBucket(d)]! +
      w[row + ct[m - 1]!]! +
      w[row + block + ct[m + 1]!]! +
      w[row + 2 * block + (h > 0 ? ct[h - 1]! : cS - 1)]! +
      w[row + 3 * block + ct[h + 1]!]!
    );
  }

  /**
   * The weighted sum of arc h→m's coarse features: those `coarseFeatures` writes, summed as they
   * are computed (1.2× faster on the whole quadratic pass than summing the buffer).
   */
  private coarseScore(h: number, m: number, w: Int16Array): number {
    const cS = this.cS;
    const ct = this.ctag;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const r = ((h < m ? 0 : cS) + ct[h]!) * cS + ct[m]!;
    const block = 2 * cS * cS * cS;
    const row = this.cRest + r * cS;
    let s = this.coarseFixed(h, m, r, hi - lo, w);
    if (hi - lo <= 1) return s;
    const cc = this.ccount;
    const from = lo * cS;
    const to = (hi - 1) * cS;
    const sa = row + 4 * block;
    if (hi - lo - 1 < cS - 3) {
      for (let p = lo + 1; p < hi; p++) {
        const t = ct[p]!;
        if (cc[(p - 1) * cS + t] !== cc[from + t]) continue;
        const c = cc[to + t]! - cc[from + t]!;
        s += w[sa + t]! * (c < 64 ? SPAN_VALUES[c]! : spanValue(c));
      }
      return s;
    }
    for (let t = 1; t < cS - 2; t++) {
      const c = cc[to + t]! - cc[from + t]!;
      if (c !== 0) s += w[sa + t]! * (c < 64 ? SPAN_VALUES[c]! : spanValue(c));
    }
    return s;
  }

  /**
   * Writes to out[h · size + m] the weighted sum under `w` of every arc h→m that `bits` allows
   * (bits[h · size + m] = 1) of the prepared sentence: `scoreArc`'s value, exactly (integer weights
   * times float32 values: every partial sum is exact, so any order gives the same number). Faster
   * than calling `scoreArc` per arc: each head's arcs are visited outward from it, so the coarse span
   * counts grow by one position per arc (a list of the coarse tags between instead of prefix counts),
   * and the tag-conjoined weights are read from rows per (dir, tag_h, tag_m), copied from `w` the first
   * time a row is needed (`w` must not change afterwards; a different array starts new rows).
   */
  scoreMasked(bits: Uint8Array, size: number, w: Int16Array, out: Float64Array): void {
    const n = this.n;
    const ct = this.ctag;
    const cnt = this.spanCount;
    const list = this.spanTags;
    // Without coarse tags nothing is counted (k stays 0).
    const counted = this.cS > 0;
    if (this.rowWeights !== w) this.resetRows(w);
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      let k = 0;
      for (let m = h - 1; m >= 1; m--) {
        if (counted && m < h - 1 && cnt[ct[m + 1]!]!++ === 0) list[k++] = ct[m + 1]!;
        if (bits[row + m] === 1) this.rowScore(h, m, w, k, out, row + m);
      }
      for (let j = 0; j < k; j++) cnt[list[j]!] = 0;
      k = 0;
      for (let m = h + 1; m <= n; m++) {
        if (counted && m > h + 1 && cnt[ct[m - 1]!]!++ === 0) list[k++] = ct[m - 1]!;
        if (bits[row + m] === 1) this.rowScore(h, m, w, k, out, row + m);
      }
      for (let j = 0; j < k; j++) cnt[list[j]!] = 0;
    }
  }

  /** Forgets the tag rows (they now copy from `w`). */
  private resetRows(w: Int16Array): void {
    const S = this.S;
    const count = 2 * S * S;
    if (this.rowAt.length !== count) this.rowAt = new Int32Array(count);
    else this.rowAt.fill(0);
    this.rowsUsed = 0;
    this.rowWeights = w;
  }

  /**
   * Copies row r = (dir · S + tag_h) · S + tag_m of the tag-conjoined weights: the triple, the pair
   * distance, then modPrev, modNext, headPrev, headNext and betweenTag, S each, by tag id, at the end
   * of `rows` (grown as needed); returns where its entries start.
   */
  private fillRow(r: number, th: number, tm: number, w: Int16Array): number {
    const S = this.S;
    const sh = this.shift;
    const ta = this.tagAtom;
    const triple = this.tripleH[r]!;
    const width = 2 + 5 * S;
    const o = this.rowsUsed;
    if (o + width > this.rows.length) {
      const grown = new Int16Array(Math.max(64 * width, 2 * this.rows.length));
      grown.set(this.rows.subarray(0, o));
      this.rows = grown;
    }
    const rows = this.rows;
    this.rowsUsed = o + width;
    rows[o] = w[triple & this.mask]!;
    rows[o + 1] = w[this.pairDistIdx[th * S + tm]!]!;
    for (let j = 0; j < 5 * S; j++) rows[o + 2 + j] = w[Math.imul(triple ^ ta[j]!, GOLDEN) >>> sh]!;
    this.rowAt[r] = o + 1;
    return o;
  }

  /**
   * `scoreArc(h, m, w)` from the tag rows, with the first k entries of `spanTags` listing the coarse
   * tags between h and m and `spanCount` their counts (kept by `scoreMasked`), written to out[at] (a
   * double returned from a call the JIT does not inline would be boxed).
   */
  private rowScore(h: number, m: number, w: Int16Array, k: number, out: Float64Array, at: number): void {
    const S = this.S;
    const sh = this.shift;
    const tag = this.tag;
    const words = this.words;
    const dir = h < m ? 0 : 1;
    const th = tag[h]!;
    const tm = tag[m]!;
    const r = (dir * S + th) * S + tm;
    const triple = this.tripleH[r]!;
    const at1 = this.rowAt[r]!;
    const o = (at1 === 0 ? this.fillRow(r, th, tm, w) : at1 - 1) + 2;
    const rows = this.rows;
    let s =
      w[this.dirIdx[dir]!]! +
      rows[o - 2]! +
      rows[o + tag[m - 1]!]! +
      rows[o + S + tag[m + 1]!]! +
      rows[o + 2 * S + (h > 0 ? tag[h - 1]! : this.beforeRoot)]! +
      rows[o + 3 * S + tag[h + 1]!]! +
      w[Math.imul(this.tagWordH[dir * S + th]! ^ words[m * WORD_WIDTH + W_TAGWORD]!, GOLDEN) >>> sh]! +
      w[Math.imul(this.wordTagH[dir * S + tm]! ^ words[h * WORD_WIDTH + W_WORDTAG]!, GOLDEN) >>> sh]! +
      w[this.biasIdx]!;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const bt = o + 4 * S;
    for (let p = lo + 1; p < hi; p = nextBetween(p, lo, hi))
      s += rows[bt + tag[p]!]! + w[Math.imul(triple ^ words[p * WORD_WIDTH + W_BETWEEN]!, GOLDEN) >>> sh]!;
    const d = Math.fround((h - m) * this.invScale);
    s += (w[this.distIdx[dir]!]! + rows[o - 1]!) * d;
    const cS = this.cS;
    if (cS === 0) {
      out[at] = s;
      return;
    }
    const ct = this.ctag;
    const cr = ((dir === 0 ? 0 : cS) + ct[h]!) * cS + ct[m]!;
    s += this.coarseFixed(h, m, cr, hi - lo, w);
    const sa = this.cRest + cr * cS + 8 * cS * cS * cS;
    const list = this.spanTags;
    const cnt = this.spanCount;
    for (let j = 0; j < k; j++) {
      const t = list[j]!;
      const c = cnt[t]!;
      s += w[sa + t]! * (c < 64 ? SPAN_VALUES[c]! : spanValue(c));
    }
    out[at] = s;
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

  private pushNames(names: string[], h: number, m: number): void {
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
    const hi = h < m ? m : h;
    const lo = h < m ? h : m;
    const one = (p: number) =>
      names.push(`${hm} ⇒ count tag ${t(p)}`, `${hm} ⇒ count word ${this.wordName(p)}`);
    for (let p = lo + 1; p < hi; p = nextBetween(p, lo, hi)) one(p);
    if (this.cS > 0) {
      const ct = this.ctag;
      const cm = this.coarseMap!;
      const ctn = (p: number) => {
        const id = p < 0 ? this.cS - 1 : ct[p]!;
        if (id === 0) return "<root>";
        if (id === this.cS - 2) return "</s>";
        if (id === this.cS - 1) return "<s>";
        if (id === cm.unknown) return "<unk>";
        return cm.tags[id - 1]!;
      };
      const chm = `${d} ctag[h]=${ctn(h)} ctag[m]=${ctn(m)}`;
      const b = ["", "1", "2", "3-4", "5-7", "8-12", "13-20", "21+"][distanceBucket(hi - lo)];
      names.push(
        chm,
        `${chm} length ${b}`,
        `${chm} ctag[m-1]=${ctn(m - 1)}`,
        `${chm} ctag[m+1]=${ctn(m + 1)}`,
        `${chm} ctag[h-1]=${ctn(h - 1)}`,
        `${chm} ctag[h+1]=${ctn(h + 1)}`,
      );
      // The order of `coarseFeatures`: first occurrence in short spans, tag id in long ones.
      const seen = [...new Set(ct.subarray(lo + 1, hi))];
      if (hi - lo - 1 >= this.cS - 3) seen.sort((x, y) => x - y);
      for (const t of seen) {
        let c = 0;
        for (let p = lo + 1; p < hi; p++) if (ct[p] === t) c++;
        names.push(`${chm} ⇒ span count ${cm.tags[t - 1] ?? "<unk>"} (${c})`);
      }
    }
  }
}
