import { VineparseError } from "../errors.js";
import {
  type DeferredArrays,
  fromModelContent,
  type ModelData,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import { parserFromModel } from "../parser/load-parser.js";
import type { DependencyParser } from "../parser/types.js";
import { TAGGER_KIND, Tagger } from "../tagger/tagger.js";

/** Model-file kind of a pipeline bundle (tagger + parser in one file). */
export const BUNDLE_KIND = "pipeline";

/** A tagger and a parser that belong together, with a description of how they were built. */
export interface Bundle {
  tagger: Tagger;
  parser: DependencyParser;
  /** Free-form provenance (treebank, commands, seed, dev scores). */
  info: Record<string, unknown>;
}

function embed(prefix: string, m: ModelData, arrays: ModelData["arrays"]): { kind: string; meta: unknown } {
  for (const [k, v] of Object.entries(m.arrays)) arrays[`${prefix}/${k}`] = v;
  return { kind: m.kind, meta: m.meta };
}

function extract(prefix: string, m: ModelData, part: { kind: string; meta: unknown }): ModelData {
  const arrays: ModelData["arrays"] = {};
  for (const [k, v] of Object.entries(m.arrays))
    if (k.startsWith(`${prefix}/`)) arrays[k.slice(prefix.length + 1)] = v;
  return { kind: part.kind, meta: part.meta as Record<string, unknown>, arrays };
}

/** The model-file content of a bundle: both models' arrays under "tagger/" and "parser/" prefixes. */
export function bundleToModelData(b: Bundle): ModelData {
  const arrays: ModelData["arrays"] = {};
  const tagger = embed("tagger", b.tagger.toModelData(), arrays);
  const parser = embed("parser", b.parser.toModelData(), arrays);
  return { kind: BUNDLE_KIND, meta: { info: b.info, tagger, parser }, arrays };
}

/** Writes a bundle atomically. */
export function writeBundle(path: string, b: Bundle): void {
  writeModelFile(path, bundleToModelData(b));
}

/** A bundle's parts as its metadata names them, or one clear error when one is missing. */
function bundleParts(
  m: ModelData,
  path: string,
): {
  info?: Record<string, unknown>;
  tagger: { kind: string; meta: unknown };
  parser: { kind: string; meta: unknown };
} {
  const meta = m.meta as {
    info?: Record<string, unknown>;
    tagger?: { kind: string; meta: unknown };
    parser?: { kind: string; meta: unknown };
  };
  if (meta.tagger === undefined || meta.parser === undefined) {
    throw new VineparseError("model-corrupt", "pipeline bundle lacks a tagger or a parser", path);
  }
  return { info: meta.info, tagger: meta.tagger, parser: meta.parser };
}

/** Rebuilds a bundle from decoded model-file content. */
export function bundleFromModelData(m: ModelData, path: string): Bundle {
  const parts = bundleParts(m, path);
  return fromModelContent(path, () => ({
    tagger: Tagger.fromModelData(extract("tagger", m, parts.tagger), path),
    parser: parserFromModel(extract("parser", m, parts.parser), path),
    info: parts.info ?? {},
  }));
}

/** Whether a model-file array belongs to a bundle's tagger (what `loadPipeline` leaves compressed). */
export function isTaggerArray(name: string): boolean {
  return name.startsWith("tagger/");
}

/**
 * A bundle's parser, built now, and its tagger, built when first asked for: from `m`, whose tagger
 * arrays may be left in `deferred` (see `readModelFileDeferring`; null: none are). Until then only the tagger's
 * compressed arrays and its metadata are held, not its tables (about 11 MiB for the bundled English
 * model's, which parsing tagged CoNLL-U never reads). A damaged tagger is reported when it is built.
 */
export function lazyBundleFromModelData(
  m: ModelData,
  deferred: DeferredArrays | null,
  path: string,
): { parser: DependencyParser; tagger: () => Tagger } {
  const parts = bundleParts(m, path);
  const stored: ModelData["arrays"] = {};
  for (const [k, v] of Object.entries(m.arrays)) if (isTaggerArray(k)) stored[k] = v;
  const parser = fromModelContent(path, () => parserFromModel(extract("parser", m, parts.parser), path));
  return { parser, tagger: taggerWhenAsked(stored, deferred, parts.tagger, path) };
}

/**
 * The function that builds a bundle's tagger from its arrays (`stored`, and `deferred` until then
 * compressed) the first time it is called. Made apart from `m`: a function made in the same scope
 * would keep `m` and every array in it (the parser's stored forms too, 6 MiB for the bundled
 * model's) as long as the tagger is not built. Built once; a failure is kept too, so that asking
 * again gives the same error.
 */
function taggerWhenAsked(
  stored: ModelData["arrays"],
  deferred: DeferredArrays | null,
  part: { kind: string; meta: unknown },
  path: string,
): () => Tagger {
  let built: { tagger: Tagger } | { error: unknown } | null = null;
  return () => {
    built ??= (() => {
      try {
        const arrays = { ...stored, ...deferred?.take() };
        const own = extract("tagger", { kind: BUNDLE_KIND, meta: {}, arrays }, part);
        return { tagger: fromModelContent(path, () => Tagger.fromModelData(own, path)) };
      } catch (error) {
        return { error };
      }
    })();
    if ("error" in built) throw built.error;
    return built.tagger;
  };
}

/** The tagger of decoded model-file content that is a tagger model or a pipeline bundle. */
export function taggerFromModelData(m: ModelData, path: string): Tagger {
  if (m.kind === TAGGER_KIND) return fromModelContent(path, () => Tagger.fromModelData(m, path));
  if (m.kind !== BUNDLE_KIND)
    throw new VineparseError(
      "model-kind",
      `expected a tagger or pipeline model, found a ${m.kind} model`,
      path,
    );
  const part = (m.meta as { tagger?: { kind: string; meta: unknown } }).tagger;
  if (part === undefined) throw new VineparseError("model-corrupt", "pipeline bundle lacks a tagger", path);
  return fromModelContent(path, () => Tagger.fromModelData(extract("tagger", m, part), path));
}

/** Reads a bundle written by `writeBundle`. */
export function readBundle(path: string): Bundle {
  return bundleFromModelData(readModelFile(path, BUNDLE_KIND), path);
}
