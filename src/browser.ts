// The browser-safe API of vineparse: everything here (and everything it imports) runs without
// Node.js, in a browser or a worker, on models given as bytes (fetched, say). Node programs can use it
// too; they also have the file-based API of the main entry.

import { decodeModelBytes } from "./model/model-file.js";
import { hasLabelKernel } from "./parser/label-kernel.js";
import { pipelineFromModel } from "./pipeline/from-model.js";
import type { Pipeline } from "./pipeline/pipeline.js";
import { hasArcKernel } from "./prune/arc-mlp-kernel.js";
import { hasSimdKernel } from "./prune/token-score-kernel.js";

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

/**
 * Which of the three WebAssembly SIMD kernels this runtime runs: the token-role filters' weight sums,
 * the quadratic filter's arc network and the labeller's rows. Where one is missing (no WebAssembly,
 * no SIMD, or a page whose Content-Security-Policy forbids compiling it: it needs
 * 'wasm-unsafe-eval'), its JavaScript fallback gives the same results, more slowly.
 */
export function wasmKernels(): { tokenScores: boolean; arcNetwork: boolean; labels: boolean } {
  return { tokenScores: hasSimdKernel(), arcNetwork: hasArcKernel(), labels: hasLabelKernel() };
}
