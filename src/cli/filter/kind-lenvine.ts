import { DEFAULT_LENVINE_COVERAGE, trainLenVine } from "../../prune/train-len-vine.js";
import { numberOption } from "../args.js";
import type { FilterKind } from "./kind.js";

/** `--kind lenvine`: one length limit (Len-Vine baseline), chosen on the training data. */
export const lenVineKind: FilterKind = {
  name: "lenvine",
  summary: "one arc length limit, the smallest keeping a training coverage (Len-Vine baseline)",
  options: {
    coverage: { type: "string" },
    limit: { type: "string" },
  },
  usage: `  lenvine: --coverage C (training coverage to keep, %, default ${DEFAULT_LENVINE_COVERAGE})  --limit L (fixed limit instead)`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const coverage = numberOption("filter", "coverage", v.coverage, DEFAULT_LENVINE_COVERAGE, { min: 0, max: 100 });
    const limit = v.limit === undefined ? undefined : numberOption("filter", "limit", v.limit, 1, { integer: true, min: 1 });
    const { pass } = trainLenVine(ctx.train, ctx.vocab, { coverage, limit, prefix: ctx.prefix });
    ctx.log(
      `limit ${pass.limit}: training coverage ${pass.info.trainCoverage}%, reduction ${pass.info.trainReduction}%`,
    );
    return [pass];
  },
};
