import { EisnerDecoder } from "../decode/eisner.js";
import type { FirstOrderDecoder, FirstOrderDecoderName } from "../decode/types.js";

/** Decoder names accepted by the parser. */
export type DecoderName = FirstOrderDecoderName;
export type { FirstOrderDecoder };

/** A fresh first-order decoder by name. */
export function createFirstOrderDecoder(name: DecoderName): FirstOrderDecoder {
  if (name === "eisner") return new EisnerDecoder();
  throw new Error(`decoder ${name} not available yet`);
}
