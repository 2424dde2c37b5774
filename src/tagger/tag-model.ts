import { historyFeatures, MAX_FEATURES, START_TAG } from "./feature-templates.js";
import { Perceptron } from "./perceptron.js";
import type { SentenceFeatures } from "./sentence-features.js";
import type { SparseWeights } from "./sparse-weights.js";

/** Index of the largest of scores[0..n) (ties → lowest index). */
export function argmax(scores: Float32Array, n: number): number {
  let best = 0;
  let bs = scores[0]!;
  for (let c = 1; c < n; c++) {
    if (scores[c]! > bs) {
      bs = scores[c]!;
      best = c;
    }
  }
  return best;
}

/**
 * One greedy left-to-right tagger for one tag set: an averaged perceptron over `SentenceFeatures`
 * plus history features of its own two previous predictions, and a tag dictionary that fixes the
 * tag of frequent unambiguous words.
 */
export class TagModel {
  /** Tag strings; tag id = position. */
  readonly classes: readonly string[];
  /** The weights: a perceptron while training, sparse averaged weights once trained. */
  readonly weights: Perceptron | SparseWeights;
  /** Word → tag id for frequent unambiguous words. */
  readonly dict: Map<string, number>;
  private readonly scores: Float32Array;
  private readonly staticScores: Float32Array;
  /** Beam storage, grown on demand: per position, `beam` slots of tag, back-pointer and score. */
  private beamTag = new Int32Array(0);
  private beamBack = new Int32Array(0);
  private beamScore = new Float64Array(0);
  private beamSize = new Int32Array(0);
  private goldPath = new Int32Array(0);
  private predPath = new Int32Array(0);

  constructor(classes: readonly string[], weights: Perceptron | SparseWeights, dict: Map<string, number>) {
    this.classes = classes;
    this.weights = weights;
    this.dict = dict;
    this.scores = new Float32Array(classes.length);
    this.staticScores = new Float32Array(classes.length);
  }

  /**
   * Tags `words` (whose features are in `sf`) into out[0..n). With `gold`, also trains: updates the
   * perceptron at every mistake and advances its averaging clock once per token scored (the weights
   * must then be a `Perceptron`).
   */
  decode(
    words: readonly string[],
    sf: SentenceFeatures,
    out: Int32Array,
    gold?: ArrayLike<number>,
    beam = 1,
  ): void {
    if (beam > 1) {
      this.decodeBeam(words, sf, out, beam, gold);
      return;
    }
    const n = words.length;
    const p = this.weights;
    const T = this.classes.length;
    let train: Perceptron | null = null;
    if (gold !== undefined) {
      if (!(p instanceof Perceptron)) throw new Error("cannot train frozen weights");
      train = p;
    }
    const feats = sf.feats;
    const scores = this.scores;
    const dict = this.dict;
    let t1 = START_TAG;
    let t2 = START_TAG;
    for (let i = 0; i < n; i++) {
      let tag = dict.get(words[i]!);
      if (tag === undefined) {
        const from = i * MAX_FEATURES;
        const to = historyFeatures(sf.atoms, i, t1, t2, feats, from + sf.numStatic);
        p.score(feats, from, to, scores);
        tag = argmax(scores, T);
        if (train !== null) {
          train.update(feats, from, to, gold![i]!, tag);
          train.tick();
        }
      }
      out[i] = tag;
      t2 = t1;
      t1 = tag;
    }
  }

  /**
   * Beam search over tag sequences (states that agree on the last two tags are merged, since the
   * features see no further back). With `gold`, trains with early update (Collins & Roark 2004): as
   * soon as the gold prefix leaves the beam, the perceptron moves toward it and away from the best
   * prefix in the beam, and the rest of the sentence is skipped; otherwise a full-sentence update
   * if the best sequence is wrong.
   */
  private decodeBeam(
    words: readonly string[],
    sf: SentenceFeatures,
    out: Int32Array,
    B: number,
    gold?: ArrayLike<number>,
  ): void {
    const n = words.length;
    if (n === 0) return;
    const p = this.weights;
    let train: Perceptron | null = null;
    if (gold !== undefined) {
      if (!(p instanceof Perceptron)) throw new Error("cannot train frozen weights");
      train = p;
    }
    const T = this.classes.length;
    if (this.beamTag.length < n * B) {
      this.beamTag = new Int32Array(n * B * 2);
      this.beamBack = new Int32Array(n * B * 2);
      this.beamScore = new Float64Array(n * B * 2);
      this.beamSize = new Int32Array(n * 2);
      this.goldPath = new Int32Array(n * 2);
      this.predPath = new Int32Array(n * 2);
    }
    const bt = this.beamTag;
    const bb = this.beamBack;
    const bs = this.beamScore;
    const size = this.beamSize;
    const feats = sf.feats;
    const st = this.staticScores;
    const sc = this.scores;
    const goldPath = this.goldPath;
    /** Beam slot of the gold prefix at the previous position (-1: fallen out; -2: not training). */
    let goldSlot = train === null ? -2 : 0;
    for (let i = 0; i < n; i++) {
      const base = i * B;
      const prevBase = base - B;
      const prevSize = i === 0 ? 1 : size[i - 1]!;
      const from = i * MAX_FEATURES;
      const fixed = this.dict.get(words[i]!);
      if (train !== null) goldPath[i] = fixed ?? gold![i]!;
      let count = 0;
      let goldHere = -1;
      if (fixed === undefined) p.score(feats, from, from + sf.numStatic, st);
      for (let b = 0; b < prevSize; b++) {
        const t1 = i === 0 ? START_TAG : bt[prevBase + b]!;
        const t2 = i <= 1 ? START_TAG : bt[(i - 2) * B + bb[prevBase + b]!]!;
        const prev = i === 0 ? 0 : bs[prevBase + b]!;
        let lo = 0;
        let hi = T;
        if (fixed !== undefined) {
          lo = fixed;
          hi = fixed + 1;
          sc[fixed] = 0;
        } else {
          const to = historyFeatures(sf.atoms, i, t1, t2, feats, from + sf.numStatic);
          sc.set(st);
          p.addScores(feats, from + sf.numStatic, to, sc);
        }
        for (let c = lo; c < hi; c++) {
          const total = prev + sc[c]!;
          if (count === B && total <= bs[base + count - 1]!) continue;
          // Merge with a state of the same last two tags (c, t1), keeping the better one.
          let j = -1;
          for (let q = 0; q < count; q++) {
            if (bt[base + q] === c && (i === 0 || bt[prevBase + bb[base + q]!] === t1)) {
              j = q;
              break;
            }
          }
          if (j >= 0) {
            if (total <= bs[base + j]!) continue;
            // Remove slot j, then insert below.
            for (let q = j; q < count - 1; q++) {
              bt[base + q] = bt[base + q + 1]!;
              bb[base + q] = bb[base + q + 1]!;
              bs[base + q] = bs[base + q + 1]!;
            }
            count--;
          } else if (count === B) {
            count--;
          }
          let q = count;
          while (q > 0 && bs[base + q - 1]! < total) {
            bt[base + q] = bt[base + q - 1]!;
            bb[base + q] = bb[base + q - 1]!;
            bs[base + q] = bs[base + q - 1]!;
            q--;
          }
          bt[base + q] = c;
          bb[base + q] = b;
          bs[base + q] = total;
          count++;
        }
      }
      size[i] = count;
      if (train !== null && fixed === undefined) train.tick();
      if (goldSlot >= 0) {
        goldHere = -1;
        for (let q = 0; q < count; q++) {
          if (bt[base + q] === goldPath[i] && (i === 0 || bb[base + q] === goldSlot)) {
            goldHere = q;
            break;
          }
        }
        if (goldHere < 0) {
          this.earlyUpdate(train!, sf, i, B);
          out.fill(-1, 0, n);
          return;
        }
        goldSlot = goldHere;
      }
    }
    // Best final state → tags.
    let q = 0;
    for (let i = n - 1; i >= 0; i--) {
      out[i] = bt[i * B + q]!;
      q = bb[i * B + q]!;
    }
    if (goldSlot >= 0 && goldSlot !== 0) this.earlyUpdate(train!, sf, n - 1, B);
  }

  /** Perceptron update of the gold prefix 0..i against the best beam prefix ending at position i. */
  private earlyUpdate(train: Perceptron, sf: SentenceFeatures, i: number, B: number): void {
    const pred = this.predPath;
    const gold = this.goldPath;
    let q = 0;
    for (let j = i; j >= 0; j--) {
      pred[j] = this.beamTag[j * B + q]!;
      q = this.beamBack[j * B + q]!;
    }
    const feats = sf.feats;
    for (let j = 0; j <= i; j++) {
      const g1 = j >= 1 ? gold[j - 1]! : START_TAG;
      const g2 = j >= 2 ? gold[j - 2]! : START_TAG;
      const p1 = j >= 1 ? pred[j - 1]! : START_TAG;
      const p2 = j >= 2 ? pred[j - 2]! : START_TAG;
      if (gold[j] === pred[j] && g1 === p1 && g2 === p2) continue;
      if (this.dict.has(sf.words[j]!)) continue;
      const from = j * MAX_FEATURES;
      let to = historyFeatures(sf.atoms, j, g1, g2, feats, from + sf.numStatic);
      train.add(feats, from, to, gold[j]!, 1);
      to = historyFeatures(sf.atoms, j, p1, p2, feats, from + sf.numStatic);
      train.add(feats, from, to, pred[j]!, -1);
    }
  }

  /** A copy for tagging with the averaged weights in sparse form (training can continue on this one). */
  frozen(): TagModel {
    const w = this.weights;
    return w instanceof Perceptron ? new TagModel(this.classes, w.freeze(), this.dict) : this;
  }
}
