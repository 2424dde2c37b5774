import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { distanceBucket } from "./arc-filter-features.js";
import { ArcKernel, hasArcKernel, KERNEL_CHUNK, KERNEL_UNITS } from "./arc-mlp-kernel.js";
import { FormTable } from "./form-atoms.js";
import type { ModelArray } from "../model/model-file.js";
import type { TagMap } from "./tag-map.js";

/**
 * Fields of the arc network's input, each an embedding table. The token fields of the head and the
 * modifier are conjoined with the arc's direction (a table per direction); the words are not.
 */
const TOKEN_FIELDS = 8; // head tag, ctag, tag before, tag after; the same for the modifier
/** Rows of the distance table: direction × `distanceBucket` (1…7, and 0 unused). */
const DIST_ROWS = 16;

/** Sizes of an arc network's embedding tables. */
export interface ArcMlpShape {
  /** Hidden units. */
  hidden: number;
  /** Dense ids of the fine tag map (its size; one more id stands for "before the sentence / after it"). */
  tags: number;
  /** Dense ids of the coarse tag map (the fine one again when there is none). */
  ctags: number;
  /** Words with their own rows (row 0: every other word). */
  words: number;
}

/** Row offsets of each table in the embedding matrix, and the total number of rows. */
export interface ArcMlpLayout {
  /** First row of token field f (0…7) for direction d: token[d * 8 + f]. */
  token: Int32Array;
  headWord: number;
  modWord: number;
  dist: number;
  between: number;
  rows: number;
}

/** The row layout of a network of `shape`. */
export function arcMlpLayout(shape: ArcMlpShape): ArcMlpLayout {
  const S = shape.tags + 1;
  const C = shape.ctags + 1;
  const sizes = [S, C, S, S, S, C, S, S];
  const token = new Int32Array(2 * TOKEN_FIELDS);
  let r = 0;
  for (let d = 0; d < 2; d++)
    for (let f = 0; f < TOKEN_FIELDS; f++) {
      token[d * TOKEN_FIELDS + f] = r;
      r += sizes[f]!;
    }
  const headWord = r;
  r += shape.words + 1;
  const modWord = r;
  r += shape.words + 1;
  const dist = r;
  r += DIST_ROWS;
  const between = r;
  r += C;
  return { token, headWord, modWord, dist, between, rows: r };
}

/** Row of the distance table for arc h→m (direction as in the arc filters: 0 when h < m). */
export function distRow(h: number, m: number): number {
  return (h < m ? 0 : 8) + distanceBucket(h < m ? m - h : h - m);
}

/**
 * A small feed-forward network scoring arcs (beyond Bergsma & Cherry 2010: the quadratic filter's
 * non-linear term). Its input is a sum of embeddings: the head's and the modifier's tag, coarse tag,
 * neighbouring tags (conjoined with the arc's direction) and word, the arc's direction and length
 * bucket, and half the count of each coarse tag strictly between head and modifier; one hidden
 * layer of rectified units; one output (higher: more surely not an arc).
 *
 * Every input term belongs to the head, to the modifier, to the length, or is a span sum, so `prepare`
 * sums each token's embeddings per direction once and keeps prefix sums of the between rows: an arc
 * then costs a few vector additions over the hidden units, O(hidden) whatever its length. Not
 * reentrant.
 */
export class ArcMlp {
  /** Hidden units. */
  readonly hidden: number;
  readonly layout: ArcMlpLayout;
  /** Tokens of the prepared sentence. */
  n = 0;
  private readonly wordRows: FormTable;
  private readonly wordIndex = new Map<string, number>();
  /** Per-sentence state: tag, coarse tag and word-row ids, positions 0 … n + 1. */
  tag = new Int32Array(0);
  ctag = new Int32Array(0);
  word = new Int32Array(0);
  /** headSum[(d * cap + i) * H + j]: b1 + token i's head-side embeddings for direction d. */
  private headSum: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private modSum: Float64Array<ArrayBufferLike> = new Float64Array(0);
  /** span[p * H + j]: sum over positions 1 … p of half the between row of their coarse tag. */
  private span: Float64Array<ArrayBufferLike> = new Float64Array(0);
  /** Step of the 16-bit embeddings once `quantize`d or loaded (null: not yet rounded). */
  embScale: number | null = null;
  /** Which token sums belong to the current sentence: [d * cap + i] === stamp. */
  private headDone = new Int32Array(0);
  private modDone = new Int32Array(0);
  private stamp = 0;
  /** The five rows of the token being summed (`tokenRows`). */
  private readonly rows = new Int32Array(5);
  /** Positions the per-sentence buffers hold. */
  cap = 0;
  /**
   * The length rows, and half the output weights, as doubles for `scoreMasked` (copied for every
   * sentence by `beginSentence`, as training changes them). Half, because max(v, 0) is computed as
   * (v + |v|) / 2: the same value to the last bit (scaling by two is exact), without a branch on the
   * sign of v, which the processor cannot predict (the branch made scoring nearly twice as slow).
   */
  private distRows: Float64Array<ArrayBufferLike>;
  private w2d: Float64Array<ArrayBufferLike>;
  /** The WebAssembly kernel that scores arcs (16 hidden units, where the runtime has SIMD), or null. */
  private kernel: ArcKernel | null = null;
  private useKernel: boolean;

  constructor(
    readonly shape: ArcMlpShape,
    /** Fine tag map (the filter's own). */
    readonly tagMap: TagMap,
    /** Coarse tag map (UPOS beside XPOS), or the fine one again. */
    readonly coarseMap: TagMap,
    /** Words with their own rows (lower-cased forms; row i + 1 for words[i]). */
    readonly words: readonly string[],
    /** Embedding matrix, `layout.rows` rows of `hidden` values. */
    readonly emb: Float32Array,
    /** Hidden biases. */
    readonly b1: Float32Array,
    /** Output weights. */
    readonly w2: Float32Array,
    /** Output bias. */
    public b2: number,
  ) {
    this.hidden = shape.hidden;
    this.layout = arcMlpLayout(shape);
    if (shape.tags !== tagMap.size || shape.ctags !== coarseMap.size || shape.words !== words.length)
      throw new RangeError("ArcMlp: shape does not match the tag maps and words");
    if (
      emb.length !== this.layout.rows * shape.hidden ||
      b1.length !== shape.hidden ||
      w2.length !== shape.hidden
    )
      throw new RangeError("ArcMlp: weight arrays do not match the shape");
    this.distRows = new Float64Array(DIST_ROWS * shape.hidden);
    this.w2d = new Float64Array(shape.hidden);
    this.useKernel = shape.hidden === KERNEL_UNITS && hasArcKernel();
    words.forEach((w, i) => this.wordIndex.set(w, i + 1));
    const index = this.wordIndex;
    this.wordRows = new FormTable(1, (form, out, at) => {
      out[at] = index.get(form.toLowerCase()) ?? 0;
    });
  }

  /**
   * The scoring loop: "auto" (the WebAssembly kernel where it runs) or "js"; both give the same bits.
   * The kernel copies the weights when it is set up (on the next sentence read): call this again after
   * changing them (training scores with "js").
   */
  setKernel(prefer: "auto" | "js"): void {
    this.useKernel = prefer === "auto" && this.hidden === KERNEL_UNITS && hasArcKernel();
    this.cap = 0;
    this.kernel = null;
    this.distRows = new Float64Array(DIST_ROWS * this.hidden);
    this.w2d = new Float64Array(this.hidden);
  }

  /** "wasm-simd" when arcs are scored by the WebAssembly kernel, else "js" (known once a sentence was read). */
  get kernelKind(): string {
    return this.kernel !== null ? "wasm-simd" : "js";
  }

  /** A network of `shape` with weights drawn from N(0, sd²) (biases zero), from `normal()`. */
  static random(
    shape: ArcMlpShape,
    tagMap: TagMap,
    coarseMap: TagMap,
    words: readonly string[],
    normal: () => number,
    sd = 0.1,
  ): ArcMlp {
    const rows = arcMlpLayout(shape).rows;
    const emb = new Float32Array(rows * shape.hidden);
    for (let i = 0; i < emb.length; i++) emb[i] = normal() * sd;
    const w2 = new Float32Array(shape.hidden);
    for (let i = 0; i < w2.length; i++) w2[i] = normal() * sd;
    return new ArcMlp(shape, tagMap, coarseMap, words, emb, new Float32Array(shape.hidden), w2, 0);
  }

  /**
   * Reads sentence `s`: its ids and the span prefix sums, and with `all` every token's summed
   * embeddings (which `forward` needs; `scoreMasked` sums only the tokens its arcs use).
   */
  prepare(s: Sentence, vocab: Vocabularies, all = true): void {
    this.readIds(s, vocab);
    this.beginSentence();
    if (all) this.sumTokens();
  }

  /** Fills the tag, coarse tag and word-row ids of `s` (positions 0 … n + 1; n + 1 = after the end). */
  readIds(s: Sentence, vocab: Vocabularies): void {
    const n = s.n;
    const H = this.hidden;
    if (this.cap < n + 2) {
      const cap = Math.max(n + 2, this.cap * 2, 64);
      this.cap = cap;
      this.tag = new Int32Array(cap);
      this.ctag = new Int32Array(cap);
      this.word = new Int32Array(cap);
      if (this.useKernel) {
        const k = new ArcKernel(cap, this.emb, this.b1);
        this.kernel = k;
        this.headSum = k.headSum;
        this.modSum = k.modSum;
        this.span = k.span;
        this.distRows = k.dist;
        this.w2d = k.w2h;
      } else {
        this.headSum = new Float64Array(2 * cap * H);
        this.modSum = new Float64Array(2 * cap * H);
        this.span = new Float64Array(cap * H);
      }
      this.headDone = new Int32Array(2 * cap);
      this.modDone = new Int32Array(2 * cap);
    }
    this.n = n;
    this.tagMap.fill(s, vocab, this.tag);
    this.coarseMap.fill(s, vocab, this.ctag);
    this.tag[n + 1] = this.shape.tags;
    this.ctag[n + 1] = this.shape.ctags;
    this.wordRows.bind(vocab.form);
    const table = this.wordRows.table;
    const word = this.word;
    word[0] = 0;
    for (let i = 1; i <= n; i++) word[i] = table[s.form[i]!]!;
  }

  /**
   * Writes to out[0 … 4] the embedding rows token i reads as the head (or the modifier) of an arc in
   * direction d: its tag, coarse tag, the tags before and after it (each conjoined with d), and its
   * word.
   */
  tokenRows(d: number, i: number, head: boolean, out: Int32Array): void {
    const tag = this.tag;
    const T = this.layout.token;
    const f = d * TOKEN_FIELDS + (head ? 0 : 4);
    out[0] = T[f]! + tag[i]!;
    out[1] = T[f + 1]! + this.ctag[i]!;
    out[2] = T[f + 2]! + (i > 0 ? tag[i - 1]! : this.shape.tags);
    out[3] = T[f + 3]! + tag[i + 1]!;
    out[4] = (head ? this.layout.headWord : this.layout.modWord) + this.word[i]!;
  }

  /**
   * Gets the network ready for the current ids: copies the length rows and output weights, builds the
   * span prefix sums, and forgets the token sums of the previous sentence.
   */
  private beginSentence(): void {
    const n = this.n;
    const H = this.hidden;
    const e = this.emb;
    const L = this.layout;
    const sp = this.span;
    for (let k = 0; k < DIST_ROWS * H; k++) this.distRows[k] = e[L.dist * H + k]!;
    for (let j = 0; j < H; j++) this.w2d[j] = 0.5 * this.w2[j]!;
    sp.fill(0, 0, H);
    for (let p = 1; p <= n; p++) {
      const b = (L.between + this.ctag[p]!) * H;
      const o = p * H;
      for (let j = 0; j < H; j++) sp[o + j] = sp[o - H + j]! + 0.5 * e[b + j]!;
    }
    if (++this.stamp === 0x7fffffff) {
      this.headDone.fill(0);
      this.modDone.fill(0);
      this.stamp = 1;
    }
  }

  /**
   * Sums token i's head-side rows for direction d, with b1 and its part of the span term: with prefix
   * sums P (P[p] = half the between rows of positions 1 … p), an arc h→m with h < m has
   * P[m − 1] − P[h] between its ends, and with h > m P[h − 1] − P[m], so the head's sum takes −P[h]
   * (direction 0) or +P[h − 1] (direction 1) and the modifier's +P[m − 1] or −P[m]. An arc then reads
   * two sums and its length row.
   */
  private sumHead(d: number, i: number): void {
    this.tokenRows(d, i, true, this.rows);
    // The root (i = 0) only heads arcs to its right: no span term to its left.
    this.sumRows(
      (d * this.cap + i) * this.hidden,
      true,
      d === 0 ? i : i > 0 ? i - 1 : 0,
      d === 0 ? -1 : i > 0 ? 1 : 0,
    );
    this.headDone[d * this.cap + i] = this.stamp;
  }

  /** Sums token i's modifier-side rows for direction d, with its part of the span term (see `sumHead`). */
  private sumMod(d: number, i: number): void {
    this.tokenRows(d, i, false, this.rows);
    this.sumRows((d * this.cap + i) * this.hidden, false, d === 0 ? i - 1 : i, d === 0 ? 1 : -1);
    this.modDone[d * this.cap + i] = this.stamp;
  }

  /**
   * Writes (((((b1 or 0) + the five rows `tokenRows` left in this.rows, in order) + sign · span[p] to
   * the head sums (head) or the modifier sums at element o: by the kernel, or in the same order in
   * JavaScript.
   */
  private sumRows(o: number, head: boolean, p: number, sign: number): void {
    const H = this.hidden;
    const r = this.rows;
    const k = this.kernel;
    if (k !== null) {
      const at = k.embAt;
      const rb = H * 8;
      k.sum(
        (head ? k.headAt : k.modAt) + o * 8,
        at + (head ? k.rows : k.rows + 1) * rb,
        at + r[0]! * rb,
        at + r[1]! * rb,
        at + r[2]! * rb,
        at + r[3]! * rb,
        at + r[4]! * rb,
        k.spanAt + p * rb,
        sign,
      );
      return;
    }
    const e = this.emb;
    const b1 = this.b1;
    const dst = head ? this.headSum : this.modSum;
    const sp = this.span;
    const a1 = r[0]! * H;
    const a2 = r[1]! * H;
    const a3 = r[2]! * H;
    const a4 = r[3]! * H;
    const a5 = r[4]! * H;
    const so = p * H;
    for (let j = 0; j < H; j++)
      dst[o + j] =
        (head ? b1[j]! : 0) +
        e[a1 + j]! +
        e[a2 + j]! +
        e[a3 + j]! +
        e[a4 + j]! +
        e[a5 + j]! +
        sign * sp[so + j]!;
  }

  /** Sums every token's rows for both directions (what `forward` reads). */
  sumTokens(): void {
    for (let d = 0; d < 2; d++)
      for (let i = 0; i <= this.n; i++) {
        this.sumHead(d, i);
        if (i > 0) this.sumMod(d, i);
      }
  }

  /**
   * Writes the hidden pre-activations of arc h→m of the prepared sentence into `pre` (H values) and
   * returns the output: b2 + Σ_j w2_j · max(0, pre_j).
   */
  forward(h: number, m: number, pre: Float64Array): number {
    const H = this.hidden;
    const d = h < m ? 0 : 1;
    const ho = (d * this.cap + h) * H;
    const mo = (d * this.cap + m) * H;
    const dr = (this.layout.dist + distRow(h, m)) * H;
    const hs = this.headSum;
    const ms = this.modSum;
    const e = this.emb;
    const w2 = this.w2;
    // Even and odd units apart, then together: the order of the kernel's two lanes.
    let a0 = 0;
    let a1 = 0;
    for (let j = 0; j < H; j++) {
      const v = hs[ho + j]! + ms[mo + j]! + e[dr + j]!;
      pre[j] = v;
      if ((j & 1) === 0) a0 += w2[j]! * (0.5 * (v + Math.abs(v)));
      else a1 += w2[j]! * (0.5 * (v + Math.abs(v)));
    }
    return this.b2 + (a0 + a1);
  }

  /**
   * Writes the output of every arc h→m that `bits` allows (bits[h * size + m] = 1) of the prepared
   * sentence to out[0 …], in row-major order (h, then m), as `forward` computes it, and returns how
   * many. Tokens are summed as their arcs need them. The WebAssembly kernel takes the arcs in chunks;
   * without it, one call per sentence keeps the loop where the compiler can see it whole.
   */
  scoreMasked(bits: Uint8Array, size: number, out: Float64Array): number {
    const n = this.n;
    const H = this.hidden;
    const cap = this.cap;
    const kernel = this.kernel;
    const hs = this.headSum;
    const ms = this.modSum;
    const dist = this.distRows;
    const w2 = this.w2d;
    const b2 = this.b2;
    let count = 0;
    // Kernel: the arcs' byte offsets, k of them listed so far.
    let k = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      for (let m = 1; m <= n; m++) {
        if (bits[row + m] === 0) continue;
        const d = h < m ? 0 : 1;
        if (this.headDone[d * cap + h] !== this.stamp) this.sumHead(d, h);
        if (this.modDone[d * cap + m] !== this.stamp) this.sumMod(d, m);
        const ho = (d * cap + h) * H;
        const mo = (d * cap + m) * H;
        const dr = distRow(h, m) * H;
        if (kernel !== null) {
          const list = kernel.list;
          list[k++] = kernel.headAt + ho * 8;
          list[k++] = kernel.modAt + mo * 8;
          list[k++] = kernel.distAt + dr * 8;
          if (k === 3 * KERNEL_CHUNK) {
            kernel.score(KERNEL_CHUNK, b2);
            out.set(kernel.out, count);
            count += KERNEL_CHUNK;
            k = 0;
          }
          continue;
        }
        let a0 = 0;
        let a1 = 0;
        for (let j = 0; j < H; j += 2) {
          const v = hs[ho + j]! + ms[mo + j]! + dist[dr + j]!;
          a0 += w2[j]! * (v + Math.abs(v));
          if (j + 1 === H) break;
          const u = hs[ho + j + 1]! + ms[mo + j + 1]! + dist[dr + j + 1]!;
          a1 += w2[j + 1]! * (u + Math.abs(u));
        }
        out[count++] = b2 + (a0 + a1);
      }
    }
    if (kernel !== null && k > 0) {
      kernel.score(k / 3, b2);
      out.set(kernel.out.subarray(0, k / 3), count);
      count += k / 3;
    }
    return count;
  }

  /**
   * The network as model-file parts: the embeddings as 16-bit integers with one scale (after
   * `quantize`, the stored network is exactly the one scored with), the rest as floats.
   */
  toParts(): { meta: Record<string, unknown>; arrays: Record<string, ModelArray> } {
    const scale = this.embScale ?? embeddingScale(this.emb);
    const q = new Int16Array(this.emb.length);
    for (let i = 0; i < q.length; i++) q[i] = Math.round(this.emb[i]! / scale);
    return {
      meta: { hidden: this.hidden, words: this.words, embScale: scale, b2: this.b2 },
      arrays: { mlpEmb: q, mlpB1: this.b1, mlpW2: this.w2 },
    };
  }

  /** Rounds the embeddings to what `toParts` stores (16-bit steps of one scale), in place. */
  quantize(): void {
    const scale = embeddingScale(this.emb);
    for (let i = 0; i < this.emb.length; i++) this.emb[i] = Math.round(this.emb[i]! / scale) * scale + 0; // + 0: no negative zeros, as loading gives
    this.embScale = scale;
  }

  /** Loads a network written by `toParts`; `bad(what)` makes the error for a malformed part. */
  static fromParts(
    meta: unknown,
    arrays: Record<string, ModelArray>,
    tagMap: TagMap,
    coarseMap: TagMap,
    bad: (what: string) => Error,
  ): ArcMlp {
    const m = meta as { hidden?: unknown; words?: unknown; embScale?: unknown; b2?: unknown };
    const hidden = m.hidden;
    if (typeof hidden !== "number" || !Number.isInteger(hidden) || hidden < 1 || hidden > 1024)
      throw bad("has a bad hidden size");
    if (!Array.isArray(m.words) || !m.words.every((w) => typeof w === "string"))
      throw bad("has a bad word list");
    if (typeof m.embScale !== "number" || !(m.embScale > 0) || typeof m.b2 !== "number")
      throw bad("has bad network scales");
    const shape = { hidden, tags: tagMap.size, ctags: coarseMap.size, words: m.words.length };
    const { mlpEmb, mlpB1, mlpW2 } = arrays;
    const rows = arcMlpLayout(shape).rows;
    if (
      !(mlpEmb instanceof Int16Array) ||
      mlpEmb.length !== rows * hidden ||
      !(mlpB1 instanceof Float32Array) ||
      mlpB1.length !== hidden ||
      !(mlpW2 instanceof Float32Array) ||
      mlpW2.length !== hidden
    )
      throw bad("lacks its network weights");
    const emb = new Float32Array(mlpEmb.length);
    for (let i = 0; i < emb.length; i++) emb[i] = mlpEmb[i]! * m.embScale;
    const net = new ArcMlp(shape, tagMap, coarseMap, m.words as string[], emb, mlpB1, mlpW2, m.b2);
    net.embScale = m.embScale;
    return net;
  }
}

/** The step of the 16-bit embeddings: the largest magnitude over 32767 (1 for an all-zero table). */
function embeddingScale(emb: Float32Array): number {
  let max = 0;
  for (let i = 0; i < emb.length; i++) {
    const a = Math.abs(emb[i]!);
    if (a > max) max = a;
  }
  return max > 0 ? Math.fround(max / 32767) : 1;
}
