import assert from "node:assert/strict";
import { test } from "node:test";
import type { Sentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { decodeModel, encodeModel } from "../src/model/model-file.js";
import { coarseWeightCount } from "../src/prune/arc-filter-features.js";
import { ArcMlp, arcMlpLayout } from "../src/prune/arc-mlp.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { cascadeMasks } from "../src/prune/cascade-masks.js";
import { QuadraticFilter } from "../src/prune/quadratic-filter.js";
import { TagMap } from "../src/prune/tag-map.js";
import { ArcMlpGradient, frequentWords, trainArcMlp } from "../src/prune/train-arc-mlp.js";
import { Rng } from "../src/util/rng.js";
import { randomHeads, singleRooted } from "./helpers.js";
import { assertSamePruning } from "./prune-helpers.js";
import { sentencesOf, tinyConllu } from "./tiny-treebank.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = sentencesOf(toyTreebank(200, 21), vocab);
const tags = new TagMap(TagMap.collect(train, vocab, "xpos"), "xpos");
const ctags = new TagMap(TagMap.collect(train, vocab, "upos"), "upos");
const words = frequentWords(train, vocab, 12);

/** Long sentences (up to 45 tokens, every length bucket) with random trees, tags the maps never saw, and words outside the list. */
function longSentences(count: number, seed: number): Sentence[] {
  const rng = new Rng(seed);
  const pool = ["DT", "NN", "VBD", "JJ", "IN", "RB", ".", "XX"];
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const n = 2 + rng.int(44);
    const heads = singleRooted(randomHeads(rng, n));
    const toks: string[] = [];
    for (let i = 1; i <= n; i++) toks.push(`${pool[rng.int(pool.length)]}:${heads[i]}`);
    out.push(toks.join(" "));
  }
  // tinyConllu makes the form the lower-cased tag: "dt", "nn", … (none of them in the word list).
  return sentencesOf(tinyConllu(out), vocab);
}

function normal(rng: Rng): () => number {
  return () => {
    const u = 1 - rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
}

/** A network with every weight random, biases included. */
function randomNet(seed: number): ArcMlp {
  const rng = new Rng(seed);
  const shape = { hidden: 7, tags: tags.size, ctags: ctags.size, words: words.length };
  const net = ArcMlp.random(shape, tags, ctags, words, normal(rng), 0.5);
  for (let j = 0; j < net.hidden; j++) net.b1[j] = normal(rng)() * 0.5;
  net.b2 = 0.3;
  return net;
}

/** The network's output for arc h→m of s, from its definition (embedding rows summed one by one). */
function direct(net: ArcMlp, s: Sentence, h: number, m: number): number {
  const L = arcMlpLayout(net.shape);
  const n = s.n;
  const tagAt = (i: number) =>
    i < 0 || i > n ? net.shape.tags : i === 0 ? 0 : tags.id(vocab.xpos.strings[s.xpos[i]!]!);
  const ctagAt = (i: number) =>
    i > n ? net.shape.ctags : i === 0 ? 0 : ctags.id(vocab.upos.strings[s.upos[i]!]!);
  const wordAt = (i: number) =>
    i === 0 ? 0 : words.indexOf(vocab.form.strings[s.form[i]!]!.toLowerCase()) + 1;
  const d = h < m ? 0 : 1;
  const len = Math.abs(h - m);
  const bucket = len <= 2 ? len : len <= 4 ? 3 : len <= 7 ? 4 : len <= 12 ? 5 : len <= 20 ? 6 : 7;
  const rows: [number, number][] = [
    [L.token[d * 8]! + tagAt(h), 1],
    [L.token[d * 8 + 1]! + ctagAt(h), 1],
    [L.token[d * 8 + 2]! + tagAt(h - 1), 1],
    [L.token[d * 8 + 3]! + tagAt(h + 1), 1],
    [L.headWord + wordAt(h), 1],
    [L.token[d * 8 + 4]! + tagAt(m), 1],
    [L.token[d * 8 + 5]! + ctagAt(m), 1],
    [L.token[d * 8 + 6]! + tagAt(m - 1), 1],
    [L.token[d * 8 + 7]! + tagAt(m + 1), 1],
    [L.modWord + wordAt(m), 1],
    [L.dist + d * 8 + bucket, 1],
  ];
  for (let p = Math.min(h, m) + 1; p < Math.max(h, m); p++) rows.push([L.between + ctagAt(p), 0.5]);
  let z = net.b2;
  for (let j = 0; j < net.hidden; j++) {
    let v = net.b1[j]!;
    for (const [r, c] of rows) v += c * net.emb[r * net.hidden + j]!;
    z += net.w2[j]! * Math.max(v, 0);
  }
  return z;
}

const sentences = [...train.slice(0, 30), ...longSentences(30, 5)];
// Past the first buffer size (64 positions) and one kernel chunk of arcs (4096).
const veryLong = longSentences(40, 9).filter((s) => s.n > 40);

/** A 16-unit network (the kernel's size) with every weight random. */
function randomNet16(seed: number): ArcMlp {
  const rng = new Rng(seed);
  const shape = { hidden: 16, tags: tags.size, ctags: ctags.size, words: words.length };
  const net = ArcMlp.random(shape, tags, ctags, words, normal(rng), 0.5);
  for (let j = 0; j < net.hidden; j++) net.b1[j] = normal(rng)() * 0.5;
  net.b2 = -0.2;
  return net;
}

test("arc network: the factored scores equal the network's definition, masked scoring equals forward exactly", () => {
  const net = randomNet(1);
  const pre = new Float64Array(net.hidden);
  const out = new Float64Array(48 * 48);
  let arcs = 0;
  for (const s of sentences) {
    net.prepare(s, vocab);
    const full = ArcMask.full(s.n);
    const z = new Float64Array(full.size * full.size);
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (h === m) continue;
        const want = direct(net, s, h, m);
        const got = net.forward(h, m, pre);
        assert.ok(Math.abs(got - want) < 1e-9 * (1 + Math.abs(want)), `${h}→${m}: ${got} vs ${want}`);
        z[h * full.size + m] = got;
        arcs++;
      }
    // Lazily summed tokens (prepare without `all`), half the arcs masked away: the same bits.
    const mask = full.clone();
    for (let i = 0; i < mask.bits.length; i += 2) mask.bits[i] = 0;
    net.prepare(s, vocab, false);
    const k = net.scoreMasked(mask.bits, mask.size, out);
    let i = 0;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        const at = h * mask.size + m;
        if (mask.bits[at] === 1) assert.equal(out[i++], z[at]);
      }
    assert.equal(i, k);
  }
  assert.ok(arcs > 10000);
});

test("arc network: the WebAssembly kernel and the JavaScript loop give the same bits", () => {
  const a = randomNet16(7);
  const b = randomNet16(7);
  b.setKernel("js");
  const long = tinyConllu([Array.from({ length: 70 }, (_, i) => `NN:${i === 0 ? 0 : 1}`).join(" ")]);
  const all = [...sentences, ...veryLong, ...sentencesOf(long, vocab)];
  const za = new Float64Array(80 * 80);
  const zb = new Float64Array(80 * 80);
  const pre = new Float64Array(16);
  let arcs = 0;
  for (const s of all) {
    const mask = ArcMask.full(s.n);
    a.prepare(s, vocab, false);
    b.prepare(s, vocab, false);
    const k = a.scoreMasked(mask.bits, mask.size, za);
    assert.equal(b.scoreMasked(mask.bits, mask.size, zb), k);
    for (let i = 0; i < k; i++) assert.equal(za[i], zb[i]);
    // Both equal forward (row-major order of the allowed arcs).
    a.prepare(s, vocab);
    let i = 0;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) if (h !== m) assert.equal(a.forward(h, m, pre), za[i++]);
    arcs += k;
  }
  assert.equal(b.kernelKind, "js");
  if (typeof WebAssembly === "object") assert.equal(a.kernelKind, "wasm-simd");
  assert.ok(arcs > 4096 * 3);
});

test("arc network: the gradient of the output matches finite differences", () => {
  const net = randomNet(2);
  const s = sentences.find((x) => x.n > 25)!;
  const L = net.layout;
  const grad = new ArcMlpGradient(net);
  const pre = new Float64Array(net.hidden);
  const arcs: [number, number, number][] = [
    [0, 3, 1],
    [2, 17, -0.7],
    [20, 4, 0.4],
    [9, 10, 1.3],
  ];
  const loss = () => {
    net.prepare(s, vocab);
    let t = 0;
    for (const [h, m, c] of arcs) t += c * net.forward(h, m, pre);
    return t;
  };
  net.prepare(s, vocab);
  grad.clear();
  grad.begin();
  for (const [h, m, c] of arcs) {
    net.forward(h, m, pre);
    grad.add(h, m, c, pre);
  }
  grad.end();
  const check = (label: string, arr: Float32Array, i: number, analytic: number) => {
    const old = arr[i]!;
    const eps = 1e-2;
    arr[i] = old + eps;
    const up = loss();
    arr[i] = old - eps;
    const down = loss();
    arr[i] = old;
    const numeric = (up - down) / (2 * eps);
    assert.ok(
      Math.abs(numeric - analytic) < 1e-3 * (1 + Math.abs(numeric)),
      `${label}: ${analytic} vs ${numeric}`,
    );
  };
  // Every row an arc reads (tag, coarse tag, neighbours, words, length, between), and the others at 0.
  const H = net.hidden;
  let nonZero = 0;
  for (let r = 0; r < L.rows; r++)
    for (let j = 0; j < H; j++) {
      const g = grad.emb[r * H + j]!;
      if (g !== 0 || r % 7 === 0) check(`row ${r} unit ${j}`, net.emb, r * H + j, g);
      if (g !== 0) nonZero++;
    }
  assert.ok(nonZero > 40, `${nonZero} rows × units with a gradient`);
  for (let j = 0; j < H; j++) {
    check(`b1 ${j}`, net.b1, j, grad.b1[j]!);
    check(`w2 ${j}`, net.w2, j, grad.w2[j]!);
  }
  assert.equal(grad.b2, 1 - 0.7 + 0.4 + 1.3);
});

test("arc network: training separates a toy treebank's arcs, is deterministic, and round-trips", () => {
  const masks = cascadeMasks(new PruningCascade(), train, vocab);
  const a = trainArcMlp(train, vocab, masks, tags, ctags, { epochs: 6, batch: 256, rate: 0.01, words: 30 });
  assert.ok(a.losses[5]! < 0.6 * a.losses[0]!, `losses ${a.losses.join(" ")}`);
  const b = trainArcMlp(train, vocab, masks, tags, ctags, { epochs: 6, batch: 256, rate: 0.01, words: 30 });
  assert.deepEqual(a.net.emb, b.net.emb);
  // Gold arcs score lower (less prunable) than other arcs: ranking quality on the training arcs.
  const gold: number[] = [];
  const other: number[] = [];
  const out = new Float64Array(64 * 64);
  for (const [k, s] of train.entries()) {
    const mask = masks[k]!;
    a.net.prepare(s, vocab, false);
    a.net.scoreMasked(mask.bits, mask.size, out);
    let i = 0;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++)
        if (mask.bits[h * mask.size + m] === 1) (s.head[m] === h ? gold : other).push(out[i++]!);
  }
  let below = 0;
  let pairs = 0;
  for (let i = 0; i < gold.length; i += 7)
    for (let j = 0; j < other.length; j += 13) {
      pairs++;
      if (gold[i]! < other[j]!) below++;
    }
  assert.ok(below / pairs > 0.97, `AUC ${below / pairs}`);
  // The network is stored exactly (16-bit embeddings of one scale, rounded at the end of training).
  const w = new Int16Array((1 << 12) + coarseWeightCount(ctags));
  const f = new QuadraticFilter(tags, 12, w, 1, 0.5, 10, {}, ctags, { net: a.net, weight: 0.75 });
  const back = QuadraticFilter.fromModelData(decodeModel(encodeModel(f.toModelData())), "q.vpf");
  assert.deepEqual(back.network!.net.emb, a.net.emb);
  assert.equal(back.network!.weight, 0.75);
  assert.equal(back.describe(), f.describe());
  assertSamePruning(f, back, train.slice(0, 40), vocab);
  const bad = f.toModelData();
  (bad.meta.network as Record<string, unknown>).hidden = 0;
  assert.throws(
    () => QuadraticFilter.fromModelData(bad, "q.vpf"),
    /q\.vpf: corrupted model: quadratic filter network has a bad hidden size/,
  );
  const cut = f.toModelData();
  cut.arrays.mlpEmb = (cut.arrays.mlpEmb as Int16Array).subarray(1);
  assert.throws(() => QuadraticFilter.fromModelData(cut, "q.vpf"), /network lacks its network weights/);
});

test("quadratic filter with a network removes exactly the arcs whose linear + weighted network score exceeds the threshold", () => {
  const net = randomNet(3);
  const rng = new Rng(4);
  const w = new Int16Array((1 << 12) + coarseWeightCount(ctags));
  for (let i = 0; i < w.length; i++) w[i] = rng.int(200) - 100;
  const f = new QuadraticFilter(tags, 12, w, 0.01, 0.2, 10, {}, ctags, { net, weight: 0.3 });
  const runner = new PruningCascade();
  let removed = 0;
  let kept = 0;
  for (const s of sentences) {
    const mask = ArcMask.full(s.n);
    for (let i = 0; i < mask.bits.length; i++) if (mask.bits[i] === 1 && rng.next() < 0.3) mask.bits[i] = 0;
    const want = mask.clone();
    f.scoreArcs(runner.prepare(s, vocab), mask, (h, m, linear, out) => {
      if (linear + 0.3 * out > 0.2) want.remove(h, m);
    });
    f.prune(runner.prepare(s, vocab), mask);
    assert.deepEqual(mask.bits, want.bits);
    removed += want.count() === 0 ? 0 : 1;
    kept += mask.count();
  }
  assert.ok(removed > 0 && kept > 0);
});
