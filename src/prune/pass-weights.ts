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
