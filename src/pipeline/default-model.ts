import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VineparseError } from "../errors.js";
import { readModelFileDeferring } from "../model/model-file.js";
import { BUNDLE_KIND, isDeferredArray, tokenizerFromModelData } from "./bundle.js";
import { pipelineFromModel } from "./from-model.js";
import type { Pipeline } from "./pipeline.js";
import { ENGLISH_RULES, type Segmenter } from "./sentence-split.js";

/** The package root (dist/src/pipeline → three levels up). */
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Path of the bundled English model shipped with the package (tagger + parser trained on UD en_ewt). */
export const DEFAULT_MODEL = join(packageRoot, "models", "en_ewt.vpm");

/** Options of `loadPipeline`. */
export interface LoadOptions {
  /**
   * Build a bundle's tagger when the pipeline first needs it (`Pipeline.tagger`; the default), not
   * at once: tagged CoNLL-U parsed without retagging never does, and the tagger's tables are never
   * held. False for a caller that will tag anyway (raw text, retagging).
   */
  lazyTagger?: boolean;
}

/** The model file to load: `path`, or the bundled English model (one clear error when it is missing). */
function modelPath(path: string | undefined): string {
  const p = path ?? DEFAULT_MODEL;
  if (path === undefined && !existsSync(p)) {
    throw new VineparseError(
      "no-model",
      "no --model given and the bundled model is missing (run npm run build-model)",
      p,
    );
  }
  return p;
}

/** Loads a pipeline from a bundle or a bare parser model (`path` undefined = the bundled English model). */
export function loadPipeline(path?: string, opts: LoadOptions = {}): Pipeline {
  const p = modelPath(path);
  const lazy = opts.lazyTagger ?? true;
  const { model: m, deferred } = readModelFileDeferring(p, undefined, lazy ? isDeferredArray : undefined);
  return pipelineFromModel(m, p, deferred, lazy);
}

/**
 * How a model cuts raw text into sentences and words, without building anything else of it: a
 * bundle's learned tokenizer, or the English rules (a bundle without one, a bare parser). Every other
 * array of the file stays compressed.
 */
export function loadSegmenter(path?: string): Segmenter {
  const p = modelPath(path);
  const { model: m } = readModelFileDeferring(p, undefined, (name) => !name.startsWith("tokenizer/"));
  if (m.kind !== BUNDLE_KIND) return ENGLISH_RULES;
  return tokenizerFromModelData(m, p) ?? ENGLISH_RULES;
}
