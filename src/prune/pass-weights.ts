import { VineparseError } from "../errors.js";
import { int16FromPacked, type ModelArray, type QuantizedWeights } from "../model/model-file.js";

/**
 * A pass's 16-bit weight table as model-file metadata (size, scale) and arrays: the table as scored
 * (`weights`), which loads without a copy. Layouts before it stored the non-zero entries delta-coded
 * (`delta`, `value`): a uint32 and an int16 per entry, three times the table for the nearly dense
 * tables that max-marginal and vine passes learn, and a second copy while the table was rebuilt.
 */
export function passWeightsToModel(q: QuantizedWeights): {
  meta: { size: number; scale: number };
  arrays: Record<string, ModelArray>;
} {
  return { meta: { size: q.weights.length, scale: q.scale }, arrays: { weights: q.weights } };
}

/**
 * Reads a pass's weight table back: as scored (`asScored`, the current layouts) or delta-coded (older
 * ones); `what` names the pass in one-line errors.
 */
export function passWeightsFromModel(
  meta: { size?: unknown; scale?: unknown },
  arrays: Record<string, ModelArray>,
  asScored: boolean,
  file: string,
  what: string,
): QuantizedWeights {
  const size = meta.size;
  const bad = (why: string) => new VineparseError("model-corrupt", `corrupted model: ${what} ${why}`, file);
  if (
    typeof size !== "number" ||
    !(size > 0 && (size & (size - 1)) === 0) ||
    typeof meta.scale !== "number" ||
    !(meta.scale > 0)
  )
    throw bad("lacks its weights");
  return { weights: int16TableFromModel(arrays, size, asScored, bad), scale: meta.scale };
}

/**
 * A pass's or filter's 16-bit table of `size` weights from its file arrays: `weights` as stored (`asScored`,
 * the current layouts) or, in older layouts, its non-zero entries delta-coded (`delta`, `value`).
 * `bad(what)` makes the one-line error for a malformed file.
 */
export function int16TableFromModel(
  arrays: Record<string, ModelArray>,
  size: number,
  asScored: boolean,
  bad: (what: string) => Error,
): Int16Array {
  if (asScored) {
    const w = arrays.weights;
    if (!(w instanceof Int16Array) || w.length !== size) throw bad("lacks its weights");
    return w;
  }
  const { delta, value } = arrays;
  if (!(delta instanceof Uint32Array) || !(value instanceof Int16Array) || delta.length !== value.length)
    throw bad("lacks its weights");
  try {
    return int16FromPacked({ delta, value, scale: 1 }, size).weights;
  } catch (e) {
    throw bad(`weights: ${(e as Error).message}`);
  }
}
