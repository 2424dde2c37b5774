import { VineparseError } from "../errors.js";
import type { ModelArray, ModelData } from "./model-file.js";

/**
 * How one model is nested inside another model file: its kind and metadata stay in the container's
 * metadata, its arrays move into the container's array table under `<prefix>/<name>`. Prefixes
 * compose (`parser/prune/0/weights`), so a bundle is just the composition of its parts.
 */
export interface NestedPart {
  /** Model-file kind of the part (e.g. "tagger", "parser", "tagvine"). */
  kind: string;
  /** Its metadata. */
  meta: Record<string, unknown>;
}

/** Stores `m`'s arrays in `arrays` under `prefix/` and returns the part's kind and metadata. */
export function nestModel(prefix: string, m: ModelData, arrays: Record<string, ModelArray>): NestedPart {
  for (const [k, v] of Object.entries(m.arrays)) arrays[`${prefix}/${k}`] = v;
  return { kind: m.kind, meta: m.meta };
}

/**
 * Rebuilds a nested model from its container: the part's kind and metadata (checked to be an object
 * with a string kind; `what` names it in errors) and the container's arrays under `prefix/`.
 */
export function unnestModel(
  prefix: string,
  container: ModelData,
  part: unknown,
  file: string,
  what: string,
): ModelData {
  const p = part as Partial<NestedPart> | null;
  if (
    p === null ||
    typeof p !== "object" ||
    typeof p.kind !== "string" ||
    p.meta === null ||
    typeof p.meta !== "object"
  ) {
    throw new VineparseError("model-corrupt", `corrupted model: ${what} has no kind or metadata`, file);
  }
  const arrays: ModelData["arrays"] = {};
  const pre = `${prefix}/`;
  for (const [k, v] of Object.entries(container.arrays))
    if (k.startsWith(pre)) arrays[k.slice(pre.length)] = v;
  return { kind: p.kind, meta: p.meta, arrays };
}
