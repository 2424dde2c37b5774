import { VineparseError } from "../errors.js";
import { fromModelContent, type ModelData, readModelFile } from "../model/model-file.js";
import { HigherOrderParser } from "./higher-order-parser.js";
import { Parser } from "./parser.js";
import type { DependencyParser } from "./types.js";

/** Loads a parser model of any order (dispatching on the order recorded in the file). */
export function loadParser(path: string): DependencyParser {
  return parserFromModel(readModelFile(path, "parser"), path);
}

/** Builds a parser of any order from decoded model-file content (`path` is for error messages). */
export function parserFromModel(m: ModelData, path: string): DependencyParser {
  const order = (m.meta as { order?: number }).order;
  if (order === 1) return fromModelContent(path, () => Parser.fromModel(m, path));
  if (order === 2 || order === 3) return fromModelContent(path, () => HigherOrderParser.fromModel(m, path));
  throw new VineparseError(
    "model-kind",
    `order-${order} parser models are not supported by this version`,
    path,
  );
}
