import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { Rng } from "../util/rng.js";
import { ArcMlp, distRow } from "./arc-mlp.js";
import type { TagMap } from "./tag-map.js";

/** Options of `trainArcMlp`. */
export interface ArcMlpTrainOptions {
  /** Hidden units (default 16). */
  hidden?: number;
  /** Most frequent training words given their own rows (default 5000; words seen once never). */
  words?: number;
  /** Passes over the training arcs (default 3). */
  epochs?: number;
  /** Arcs per Adam step, rounded up to whole sentences (default 2048). */
  batch?: number;
  /** Adam step size (default 0.002). */
  rate?: number;
  /** L2 penalty added to every gradient (default 1e-6). */
  l2?: number;
  /** Weight of a gold arc's loss against a non-arc's 1 (default 10). */
  keepWeight?: number;
  /** Seed of the initial weights and the sentence order (default 29). */
  seed?: number;
  /** Progress output. */
  log?: (line: string) => void;
}

/** What `trainArcMlp` returns. */
export interface ArcMlpTrainResult {
  net: ArcMlp;
  /** Mean weighted logistic loss of each epoch (as the arcs were met, before each step). */
  losses: number[];
  /** Training arcs per epoch. */
  arcs: number;
  seconds: number;
}

/** The `count` most frequent lower-cased forms of `train` seen at least twice (ties by string). */
export function frequentWords(train: readonly Sentence[], vocab: Vocabularies, count: number): string[] {
  const byId = new Int32Array(vocab.form.size);
  for (const s of train) for (let i = 1; i <= s.n; i++) byId[s.form[i]!]!++;
  const counts = new Map<string, number>();
  for (let id = 0; id < byId.length; id++)
    if (byId[id]! > 0) {
      const w = vocab.form.strings[id]!.toLowerCase();
      counts.set(w, (counts.get(w) ?? 0) + byId[id]!);
    }
  return [...counts]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, count)
    .map(([w]) => w);
}

/**
 * Accumulates the gradient of a network's output over the arcs of one prepared sentence, then
 * scatters it into dense gradient arrays (rows of the embedding matrix, b1, w2, b2). Per arc it only
 * adds into per-token buffers, as the forward pass reads per-token sums.
 */
export class ArcMlpGradient {
  readonly emb: Float64Array;
  readonly b1: Float64Array;
  readonly w2: Float64Array;
  b2 = 0;
  private dHead = new Float64Array(0);
  private dMod = new Float64Array(0);
  private dSpan = new Float64Array(0);
  private readonly acc: Float64Array;
  private readonly rows = new Int32Array(5);

  constructor(readonly net: ArcMlp) {
    this.acc = new Float64Array(net.hidden);
    this.emb = new Float64Array(net.emb.length);
    this.b1 = new Float64Array(net.hidden);
    this.w2 = new Float64Array(net.hidden);
  }

  /** Starts a sentence (the net must have read it). */
  begin(): void {
    const H = this.net.hidden;
    const cap = this.net.cap;
    if (this.dHead.length < 2 * cap * H) {
      this.dHead = new Float64Array(2 * cap * H);
      this.dMod = new Float64Array(2 * cap * H);
      this.dSpan = new Float64Array(cap * H);
    } else {
      const used = 2 * cap * H;
      this.dHead.fill(0, 0, used);
      this.dMod.fill(0, 0, used);
      this.dSpan.fill(0, 0, cap * H);
    }
  }

  /** Adds dz · ∂output/∂params for arc h→m, whose pre-activations `forward` wrote to `pre`. */
  add(h: number, m: number, dz: number, pre: Float64Array): void {
    const net = this.net;
    const H = net.hidden;
    const w2 = net.w2;
    const d = h < m ? 0 : 1;
    const ho = (d * net.cap + h) * H;
    const mo = (d * net.cap + m) * H;
    const lo = h < m ? h : m;
    const hi = h < m ? m : h;
    const dr = (net.layout.dist + distRow(h, m)) * H;
    const g = this.emb;
    const dHead = this.dHead;
    const dMod = this.dMod;
    const dSpan = this.dSpan;
    this.b2 += dz;
    for (let j = 0; j < H; j++) {
      const v = pre[j]!;
      if (v <= 0) continue;
      this.w2[j]! += dz * v;
      const u = dz * w2[j]!;
      dHead[ho + j]! += u;
      dMod[mo + j]! += u;
      g[dr + j]! += u;
      if (hi - lo > 1) {
        dSpan[(lo + 1) * H + j]! += u;
        dSpan[hi * H + j]! -= u;
      }
    }
  }

  /** Scatters the sentence's per-token gradients into the rows they came from. */
  end(): void {
    const net = this.net;
    const H = net.hidden;
    const n = net.n;
    const L = net.layout;
    const g = this.emb;
    const rows = this.rows;
    for (let d = 0; d < 2; d++)
      for (let i = 0; i <= n; i++) {
        const o = (d * net.cap + i) * H;
        net.tokenRows(d, i, true, rows);
        for (const r of rows) for (let j = 0; j < H; j++) g[r * H + j]! += this.dHead[o + j]!;
        for (let j = 0; j < H; j++) this.b1[j]! += this.dHead[o + j]!;
        if (i === 0) continue;
        net.tokenRows(d, i, false, rows);
        for (const r of rows) for (let j = 0; j < H; j++) g[r * H + j]! += this.dMod[o + j]!;
      }
    // Position p lies strictly between the arcs whose difference entries bracket it.
    const acc = this.acc;
    acc.fill(0);
    for (let p = 1; p <= n; p++) {
      const b = (L.between + net.ctag[p]!) * H;
      for (let j = 0; j < H; j++) {
        acc[j]! += this.dSpan[p * H + j]!;
        g[b + j]! += 0.5 * acc[j]!;
      }
    }
  }

  /** Zeroes the dense gradients. */
  clear(): void {
    this.emb.fill(0);
    this.b1.fill(0);
    this.w2.fill(0);
    this.b2 = 0;
  }
}

/** Adam (Kingma & Ba 2015) over one parameter array. */
class Adam {
  private readonly m: Float64Array;
  private readonly v: Float64Array;

  constructor(size: number) {
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
  }

  /** One step on params with gradient g (+ l2 · params), bias corrections c1 = 1 − β1^t, c2 = 1 − β2^t. */
  step(
    params: Float32Array | Float64Array,
    g: Float64Array,
    rate: number,
    l2: number,
    c1: number,
    c2: number,
  ): void {
    const m = this.m;
    const v = this.v;
    for (let i = 0; i < params.length; i++) {
      const gi = g[i]! + l2 * params[i]!;
      const mi = 0.9 * m[i]! + 0.1 * gi;
      const vi = 0.999 * v[i]! + 0.001 * gi * gi;
      m[i] = mi;
      v[i] = vi;
      params[i]! -= (rate * (mi / c1)) / (Math.sqrt(vi / c2) + 1e-8);
    }
  }
}

/** A standard normal draw (Box–Muller) from `rng`. */
function normalFrom(rng: Rng): () => number {
  return () => {
    const u = 1 - rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
}

/**
 * Trains the arc network on every arc the masks leave on `train` (label: not the gold arc), by
 * minibatch Adam on a logistic loss in which gold arcs weigh `keepWeight`. Deterministic for a seed.
 * The embeddings are rounded to their stored 16-bit steps at the end, so the returned network is the
 * one a saved file holds.
 */
export function trainArcMlp(
  train: readonly Sentence[],
  vocab: Vocabularies,
  masks: readonly ArcMask[],
  tagMap: TagMap,
  coarseMap: TagMap,
  opts: ArcMlpTrainOptions = {},
): ArcMlpTrainResult {
  const hidden = opts.hidden ?? 16;
  const epochs = opts.epochs ?? 3;
  const batch = opts.batch ?? 2048;
  const rate = opts.rate ?? 0.002;
  const l2 = opts.l2 ?? 1e-6;
  const keepWeight = opts.keepWeight ?? 10;
  const log = opts.log ?? (() => {});
  const rng = new Rng(opts.seed ?? 29);
  const words = frequentWords(train, vocab, opts.words ?? 5000);
  const shape = { hidden, tags: tagMap.size, ctags: coarseMap.size, words: words.length };
  const net = ArcMlp.random(shape, tagMap, coarseMap, words, normalFrom(rng));
  // The WebAssembly kernel copies the weights once; while they change, sum in JavaScript.
  net.setKernel("js");
  const grad = new ArcMlpGradient(net);
  const adam = { emb: new Adam(net.emb.length), b1: new Adam(hidden), w2: new Adam(hidden), b2: new Adam(1) };
  const b2 = new Float64Array(1);
  const g2 = new Float64Array(1);
  const pre = new Float64Array(hidden);
  const order = Int32Array.from(train, (_, k) => k);
  const losses: number[] = [];
  const t0 = performance.now();
  let steps = 0;
  let arcs = 0;
  let inBatch = 0;
  const apply = () => {
    steps++;
    const c1 = 1 - 0.9 ** steps;
    const c2 = 1 - 0.999 ** steps;
    adam.emb.step(net.emb, grad.emb, rate, l2, c1, c2);
    adam.b1.step(net.b1, grad.b1, rate, l2, c1, c2);
    adam.w2.step(net.w2, grad.w2, rate, l2, c1, c2);
    b2[0] = net.b2;
    g2[0] = grad.b2;
    adam.b2.step(b2, g2, rate, 0, c1, c2);
    net.b2 = b2[0]!;
    grad.clear();
    inBatch = 0;
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    rng.shuffle(order);
    let loss = 0;
    arcs = 0;
    for (const k of order) {
      const s = train[k]!;
      const mask = masks[k]!;
      net.prepare(s, vocab);
      grad.begin();
      const n = s.n;
      const size = mask.size;
      for (let h = 0; h <= n; h++)
        for (let m = 1; m <= n; m++) {
          if (mask.bits[h * size + m] === 0) continue;
          const z = net.forward(h, m, pre);
          const gold = s.head[m] === h;
          const y = gold ? 0 : 1;
          const w = gold ? keepWeight : 1;
          // Weighted logistic loss softplus(z) − y·z, and its derivative σ(z) − y.
          loss += w * ((z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y * z);
          const p = 1 / (1 + Math.exp(-z));
          grad.add(h, m, (w * (p - y)) / batch, pre);
          arcs++;
          inBatch++;
        }
      grad.end();
      if (inBatch >= batch) apply();
    }
    if (inBatch > 0) apply();
    losses.push(arcs > 0 ? loss / arcs : 0);
    log(
      `arc network: epoch ${epoch + 1}/${epochs}, loss ${losses[epoch]!.toFixed(4)} over ${arcs} arcs (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
  net.quantize();
  net.setKernel("auto");
  return { net, losses, arcs, seconds: (performance.now() - t0) / 1000 };
}
