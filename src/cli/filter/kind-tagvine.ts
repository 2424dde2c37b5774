import { DEFAULT_TAGVINE_COVERAGE, trainTagVine } from "../../prune/train-tag-vine.js";
import { numberOption, UsageError } from "../args.js";
import type { FilterKind } from "./kind.js";
import { tagColumnOption } from "./tag-column-option.js";

/** `--kind tagvine`: a length limit per [head tag, modifier tag, direction], lowered greedily (Tag-Vine baseline). */
export const tagVineKind: FilterKind = {
  name: "tagvine",
  summary: "a length limit per [head tag, modifier tag, direction], lowered greedily (Tag-Vine baseline)",
  options: {
    coverage: { type: "string" },
    reduction: { type: "string" },
    "dev-coverage": { type: "string" },
    tags: { type: "string" },
  },
  usage: `  tagvine: --coverage C (stop before training coverage falls below C %, default ${DEFAULT_TAGVINE_COVERAGE})
           --reduction R (or stop at training reduction R %)  --dev-coverage C (or stop before dev
           coverage falls below C %; needs --dev; with --tags auto the better column on dev)  --tags upos|xpos|auto`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const pct = (name: string) =>
      v[name] === undefined ? undefined : numberOption("filter", name, v[name], 0, { min: 0, max: 100 });
    const devCoverage = pct("dev-coverage");
    if (devCoverage !== undefined && ctx.dev === undefined)
      throw new UsageError("filter train: --dev-coverage needs --dev");
    const { pass, steps } = trainTagVine(ctx.train, ctx.vocab, {
      coverage: pct("coverage"),
      reduction: pct("reduction"),
      dev: ctx.dev,
      devCoverage,
      column: tagColumnOption(v.tags),
      prefix: ctx.prefix,
    });
    ctx.log(
      `${steps} greedy steps (${pass.tagMap.column.toUpperCase()}): training coverage ${pass.info.trainCoverage}%, reduction ${pass.info.trainReduction}%`,
    );
    return [pass];
  },
};
