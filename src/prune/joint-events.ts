import type { Sentence } from "../corpus/sentence.js";
import type { Vocab } from "../corpus/vocab.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { finish, mix } from "../util/hash.js";
import { distanceBucket } from "./arc-filter-features.js";
import { FormTable, type VocabStrings, wordAtom } from "./form-atoms.js";
import { NUM_ROLES, ROLE } from "./token-role-decisions.js";

/**
 * Filtering events of the jointly trained filter (Bergsma & Cherry 2011, §2). For an arc a = h→m, Z_a
 * is the set of events that would filter a if detected; the token-role events generalise the eight
 * decisions of the 2010 linear filter (`token-role-decisions.ts`) to one event per (token, decision):
 * - No-Head of h (h ≥ 1): h heads nothing;
 * - each directional decision of m whose interval of allowed heads excludes h (head-left when h > m,
 *   head-right when h < m, left-5 / right-5 when h is not within 5 on that side, left-1 / right-1 when
 *   h is not m's neighbour on that side; the root, position 0, is left of every token);
 * - Root of m when h ≥ 1 (a root's head is 0); Root of j for every other token j when h = 0 (one
 *   root per sentence); and, when `crossRoot`, Root of every j strictly between h and m (no arc of a
 *   projective tree crosses the root). Root events exist only for tokens whose root arc the input
 *   mask still allows;
 * - the arc-level Vine event of a (features [HeadTag ModTag Dir] and Len, and in filters trained with
 *   `pairLength` their conjunction [HeadTag ModTag Dir LenClass] over `LEN_CLASSES` length classes:
 *   a tag pair's own length profile, as Tag-Vine has; and in filters trained with `span`, the
 *   signature of what lies between head and modifier (`SPAN_SIGS`) conjoined with the tag pair and
 *   direction, and with the direction and length class; and in filters trained with `lexical`, the
 *   hashed word features [HeadTag ModWord Dir] and [HeadWord ModTag Dir], see `lexSlot`), when the
 *   filter has one.
 * The rejection event None_a has the same features; a is filtered iff
 * max_{z ∈ Z_a} score(z) > score(None_a) + bias.
 *
 * Event ids: t * 8 + d for decision d of token t (t ≥ 1), `EVENT_VINE` for the Vine event.
 */
export const EVENT_VINE = -1;
/** Event id meaning "no event" (an empty Z_a, or an arc not looked at). */
export const EVENT_NONE = -2;

/** Arc lengths from 1 up to this value have a Len feature each; longer arcs share the last one. */
export const LEN_BUCKETS = 32;

/** Length classes of the [HeadTag ModTag Dir LenClass] features (`distanceBucket`: 1, 2, 3–4, 5–7, 8–12, 13–20, 21+). */
export const LEN_CLASSES = 7;

/** Per Len feature (length 1 … LEN_BUCKETS, the last standing for longer arcs), its length class − 1. */
const CLASS_OF_LEN = Int32Array.from({ length: LEN_BUCKETS }, (_, l) => distanceBucket(l + 1) - 1);

/**
 * Index of the [HeadTag ModTag Dir] feature of an arc among the arc features: S is the tag map's
 * size (dense tag ids 0 = root … S − 1), dir 0 when the head is left of the modifier, 1 otherwise.
 */
export function htdFeature(S: number, headTag: number, modTag: number, dir: number): number {
  return ((headTag * S + modTag) << 1) | dir;
}

/** Index of the Len feature of an arc of length len ≥ 1 among the arc features (after the 2S² htd ones). */
export function lenFeature(S: number, len: number): number {
  return 2 * S * S + (len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1;
}

/** Index of the [HeadTag ModTag Dir LenClass] feature of an arc (htd from `htdFeature`, length len ≥ 1). */
export function pairLengthFeature(S: number, htd: number, len: number): number {
  return (
    2 * S * S + LEN_BUCKETS + htd * LEN_CLASSES + CLASS_OF_LEN[(len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1]!
  );
}

/**
 * Span signatures: what lies strictly between an arc's head and modifier, as the OR of their
 * `SPAN_FLAGS` (punctuation 1, a verb or auxiliary 2, a coordinating conjunction 4), from the
 * universal UPOS tags whatever tag set the filter scores with.
 */
export const SPAN_SIGS = 8;
/** Flag bits of the UPOS tags the span signature sees (other tags: 0). */
export const SPAN_FLAGS: Readonly<Record<string, number>> = { PUNCT: 1, VERB: 2, AUX: 2, CCONJ: 4 };

/**
 * Span flags per UPOS id of a vocabulary (`SPAN_FLAGS`), each computed once: the table follows the
 * vocabulary as it grows (ids added since the last call are looked up, as when a stream of
 * sentences brings new tags) and starts again for another vocabulary. Not reentrant.
 */
export class SpanFlagTable {
  private readonly flags = new FormTable(1, (tag, out, at) => (out[at] = SPAN_FLAGS[tag] ?? 0));

  /**
   * Writes the span flag of tokens 1 … n (their ids in the UPOS vocabulary `tags`) to out[1 … n],
   * and 0 for the root to out[0]; returns out.
   */
  fill(upos: Int32Array, n: number, tags: VocabStrings, out: Uint8Array): Uint8Array {
    this.flags.bind(tags);
    const table = this.flags.table;
    out[0] = 0;
    for (let i = 1; i <= n; i++) out[i] = table[upos[i]!]!;
    return out;
  }
}

/** Index of the [HeadTag ModTag Dir SpanSig] feature of an arc (htd from `htdFeature`). */
export function spanFeature(S: number, htd: number, sig: number): number {
  return 16 * S * S + LEN_BUCKETS + htd * SPAN_SIGS + sig;
}

/** Index of the [SpanSig Dir LenClass] feature of an arc of length len ≥ 1 (dir 0: head left of the modifier). */
export function spanLengthFeature(S: number, sig: number, dir: number, len: number): number {
  return (
    32 * S * S +
    LEN_BUCKETS +
    ((sig << 1) | dir) * LEN_CLASSES +
    CLASS_OF_LEN[(len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1]!
  );
}

/** log2 of the slots of the lexical arc features (both templates hashed into one block). */
export const LEX_BITS = 16;
/** Slots of the lexical block. */
export const LEX_SLOTS = 1 << LEX_BITS;

/**
 * Number of arc features for a tag map of size S: htd pairs and Len buckets, then (`pairLength`,
 * the default) the pair × length-class conjunctions, then (`span`, the default; only with
 * `pairLength`) the pair × span-signature and span-signature × direction × length-class ones, then
 * (`lexical`, the default; only with `span`) the `LEX_SLOTS` hashed lexical ones. Filters trained
 * without a block have none of its weights; the full layout (all defaults) has every block.
 */
export function arcFeatureCount(S: number, pairLength = true, span = pairLength, lexical = span): number {
  if (span && !pairLength) throw new RangeError("arcFeatureCount: span features need the pair-length ones");
  if (lexical && !span) throw new RangeError("arcFeatureCount: lexical features need the span ones");
  return (
    2 * S * S +
    LEN_BUCKETS +
    (pairLength ? 2 * S * S * LEN_CLASSES : 0) +
    (span ? 2 * S * S * SPAN_SIGS + 2 * SPAN_SIGS * LEN_CLASSES : 0) +
    (lexical ? LEX_SLOTS : 0)
  );
}

const LEX_SEED_TW = 0x6a09e667;
const LEX_SEED_WT = 0x3c6ef373;
/** Odd multiplier of the lexical hash (Fibonacci hashing: its top bits are well mixed). */
const LEX_GOLDEN = 0x9e3779b1 | 0;

/** Hash of (template, dir, tag) that a lexical slot conjoins with a word atom. */
function lexBase(seed: number, dir: number, tag: number): number {
  return finish(mix(mix(seed, dir), tag));
}

/** The slot of a `lexBase` hash conjoined with a word atom. */
function slotOf(base: number, word: number): number {
  return Math.imul(base ^ word, LEX_GOLDEN) >>> (32 - LEX_BITS);
}

/**
 * Slot (0 … LEX_SLOTS − 1) of the lexical arc feature [HeadTag ModWord Dir] (`headSide` false) or
 * [HeadWord ModTag Dir] (true): the other end's tag, dir (0: head left of the modifier) and the
 * word atom (`wordAtom`) of the modifier or head. Its index among the arc features is
 * `arcFeatureCount(S, true, true, false)` + slot.
 */
export function lexSlot(headSide: boolean, dir: number, tag: number, word: number): number {
  return slotOf(lexBase(headSide ? LEX_SEED_WT : LEX_SEED_TW, dir, tag), word);
}

/** Lexical word atoms of a sentence's positions (`wordAtom` of the form; "<root>" at 0), cached per form. */
export class LexAtoms {
  private readonly forms = new FormTable(1, (form, out, at) => (out[at] = wordAtom(form)));
  private readonly root = wordAtom("<root>");
  private out = new Int32Array(64);

  /** The atoms of positions 0 … n of `s` (a buffer reused by the next call). */
  fill(s: Sentence, forms: Vocab): Int32Array {
    if (this.out.length < s.n + 1) this.out = new Int32Array(Math.max(s.n + 1, 2 * this.out.length));
    this.forms.bind(forms);
    const t = this.forms.table;
    const out = this.out;
    out[0] = this.root;
    for (let i = 1; i <= s.n; i++) out[i] = t[s.form[i]!]!;
    return out;
  }
}

/**
 * The six head regions of a modifier m for the directional events: 0 h = m−1, 1 m−5 ≤ h ≤ m−2,
 * 2 h < m−5, 3 h = m+1, 4 m+2 ≤ h ≤ m+5, 5 h > m+5. Per region, the directional decisions of m that
 * exclude such a head (bit d).
 */
export const REGION_DECISIONS: readonly number[] = [
  (1 << ROLE.headRight) | (1 << ROLE.right5) | (1 << ROLE.right1),
  (1 << ROLE.headRight) | (1 << ROLE.right5) | (1 << ROLE.right1) | (1 << ROLE.left1),
  (1 << ROLE.headRight) | (1 << ROLE.right5) | (1 << ROLE.right1) | (1 << ROLE.left1) | (1 << ROLE.left5),
  (1 << ROLE.headLeft) | (1 << ROLE.left5) | (1 << ROLE.left1),
  (1 << ROLE.headLeft) | (1 << ROLE.left5) | (1 << ROLE.left1) | (1 << ROLE.right1),
  (1 << ROLE.headLeft) | (1 << ROLE.left5) | (1 << ROLE.left1) | (1 << ROLE.right1) | (1 << ROLE.right5),
];

/** Region (see `REGION_DECISIONS`) of head h for modifier m (h ≠ m). */
export function headRegion(h: number, m: number): number {
  const d = h - m;
  if (d < 0) return d === -1 ? 0 : d >= -5 ? 1 : 2;
  return d === 1 ? 3 : d <= 5 ? 4 : 5;
}

const NEG = Number.NEGATIVE_INFINITY;

/** Weights per [HeadTag ModTag Dir] block of the scorer's packed table: (1 + LEN_CLASSES + SPAN_SIGS) × {Vine, None}. */
const BLOCK = 2 * (1 + LEN_CLASSES + SPAN_SIGS);

/**
 * Scores the events of every arc of a sentence in O(n²) with O(1) work per arc: per token, the best
 * directional event of each head region (O(n)); per sentence, the two best Root events; per head
 * row, a running maximum of the Root events between head and modifier. `prepare` reads a sentence's
 * token scores, `scanRow(h, mask)` then fills `best`, `none` (and with `track`, `event`) for every
 * modifier m of head h the mask allows. Buffers grow with the longest sentence and are reused.
 * Not reentrant.
 */
export class JointEventScorer {
  /** Per modifier m of the scanned row: the best event score of arc h→m (−∞ when the row skips m). */
  best = new Float64Array(0);
  /** Per modifier m of the scanned row: score(None_{h→m}). */
  none = new Float64Array(0);
  /** Per modifier m of the scanned row: the best event's id (when tracking). */
  event = new Int32Array(0);
  private n = 0;
  private scores: Float64Array = new Float64Array(0);
  private tags: Int32Array = new Int32Array(0);
  private flags: Uint8Array = new Uint8Array(0);
  private region = new Float64Array(0);
  private regionEvent = new Int32Array(0);
  private rootScore = new Float64Array(0);
  private top1 = NEG;
  private top1At = -1;
  private top2 = NEG;
  private top2At = -1;
  /** Scores of the arc `arcScores` last looked at: Vine at [0], None at [1]. */
  private readonly arc = new Float64Array(2);
  /**
   * The Vine and None weights side by side (Vine at even, None at odd indices), those of one
   * [HeadTag ModTag Dir] pair in one block of `BLOCK` (its htd weight, its seven LenClass and eight
   * SpanSig conjunctions): an arc reads at most three cache lines of it instead of six scattered ones
   * (alone, this measured no faster; `pruneSide` reads both sums from one block).
   * The Len and [SpanSig Dir LenClass] weights, few and shared by all pairs, sit in two small tables.
   */
  private pairs = new Float64Array(0);
  private lens = new Float64Array(2 * LEN_BUCKETS);
  private spanLens = new Float64Array(2 * 2 * SPAN_SIGS * LEN_CLASSES);
  private vineW: Float64Array | null = null;
  private noneW: Float64Array | null = null;
  /**
   * Per head tag t and side (2t + 1: modifiers on the left), an upper bound on score(None) of every
   * arc on that side: the same float sum as an arc's, of each feature block's largest weight (float
   * addition is monotone, so no arc's None exceeds it).
   */
  private noneBound = new Float64Array(0);
  /**
   * The lexical weights (`LEX_SLOTS`), Vine at even and None at odd indices, and whether any is
   * non-zero (filters without lexical features skip them).
   */
  private lex = new Float64Array(0);
  private lexOn = false;
  /** Per (dir, tag): the hash the lexical slots conjoin with a word (`lexSlot`). */
  private readonly lexTW: Int32Array;
  private readonly lexWT: Int32Array;
  /** Word atoms of the prepared sentence (`LexAtoms`), read when `lexOn`. */
  private words: Int32Array = new Int32Array(0);

  constructor(
    /** Size S of the tag map (dense tag ids 0 … S − 1) the arc features are indexed by. */
    readonly tagCount: number,
    /** Whether Root events also filter the arcs crossing their token. */
    readonly crossRoot: boolean,
    /** Vine weights per arc feature (all `arcFeatureCount(S)` of them; null: no Vine event). */
    vine: Float64Array | null,
    /** None weights per arc feature (all of them; null: score(None) = 0). */
    none: Float64Array | null,
    /** Whether `scanRow` records the best event's id. */
    public track = false,
  ) {
    this.lexTW = new Int32Array(2 * tagCount);
    this.lexWT = new Int32Array(2 * tagCount);
    for (let dir = 0; dir < 2; dir++)
      for (let t = 0; t < tagCount; t++) {
        this.lexTW[dir * tagCount + t] = lexBase(LEX_SEED_TW, dir, t);
        this.lexWT[dir * tagCount + t] = lexBase(LEX_SEED_WT, dir, t);
      }
    this.setWeights(vine, none);
  }

  /** The Vine weights (null: no Vine event). */
  get vine(): Float64Array | null {
    return this.vineW;
  }

  /** The None weights (null: score(None) = 0). */
  get none0(): Float64Array | null {
    return this.noneW;
  }

  /**
   * Sets the Vine and None weights (each all `arcFeatureCount(S)` of them, or null): packs a copy
   * of them for scoring and recomputes the None bounds. Changing the arrays afterwards has no effect
   * on scores until the next call.
   */
  setWeights(vine: Float64Array | null, none: Float64Array | null): void {
    const S = this.tagCount;
    const A = arcFeatureCount(S);
    if ((vine !== null && vine.length !== A) || (none !== null && none.length !== A))
      throw new RangeError(`JointEventScorer: Vine / None need ${A} arc weights`);
    this.vineW = vine;
    this.noneW = none;
    const H = 2 * S * S;
    if (this.pairs.length !== H * BLOCK) this.pairs = new Float64Array(H * BLOCK);
    const pairs = this.pairs;
    const lens = this.lens;
    const spanLens = this.spanLens;
    for (let side = 0; side < 2; side++) {
      const w = side === 0 ? vine : none;
      const get = (f: number): number => (w === null ? 0 : w[f]!);
      for (let hf = 0; hf < H; hf++) {
        const b = hf * BLOCK + side;
        pairs[b] = get(hf);
        for (let c = 0; c < LEN_CLASSES; c++)
          pairs[b + 2 * (1 + c)] = get(H + LEN_BUCKETS + hf * LEN_CLASSES + c);
        for (let g = 0; g < SPAN_SIGS; g++) pairs[b + 2 * (1 + LEN_CLASSES + g)] = get(spanFeature(S, hf, g));
      }
      for (let l = 0; l < LEN_BUCKETS; l++) lens[2 * l + side] = get(H + l);
      for (let r = 0; r < 2 * SPAN_SIGS * LEN_CLASSES; r++)
        spanLens[2 * r + side] = get(spanLengthFeature(S, 0, 0, 1) + r);
    }
    this.noneBound = new Float64Array(2 * S);
    const maxOf = (a: Float64Array, from: number, count: number, stride: number): number => {
      let v = NEG;
      for (let i = 0; i < count; i++) v = Math.max(v, a[from + i * stride]!);
      return v;
    };
    let maxLen = NEG;
    for (let l = 0; l < LEN_BUCKETS; l++) maxLen = Math.max(maxLen, lens[2 * l + 1]!);
    for (let th = 0; th < S; th++)
      for (let left = 0; left < 2; left++) {
        let mh = NEG;
        let mc = NEG;
        let ms = NEG;
        for (let tm = 0; tm < S; tm++) {
          const b = (((th * S + tm) << 1) | left) * BLOCK + 1;
          mh = Math.max(mh, pairs[b]!);
          mc = Math.max(mc, maxOf(pairs, b + 2, LEN_CLASSES, 2));
          ms = Math.max(ms, maxOf(pairs, b + 2 * (1 + LEN_CLASSES), SPAN_SIGS, 2));
        }
        let msl = NEG;
        for (let g = 0; g < SPAN_SIGS; g++)
          msl = Math.max(msl, maxOf(spanLens, 2 * ((g << 1) | left) * LEN_CLASSES + 1, LEN_CLASSES, 2));
        this.noneBound[2 * th + left] = mh + maxLen + mc + ms + msl;
      }
    const L0 = arcFeatureCount(S, true, true, false);
    const hasLex = (w: Float64Array | null) => w !== null && w.subarray(L0).some((v) => v !== 0);
    this.lexOn = hasLex(vine) || hasLex(none);
    // The 1 MB table only for filters that have lexical weights.
    this.lex = new Float64Array(this.lexOn ? 2 * LEX_SLOTS : 0);
    if (this.lexOn) {
      for (let side = 0; side < 2; side++) {
        const w = side === 0 ? vine : none;
        if (w !== null) for (let j = 0; j < LEX_SLOTS; j++) this.lex[2 * j + side] = w[L0 + j]!;
      }
      let maxLex = NEG;
      for (let j = 0; j < LEX_SLOTS; j++) maxLex = Math.max(maxLex, this.lex[2 * j + 1]!);
      // An arc's None adds two lexical weights after its dense sum, in this order.
      for (let i = 0; i < this.noneBound.length; i++)
        this.noneBound[i] = this.noneBound[i]! + maxLex + maxLex;
    }
  }

  /**
   * Vine (arc[0]) and None (arc[1]) scores of an arc with [HeadTag ModTag Dir] feature hf (its low
   * bit is the direction), length len ≥ 1 and span signature sig: the sums of its five arc features,
   * always in the same order (0 for an absent event).
   */
  private arcScores(hf: number, len: number, sig: number, h: number, m: number): void {
    const l = (len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1;
    const c = CLASS_OF_LEN[l]!;
    const p = this.pairs;
    const b = hf * BLOCK;
    const lf = 2 * l;
    const cf = b + 2 + 2 * c;
    const sf = b + 2 * (1 + LEN_CLASSES) + 2 * sig;
    const sl = 2 * (((sig << 1) | (hf & 1)) * LEN_CLASSES + c);
    const lens = this.lens;
    const spanLens = this.spanLens;
    // The sums in the order of the features (htd, Len, LenClass, SpanSig, SpanSig Dir LenClass).
    this.arc[0] = this.vineW !== null ? p[b]! + lens[lf]! + p[cf]! + p[sf]! + spanLens[sl]! : 0;
    this.arc[1] =
      this.noneW !== null ? p[b + 1]! + lens[lf + 1]! + p[cf + 1]! + p[sf + 1]! + spanLens[sl + 1]! : 0;
    if (this.lexOn) {
      // [HeadTag ModWord Dir] then [HeadWord ModTag Dir], added after the dense sums.
      const S = this.tagCount;
      const dir = hf & 1;
      const tags = this.tags;
      const words = this.words;
      const a = 2 * slotOf(this.lexTW[dir * S + tags[h]!]!, words[m]!);
      const c = 2 * slotOf(this.lexWT[dir * S + tags[m]!]!, words[h]!);
      const lex = this.lex;
      this.arc[0] = this.arc[0]! + lex[a]! + lex[c]!;
      this.arc[1] = this.arc[1]! + lex[a + 1]! + lex[c + 1]!;
    }
  }

  /**
   * Reads a sentence: token scores (scores[t * 8 + d] for t = 1..n), the dense tags of positions
   * 0..n (0 = root), their span flags (`SpanFlagTable`; 0 at the root), the mask the pass receives
   * (Root events only for tokens whose root arc it allows) and, for lexical weights, the word atoms
   * of positions 0..n (`LexAtoms`).
   */
  prepare(
    scores: Float64Array,
    tags: Int32Array,
    flags: Uint8Array,
    mask: ArcMask,
    words: Int32Array | null = null,
  ): void {
    const n = mask.n;
    this.n = n;
    if (this.lexOn) {
      if (words === null) throw new RangeError("JointEventScorer: lexical weights need the word atoms");
      this.words = words;
    }
    if (this.best.length < n + 1) {
      const cap = Math.max(n + 1, this.best.length * 2, 64);
      this.best = new Float64Array(cap);
      this.none = new Float64Array(cap);
      this.event = new Int32Array(cap);
      this.region = new Float64Array(cap * 6);
      this.regionEvent = new Int32Array(cap * 6);
      this.rootScore = new Float64Array(cap);
    }
    this.scores = scores;
    this.tags = tags;
    this.flags = flags;
    const region = this.region;
    const regionEvent = this.regionEvent;
    for (let m = 1; m <= n; m++) {
      const o = m * NUM_ROLES;
      const g = m * 6;
      // Left regions: head-right, right-5, right-1 always; left-1 beyond m−1; left-5 beyond m−5.
      let v = scores[o + ROLE.headRight]!;
      let e: number = ROLE.headRight;
      if (scores[o + ROLE.right5]! > v) {
        v = scores[o + ROLE.right5]!;
        e = ROLE.right5;
      }
      if (scores[o + ROLE.right1]! > v) {
        v = scores[o + ROLE.right1]!;
        e = ROLE.right1;
      }
      region[g] = v;
      regionEvent[g] = o + e;
      if (scores[o + ROLE.left1]! > v) {
        v = scores[o + ROLE.left1]!;
        e = ROLE.left1;
      }
      region[g + 1] = v;
      regionEvent[g + 1] = o + e;
      if (scores[o + ROLE.left5]! > v) {
        v = scores[o + ROLE.left5]!;
        e = ROLE.left5;
      }
      region[g + 2] = v;
      regionEvent[g + 2] = o + e;
      // Right regions: head-left, left-5, left-1 always; right-1 beyond m+1; right-5 beyond m+5.
      v = scores[o + ROLE.headLeft]!;
      e = ROLE.headLeft;
      if (scores[o + ROLE.left5]! > v) {
        v = scores[o + ROLE.left5]!;
        e = ROLE.left5;
      }
      if (scores[o + ROLE.left1]! > v) {
        v = scores[o + ROLE.left1]!;
        e = ROLE.left1;
      }
      region[g + 3] = v;
      regionEvent[g + 3] = o + e;
      if (scores[o + ROLE.right1]! > v) {
        v = scores[o + ROLE.right1]!;
        e = ROLE.right1;
      }
      region[g + 4] = v;
      regionEvent[g + 4] = o + e;
      if (scores[o + ROLE.right5]! > v) {
        v = scores[o + ROLE.right5]!;
        e = ROLE.right5;
      }
      region[g + 5] = v;
      regionEvent[g + 5] = o + e;
    }
    const rs = this.rootScore;
    const bits = mask.bits;
    let t1 = NEG;
    let t1At = -1;
    let t2 = NEG;
    let t2At = -1;
    for (let j = 1; j <= n; j++) {
      const v = bits[j] === 1 ? scores[j * NUM_ROLES + ROLE.root]! : NEG;
      rs[j] = v;
      if (v > t1) {
        t2 = t1;
        t2At = t1At;
        t1 = v;
        t1At = j;
      } else if (v > t2) {
        t2 = v;
        t2At = j;
      }
    }
    this.top1 = t1;
    this.top1At = t1At;
    this.top2 = t2;
    this.top2At = t2At;
  }

  /**
   * Scores the arcs of head row h that `mask` allows: best[m] = max_{z ∈ Z_{h→m}} score(z),
   * none[m] = score(None_{h→m}) (and event[m] with `track`); other modifiers get best[m] = −∞.
   */
  scanRow(h: number, mask: ArcMask): void {
    const n = this.n;
    const size = n + 1;
    const bits = mask.bits;
    const row = h * size;
    const best = this.best;
    const noneOut = this.none;
    const event = this.event;
    const region = this.region;
    const regionEvent = this.regionEvent;
    const rs = this.rootScore;
    const tags = this.tags;
    const S = this.tagCount;
    const hasVine = this.vineW !== null;
    const arc = this.arc;
    const track = this.track;
    const cross = this.crossRoot;
    const flags = this.flags;
    const hBase = tags[h]! * S;
    best[h] = NEG;
    // The span signature of the arc being scored: the flags of the tokens passed since the head.
    let sig = 0;
    if (h === 0) {
      const t1 = this.top1;
      const t1At = this.top1At;
      const t2 = this.top2;
      const t2At = this.top2At;
      for (let m = 1; m <= n; m++) {
        if (bits[m] === 0) {
          best[m] = NEG;
          sig |= flags[m]!;
          continue;
        }
        const r = m === 1 ? 0 : m <= 5 ? 1 : 2;
        let v = region[m * 6 + r]!;
        let e = track ? regionEvent[m * 6 + r]! : 0;
        const root = m === t1At ? t2 : t1;
        if (root > v) {
          v = root;
          if (track) e = (m === t1At ? t2At : t1At) * NUM_ROLES + ROLE.root;
        }
        this.arcScores(((hBase + tags[m]!) << 1) | 0, m, sig, h, m);
        if (hasVine && arc[0]! > v) {
          v = arc[0]!;
          e = EVENT_VINE;
        }
        best[m] = v;
        noneOut[m] = arc[1]!;
        if (track) event[m] = e;
        sig |= flags[m]!;
      }
      return;
    }
    const nah = this.scores[h * NUM_ROLES + ROLE.noHead]!;
    const nahEvent = h * NUM_ROLES + ROLE.noHead;
    // Modifiers left of h (m < h), moving away from h: Root events strictly between m and h.
    let run = NEG;
    let runAt = -1;
    for (let m = h - 1; m >= 1; m--) {
      if (bits[row + m] === 1) {
        const d = h - m;
        const r = d === 1 ? 3 : d <= 5 ? 4 : 5;
        let v = nah;
        let e = nahEvent;
        const g = region[m * 6 + r]!;
        if (g > v) {
          v = g;
          if (track) e = regionEvent[m * 6 + r]!;
        }
        if (rs[m]! > v) {
          v = rs[m]!;
          e = m * NUM_ROLES + ROLE.root;
        }
        if (cross && run > v) {
          v = run;
          e = runAt * NUM_ROLES + ROLE.root;
        }
        this.arcScores(((hBase + tags[m]!) << 1) | 1, d, sig, h, m);
        if (hasVine && arc[0]! > v) {
          v = arc[0]!;
          e = EVENT_VINE;
        }
        best[m] = v;
        noneOut[m] = arc[1]!;
        if (track) event[m] = e;
      } else best[m] = NEG;
      sig |= flags[m]!;
      if (rs[m]! > run) {
        run = rs[m]!;
        runAt = m;
      }
    }
    run = NEG;
    runAt = -1;
    sig = 0;
    for (let m = h + 1; m <= n; m++) {
      if (bits[row + m] === 1) {
        const d = m - h;
        const r = d === 1 ? 0 : d <= 5 ? 1 : 2;
        let v = nah;
        let e = nahEvent;
        const g = region[m * 6 + r]!;
        if (g > v) {
          v = g;
          if (track) e = regionEvent[m * 6 + r]!;
        }
        if (rs[m]! > v) {
          v = rs[m]!;
          e = m * NUM_ROLES + ROLE.root;
        }
        if (cross && run > v) {
          v = run;
          e = runAt * NUM_ROLES + ROLE.root;
        }
        this.arcScores((hBase + tags[m]!) << 1, d, sig, h, m);
        if (hasVine && arc[0]! > v) {
          v = arc[0]!;
          e = EVENT_VINE;
        }
        best[m] = v;
        noneOut[m] = arc[1]!;
        if (track) event[m] = e;
      } else best[m] = NEG;
      sig |= flags[m]!;
      if (rs[m]! > run) {
        run = rs[m]!;
        runAt = m;
      }
    }
  }

  /**
   * Clears in `mask` the arcs of head row h ≥ 1 that the joint decision rule filters: those whose best
   * event beats None by more than `bias` (the arcs `scanRow` and a comparison of `best − none` with
   * `bias` would clear, with the same arithmetic), one side of the head at a time (step −1: modifiers
   * left of h, moving away from it; +1: right). Faster than `scanRow`: no event ids, and the Vine sum
   * only for arcs no token event filters.
   */
  pruneSide(h: number, mask: ArcMask, bias: number, step: number): void {
    const n = this.n;
    const bits = mask.bits;
    const row = h * (n + 1);
    const region = this.region;
    const rs = this.rootScore;
    const tags = this.tags;
    const flags = this.flags;
    const p = this.pairs;
    const lens = this.lens;
    const spanLens = this.spanLens;
    const hasVine = this.vineW !== null;
    const cross = this.crossRoot;
    const left = step < 0 ? 1 : 0;
    const lexOn = this.lexOn;
    const lex = this.lex;
    const words = this.words;
    const S = this.tagCount;
    const tw = left * S;
    const wordH = lexOn ? words[h]! : 0;
    // Region of d = 1, 2…5, > 5 for this side (see `REGION_DECISIONS`).
    const r0 = left === 1 ? 3 : 0;
    const hBase = tags[h]! * this.tagCount;
    const nah = this.scores[h * NUM_ROLES + ROLE.noHead]!;
    const end = left === 1 ? 0 : n + 1;
    if (nah - this.noneBound[2 * tags[h]! + left]! > bias) {
      // No-Head of h beats None of every arc on this side by more than the bias.
      for (let m = h + step; m !== end; m += step) bits[row + m] = 0;
      return;
    }
    let run = NEG;
    let sig = 0;
    for (let m = h + step, d = 1; m !== end; m += step, d++) {
      if (bits[row + m] === 1) {
        let v = nah;
        const g = region[m * 6 + r0 + (d === 1 ? 0 : d <= 5 ? 1 : 2)]!;
        if (g > v) v = g;
        if (rs[m]! > v) v = rs[m]!;
        if (cross && run > v) v = run;
        const l = (d < LEN_BUCKETS ? d : LEN_BUCKETS) - 1;
        const c = CLASS_OF_LEN[l]!;
        const b = (((hBase + tags[m]!) << 1) | left) * BLOCK;
        const cf = b + 2 + 2 * c;
        const sf = b + 2 * (1 + LEN_CLASSES) + 2 * sig;
        const sl = 2 * (((sig << 1) | left) * LEN_CLASSES + c);
        let none = p[b + 1]! + lens[2 * l + 1]! + p[cf + 1]! + p[sf + 1]! + spanLens[sl + 1]!;
        let la = 0;
        let lc = 0;
        if (lexOn) {
          // The lexical slots, added in `arcScores`' order.
          la = 2 * slotOf(this.lexTW[tw + tags[h]!]!, words[m]!);
          lc = 2 * slotOf(this.lexWT[tw + tags[m]!]!, wordH);
          none = none + lex[la + 1]! + lex[lc + 1]!;
        }
        // max(token events, Vine) − None > bias iff one of them minus None is (subtraction is monotone).
        if (v - none > bias) bits[row + m] = 0;
        else if (hasVine) {
          let vine = p[b]! + lens[2 * l]! + p[cf]! + p[sf]! + spanLens[sl]!;
          if (lexOn) vine = vine + lex[la]! + lex[lc]!;
          if (vine - none > bias) bits[row + m] = 0;
        }
      }
      sig |= flags[m]!;
      if (rs[m]! > run) run = rs[m]!;
    }
  }
}
