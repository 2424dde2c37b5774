// The transition-based baseline (greedy arc-standard, averaged perceptron) against the first-order
// graph-based parser: dev accuracy, training time and parse speed, timed interleaved in one run.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { choiceOption, numberOption, parseCommandArgs } from "../src/cli/args.js";
import { round } from "../src/eval/percent.js";
import type { Cell } from "../src/eval/table.js";
import { Parser } from "../src/parser/parser.js";
import { parseBlock } from "../src/parser/pruned-parse.js";
import { evaluateParser, trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { TransitionParser } from "../src/transition/parser.js";
import { trainTransitionParser } from "../src/transition/train.js";
import {
  type BenchContext,
  type Experiment,
  goldTrainDev,
  median,
  pairedRatioNote,
  perRoundRatios,
} from "./lib.js";

/**
 * `npm run bench -- transition [--tb en_ewt] [--epochs 10] [--reps 7] [--bits 18]
 * [--nonprojective lift|skip|both] [--train-limit N]`.
 */
export const experiment: Experiment = {
  summary: "transition-based baseline (arc-standard, averaged perceptron) against the first-order parser",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("transition", args, {
      tb: { type: "string" },
      epochs: { type: "string" },
      reps: { type: "string" },
      bits: { type: "string" },
      nonprojective: { type: "string" },
      "train-limit": { type: "string" },
    });
    const tb = values.tb ?? "en_ewt";
    const epochs = numberOption("transition", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const reps = numberOption("transition", "reps", values.reps, 7, { integer: true, min: 1 });
    const bits = numberOption("transition", "bits", values.bits, 18, { integer: true, min: 10, max: 22 });
    const limit = numberOption("transition", "train-limit", values["train-limit"], 0, {
      integer: true,
      min: 0,
    });
    const np = choiceOption(
      "transition",
      "nonprojective",
      values.nonprojective,
      ["lift", "skip", "both"] as const,
      "both",
    );
    const modes = np === "both" ? (["lift", "skip"] as const) : ([np] as const);
    const { vocab, train, dev, devTokens } = goldTrainDev(ctx, tb, limit);
    ctx.note(ctx.header());
    ctx.note(
      `${tb}: ${train.length} training sentences, ${dev.length} dev sentences (${devTokens} tokens); gold tags; ${epochs} epochs, best epoch by dev UAS-P`,
    );
    const tmp = mkdtempSync(join(tmpdir(), "vp-bench-transition-"));
    try {
      interface Row {
        name: string;
        nonProjective: string;
        epoch: number;
        minutes: number;
        parser: DependencyParser;
        bytes: number;
      }
      const rows: Row[] = [];
      for (const mode of modes) {
        const t0 = process.hrtime.bigint();
        const r = trainTransitionParser(train, vocab, {
          epochs,
          bits,
          nonProjective: mode,
          dev,
          onEpoch: (e) =>
            ctx.note(
              `  transition (${mode}) epoch ${e.epoch}: ${e.seconds.toFixed(1)} s, train transitions ${round(e.trainAccuracy)}%, dev UAS-P ${round(e.dev?.uasNoPunct ?? 0)} LAS-P ${round(e.dev?.lasNoPunct ?? 0)}`,
            ),
        });
        const minutes = Number(process.hrtime.bigint() - t0) / 6e10;
        ctx.note(
          `  transition (${mode}): ${r.nonProjectiveSentences} non-projective training trees, ${mode === "lift" ? `${r.liftedArcs} arcs lifted` : "skipped"}; ${r.trainedSentences} trained on`,
        );
        const path = join(tmp, `transition-${mode}.vpm`);
        r.parser.save(path);
        const bytes = readFileSync(path).length;
        rows.push({
          name: "transition",
          nonProjective: mode,
          epoch: r.bestEpoch,
          minutes,
          parser: TransitionParser.load(path),
          bytes,
        });
      }
      {
        const t0 = process.hrtime.bigint();
        const { parser, bestEpoch } = trainParser(train, vocab, {
          epochs,
          dev,
          onEpoch: (e) =>
            ctx.note(
              `  first-order epoch ${e.epoch}: ${e.seconds.toFixed(1)} s, dev UAS-P ${round(e.dev?.uasNoPunct ?? 0)} LAS-P ${round(e.dev?.lasNoPunct ?? 0)}`,
            ),
        });
        const minutes = Number(process.hrtime.bigint() - t0) / 6e10;
        const path = join(tmp, "first-order.vpm");
        parser.save(path);
        rows.push({
          name: "first-order (eisner, mira)",
          nonProjective: "-",
          epoch: bestEpoch,
          minutes,
          parser: Parser.load(path),
          bytes: readFileSync(path).length,
        });
      }
      // Interleaved timing: every parser over the whole of dev (trees and labels, parseBlock), one
      // after the other in each round, after a warm-up pass each.
      const times: number[][] = rows.map(() => []);
      for (const r of rows) parseBlock(r.parser, dev, vocab);
      for (let rep = 0; rep < reps; rep++) {
        for (let i = 0; i < rows.length; i++) {
          const { seconds } = await ctx.time(() => parseBlock(rows[i]!.parser, dev, vocab));
          times[i]!.push(seconds);
        }
      }
      const fo = rows.length - 1;
      const table: Cell[][] = rows.map((r, i) => {
        const s = evaluateParser(r.parser, dev, vocab);
        const med = median(times[i]!);
        return [
          r.name,
          r.nonProjective,
          r.epoch,
          round(s.uasNoPunct),
          round(s.lasNoPunct),
          round(s.uas),
          round(s.las),
          round(r.minutes, 2),
          Math.round(med * 1000),
          Math.round(devTokens / med),
          (median(times[fo]!) / med).toFixed(3),
          median(perRoundRatios(times[fo]!, times[i]!)).toFixed(3),
          round(r.bytes / 2 ** 20, 1),
        ];
      });
      ctx.table(
        `Transition-based baseline and first-order parser on ${tb} dev (gold tags, ${epochs} epochs, ${reps} interleaved rounds)`,
        [
          "parser",
          "non-proj",
          "epoch",
          "UAS-P",
          "LAS-P",
          "UAS",
          "LAS",
          "train min",
          "parse ms",
          "tok/s",
          "speed vs 1st",
          "paired",
          "model MiB",
        ],
        table,
      );
      for (let i = 0; i < fo; i++)
        ctx.note(
          pairedRatioNote(`transition (${rows[i]!.nonProjective})`, times[i]!, "first-order", times[fo]!),
        );
      ctx.note(
        "UAS-P/LAS-P exclude punctuation. parse ms / tok/s: median over the rounds of parsing all of dev in memory (parseBlock: trees and labels, models loaded from their files). 'speed vs 1st' = first-order median time / this row's; 'paired' = median of the per-round ratios first-order time / this row's time. Transition: greedy arc-standard, averaged perceptron, 2^bits rows × (1 + 2L) classes; lift = non-projective training trees projectivized, skip = left out. First-order: trainParser defaults (Eisner, MIRA, 2^23 weights).",
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
