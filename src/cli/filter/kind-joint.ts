import { loadCascade } from "../../prune/load-pruner.js";
import { svmLearner } from "../../prune/svm-learner.js";
import { trainJointFilter } from "../../prune/train-joint.js";
import { trainTokenRoleFilter } from "../../prune/train-token-roles.js";
import { TokenRoleFilter } from "../../prune/token-role-filter.js";
import { choiceOption, numberOption, UsageError } from "../args.js";
import type { FilterKind } from "./kind.js";

const yesNo = (name: string, v: string | undefined) =>
  choiceOption("filter", name, v, ["yes", "no"] as const, "yes") === "yes";

/** `--kind joint`: the jointly trained filter of Bergsma & Cherry (2011), token roles + Vine + None. */
export const jointKind: FilterKind = {
  name: "joint",
  summary:
    "jointly trained filter: token-role events, Vine and a learned None threshold in one latent SVM (B&C 2011)",
  options: {
    init: { type: "string" },
    tags: { type: "string" },
    bits: { type: "string" },
    costs: { type: "string" },
    coverage: { type: "string" },
    vine: { type: "string" },
    none: { type: "string" },
    "pair-length": { type: "string" },
    span: { type: "string" },
    lexical: { type: "string" },
    alternations: { type: "string" },
    sample: { type: "string" },
    eps: { type: "string" },
    "max-iter": { type: "string" },
    "first-vine": { type: "string" },
    "cross-root": { type: "string" },
  },
  usage: `  joint: --init FILE (independently trained linear filter, or a cascade ending in one, whose
            subclassifiers start the latent SVM; default: train one first, as --kind linear)
          --costs C1:C0 (cost of an arc to filter : of an arc to keep, default 0.0001:0.01, chosen on en_ewt dev)
          --coverage P (dev coverage target of the whole cascade, %, default 99.7)
          --vine yes|no  --none yes|no (the Vine event / a learned None threshold; default yes)
          --pair-length yes|no (Vine and None also get [HeadTag ModTag Dir LenClass] features; default yes)
          --span yes|no (and features of what lies between head and modifier: punctuation, a verb,
            a conjunction, by UPOS; default yes, needs --pair-length yes)
          --lexical yes|no (and the hashed word features [HeadTag ModWord Dir], [HeadWord ModTag Dir];
            default no, needs --span yes)
          --alternations N (latent SVM alternations, best on dev kept; default 6)
          --sample S (share of the arcs to filter used for training, default 1)
          --eps E (solver tolerance, default 0.1)  --max-iter N (solver passes per alternation, default 200)
          --first-vine yes|no (the untrained Vine event competes in the first assignment; default no)
          --tags upos|xpos|auto  --bits B (without --init)
          --cross-root yes|no (Root events also filter arcs crossing the root; default yes)`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    if (ctx.dev === undefined)
      throw new UsageError("filter train --kind joint: needs --dev (operating points are chosen on dev)");
    const coverage = numberOption("filter", "coverage", v.coverage, 99.7, { min: 50, max: 100 });
    const crossRoot = yesNo("cross-root", v["cross-root"]);
    const tags = choiceOption("filter", "tags", v.tags, ["upos", "xpos", "auto"] as const, "auto");
    const bits = numberOption("filter", "bits", v.bits, 18, { integer: true, min: 8, max: 24 });
    let c1 = 0.0001;
    let c0 = 0.01;
    if (v.costs !== undefined) {
      const m = /^\s*([0-9.eE+-]+)\s*:\s*([0-9.eE+-]+)\s*$/.exec(v.costs);
      c1 = m === null ? Number.NaN : Number(m[1]);
      c0 = m === null ? Number.NaN : Number(m[2]);
      if (!(c1 > 0 && c0 > 0 && Number.isFinite(c1) && Number.isFinite(c0)))
        throw new UsageError(
          `filter train --kind joint: --costs must look like "0.01:1" (C1:C0), got "${v.costs}"`,
        );
    }
    let init: TokenRoleFilter;
    let initName: string;
    if (v.init !== undefined) {
      const passes = loadCascade(v.init).passes;
      const last = passes[passes.length - 1];
      if (!(last instanceof TokenRoleFilter))
        throw new UsageError(`filter train --kind joint: --init ${v.init} does not end in a linear filter`);
      init = last;
      initName = v.init;
    } else {
      ctx.log(
        "joint: training the independent token-role filter (B&C 2010) that initialises the subclassifiers",
      );
      init = trainTokenRoleFilter(ctx.train, ctx.dev, ctx.vocab, {
        learner: svmLearner,
        tags,
        bits,
        coverage,
        crossRoot,
        prefix: ctx.prefix,
        log: ctx.log,
      }).filter;
      initName = "an independently trained linear filter";
    }
    const pairLength = yesNo("pair-length", v["pair-length"]);
    const span = v.span === undefined ? pairLength : yesNo("span", v.span);
    if (span && !pairLength)
      throw new UsageError("filter train --kind joint: --span yes needs --pair-length yes");
    const lexical = choiceOption("filter", "lexical", v.lexical, ["yes", "no"] as const, "no") === "yes";
    if (lexical && !span) throw new UsageError("filter train --kind joint: --lexical yes needs --span yes");
    const r = trainJointFilter(ctx.train, ctx.dev, ctx.vocab, {
      init,
      initName,
      c1,
      c0,
      vine: yesNo("vine", v.vine),
      firstVine:
        choiceOption("filter", "first-vine", v["first-vine"], ["yes", "no"] as const, "no") === "yes",
      none: yesNo("none", v.none),
      pairLength,
      span,
      lexical,
      alternations: numberOption("filter", "alternations", v.alternations, 6, {
        integer: true,
        min: 1,
        max: 50,
      }),
      coverage,
      crossRoot,
      prefix: ctx.prefix,
      sample: numberOption("filter", "sample", v.sample, 1, { min: 1e-6, max: 1 }),
      eps: numberOption("filter", "eps", v.eps, 0.1, { min: 1e-9 }),
      maxIter: numberOption("filter", "max-iter", v["max-iter"], 200, { integer: true, min: 1 }),
      log: ctx.log,
    });
    ctx.log(
      `joint: kept alternation ${r.chosen} of ${r.alternations.length}: dev ${r.coverage}% coverage, ${r.reduction}% reduction; ${r.seconds.toFixed(1)} s`,
    );
    return [r.filter];
  },
};
