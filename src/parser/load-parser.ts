import { VineparseError } from "../errors.js";
import { fromModelContent, type ModelData, readModelFile } from "../model/model-file.js";
import { TRANSITION_KIND, TransitionParser } from "../transition/parser.js";
import { HigherOrderParser } from "./higher-order-parser.js";
import { Parser } from "./parser.js";
import type { DependencyParser } from "./types.js";

/**
 * Loads a parser model of any order (dispatching on the order recorded in the file), or a
 * transition-based parser (kind "transition").
 */
export function loadParser(path: string): DependencyParser {
  const m = readModelFile(path);
  if (m.kind !== "parser" && m.kind !== TRANSITION_KIND)
    throw new VineparseError("model-kind", `expected a parser model, found a ${m.kind} model`, path);
  return parserFromModel(m, path);
}

/**
 * Builds a parser of any order, or a transition-based parser, from decoded model-file content
 * (`path` is for error messages).
 */
export function parserFromModel(m: ModelData, path: string): DependencyParser {
  if (m.kind === TRANSITION_KIND) return fromModelContent(path, () => TransitionParser.fromModel(m, path));
  const order = (m.meta as { order?: number }).order;
  if (order === 1) return fromModelContent(path, () => Parser.fromModel(m, path));
  if (order === 2 || order === 3) return fromModelContent(path, () => HigherOrderParser.fromModel(m, path));
  throw new VineparseError(
    "model-kind",
    `order-${order} parser models are not supported by this version`,
    path,
  );
}
