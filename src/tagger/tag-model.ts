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

  constructor(classes: readonly string[], weights: Perceptron | SparseWeights, dict: Map<string, number>) {
    this.classes = classes;
    this.weights = weights;
    this.dict = dict;
    this.scores = new Float32Array(classes.length);
  }

  /**
   * Tags `words` (whose features are in `sf`) into out[0..n). With `gold`, also trains: updates the
   * perceptron at every mistake and advances its averaging clock once per token scored (the weights
   * must then be a `Perceptron`).
   */
  decode(words: readonly string[], sf: SentenceFeatures, out: Int32Array, gold?: ArrayLike<number>): void {
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

  /** A copy for tagging with the averaged weights in sparse form (training can continue on this one). */
  frozen(): TagModel {
    const w = this.weights;
    return w instanceof Perceptron ? new TagModel(this.classes, w.freeze(), this.dict) : this;
  }
}
