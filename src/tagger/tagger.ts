import type { ConlluSentence } from "../conllu/types.js";
import type { Annotation } from "../conllu/write.js";
import { VineparseError } from "../errors.js";
import { fromModelContent, type ModelData, readModelFile, writeModelFile } from "../model/model-file.js";
import { Lexicon } from "./lexicon.js";
import { SparseWeights } from "./sparse-weights.js";
import { TagDecoder, type TaggerMode, type TagResult } from "./tag-decoder.js";
import { TagModel } from "./tag-model.js";
import { WordGuesser } from "./word-guesser.js";
import { type TaggedSentence, taggedSentence } from "./tagged-sentence.js";
import { type TaggerTrainOptions, trainTagDecoder } from "./train-tagger.js";

/** Model-file kind of a tagger. */
export const TAGGER_KIND = "tagger";
/**
 * Version of the tagger's features and arrays inside the model file; bump when features change.
 * Version 3 added the optional word-guesser features; a version-2 model is a version-3 model
 * without a guesser (same features) and still loads.
 */
export const TAGGER_VERSION = 3;
const READABLE_VERSIONS: readonly unknown[] = [2, TAGGER_VERSION];

interface StoredModel {
  classes: string[];
  dictWords: string[];
  dictTags: number[];
}

/**
 * Averaged-perceptron part-of-speech tagger predicting UPOS and XPOS (greedy left to right or beam
 * search, hashed features, tag dictionary, lexicon features from the training text). Train with `Tagger.train`, persist with `save`/`Tagger.load`, and tag
 * plain word strings (`tag`) or CoNLL-U sentences (`tagSentence`, `annotate`).
 */
export class Tagger {
  private readonly decoder: TagDecoder;

  private constructor(decoder: TagDecoder) {
    this.decoder = decoder;
  }

  /** Trains a tagger on gold-tagged sentences. */
  static train(sentences: readonly TaggedSentence[], opts: TaggerTrainOptions = {}): Tagger {
    return new Tagger(trainTagDecoder(sentences, opts));
  }

  /** Loads a tagger saved with `save`. */
  static load(path: string): Tagger {
    const m = readModelFile(path, TAGGER_KIND);
    return fromModelContent(path, () => Tagger.fromModelData(m, path));
  }

  /** Rebuilds a tagger from decoded model-file content. */
  static fromModelData(data: ModelData, file = "<model>"): Tagger {
    const meta = data.meta as {
      version?: number;
      mode?: TaggerMode;
      models?: StoredModel[];
      lexiconWords?: string[];
      beam?: number;
      guesser?: unknown;
    };
    if (!READABLE_VERSIONS.includes(meta.version) || meta.models === undefined || meta.mode === undefined) {
      throw new VineparseError(
        "model-version",
        `tagger model version ${meta.version} is not supported (expected ${TAGGER_VERSION}); retrain it`,
        file,
      );
    }
    const models = meta.models.map((m, k) => {
      const keys = data.arrays[`m${k}.keys`];
      const rowLength = data.arrays[`m${k}.rowLength`];
      const cls = data.arrays[`m${k}.class`];
      const value = data.arrays[`m${k}.value`];
      if (
        !(keys instanceof Int32Array) ||
        !(rowLength instanceof Uint16Array) ||
        !(cls instanceof Uint16Array) ||
        !(value instanceof Float32Array)
      ) {
        throw new VineparseError("model-corrupt", `tagger model ${k} is missing arrays`, file);
      }
      let weights: SparseWeights;
      try {
        weights = SparseWeights.fromArrays(m.classes.length, keys, rowLength, cls, value);
      } catch (e) {
        throw new VineparseError("model-corrupt", `tagger model ${k}: ${(e as Error).message}`, file);
      }
      const dict = new Map<string, number>();
      for (let i = 0; i < m.dictWords.length; i++) dict.set(m.dictWords[i]!, m.dictTags[i]!);
      return new TagModel(m.classes, weights, dict);
    });
    const amb = data.arrays["lexicon.amb"];
    const top = data.arrays["lexicon.top"];
    if (meta.lexiconWords === undefined || !(amb instanceof Int32Array) || !(top instanceof Int32Array)) {
      throw new VineparseError("model-corrupt", "tagger lexicon is missing", file);
    }
    let lexicon: Lexicon;
    try {
      lexicon = new Lexicon(meta.lexiconWords, amb, top);
    } catch (e) {
      throw new VineparseError("model-corrupt", `tagger lexicon: ${(e as Error).message}`, file);
    }
    const guesser =
      meta.guesser == null
        ? null
        : WordGuesser.fromStored(
            meta.guesser,
            { top: data.arrays["guesser.top"], set: data.arrays["guesser.set"] },
            file,
          );
    return new Tagger(new TagDecoder(meta.mode, models, lexicon, meta.beam ?? 1, guesser));
  }

  /** The model-file content of this tagger (weights as sparse rows: feature keys, entries per row, class ids, values). */
  toModelData(): ModelData {
    const arrays: ModelData["arrays"] = {};
    const stored: StoredModel[] = this.decoder.models.map((m, k) => {
      const w = m.weights;
      if (!(w instanceof SparseWeights)) throw new Error("tagger is not trained");
      const a = w.toArrays();
      arrays[`m${k}.keys`] = a.keys;
      arrays[`m${k}.rowLength`] = a.rowLength;
      arrays[`m${k}.class`] = a.cls;
      arrays[`m${k}.value`] = a.value;
      const dictWords = [...m.dict.keys()].sort();
      return { classes: [...m.classes], dictWords, dictTags: dictWords.map((w) => m.dict.get(w)!) };
    });
    const lex = this.decoder.lexicon;
    arrays["lexicon.amb"] = lex.amb;
    arrays["lexicon.top"] = lex.top;
    const guesser = this.decoder.guesser?.toStored() ?? null;
    if (guesser !== null) for (const [k, v] of Object.entries(guesser.arrays)) arrays[`guesser.${k}`] = v;
    return {
      kind: TAGGER_KIND,
      meta: {
        version: TAGGER_VERSION,
        mode: this.decoder.mode,
        models: stored,
        lexiconWords: [...lex.words],
        beam: this.decoder.beam,
        guesser: guesser?.meta ?? null,
      },
      arrays,
    };
  }

  /** Writes the tagger to a model file (atomically). */
  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Whether UPOS and XPOS come from one joint model or two. */
  get mode(): TaggerMode {
    return this.decoder.mode;
  }

  /** Tags a sentence given as word strings; result arrays are aligned with `words`. */
  tag(words: readonly string[]): TagResult {
    return this.decoder.tag(words);
  }

  /** Tags the basic words of a CoNLL-U sentence (ignoring its existing tags). */
  tagSentence(s: ConlluSentence): TagResult {
    return this.decoder.tag(taggedSentence(s).words);
  }

  /** Tags a CoNLL-U sentence and returns the UPOS/XPOS annotation for `formatSentence` (1-based). */
  annotate(s: ConlluSentence): Annotation {
    return toAnnotation(this.tagSentence(s));
  }
}

/** Turns 0-based tag arrays into a 1-based `Annotation` for `formatSentence`. */
export function toAnnotation(r: TagResult): Annotation {
  return { upos: ["", ...r.upos], xpos: ["", ...r.xpos] };
}
