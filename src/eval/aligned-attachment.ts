import { strippedOffsets } from "../pipeline/token-eval.js";
import { percent } from "./percent.js";

/** Words of one document with their analysis: spans into the document text, heads as word indices. */
export interface SpannedWords {
  /** [start, end) character offsets of each word in the document text, flattened. */
  spans: number[];
  /** Head of each word as an index into this list (-1 = root). */
  heads: number[];
  /** Relation of each word. */
  deprels: string[];
  /** Gold only: whether the word is punctuation (UPOS PUNCT), for the punctuation-free scores. */
  punct?: boolean[];
  /** UPOS, lemma and FEATS of each word, when known (scored where gold and system both have them). */
  upos?: string[];
  lemmas?: string[];
  feats?: string[];
}

/** F1-style attachment scores for system output whose words may differ from the gold words. */
export interface AlignedScores {
  goldWords: number;
  systemWords: number;
  /** Words whose spans match exactly (in white-space-free coordinates). */
  alignedWords: number;
  wordsF1: number;
  /** Aligned words whose head is the aligned gold head (or both root). */
  uasCorrect: number;
  lasCorrect: number;
  uasF1: number;
  lasF1: number;
  /** UAS/LAS recall over non-punctuation gold words (only aligned words can be right). */
  uasNoPunct: number;
  lasNoPunct: number;
  /**
   * Aligned words with the gold UPOS, lemma, FEATS, as F1 over all gold and system words (CoNLL 2018's
   * UPOS, Lemmas, UFeats); null when no document had them on both sides.
   */
  uposF1: number | null;
  lemmasF1: number | null;
  ufeatsF1: number | null;
}

/**
 * Accumulates attachment scores between gold and system analyses of the same raw text, the CoNLL 2018
 * shared-task way: words align when their character spans (ignoring white space) are equal, and an
 * aligned word is correct when its head aligns to the gold head (and, for LAS, the relation matches).
 */
export class AlignedAttachmentEvaluator {
  private g = 0;
  private s = 0;
  private a = 0;
  private u = 0;
  private l = 0;
  private gNp = 0;
  private uNp = 0;
  private lNp = 0;
  /** Correct UPOS, lemmas, FEATS; -1 until a document has them on both sides. */
  private tags = [-1, -1, -1];

  /** Adds one document: its text, the gold words and the system words (both with spans into `text`). */
  add(text: string, gold: SpannedWords, sys: SpannedWords): void {
    const map = strippedOffsets(text);
    const ng = gold.heads.length;
    const ns = sys.heads.length;
    // align[i] = system word aligned to gold word i, or -1.
    const key = new Map<number, number>();
    for (let j = 0; j < ns; j++) key.set(map[sys.spans[2 * j]!]! * 4194304 + map[sys.spans[2 * j + 1]!]!, j);
    const align = new Int32Array(ng).fill(-1);
    for (let i = 0; i < ng; i++) {
      const j = key.get(map[gold.spans[2 * i]!]! * 4194304 + map[gold.spans[2 * i + 1]!]!);
      if (j !== undefined) align[i] = j;
    }
    this.g += ng;
    this.s += ns;
    const sides = [
      [gold.upos, sys.upos],
      [gold.lemmas, sys.lemmas],
      [gold.feats, sys.feats],
    ] as const;
    sides.forEach(([g, s], k) => {
      if (g === undefined || s === undefined) return;
      let c = 0;
      for (let i = 0; i < ng; i++) if (align[i]! >= 0 && g[i] === s[align[i]!]) c++;
      this.tags[k] = Math.max(0, this.tags[k]!) + c;
    });
    for (let i = 0; i < ng; i++) {
      const np = gold.punct === undefined || !gold.punct[i];
      if (np) this.gNp++;
      const j = align[i]!;
      if (j < 0) continue;
      this.a++;
      const gh = gold.heads[i]!;
      const sh = sys.heads[j]!;
      const ok = gh < 0 ? sh < 0 : sh >= 0 && align[gh] === sh;
      if (!ok) continue;
      this.u++;
      const lab = gold.deprels[i] === sys.deprels[j];
      if (lab) this.l++;
      if (np) {
        this.uNp++;
        if (lab) this.lNp++;
      }
    }
  }

  /** The scores so far, in percent. */
  scores(): AlignedScores {
    const f1 = (c: number) => (this.g + this.s === 0 ? 0 : (200 * c) / (this.g + this.s));
    return {
      goldWords: this.g,
      systemWords: this.s,
      alignedWords: this.a,
      wordsF1: f1(this.a),
      uasCorrect: this.u,
      lasCorrect: this.l,
      uasF1: f1(this.u),
      lasF1: f1(this.l),
      uasNoPunct: percent(this.uNp, this.gNp),
      lasNoPunct: percent(this.lNp, this.gNp),
      uposF1: this.tags[0]! < 0 ? null : f1(this.tags[0]!),
      lemmasF1: this.tags[1]! < 0 ? null : f1(this.tags[1]!),
      ufeatsF1: this.tags[2]! < 0 ? null : f1(this.tags[2]!),
    };
  }
}
