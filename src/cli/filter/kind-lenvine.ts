import { DEFAULT_LENVINE_COVERAGE, trainLenVine } from "../../prune/train-len-vine.js";
import { numberOption, UsageError } from "../args.js";
import type { FilterKind } from "./kind.js";

/** `--kind lenvine`: one length limit (Len-Vine baseline), chosen on the training data or on dev. */
export const lenVineKind: FilterKind = {
  name: "lenvine",
  summary: "one arc length limit, the smallest keeping a training (or dev) coverage (Len-Vine baseline)",
  options: {
    coverage: { type: "string" },
    "dev-coverage": { type: "string" },
    limit: { type: "string" },
  },
  usage: `  lenvine: --coverage C (training coverage to keep, %, default ${DEFAULT_LENVINE_COVERAGE})
           --dev-coverage C (or the dev coverage to keep; needs --dev)  --limit L (fixed limit instead)`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const coverage = numberOption("filter", "coverage", v.coverage, DEFAULT_LENVINE_COVERAGE, {
      min: 0,
      max: 100,
    });
    const devCoverage =
      v["dev-coverage"] === undefined
        ? undefined
        : numberOption("filter", "dev-coverage", v["dev-coverage"], 0, { min: 0, max: 100 });
    if (devCoverage !== undefined && ctx.dev === undefined)
      throw new UsageError("filter train: --dev-coverage needs --dev");
    const limit =
      v.limit === undefined
        ? undefined
        : numberOption("filter", "limit", v.limit, 1, { integer: true, min: 1 });
    const { pass } = trainLenVine(ctx.train, ctx.vocab, {
      coverage,
      limit,
      dev: ctx.dev,
      devCoverage,
      prefix: ctx.prefix,
    });
    ctx.log(
      `limit ${pass.limit}: training coverage ${pass.info.trainCoverage}%, reduction ${pass.info.trainReduction}%`,
    );
    return [pass];
  },
};
