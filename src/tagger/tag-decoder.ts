import { Lexicon } from "./lexicon.js";
import { SentenceFeatures } from "./sentence-features.js";
import type { TagModel } from "./tag-model.js";
import type { WordGuesser } from "./word-guesser.js";

/** How UPOS and XPOS are predicted: one model over (UPOS, XPOS) pairs, or one model for each. */
export type TaggerMode = "joint" | "separate";

/** Separator inside a joint tag class ("NOUN\tNN"); a tab cannot occur in a CoNLL-U column. */
export const PAIR_SEPARATOR = "\t";

/** Predicted tags of one sentence (index i = word i + 1; no root entry). */
export interface TagResult {
  upos: string[];
  xpos: string[];
}

/**
 * Runs the tag models of a tagger on word strings and maps tag ids back to UPOS/XPOS strings.
 * Joint mode: models[0] predicts "UPOS\tXPOS" pairs. Separate mode: models[0] UPOS, models[1] XPOS.
 */
export class TagDecoder {
  readonly mode: TaggerMode;
  readonly models: readonly TagModel[];
  /** Word forms → ambiguity class and most frequent tag, shared by the models' features. */
  readonly lexicon: Lexicon;
  /** Beam width of the search (1 = greedy). */
  readonly beam: number;
  /** Tag guesses from word vectors behind the guess features, or null (features off). */
  readonly guesser: WordGuesser | null;
  private readonly sf = new SentenceFeatures();
  private ids: Int32Array[] = [];
  private readonly pairUpos: string[] = [];
  private readonly pairXpos: string[] = [];

  constructor(
    mode: TaggerMode,
    models: readonly TagModel[],
    lexicon: Lexicon = Lexicon.empty(),
    beam = 1,
    guesser: WordGuesser | null = null,
  ) {
    if (models.length !== (mode === "joint" ? 1 : 2)) throw new Error(`wrong number of models for ${mode}`);
    this.mode = mode;
    this.models = models;
    this.lexicon = lexicon;
    this.beam = beam;
    this.guesser = guesser;
    this.ids = models.map(() => new Int32Array(64));
    if (mode === "joint") {
      for (const c of models[0]!.classes) {
        const cut = c.indexOf(PAIR_SEPARATOR);
        this.pairUpos.push(c.slice(0, cut));
        this.pairXpos.push(c.slice(cut + 1));
      }
    }
  }

  /** Tags a sentence given as word strings. */
  tag(words: readonly string[]): TagResult {
    const n = words.length;
    if (n > this.ids[0]!.length) this.ids = this.models.map(() => new Int32Array(n * 2));
    this.sf.set(words, this.lexicon, undefined, this.guesser);
    for (let m = 0; m < this.models.length; m++)
      this.models[m]!.decode(words, this.sf, this.ids[m]!, undefined, this.beam);
    const upos = new Array<string>(n);
    const xpos = new Array<string>(n);
    if (this.mode === "joint") {
      const ids = this.ids[0]!;
      for (let i = 0; i < n; i++) {
        upos[i] = this.pairUpos[ids[i]!]!;
        xpos[i] = this.pairXpos[ids[i]!]!;
      }
    } else {
      const u = this.ids[0]!;
      const x = this.ids[1]!;
      const uc = this.models[0]!.classes;
      const xc = this.models[1]!.classes;
      for (let i = 0; i < n; i++) {
        upos[i] = uc[u[i]!]!;
        xpos[i] = xc[x[i]!]!;
      }
    }
    return { upos, xpos };
  }

  /** A decoder using the averaged, sparse weights of every model. */
  frozen(): TagDecoder {
    return new TagDecoder(
      this.mode,
      this.models.map((m) => m.frozen()),
      this.lexicon,
      this.beam,
      this.guesser,
    );
  }
}
