import { VineparseError } from "../errors.js";
import type { DependencyParser } from "../parser/types.js";
import { PruningCascade } from "./cascade.js";
import { loadCascade } from "./load-pruner.js";
import type { ArcPruner } from "./pruner.js";
import { TopKPruner } from "./top-k.js";

/** One item of a `--prune` specification. */
export type PruneSpecItem =
  | { type: "none" }
  | { type: "default" }
  | { type: "topk"; k: number; above: number }
  | { type: "vine" }
  | { type: "file"; path: string };

/** Heads per token of a `topk` item without a number. */
export const DEFAULT_TOP_K = 10;

/**
 * Parses a `--prune` specification: a comma-separated list of `none` (alone: no pruning), `default`
 * (the model's own cascade), `topk[:K]` (each token's K best heads by the parser's first-order model),
 * `topk:K:A` (the same, by arc score, only in sentences keeping more than A heads per token on average),
 * `vine` (train only: train a vine-pruning cascade with the model) and filter or cascade files,
 * applied in that order.
 */
export function parsePruneSpec(spec: string): PruneSpecItem[] {
  const parts = spec.split(",").map((p) => p.trim());
  if (parts.some((p) => p === ""))
    throw new VineparseError("usage", `--prune: empty item in "${spec}" (give FILTER[,FILTER…] or none)`);
  const items = parts.map((p): PruneSpecItem => {
    if (p === "none") return { type: "none" };
    if (p === "default") return { type: "default" };
    if (p === "vine") return { type: "vine" };
    const m = /^topk(?::(\d+)(?::(\d+))?)?$/.exec(p);
    if (m !== null) {
      const k = m[1] === undefined ? DEFAULT_TOP_K : Number(m[1]);
      const above = m[2] === undefined ? 0 : Number(m[2]);
      if (!(k >= 1)) throw new VineparseError("usage", `--prune: topk needs K ≥ 1, got "${p}"`);
      if (m[2] !== undefined && !(above >= 1))
        throw new VineparseError("usage", `--prune: topk:K:A needs A ≥ 1, got "${p}"`);
      return { type: "topk", k, above };
    }
    if (p.startsWith("topk:"))
      throw new VineparseError(
        "usage",
        `--prune: "${p}" is neither topk:K nor topk:K:A (K, A whole numbers)`,
      );
    return { type: "file", path: p };
  });
  if (items.length > 1 && items.some((i) => i.type === "none"))
    throw new VineparseError("usage", '--prune: "none" cannot be combined with other passes');
  return items;
}

/**
 * A top-k pass over a parser's first-order weights (stored without them: it binds to the parser). With
 * `above` > 0 it is a guard (see `TopKPruner`) and ranks by arc score: the sentences it acts on are
 * the long, dense ones where the max-marginals' cubic dynamic program would cost the most.
 */
export function topKFor(parser: DependencyParser, k: number, above = 0): TopKPruner {
  const w = parser.firstOrderWeights;
  if (w === null)
    throw new VineparseError(
      "usage",
      "--prune topk: this parser has no first-order model to rank heads with",
    );
  return new TopKPruner(
    w,
    k,
    Number.POSITIVE_INFINITY,
    above > 0 ? "score" : "max-marginal",
    "parser",
    above,
  );
}

/** The cascade a `--prune` specification names, for parsing with `parser`. */
export function resolvePruneSpec(spec: string, parser: DependencyParser): PruningCascade {
  const passes: ArcPruner[] = [];
  for (const item of parsePruneSpec(spec)) {
    if (item.type === "none") return new PruningCascade();
    if (item.type === "default") passes.push(...parser.cascade.passes);
    else if (item.type === "topk") passes.push(topKFor(parser, item.k, item.above));
    else if (item.type === "vine")
      throw new VineparseError(
        "usage",
        "--prune vine: a vine cascade is trained with the model (vineparse train --prune vine); parse with --prune default",
      );
    else
      passes.push(...loadCascade(item.path, { parserWeights: parser.firstOrderWeights ?? undefined }).passes);
  }
  return new PruningCascade(passes);
}
