import { exactRuleLearner } from "../../prune/rule-learner.js";
import { DEFAULT_RULE_RATIOS, DEFAULT_RULES_COVERAGE, trainRules } from "../../prune/train-rules.js";
import { numberOption, UsageError } from "../args.js";
import type { FilterKind } from "./kind.js";
import { tagColumnOption } from "./tag-column-option.js";

/** Parses a list of positive numbers "1,10,100". */
function numberList(name: string, text: string): number[] {
  const out = text.split(",").map((x) => (x.trim() === "" ? Number.NaN : Number(x)));
  if (out.some((x) => !(x > 0) || !Number.isFinite(x)))
    throw new UsageError(`filter: --${name} must be positive numbers separated by commas, got "${text}"`);
  return out;
}

/** `--kind rules`: PoS-only rules learned by high-precision SVMs, costs chosen on dev (B&C 2010 §4.2). */
export const rulesKind: FilterKind = {
  name: "rules",
  summary: "PoS-tag rules (not a head, no head left/right, not a root, unlinked tag pairs) from cost-sensitive SVMs",
  options: {
    coverage: { type: "string" },
    ratios: { type: "string" },
    ratio: { type: "string" },
    c1: { type: "string" },
    tags: { type: "string" },
  },
  usage: `  rules:   --coverage C (dev coverage target, %, default ${DEFAULT_RULES_COVERAGE})  --tags upos|xpos|auto
           --ratios R,R,… (C2/C1 grid searched per classifier on dev, default ${DEFAULT_RULE_RATIOS.join(",")})
           --ratio R (C2/C1 of every classifier without --dev; default the largest of --ratios)  --c1 C (default 1)`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const ratios = v.ratios === undefined ? undefined : numberList("ratios", v.ratios);
    const r = trainRules(ctx.train, ctx.dev, ctx.vocab, {
      learner: exactRuleLearner,
      coverage: numberOption("filter", "coverage", v.coverage, DEFAULT_RULES_COVERAGE, { min: 0, max: 100 }),
      ratios,
      ratio: v.ratio === undefined ? undefined : numberOption("filter", "ratio", v.ratio, 1, { min: 1e-12 }),
      c1: numberOption("filter", "c1", v.c1, 1, { min: 1e-12 }),
      column: tagColumnOption(v.tags),
      prefix: ctx.prefix,
    });
    if (r.chosen !== null)
      ctx.log(
        `${r.combinations} cost combinations scored on dev; chosen: coverage ${r.chosen.coverage.toFixed(3)}%, reduction ${r.chosen.reduction.toFixed(2)}%`,
      );
    ctx.log(`${r.pass.size} rules`);
    return [r.pass];
  },
};
