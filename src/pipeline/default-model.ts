import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VineparseError } from "../errors.js";
import { readModelFile } from "../model/model-file.js";
import { parserFromModel } from "../parser/load-parser.js";
import { BUNDLE_KIND, bundleFromModelData } from "./bundle.js";
import { Pipeline } from "./pipeline.js";

/** The package root (dist/src/pipeline → three levels up). */
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Path of the bundled English model shipped with the package (tagger + parser trained on UD en_ewt). */
export const DEFAULT_MODEL = join(packageRoot, "models", "en_ewt.vpm");

/** Loads a pipeline from a bundle or a bare parser model (`path` undefined = the bundled English model). */
export function loadPipeline(path?: string): Pipeline {
  const p = path ?? DEFAULT_MODEL;
  if (path === undefined && !existsSync(p)) {
    throw new VineparseError(
      "no-model",
      "no --model given and the bundled model is missing (run npm run build-model)",
      p,
    );
  }
  const m = readModelFile(p);
  if (m.kind === BUNDLE_KIND) {
    const b = bundleFromModelData(m, p);
    return new Pipeline(b.tagger, b.parser);
  }
  if (m.kind === "parser") return new Pipeline(null, parserFromModel(m, p));
  throw new VineparseError("model-kind", `expected a parser or pipeline model, found a ${m.kind} model`, p);
}
