// Jointly trained filters of Bergsma & Cherry (2011) on a UD treebank: Table 1 (independent against
// joint training of the token-role filters, with and without the Vine and None events: coverage and
// reduction on dev) and Table 2 (Joint P1 against Rules+Linear, Joint P2 against Rules+Linear+Quad:
// coverage, reduction, filter time, and first- and second-order parse time and UAS-P in one
// interleaved run). Filters are trained beforehand with `vineparse filter train` (training one joint
// filter takes minutes; the commands are in the results file) and given to the bench as files.
import { existsSync } from "node:fs";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { round } from "../src/eval/percent.js";
import type { Cell } from "../src/eval/table.js";
import { encodeModel, writeModelFile } from "../src/model/model-file.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { PARSE_BLOCK, parseBlock } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { JointFilter } from "../src/prune/joint-filter.js";
import { cascadeModelData, loadCascade } from "../src/prune/load-pruner.js";
import { devMargins, operatingPoint } from "../src/prune/train-joint.js";
import {
  BenchAbort,
  type BenchContext,
  bootstrapNote,
  type Experiment,
  headsRightNoPunct,
  JOINT_PAIRS,
  jointFilterRatioNotes,
  median,
} from "./lib.js";

/** One row of Table 1: a filter file and what it is. */
interface Row1 {
  option: string;
  training: "independent" | "joint";
  vine: boolean;
  none: boolean;
}

/** Table 1's rows (the paper's: token roles, + Vine, + None, + Vine + None; None only jointly). */
const TABLE1: Row1[] = [
  { option: "indep", training: "independent", vine: false, none: false },
  { option: "indep-vine", training: "independent", vine: true, none: false },
  { option: "joint-token", training: "joint", vine: false, none: false },
  { option: "joint-vine", training: "joint", vine: true, none: false },
  { option: "joint-none", training: "joint", vine: false, none: true },
  { option: "joint", training: "joint", vine: true, none: true },
];

/** The joint filter at the end of a cascade, or null. */
function lastJoint(c: PruningCascade): JointFilter | null {
  const last = c.passes[c.passes.length - 1];
  return last instanceof JointFilter ? last : null;
}

/**
 * `npm run bench -- joint --train T --dev D [--parts table1,table2] [--indep F] [--indep-vine F]
 * [--joint-token F] [--joint-vine F] [--joint-none F] [--joint F] [--rlq F] [--p2 F] [--joint-quad F] [--epochs 3]
 * [--reps 3] [--filter-reps 21] [--orders 1,2] [--trained-with LABEL,…] [--train-limit N]`. F are filter files (cascades: rules first). --indep is
 * Rules+Linear, --indep-vine Rules+Linear+Tag-Vine, --joint the full joint filter, --rlq
 * Rules+Linear+Quad. Joint P1 is --joint with its operating point re-tuned on dev to Rules+Linear's
 * dev coverage; --p2 is Joint P2: when the file does not exist it is made from --joint re-tuned to
 * R+L+Q's dev coverage, and written there. --joint-quad is an extra row beyond the paper: the joint
 * filter followed by a quadratic filter trained on what it leaves (`filter train --kind quadratic
 * --after JOINT`), at R+L+Q's coverage target. Filter times alone come from --filter-reps rounds over
 * every filter (cheap, so more of them than parse rounds); each joint filter's time against its
 * reference is also given as the median of the per-round ratios, which a host slowing down between
 * rounds moves less than a ratio of medians; so is each speed-up. --trained-with names rows of Table
 * 2 (e.g. "Rules+Linear+Quad,Joint P2") whose filter also gets parsers trained with it in front (as
 * Table 7 of the filters bench does for the 2010 cascades); they parse dev with that filter in the
 * same round robin, and Table 2b compares them with the unfiltered parsers.
 */
export const experiment: Experiment = {
  summary:
    "B&C 2011 joint filters: Table 1 (independent vs joint, ±Vine ±None), Table 2 (P1/P2 vs R+L/R+L+Q, parsing)",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("joint", args, {
      train: { type: "string" },
      dev: { type: "string" },
      parts: { type: "string" },
      indep: { type: "string" },
      "indep-vine": { type: "string" },
      "joint-token": { type: "string" },
      "joint-vine": { type: "string" },
      "joint-none": { type: "string" },
      joint: { type: "string" },
      rlq: { type: "string" },
      p2: { type: "string" },
      "joint-quad": { type: "string" },
      epochs: { type: "string" },
      reps: { type: "string" },
      "filter-reps": { type: "string" },
      orders: { type: "string" },
      "trained-with": { type: "string" },
      "train-limit": { type: "string" },
    });
    if (values.train === undefined || values.dev === undefined)
      throw new BenchAbort(
        "bench joint: give --train (jack-knifed tags) and --dev (predicted tags), e.g. the files of `npm run bench -- filters`",
        2,
      );
    const parts = new Set((values.parts ?? "table1,table2").split(","));
    const epochs = numberOption("joint", "epochs", values.epochs, 3, { integer: true, min: 1 });
    const reps = numberOption("joint", "reps", values.reps, 3, { integer: true, min: 1 });
    const filterReps = numberOption("joint", "filter-reps", values["filter-reps"], 21, {
      integer: true,
      min: 1,
    });
    const limit = numberOption("joint", "train-limit", values["train-limit"], 0, { integer: true, min: 0 });
    const orders = (values.orders ?? "1,2").split(",").map(Number);
    const v = values as Record<string, string | undefined>;
    ctx.note(ctx.header());
    const vocab = new Vocabularies();
    const dev = loadCorpus(values.dev, vocab).sentences;
    const devTokens = dev.reduce((a, s) => a + s.n, 0);
    const load = (file: string | undefined): PruningCascade | null => {
      if (file === undefined) return null;
      if (!existsSync(file)) {
        ctx.note(`${file}: not found; its row is skipped`);
        return null;
      }
      return loadCascade(file);
    };
    const modelMB = (c: PruningCascade) => Number((encodeModel(cascadeModelData(c)).length / 1e6).toFixed(2));

    if (parts.has("table1")) {
      const rows: Cell[][] = [];
      for (const r of TABLE1) {
        const c = load(v[r.option]);
        if (c === null) continue;
        const e = evaluateCascade(c, dev, vocab);
        const j = lastJoint(c);
        const info = j?.info ?? {};
        rows.push([
          r.training,
          r.vine ? "yes" : "no",
          r.none ? "yes" : "no",
          round(e.scores.coverage),
          round(e.scores.reduction),
          Number((e.seconds * 1000).toFixed(0)),
          info.chosen !== undefined ? `${info.chosen} of ${info.alternations}` : "",
          info.seconds !== undefined ? info.seconds : "",
          v[r.option]!,
        ]);
      }
      ctx.table(
        `Table 1: independent and joint training of the token-role filters, with and without Vine and None (en_ewt dev, predicted tags, after Rules)`,
        [
          "training",
          "Vine",
          "None",
          "coverage %",
          "reduction %",
          "filter ms",
          "alternation kept",
          "train s",
          "file",
        ],
        rows,
      );
    }

    if (!parts.has("table2")) return;
    const rl = load(v.indep);
    const joint = load(v.joint);
    const rlq = load(v.rlq);
    // The joint model at the operating point (re-tuned on dev) that keeps at least `ref`'s dev coverage,
    // as the paper tuned Joint P1 and P2 to the coverage of R+L and R+L+Q.
    const retuned = (
      c: PruningCascade,
      ref: PruningCascade,
      name: string,
      refName: string,
    ): PruningCascade => {
      const j = lastJoint(c);
      if (j === null) return c;
      const target = evaluateCascade(ref, dev, vocab).scores.coverage;
      const prefix = new PruningCascade(c.passes.slice(0, -1));
      const op = operatingPoint(devMargins(j, dev, vocab, prefix), target);
      ctx.note(
        `${name}: the joint model with its operating point re-tuned on dev to ${refName}'s coverage ${target.toFixed(3)}% (bias ${op.bias.toPrecision(4)}: ${op.coverage.toFixed(3)}% / ${op.reduction.toFixed(3)}%)`,
      );
      return prefix.concat([j.withBias(op.bias)]);
    };
    const p1 = joint === null || rl === null ? joint : retuned(joint, rl, "Joint P1", "Rules+Linear");
    let p2 = v.p2 !== undefined && existsSync(v.p2) ? loadCascade(v.p2) : null;
    if (p2 === null && joint !== null && rlq !== null) {
      p2 = retuned(joint, rlq, "Joint P2", "Rules+Linear+Quad");
      if (v.p2 !== undefined) {
        writeModelFile(v.p2, cascadeModelData(p2));
        ctx.note(`Joint P2 written to ${v.p2}`);
      }
    }
    const filters: { label: string; c: PruningCascade }[] = [{ label: "none", c: new PruningCascade() }];
    if (rl !== null) filters.push({ label: "Rules+Linear", c: rl });
    if (p1 !== null) filters.push({ label: "Joint P1", c: p1 });
    if (rlq !== null) filters.push({ label: "Rules+Linear+Quad", c: rlq });
    if (p2 !== null) filters.push({ label: "Joint P2", c: p2 });
    const jq = load(v["joint-quad"]);
    if (jq !== null) filters.push({ label: "Joint+Quad", c: jq });

    // Filter time alone, interleaved.
    const filterTimes = filters.map(() => [] as number[]);
    const evals = filters.map((f) => evaluateCascade(f.c, dev, vocab));
    for (let r = 0; r < filterReps; r++)
      filters.forEach((f, i) => {
        if (i > 0) filterTimes[i]!.push(evaluateCascade(f.c, dev, vocab).seconds);
      });
    // Each joint filter against the 2010 cascade it is matched with, round by round.
    for (const note of jointFilterRatioNotes(
      filters.map((f) => f.label),
      filterTimes,
    ))
      ctx.note(note);

    // Parsers trained unfiltered, each parsing dev under every filter; with --trained-with, parsers
    // trained with a filter parse under that filter; all round robin.
    let train = loadCorpus(values.train, vocab).sentences;
    if (limit > 0) train = train.slice(0, limit);
    const trainPair = (trainedWith: string, cascade: PruningCascade) => {
      const made: { name: string; p: DependencyParser; min: number }[] = [];
      if (orders.includes(1)) {
        const t0 = performance.now();
        const r = trainParser(train, vocab, { decoder: "eisner", epochs, dev, cascade });
        made.push({ name: "1st", p: r.parser, min: (performance.now() - t0) / 60000 });
        ctx.note(`1st-order parser (Eisner) trained with filter ${trainedWith}, ${epochs} epochs`);
      }
      if (orders.includes(2)) {
        const t0 = performance.now();
        const r = trainHigherOrderParser(train, vocab, { order: 2, epochs, k: 0, dev, prefix: cascade });
        made.push({ name: "2nd", p: r.parser, min: (performance.now() - t0) / 60000 });
        ctx.note(`2nd-order parser trained with filter ${trainedWith}, ${epochs} epochs`);
      }
      return made;
    };
    const parsers = trainPair("none", new PruningCascade());
    const trainedWith = (values["trained-with"] ?? "")
      .split(",")
      .filter((l) => l !== "")
      .map((label) => {
        const b = filters.findIndex((f) => f.label === label);
        if (b <= 0) throw new BenchAbort(`bench joint: --trained-with ${label}: no such filter row`, 2);
        return { label, b, parsers: trainPair(label, filters[b]!.c) };
      });
    /** One timed pass over dev: parser p under filter b; UAS-P from the first round. */
    interface Run {
      p: DependencyParser;
      b: number;
      times: number[];
      uas: number;
      /** Per dev sentence: heads right, punctuation excluded (as UAS-P counts them). */
      correct: Int32Array;
    }
    const run = (p: DependencyParser, b: number): Run => ({
      p,
      b,
      times: [],
      uas: 0,
      correct: new Int32Array(dev.length),
    });
    const punct = vocab.upos.get("PUNCT");
    let scored: Int32Array = new Int32Array(0);
    const runs = parsers.map((pp) => filters.map((_, b) => run(pp.p, b)));
    const trainedRuns = trainedWith.map((t) => t.parsers.map((pp) => run(pp.p, t.b)));
    const all = [...runs.flat(), ...trainedRuns.flat()];
    for (let r = 0; r < reps; r++)
      for (const x of all) {
        const t0 = performance.now();
        const parses = parseBlock(x.p, dev, vocab, filters[x.b]!.c);
        x.times.push((performance.now() - t0) / 1000);
        const heads = parses.map((res) => res.heads);
        if (r === 0) {
          const right = headsRightNoPunct(dev, heads, punct);
          x.correct = right.correct;
          scored = right.total;
          x.uas = right.uasNoPunct;
        }
      }
    // Speed-up against parser a unfiltered: ratio of medians, and median of the per-round ratios.
    const speedups = (a: number, x: Run): Cell[] => {
      const base = runs[a]![0]!.times;
      const perRound = x.times.map((t, r) => base[r]! / t);
      return [Number((median(base) / median(x.times)).toFixed(2)), Number(median(perRound).toFixed(2))];
    };
    const rows: Cell[][] = filters.map((f, b) => {
      const row: Cell[] = [
        f.label,
        round(evals[b]!.scores.coverage),
        round(evals[b]!.scores.reduction),
        b === 0 ? "" : Number(median(filterTimes[b]!).toFixed(3)),
        b === 0 ? "" : Math.round(devTokens / median(filterTimes[b]!)),
        b === 0 ? "" : modelMB(f.c),
      ];
      parsers.forEach((_, a) => {
        const x = runs[a]![b]!;
        row.push(Number(median(x.times).toFixed(2)), ...speedups(a, x), round(x.uas));
      });
      return row;
    });
    const parserColumns = (kind: string) =>
      parsers.flatMap((p) => [
        `${p.name} parse s`,
        `${p.name} speed-up`,
        `${p.name} speed-up (rounds)`,
        `${p.name} UAS-P${kind}`,
      ]);
    ctx.table(
      `Table 2: Joint P1 vs Rules+Linear, Joint P2 vs Rules+Linear+Quad on en_ewt dev (predicted tags; parse time includes filtering, ${PARSE_BLOCK} sentences at a time as vineparse parse does; median of ${reps} interleaved runs, filter time alone of ${filterReps}; parsers trained unfiltered, ${epochs} epochs; speed-up against the same parser unfiltered: ratio of medians, and median of the per-round ratios)`,
      ["filter", "coverage %", "reduction %", "filter s", "filter tok/s", "model MB", ...parserColumns("")],
      rows,
    );
    if (trainedWith.length > 0)
      ctx.table(
        `Table 2b: parsers trained with the filter in front (${epochs} epochs), parsing dev with it, in the same round robin as Table 2; speed-up against the unfiltered parser of Table 2 parsing unfiltered`,
        [
          "filter",
          ...parserColumns(" (trained with)"),
          ...parsers.map((p) => `${p.name} UAS-P (trained unfiltered)`),
        ],
        trainedWith.map((t, i) => [
          t.label,
          ...t.parsers.flatMap((_, a) => {
            const x = trainedRuns[i]![a]!;
            return [Number(median(x.times).toFixed(2)), ...speedups(a, x), round(x.uas)];
          }),
          ...parsers.map((_, a) => round(runs[a]![t.b]!.uas)),
        ]),
      );
    // UAS-P of each joint filter's parsers against the 2010 cascade it is matched with, with a paired
    // bootstrap interval over dev sentences: how much of the difference the choice of sentences explains.
    const compare = (what: string, a: Run, b: Run) =>
      ctx.note(bootstrapNote(what, a.correct, b.correct, scored));
    for (const [ja, jb] of JOINT_PAIRS) {
      const a = filters.findIndex((f) => f.label === ja);
      const b = filters.findIndex((f) => f.label === jb);
      if (a < 0 || b < 0) continue;
      parsers.forEach((pp, k) =>
        compare(`${pp.name}, trained unfiltered: ${ja} − ${jb}`, runs[k]![a]!, runs[k]![b]!),
      );
      const ta = trainedWith.findIndex((t) => t.label === ja);
      const tb = trainedWith.findIndex((t) => t.label === jb);
      if (ta >= 0 && tb >= 0)
        parsers.forEach((pp, k) =>
          compare(
            `${pp.name}, trained with the filter: ${ja} − ${jb}`,
            trainedRuns[ta]![k]!,
            trainedRuns[tb]![k]!,
          ),
        );
    }
    ctx.note(`parser training minutes: ${parsers.map((p) => `${p.name} ${p.min.toFixed(1)}`).join(", ")}`);
    for (const t of trainedWith)
      ctx.note(
        `parser training minutes with ${t.label}: ${t.parsers.map((p) => `${p.name} ${p.min.toFixed(1)}`).join(", ")}`,
      );
  },
};
