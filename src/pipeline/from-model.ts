import { VineparseError } from "../errors.js";
import type { DeferredArrays, ModelData } from "../model/model-file.js";
import { parserFromModel } from "../parser/load-parser.js";
import { BUNDLE_KIND, lazyBundleFromModelData } from "./bundle.js";
import { Pipeline } from "./pipeline.js";

/**
 * The pipeline of a decoded model: a bundle (tagger, parser, and a morph model and a learned tokenizer
 * if it has them, built when first needed) or a bare parser. A bundle's tagger is
 * built when the pipeline first needs it (`lazyTagger`, the default), else at once; its arrays may
 * have been left compressed in `deferred` until then (see `readModelFileDeferring`).
 */
export function pipelineFromModel(
  m: ModelData,
  file: string,
  deferred: DeferredArrays | null = null,
  lazyTagger = true,
): Pipeline {
  if (m.kind === BUNDLE_KIND) {
    const b = lazyBundleFromModelData(m, deferred, file);
    return new Pipeline(lazyTagger ? b.tagger : b.tagger(), b.parser, undefined, b.morph, b.tokenizer);
  }
  if (m.kind === "parser" || m.kind === "transition") return new Pipeline(null, parserFromModel(m, file));
  throw new VineparseError(
    "model-kind",
    `expected a parser or pipeline model, found a ${m.kind} model`,
    file,
  );
}
