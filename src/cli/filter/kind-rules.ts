import { exactRuleLearner } from "../../prune/rule-learner.js";
import {
  DEFAULT_RULE_BIAS,
  DEFAULT_RULE_C1,
  DEFAULT_RULE_C1S,
  DEFAULT_RULE_RATIO,
  DEFAULT_RULE_RATIOS,
  DEFAULT_RULES_COVERAGE,
  trainRules,
} from "../../prune/train-rules.js";
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
  summary:
    "PoS-tag rules (not a head, no head left/right, not a root, unlinked tag pairs) from cost-sensitive SVMs",
  options: {
    coverage: { type: "string" },
    c1s: { type: "string" },
    ratios: { type: "string" },
    c1: { type: "string" },
    ratio: { type: "string" },
    bias: { type: "string" },
    tags: { type: "string" },
  },
  usage: `  rules:   --coverage C (dev coverage target, %, default ${DEFAULT_RULES_COVERAGE})  --tags upos|xpos|auto
           --c1s C,C,… and --ratios R,R,… (C1 and C2/C1 grids searched per classifier on dev; defaults
           ${DEFAULT_RULE_C1S.join(",")} and ${DEFAULT_RULE_RATIOS.join(",")})
           --c1 C --ratio R (costs of every classifier without --dev; defaults ${DEFAULT_RULE_C1}, ${DEFAULT_RULE_RATIO})
           --bias B (value of the bias feature, 0 = none; default ${DEFAULT_RULE_BIAS})`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const r = trainRules(ctx.train, ctx.dev, ctx.vocab, {
      learner: exactRuleLearner,
      coverage: numberOption("filter", "coverage", v.coverage, DEFAULT_RULES_COVERAGE, { min: 0, max: 100 }),
      c1s: v.c1s === undefined ? undefined : numberList("c1s", v.c1s),
      ratios: v.ratios === undefined ? undefined : numberList("ratios", v.ratios),
      c1: numberOption("filter", "c1", v.c1, DEFAULT_RULE_C1, { min: 1e-12 }),
      ratio: numberOption("filter", "ratio", v.ratio, DEFAULT_RULE_RATIO, { min: 1e-12 }),
      biasValue: numberOption("filter", "bias", v.bias, DEFAULT_RULE_BIAS, { min: 0 }),
      column: tagColumnOption(v.tags),
      prefix: ctx.prefix,
    });
    if (r.chosen !== null)
      ctx.log(
        `${r.combinations} combinations of rule sets scored on dev; chosen: coverage ${r.chosen.coverage.toFixed(3)}%, reduction ${r.chosen.reduction.toFixed(2)}%`,
      );
    ctx.log(`${r.pass.size} rules`);
    return [r.pass];
  },
};
