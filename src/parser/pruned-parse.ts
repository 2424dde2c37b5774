import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { PruningCascade } from "../prune/cascade.js";
import type { DependencyParser, ParseResult } from "./types.js";

/** Parses `s` under the mask `cascade` leaves (default: the parser's own cascade; an empty one = exhaustive). */
export function parsePruned(
  parser: DependencyParser,
  s: Sentence,
  vocab: Vocabularies,
  cascade: PruningCascade = parser.cascade,
): ParseResult {
  return parser.parse(s, vocab, cascade.maskFor(s, vocab));
}
