import { parseCostGrid } from "../../prune/filter-learner.js";
import { makeSvmLearner } from "../../prune/svm-learner.js";
import { roleAblation } from "../../prune/token-role-analysis.js";
import {
  DEFAULT_ROLE_COSTS,
  DEFAULT_ROLE_LEVELS,
  trainTokenRoleFilter,
} from "../../prune/train-token-roles.js";
import { choiceOption, numberOption, UsageError } from "../args.js";
import type { FilterKind, FilterTrainContext } from "./kind.js";

/** Parses --costs (a grid "C1:C2,…") or returns the default. */
export function costsOption(
  kind: string,
  text: string | undefined,
  fallback: readonly { c1: number; c2: number }[],
) {
  if (text === undefined) return fallback;
  const grid = parseCostGrid(text);
  if (grid === null)
    throw new UsageError(
      `filter train --kind ${kind}: --costs must look like "0.1:1,0.1:10" (C1:C2 pairs), got "${text}"`,
    );
  return grid;
}

/** The SVM learner of a filter kind, from --loss (default `loss`) and --eps, logging each training run. */
export function svmOption(kind: string, ctx: FilterTrainContext, loss: "l1" | "l2" = "l1") {
  const v = ctx.values as Record<string, string | undefined>;
  return makeSvmLearner({
    loss: choiceOption("filter", "loss", v.loss, ["l1", "l2"] as const, loss),
    eps: numberOption("filter", "eps", v.eps, 0.5, { min: 1e-6 }),
    maxIter: numberOption("filter", "max-iter", v["max-iter"], 25, { integer: true, min: 1 }),
    onTrained: (r) =>
      ctx.log(
        `${kind}: SVM on ${r.rows} examples: ${r.iterations} passes${r.converged ? "" : " (not converged)"}, ${r.seconds.toFixed(1)} s`,
      ),
  });
}

/** Options every SVM-trained kind takes. */
export const SVM_OPTIONS = {
  loss: { type: "string" },
  eps: { type: "string" },
  "max-iter": { type: "string" },
} as const;

/** Usage lines of `SVM_OPTIONS` for a kind whose default loss is `loss`. */
export const svmUsage = (loss: "l1" | "l2") =>
  `          --loss l1|l2 (SVM hinge or squared hinge, default ${loss})  --eps E (SVM tolerance, default 0.5)\n` +
  "          --max-iter N (most SVM passes, default 25)";

const fmt = (c: readonly { c1: number; c2: number }[]) => c.map((x) => `${x.c1}:${x.c2}`).join(",");

/** `--kind linear`: the token-role filter of Bergsma & Cherry (2010, §4.3), after the --after passes (e.g. rules). */
export const linearKind: FilterKind = {
  name: "linear",
  summary: "token-role filter: 8 linear decisions per token (B&C 2010 §4.3; give the rules with --after)",
  options: {
    tags: { type: "string" },
    bits: { type: "string" },
    costs: { type: "string" },
    coverage: { type: "string" },
    levels: { type: "string" },
    "cross-root": { type: "string" },
    ...SVM_OPTIONS,
  },
  usage: `  linear: --tags upos|xpos|auto  --bits B (log2 hashed features, default 18)
          --costs C1:C2,… (SVM cost grid, default ${fmt(DEFAULT_ROLE_COSTS)})
          --coverage P (dev coverage target of the whole cascade, %, default 99.7)
          --levels L,… (candidate losses per decision, % of dev gold arcs, default ${DEFAULT_ROLE_LEVELS.join(",")})
          --cross-root yes|no (a detected root also removes arcs crossing it; default yes)
${svmUsage("l1")}`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    if (ctx.dev === undefined)
      throw new UsageError("filter train --kind linear: needs --dev (operating points are chosen on dev)");
    let levels: number[] = [...DEFAULT_ROLE_LEVELS];
    if (v.levels !== undefined) {
      levels = v.levels.split(",").map((x) => Number(x));
      if (levels.length < 1 || levels.length > 14 || levels.some((x) => !(x >= 0 && x <= 100)))
        throw new UsageError(
          `filter train --kind linear: --levels must be 1–14 percentages, got "${v.levels}"`,
        );
    }
    const r = trainTokenRoleFilter(ctx.train, ctx.dev, ctx.vocab, {
      learner: svmOption("linear", ctx),
      tags: choiceOption("filter", "tags", v.tags, ["upos", "xpos", "auto"] as const, "auto"),
      bits: numberOption("filter", "bits", v.bits, 18, { integer: true, min: 8, max: 24 }),
      costs: costsOption("linear", v.costs, DEFAULT_ROLE_COSTS),
      coverage: numberOption("filter", "coverage", v.coverage, 99.7, { min: 50, max: 100 }),
      levels,
      crossRoot:
        choiceOption("filter", "cross-root", v["cross-root"], ["yes", "no"] as const, "yes") === "yes",
      prefix: ctx.prefix,
      log: ctx.log,
    });
    ctx.log(`linear: dev ${r.predicted.coverage}% coverage, ${r.predicted.reduction}% reduction (search)`);
    ctx.log(`linear: curve ${r.curve.map((p) => `${p.coverage}/${p.reduction}`).join(" ")}`);
    for (const row of roleAblation(r.filter, ctx.dev, ctx.vocab, ctx.prefix))
      ctx.log(
        `linear: ${row.name.padEnd(16)} coverage ${row.coverage}%, reduction ${row.reduction}%, oracle ${row.oracleReduction}%`,
      );
    return [r.filter];
  },
};
