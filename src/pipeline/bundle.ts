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
import { MORPH_KIND, MorphModel } from "../morph/morph-model.js";
import { TAGGER_KIND, Tagger } from "../tagger/tagger.js";
import { LearnedTokenizer, TOKENIZER_KIND } from "../tokenizer/learned-tokenizer.js";

/** Model-file kind of a pipeline bundle (tagger + parser in one file, and optionally a morph model and a tokenizer). */
export const BUNDLE_KIND = "pipeline";

/** A tagger and a parser that belong together, with a description of how they were built. */
export interface Bundle {
  tagger: Tagger;
  parser: DependencyParser;
  /** Lemmatizer and FEATS tagger (absent from bundles made without one). */
  morph?: MorphModel;
  /** Tokenizer and sentence splitter learned from the treebank (absent: the rule-based English ones). */
  tokenizer?: LearnedTokenizer;
  /** Free-form provenance (treebank, commands, seed, dev scores). */
  info: Record<string, unknown>;
}

/** A part of a bundle as its metadata records it. */
interface BundlePart {
  kind: string;
  meta: unknown;
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

/** The model-file content of a bundle: each model's arrays under "tagger/", "parser/", "morph/" and "tokenizer/". */
export function bundleToModelData(b: Bundle): ModelData {
  const arrays: ModelData["arrays"] = {};
  const tagger = embed("tagger", b.tagger.toModelData(), arrays);
  const parser = embed("parser", b.parser.toModelData(), arrays);
  const morph = b.morph === undefined ? {} : { morph: embed("morph", b.morph.toModelData(), arrays) };
  const tokenizer =
    b.tokenizer === undefined ? {} : { tokenizer: embed("tokenizer", b.tokenizer.toModelData(), arrays) };
  return { kind: BUNDLE_KIND, meta: { info: b.info, tagger, parser, ...morph, ...tokenizer }, arrays };
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
  tagger: BundlePart;
  parser: BundlePart;
  morph?: BundlePart;
  tokenizer?: BundlePart;
} {
  const meta = m.meta as {
    info?: Record<string, unknown>;
    tagger?: BundlePart;
    parser?: BundlePart;
    morph?: BundlePart;
    tokenizer?: BundlePart;
  };
  if (meta.tagger === undefined || meta.parser === undefined) {
    throw new VineparseError("model-corrupt", "pipeline bundle lacks a tagger or a parser", path);
  }
  return {
    info: meta.info,
    tagger: meta.tagger,
    parser: meta.parser,
    morph: meta.morph,
    tokenizer: meta.tokenizer,
  };
}

/** Rebuilds a bundle from decoded model-file content. */
export function bundleFromModelData(m: ModelData, path: string): Bundle {
  const parts = bundleParts(m, path);
  return fromModelContent(path, () => ({
    tagger: Tagger.fromModelData(extract("tagger", m, parts.tagger), path),
    parser: parserFromModel(extract("parser", m, parts.parser), path),
    ...(parts.morph === undefined
      ? {}
      : { morph: MorphModel.fromModelData(extract("morph", m, parts.morph), path) }),
    ...(parts.tokenizer === undefined
      ? {}
      : { tokenizer: LearnedTokenizer.fromModelData(extract("tokenizer", m, parts.tokenizer), path) }),
    info: parts.info ?? {},
  }));
}

/**
 * Whether a model-file array belongs to a bundle's tagger, morph model or tokenizer: what
 * `loadPipeline` leaves compressed until the part is first needed.
 */
export function isDeferredArray(name: string): boolean {
  return name.startsWith("tagger/") || name.startsWith("morph/") || name.startsWith("tokenizer/");
}

/**
 * A bundle's parser, built now, and its tagger and morph model (null: the bundle has none), each
 * built when first asked for: from `m`, whose tagger and morph arrays may be left in `deferred`
 * (see `readModelFileDeferring`; null: none are). Until then only their compressed arrays and
 * metadata are held, not their tables (about 11 MiB for the bundled English model's tagger, which
 * parsing tagged CoNLL-U never reads). A damaged part is reported when it is built.
 */
export function lazyBundleFromModelData(
  m: ModelData,
  deferred: DeferredArrays | null,
  path: string,
): {
  parser: DependencyParser;
  tagger: () => Tagger;
  morph: (() => MorphModel) | null;
  tokenizer: (() => LearnedTokenizer) | null;
} {
  const parts = bundleParts(m, path);
  const parser = fromModelContent(path, () => parserFromModel(extract("parser", m, parts.parser), path));
  const tagger = partWhenAsked("tagger", m, deferred, parts.tagger, path, Tagger.fromModelData);
  const morph =
    parts.morph === undefined
      ? null
      : partWhenAsked("morph", m, deferred, parts.morph, path, MorphModel.fromModelData);
  const tokenizer =
    parts.tokenizer === undefined
      ? null
      : partWhenAsked("tokenizer", m, deferred, parts.tokenizer, path, LearnedTokenizer.fromModelData);
  return { parser, tagger, morph, tokenizer };
}

/**
 * The function that builds the bundle part under `prefix` from its arrays (those of `m`, and those
 * `deferred` holds compressed until then) the first time it is called. The arrays are picked out of
 * `m` here, and the function is made apart from the caller's scope: one made there would keep `m`
 * and every array in it (the parser's stored forms too, 6 MiB for the bundled model's) as long as
 * the part is not built. Built once; a failure is kept too, so that asking again gives the same error.
 */
function partWhenAsked<T>(
  prefix: string,
  m: ModelData,
  deferred: DeferredArrays | null,
  part: BundlePart,
  path: string,
  build: (own: ModelData, path: string) => T,
): () => T {
  const mine = (name: string) => name.startsWith(`${prefix}/`);
  const stored: ModelData["arrays"] = {};
  for (const [k, v] of Object.entries(m.arrays)) if (mine(k)) stored[k] = v;
  let built: { value: T } | { error: unknown } | null = null;
  return () => {
    built ??= (() => {
      try {
        const arrays = { ...stored, ...deferred?.take(mine) };
        const own = extract(prefix, { kind: BUNDLE_KIND, meta: {}, arrays }, part);
        return { value: fromModelContent(path, () => build(own, path)) };
      } catch (error) {
        return { error };
      }
    })();
    if ("error" in built) throw built.error;
    return built.value;
  };
}

/**
 * The model-file content of one kind of model: `m` itself when it is of that kind, else the bundle
 * part `prefix` of the pipeline bundle `m` (null: the bundle has none); any other kind is an error.
 */
function ownOrBundlePart(m: ModelData, path: string, kind: string, prefix: string): ModelData | null {
  if (m.kind === kind) return m;
  if (m.kind !== BUNDLE_KIND)
    throw new VineparseError(
      "model-kind",
      `expected a ${prefix} or pipeline model, found a ${m.kind} model`,
      path,
    );
  const part = (m.meta as Record<string, BundlePart | undefined>)[prefix];
  return part === undefined ? null : extract(prefix, m, part);
}

/** The tagger of decoded model-file content that is a tagger model or a pipeline bundle. */
export function taggerFromModelData(m: ModelData, path: string): Tagger {
  const own = ownOrBundlePart(m, path, TAGGER_KIND, "tagger");
  if (own === null) throw new VineparseError("model-corrupt", "pipeline bundle lacks a tagger", path);
  return fromModelContent(path, () => Tagger.fromModelData(own, path));
}

/** The morph model of decoded model-file content that is a morph model or a pipeline bundle holding one. */
export function morphFromModelData(m: ModelData, path: string): MorphModel {
  const own = ownOrBundlePart(m, path, MORPH_KIND, "morph");
  if (own === null) throw new VineparseError("model-kind", "this pipeline bundle has no morph model", path);
  return MorphModel.fromModelData(own, path);
}

/**
 * The tokenizer of decoded model-file content: a tokenizer model, or the one a pipeline bundle holds
 * (null: the bundle has none, so it tokenizes by the English rules).
 */
export function tokenizerFromModelData(m: ModelData, path: string): LearnedTokenizer | null {
  const own = ownOrBundlePart(m, path, TOKENIZER_KIND, "tokenizer");
  return own === null ? null : LearnedTokenizer.fromModelData(own, path);
}

/**
 * Writes to `out` a copy of the bundle at `path` with one optional part replaced, `{ morph: model }`
 * or `{ tokenizer: model }` (undefined: none), its provenance naming the file the new part came from
 * (`attached`).
 */
export function writeBundleWithPart(
  path: string,
  out: string,
  part: { morph: MorphModel | undefined } | { tokenizer: LearnedTokenizer | undefined },
  attached: string,
): void {
  const [name, model] = Object.entries(part)[0] as ["morph" | "tokenizer", unknown];
  const b: Bundle = { ...readBundle(path) };
  const info = { ...b.info };
  delete b[name];
  delete info[name];
  if (model !== undefined) {
    Object.assign(b, { [name]: model });
    info[name] = { attached };
  }
  writeBundle(out, { ...b, info });
}

/** Reads a bundle written by `writeBundle`. */
export function readBundle(path: string): Bundle {
  return bundleFromModelData(readModelFile(path, BUNDLE_KIND), path);
}
