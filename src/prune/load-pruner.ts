import { VineparseError } from "../errors.js";
import { type ModelData, type QuantizedWeights, readModelFile } from "../model/model-file.js";
import { unnestModel } from "../model/nest.js";
import { CASCADE_KIND, CASCADE_VERSION, PruningCascade, passPrefix } from "./cascade.js";
import { JOINT_KIND, JointFilter } from "./joint-filter.js";
import { LENVINE_KIND, LenVinePruner } from "./len-vine.js";
import { MAX_MARGINAL_KIND, MaxMarginalPass } from "./max-marginal-pass.js";
import { PosRulesPruner, RULES_KIND } from "./pos-rules.js";
import type { ArcPruner } from "./pruner.js";
import { QUADRATIC_KIND, QuadraticFilter } from "./quadratic-filter.js";
import { TAGVINE_KIND, TagVinePruner } from "./tag-vine.js";
import { LINEAR_KIND, TokenRoleFilter } from "./token-role-filter.js";
import { TOPK_KIND, TopKPruner } from "./top-k.js";
import { VINE_KIND, VinePass } from "./vine-pass.js";

/** What a pass may bind to when it is loaded inside a parser model (e.g. the parser's first-order weights). */
export interface PrunerContext {
  /** First-order arc weights of the enclosing parser, for passes stored without weights of their own. */
  parserWeights?: QuantizedWeights;
}

/** The kinds of pruning pass this version can load. */
export const PRUNER_KINDS: readonly string[] = [
  TOPK_KIND,
  LENVINE_KIND,
  TAGVINE_KIND,
  RULES_KIND,
  LINEAR_KIND,
  QUADRATIC_KIND,
  JOINT_KIND,
  VINE_KIND,
  MAX_MARGINAL_KIND,
];

/** Builds one pruning pass from its model-file content, by the kind stored in it. */
export function prunerFromModelData(m: ModelData, file: string, ctx: PrunerContext = {}): ArcPruner {
  switch (m.kind) {
    case TOPK_KIND:
      return TopKPruner.fromModelData(m, file, ctx.parserWeights);
    case LENVINE_KIND:
      return LenVinePruner.fromModelData(m, file);
    case TAGVINE_KIND:
      return TagVinePruner.fromModelData(m, file);
    case RULES_KIND:
      return PosRulesPruner.fromModelData(m, file);
    case LINEAR_KIND:
      return TokenRoleFilter.fromModelData(m, file);
    case QUADRATIC_KIND:
      return QuadraticFilter.fromModelData(m, file);
    case JOINT_KIND:
      return JointFilter.fromModelData(m, file);
    case VINE_KIND:
      return VinePass.fromModelData(m, file);
    case MAX_MARGINAL_KIND:
      return MaxMarginalPass.fromModelData(m, file);
    case "parser":
    case "pipeline":
      throw new VineparseError(
        "model-kind",
        `a ${m.kind} model, not a filter or cascade file ("default" names a model's own cascade)`,
        file,
      );
    default:
      throw new VineparseError(
        "model-kind",
        `unknown pruning pass kind "${m.kind}" (this version knows ${PRUNER_KINDS.join(", ")})`,
        file,
      );
  }
}

/** Rebuilds the passes stored by `PruningCascade.toParts` in `container` (metadata list `parts`). */
export function cascadeFromParts(
  parts: unknown,
  container: ModelData,
  file: string,
  ctx: PrunerContext = {},
): PruningCascade {
  if (!Array.isArray(parts))
    throw new VineparseError("model-corrupt", "corrupted model: the pruning passes are not a list", file);
  const passes = parts.map((part, i) =>
    prunerFromModelData(
      unnestModel(passPrefix(i), container, part, file, `pruning pass ${i + 1}`),
      file,
      ctx,
    ),
  );
  return new PruningCascade(passes);
}

/** A cascade from a filter or cascade file's content: a cascade file's passes, or one pass. */
export function cascadeFromModelData(m: ModelData, file: string, ctx: PrunerContext = {}): PruningCascade {
  if (m.kind !== CASCADE_KIND) return new PruningCascade([prunerFromModelData(m, file, ctx)]);
  const meta = m.meta as { version?: number; passes?: unknown };
  if (meta.version !== CASCADE_VERSION)
    throw new VineparseError("model-version", `cascade file version ${meta.version} is not supported`, file);
  return cascadeFromParts(meta.passes, m, file, ctx);
}

/** Loads a filter file (one pass) or a cascade file (several) as a cascade. */
export function loadCascade(path: string, ctx: PrunerContext = {}): PruningCascade {
  return cascadeFromModelData(readModelFile(path), path, ctx);
}

/** Writes a cascade (or a single pass) as a model file, atomically. */
export function cascadeModelData(c: PruningCascade): ModelData {
  return c.passes.length === 1 ? c.passes[0]!.toModelData() : c.toModelData();
}
