// The token-role scoring kernels against each other: each filter file's cascade run over dev with its
// token-role weights summed by the WebAssembly SIMD kernel and by the JavaScript loop, interleaved.
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import type { Cell } from "../src/eval/table.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { JointFilter } from "../src/prune/joint-filter.js";
import { loadCascade } from "../src/prune/load-pruner.js";
import type { ArcPruner } from "../src/prune/pruner.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { hasSimdKernel } from "../src/prune/token-score-kernel.js";
import { BenchAbort, type BenchContext, type Experiment, median } from "./lib.js";

/** The same pass with its token-role weights summed by the JavaScript loop. */
function withJsKernel(p: ArcPruner): ArcPruner {
  if (p instanceof TokenRoleFilter)
    return new TokenRoleFilter(
      p.tagMap,
      p.bits,
      p.weights,
      p.scales,
      p.thresholds,
      p.crossRoot,
      p.info,
      "js",
    );
  if (p instanceof JointFilter)
    return new JointFilter(
      withJsKernel(p.roles) as TokenRoleFilter,
      p.vine,
      p.none,
      p.bias,
      p.info,
      p.pairLength,
      p.span,
    );
  return p;
}

/**
 * `npm run bench -- token-kernel --filters F,F,… --dev D [--reps 9]`: for each filter (or cascade)
 * file, the time to filter all of D with each kernel (median of `reps` rounds, A B A B …, after a
 * warm-up round), their ratio, and whether both kept exactly the same arcs.
 */
export const experiment: Experiment = {
  summary: "token-role scoring: WebAssembly SIMD kernel against the JavaScript loop (filter time on dev)",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("token-kernel", args, {
      filters: { type: "string" },
      dev: { type: "string" },
      reps: { type: "string" },
    });
    if (values.filters === undefined || values.dev === undefined)
      throw new BenchAbort("token-kernel: --filters F,F,… and --dev D (predicted tags) are required", 2);
    if (!hasSimdKernel()) throw new BenchAbort("token-kernel: this runtime has no WebAssembly SIMD", 1);
    const reps = numberOption("token-kernel", "reps", values.reps, 9, { integer: true, min: 1 });
    ctx.note(ctx.header());
    const vocab = new Vocabularies();
    const dev = loadCorpus(values.dev, vocab).sentences;
    const tokens = dev.reduce((a, s) => a + s.n, 0);
    ctx.note(`dev ${values.dev}: ${dev.length} sentences, ${tokens} tokens`);
    const rows: Cell[][] = [];
    for (const file of values.filters.split(",")) {
      const simd = loadCascade(file);
      const js = new PruningCascade(simd.passes.map(withJsKernel));
      const pair = [simd, js];
      const runs = pair.map((c) => evaluateCascade(c, dev, vocab));
      const times: number[][] = [[], []];
      for (let r = 0; r < reps; r++)
        pair.forEach((c, i) => times[i]!.push(evaluateCascade(c, dev, vocab).seconds));
      const [a, b] = times.map(median) as [number, number];
      const same =
        runs[0]!.scores.coverage === runs[1]!.scores.coverage &&
        runs[0]!.scores.reduction === runs[1]!.scores.reduction;
      rows.push([
        file,
        Number(runs[0]!.scores.reduction.toFixed(2)),
        Number((a * 1000).toFixed(0)),
        Number((b * 1000).toFixed(0)),
        Number((a / b).toFixed(3)),
        same ? "yes" : "NO",
      ]);
    }
    ctx.table(
      `Filtering ${tokens} dev tokens: token-role sums by the WebAssembly SIMD kernel and by the JavaScript loop (median of ${reps} interleaved rounds)`,
      ["filter", "reduction %", "SIMD ms", "JS ms", "SIMD / JS", "same arcs"],
      rows,
    );
  },
};
