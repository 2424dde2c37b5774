// The browser-safe API of vineparse: everything here (and everything it imports) runs without
// Node.js, in a browser or a worker, on models given as bytes (fetched, say). Node programs can use it
// too; they also have the file-based API of the main entry.

import { decodeModelBytes } from "./model/model-file.js";
import { pipelineFromModel } from "./pipeline/from-model.js";
import type { Pipeline } from "./pipeline/pipeline.js";

export type { ConlluSentence } from "./conllu/types.js";
export { VineparseError } from "./errors.js";
export { decodeModelBytes, type ModelData } from "./model/model-file.js";
export { pipelineFromModel } from "./pipeline/from-model.js";
export {
  type AnnotatedSentence,
  type JsonSentence,
  type JsonToken,
  type JsonWord,
  Pipeline,
  type PruningStage,
  type TextOptions,
  toConllu,
  toJson,
  toJsonLine,
  toTreeText,
} from "./pipeline/pipeline.js";

/**
 * A pipeline (tokenizer, tagger, parser and its pruning cascade) from the bytes of a model file: a
 * bundle such as `models/en_ewt.vpm`, or a bare parser model (which then needs tagged CoNLL-U). Bad
 * bytes give a one-line VineparseError naming `name`.
 */
export async function loadPipelineFromBytes(bytes: Uint8Array, name = "<model>"): Promise<Pipeline> {
  return pipelineFromModel(await decodeModelBytes(bytes, name), name);
}
