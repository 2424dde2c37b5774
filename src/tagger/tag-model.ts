import { historyFeatures, MAX_FEATURES, START_TAG } from "./feature-templates.js";
import type { Perceptron } from "./perceptron.js";
import type { SentenceFeatures } from "./sentence-features.js";

/**
 * One greedy left-to-right tagger for one tag set: an averaged perceptron over `SentenceFeatures`
 * plus history features of its own two previous predictions, and a tag dictionary that fixes the
 * tag of frequent unambiguous words.
 */
export class TagModel {
  /** Tag strings; tag id = position. */
  readonly classes: readonly string[];
  /** The weights (training or averaged). */
  perceptron: Perceptron;
  /** Word → tag id for frequent unambiguous words. */
  readonly dict: Map<string, number>;
  private readonly scores: Float32Array;

  constructor(classes: readonly string[], perceptron: Perceptron, dict: Map<string, number>) {
    this.classes = classes;
    this.perceptron = perceptron;
    this.dict = dict;
    this.scores = new Float32Array(classes.length);
  }

  /**
   * Tags `words` (whose features are in `sf`) into out[0..n). With `gold`, also trains: updates the
   * perceptron at every mistake and advances its averaging clock once per token scored.
   */
  decode(words: readonly string[], sf: SentenceFeatures, out: Int32Array, gold?: ArrayLike<number>): void {
    const n = words.length;
    const p = this.perceptron;
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
        tag = p.argmax(scores);
        if (gold !== undefined) {
          p.update(feats, from, to, gold[i]!, tag);
          p.tick();
        }
      }
      out[i] = tag;
      t2 = t1;
      t1 = tag;
    }
  }

  /** A copy for inference whose perceptron holds the averaged weights (training can continue on this one). */
  averaged(): TagModel {
    return new TagModel(this.classes, this.perceptron.snapshot(), this.dict);
  }
}
