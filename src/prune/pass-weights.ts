import { VineparseError } from "../errors.js";
import { int16FromPacked, type ModelArray, packInt16, type QuantizedWeights } from "../model/model-file.js";

/** A pass's 16-bit weight table as model-file metadata (size, scale) and arrays (delta, value). */
export function passWeightsToModel(q: QuantizedWeights): {
  meta: { size: number; scale: number };
  arrays: Record<string, ModelArray>;
} {
  const p = packInt16(q);
  return { meta: { size: q.weights.length, scale: p.scale }, arrays: { delta: p.delta, value: p.value } };
}

/** Reads a pass's weight table back (`what` names the pass in one-line errors). */
export function passWeightsFromModel(
  meta: { size?: unknown; scale?: unknown },
  arrays: Record<string, ModelArray>,
  file: string,
  what: string,
): QuantizedWeights {
  const { delta, value } = arrays;
  const size = meta.size;
  if (
    !(delta instanceof Uint32Array) ||
    !(value instanceof Int16Array) ||
    typeof size !== "number" ||
    !(size > 0 && (size & (size - 1)) === 0) ||
    typeof meta.scale !== "number" ||
    !(meta.scale > 0)
  )
    throw new VineparseError("model-corrupt", `corrupted model: ${what} lacks its weights`, file);
  try {
    return int16FromPacked({ delta, value, scale: meta.scale }, size);
  } catch (e) {
    throw new VineparseError(
      "model-corrupt",
      `corrupted model: ${what} weights: ${(e as Error).message}`,
      file,
    );
  }
}

/**
 * A filter's 16-bit table of `size` weights from its file arrays: `weights` as stored (`asScored`,
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
