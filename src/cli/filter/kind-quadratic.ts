import { DEFAULT_DIST_SCALE } from "../../prune/arc-filter-features.js";
import { DEFAULT_QUADRATIC_COSTS, trainQuadraticFilter } from "../../prune/train-quadratic.js";
import type { ArcMlpTrainOptions } from "../../prune/train-arc-mlp.js";
import { choiceOption, numberOption, UsageError } from "../args.js";
import { costsOption, SVM_OPTIONS, svmOption, svmUsage } from "./kind-linear.js";
import type { FilterKind } from "./kind.js";

/** `--kind quadratic`: the arc filter of Bergsma & Cherry (2010, §4.4), after the --after passes (rules + linear). */
export const quadraticKind: FilterKind = {
  name: "quadratic",
  summary:
    "quadratic arc filter: one classifier per surviving arc (B&C 2010 §4.4; give rules + linear with --after)",
  options: {
    tags: { type: "string" },
    bits: { type: "string" },
    costs: { type: "string" },
    coverage: { type: "string" },
    "dist-scale": { type: "string" },
    sample: { type: "string" },
    coarse: { type: "string" },
    network: { type: "string" },
    "network-words": { type: "string" },
    "network-epochs": { type: "string" },
    ...SVM_OPTIONS,
  },
  usage: `  quadratic: --tags upos|xpos|auto  --bits B (log2 hashed features, default 20)
          --costs C1:C2,… (SVM cost grid, default ${DEFAULT_QUADRATIC_COSTS.map((x) => `${x.c1}:${x.c2}`).join(",")})
          --coverage P (dev coverage target of the whole cascade, %, default 99.5)
          --dist-scale S (distance features are (h-m)/S, default ${DEFAULT_DIST_SCALE})
          --sample P (share of non-arcs trained on, each weighted 1/P; default 0.3)
          --coarse yes|no (with XPOS tags, also features over UPOS: the coarse tag triple with its
            length bucket and neighbours, and counts of each UPOS tag between head and modifier;
            no = the paper's Table 3 features only; default yes)
          --network H (beyond the paper: add an arc network with H hidden units to the linear
            score, its weight chosen on dev and kept only if it prunes more there; 0 = the linear
            classifier alone, as in the paper; default 16)
          --network-words N (words with their own embedding, default 5000)
          --network-epochs E (default 3)
${svmUsage("l2")}`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    if (ctx.dev === undefined)
      throw new UsageError(
        "filter train --kind quadratic: needs --dev (the operating point is chosen on dev)",
      );
    if (ctx.prefix.empty)
      ctx.log("quadratic: no --after passes: training on every arc (the paper runs it after rules + linear)");
    const r = trainQuadraticFilter(ctx.train, ctx.dev, ctx.vocab, {
      learner: svmOption("quadratic", ctx, "l2"),
      tags: choiceOption("filter", "tags", v.tags, ["upos", "xpos", "auto"] as const, "auto"),
      bits: numberOption("filter", "bits", v.bits, 20, { integer: true, min: 8, max: 26 }),
      costs: costsOption("quadratic", v.costs, DEFAULT_QUADRATIC_COSTS),
      coverage: numberOption("filter", "coverage", v.coverage, 99.5, { min: 50, max: 100 }),
      distScale: numberOption("filter", "dist-scale", v["dist-scale"], DEFAULT_DIST_SCALE, { min: 0.001 }),
      sample: numberOption("filter", "sample", v.sample, 0.3, { min: 0.001, max: 1 }),
      coarse: choiceOption("filter", "coarse", v.coarse, ["yes", "no"] as const, "yes") === "yes",
      network: networkOption(v),
      prefix: ctx.prefix,
      log: ctx.log,
    });
    const st = r.settings[r.chosen]!;
    ctx.log(
      `quadratic: chose C1 ${st.c1}, C2 ${st.c2}: dev ${st.coverage}% coverage, ${st.reduction}% reduction`,
    );
    // The Quad curve of Figure 2: per coverage target, the best setting's reduction.
    const curve = st.curve.map((p, i) =>
      r.settings.reduce((best, o) => {
        const q = o.curve[i];
        return q !== undefined && q.reduction > best.reduction ? q : best;
      }, p),
    );
    ctx.log(`quadratic: curve ${curve.map((p) => `${p.coverage}/${p.reduction}`).join(" ")}`);
    const net = r.network;
    if (net !== undefined && net.lambda > 0) {
      ctx.log(
        `quadratic: with the arc network (λ ${net.lambda}): dev ${net.coverage}% coverage, ${net.reduction}% reduction`,
      );
      ctx.log(`quadratic: network curve ${net.curve.map((p) => `${p.coverage}/${p.reduction}`).join(" ")}`);
    }
    return [r.filter];
  },
};

/** The --network options as `trainQuadraticFilter`'s `network` (false for --network 0). */
function networkOption(v: Record<string, string | undefined>): ArcMlpTrainOptions | false {
  const hidden = numberOption("filter", "network", v.network, 16, { integer: true, min: 0, max: 256 });
  if (hidden === 0) return false;
  return {
    hidden,
    words: numberOption("filter", "network-words", v["network-words"], 5000, { integer: true, min: 0 }),
    epochs: numberOption("filter", "network-epochs", v["network-epochs"], 3, {
      integer: true,
      min: 1,
      max: 100,
    }),
  };
}
