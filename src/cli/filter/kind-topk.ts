import { trainTopKFilter } from "../../prune/train-top-k.js";
import { choiceOption, numberOption } from "../args.js";
import type { FilterKind } from "./kind.js";

/** `--kind topk`: a first-order model whose best k heads per token survive (the FirstOnly baseline). */
export const topKKind: FilterKind = {
  name: "topk",
  summary: "first-order top-k heads per token (FirstOnly baseline; own first-order model)",
  options: {
    k: { type: "string" },
    rank: { type: "string" },
    epochs: { type: "string" },
    bits: { type: "string" },
    seed: { type: "string" },
  },
  usage: `  topk:   --k K (heads per token, default 10)  --rank max-marginal|score  --epochs N (default 10)
          --bits B (log2 weight table, default 20)  --seed N`,
  train(ctx) {
    const v = ctx.values as Record<string, string | undefined>;
    const pass = trainTopKFilter(ctx.train, ctx.dev, ctx.vocab, {
      k: numberOption("filter", "k", v.k, 10, { integer: true, min: 1 }),
      rank: choiceOption("filter", "rank", v.rank, ["max-marginal", "score"] as const, "max-marginal"),
      epochs: numberOption("filter", "epochs", v.epochs, 10, { integer: true, min: 1 }),
      bits: numberOption("filter", "bits", v.bits, 20, { integer: true, min: 10, max: 28 }),
      seed: numberOption("filter", "seed", v.seed, 1, { integer: true }),
      prefix: ctx.prefix,
      onEpoch: (r) =>
        ctx.log(
          `epoch ${r.epoch}: ${r.seconds.toFixed(1)} s${r.dev === null ? "" : `, dev UAS ${r.dev.uasNoPunct.toFixed(2)}`}`,
        ),
    });
    return [pass];
  },
};
