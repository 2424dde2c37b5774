import { DEFAULT_TAGVINE_COVERAGE, trainTagVine } from "../../prune/train-tag-vine.js";
import { numberOption } from "../args.js";
import type { FilterKind } from "./kind.js";
import { tagColumnOption } from "./tag-column-option.js";

/** `--kind tagvine`: a length limit per [head tag, modifier tag, direction], lowered greedily (Tag-Vine baseline). */
export const tagVineKind: FilterKind = {
  name: "tagvine",
  summary: "a length limit per [head tag, modifier tag, direction], lowered greedily (Tag-Vine baseline)",
  options: {
    coverage: { type: "string" },
    reduction: { type: "string" },
    tags: { type: "string" },
  },
  usage: `  tagvine: --coverage C (stop before training coverage falls below C %, default ${DEFAULT_TAGVINE_COVERAGE})
           --reduction R (or stop at training reduction R %)  --tags upos|xpos|auto`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const coverage =
      v.coverage === undefined ? undefined : numberOption("filter", "coverage", v.coverage, 0, { min: 0, max: 100 });
    const reduction =
      v.reduction === undefined ? undefined : numberOption("filter", "reduction", v.reduction, 0, { min: 0, max: 100 });
    const { pass, steps } = trainTagVine(ctx.train, ctx.vocab, {
      coverage,
      reduction,
      column: tagColumnOption(v.tags),
      prefix: ctx.prefix,
    });
    ctx.log(
      `${steps} greedy steps: training coverage ${pass.info.trainCoverage}%, reduction ${pass.info.trainReduction}%`,
    );
    return [pass];
  },
};
