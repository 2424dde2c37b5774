import { VineparseError } from "../errors.js";
import { ChuLiuEdmondsDecoder } from "./chu-liu-edmonds.js";
import { EisnerDecoder } from "./eisner.js";
import type { FirstOrderDecoder, FirstOrderDecoderName, FirstOrderOptions } from "./types.js";

/** Every first-order decoder name, in the order `--help` should list them. */
export const FIRST_ORDER_DECODERS: readonly FirstOrderDecoderName[] = ["eisner", "mst"];

/** Whether a string names a first-order decoder. */
export function isFirstOrderDecoderName(name: string): name is FirstOrderDecoderName {
  return (FIRST_ORDER_DECODERS as readonly string[]).includes(name);
}

/** A new first-order decoder by name: "eisner" (projective) or "mst" (Chu-Liu/Edmonds, non-projective). */
export function createFirstOrderDecoder(name: string, options: FirstOrderOptions = {}): FirstOrderDecoder {
  switch (name) {
    case "eisner":
      return new EisnerDecoder(options);
    case "mst":
      return new ChuLiuEdmondsDecoder(options);
    default:
      throw new VineparseError(
        "unknown-decoder",
        `unknown decoder "${name}" (expected one of: ${FIRST_ORDER_DECODERS.join(", ")})`,
      );
  }
}
