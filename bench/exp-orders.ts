// First-, second- and third-order parsers on a UD treebank (gold tags): accuracy, training time, parse
// speed with and without top-k pruning, and time against sentence length (Rush & Petrov 2012 style).
import { loadavg } from "node:os";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import type { Sentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AttachmentEvaluator, type AttachmentScores } from "../src/eval/attachment.js";
import { round } from "../src/eval/percent.js";
import { PruningEvaluator } from "../src/eval/pruning.js";
import type { Cell } from "../src/eval/table.js";
import { AtomCache, FeatureSentence } from "../src/features/feature-sentence.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { type GoldPrunedPolicy, trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import type { Parser } from "../src/parser/parser.js";
import { parsePruned } from "../src/parser/pruned-parse.js";
import { TopKPruner } from "../src/prune/top-k.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { type BenchContext, type Experiment, fitExponent, goldTrainDev } from "./lib.js";

/** One timed pass (or the best of several) of a parser over a set of sentences. */
interface Timing {
  scores: AttachmentScores;
  seconds: number;
  /** Seconds per sentence (best over the repetitions). */
  perSentence: Float64Array;
  fallbacks: number;
  /** Arcs the decoder could use, summed (higher-order parsers only). */
  arcsKept: number;
}

/**
 * Times a parser over a set of sentences, one pass per `pass()` call, keeping the best total and the
 * best time per sentence; the first pass also scores the parses. Passes of several parsers are
 * interleaved by the caller so that every parser sees the same phases of a noisy host.
 */
class ParserTiming {
  private readonly ev: AttachmentEvaluator;
  private readonly ids: Int32Array;
  private readonly per: Float64Array;
  private best = Number.POSITIVE_INFINITY;
  private passes = 0;
  private fallbacks = 0;
  private arcsKept = 0;

  constructor(
    private readonly p: DependencyParser,
    private readonly sents: Sentence[],
    private readonly vocab: Vocabularies,
  ) {
    this.ev = new AttachmentEvaluator({ punctUpos: vocab.upos.get("PUNCT") });
    this.ids = new Int32Array(p.labels.length);
    for (let l = 0; l < this.ids.length; l++) this.ids[l] = vocab.deprel.add(p.labels[l]!);
    this.per = new Float64Array(sents.length).fill(Number.POSITIVE_INFINITY);
  }

  pass(): void {
    const first = this.passes++ === 0;
    let total = 0;
    for (let i = 0; i < this.sents.length; i++) {
      const s = this.sents[i]!;
      const t0 = process.hrtime.bigint();
      const r = parsePruned(this.p, s, this.vocab);
      const dt = Number(process.hrtime.bigint() - t0) / 1e9;
      total += dt;
      if (dt < this.per[i]!) this.per[i] = dt;
      if (first) {
        const rel = new Int32Array(s.n + 1);
        for (let m = 1; m <= s.n; m++) rel[m] = this.ids[r.labels[m]!]!;
        this.ev.addSentence(s, r.heads, rel);
        if (r.fallback) this.fallbacks++;
        const kept = (r as { arcsKept?: number }).arcsKept;
        if (kept !== undefined) this.arcsKept += kept;
      }
    }
    if (total < this.best) this.best = total;
  }

  result(): Timing {
    return {
      scores: this.ev.scores(),
      seconds: this.best,
      perSentence: this.per,
      fallbacks: this.fallbacks,
      arcsKept: this.arcsKept,
    };
  }
}

/** `npm run bench -- orders [--tb en_ewt] [--epochs 10] [--k 10] [--train-limit N] [--max-len-3 L]`. */
export const experiment: Experiment = {
  summary:
    "first/second/third-order parsers: dev UAS/LAS, training time, tokens/s, top-k pruning, time vs length",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("orders", args, {
      tb: { type: "string" },
      epochs: { type: "string" },
      "first-order-epochs": { type: "string" },
      k: { type: "string" },
      "train-limit": { type: "string" },
      "max-len-3": { type: "string" },
      "train-unpruned": { type: "string" },
      "gold-pruned": { type: "string" },
      orders: { type: "string" },
      reps: { type: "string" },
    });
    const tb = values.tb ?? "en_ewt";
    const epochs = numberOption("orders", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const foEpochs = numberOption("orders", "first-order-epochs", values["first-order-epochs"], epochs, {
      integer: true,
      min: 1,
    });
    const k = numberOption("orders", "k", values.k, 10, { integer: true, min: 1 });
    const limit = numberOption("orders", "train-limit", values["train-limit"], 0, { integer: true, min: 0 });
    // Unpruned third order is O(n⁴): optionally time it on the dev sentences of at most this length (0 = all).
    const maxLen3 = numberOption("orders", "max-len-3", values["max-len-3"], 0, { integer: true, min: 0 });
    // Orders also trained without pruning (k = 0), for the NoPrune rows (default: 2).
    const trainUnpruned = (values["train-unpruned"] ?? "2")
      .split(",")
      .filter((o) => o !== "")
      .map(Number);
    const reps = numberOption("orders", "reps", values.reps, 2, { integer: true, min: 1 });
    const goldPruned = (values["gold-pruned"] ?? "update") as GoldPrunedPolicy;
    const orders = (values.orders ?? "2,3").split(",").map(Number);
    const { vocab, train, dev, devTokens } = goldTrainDev(ctx, tb, limit);
    ctx.note(ctx.header());
    ctx.note(
      `${tb}: ${train.length} training sentences, ${dev.length} dev sentences (${devTokens} tokens); gold tags; ${epochs} epochs MIRA; top-${k} pruning; gold-pruned=${goldPruned}; load average at start ${loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}`,
    );

    // First order: pruner and labeller of the higher orders, and the baseline row.
    const t1 = process.hrtime.bigint();
    const fo: Parser = trainParser(train, vocab, {
      epochs: foEpochs,
      dev,
      onEpoch: (r) =>
        ctx.note(
          `  order 1 epoch ${r.epoch}: ${r.seconds.toFixed(1)} s, dev UAS ${round(r.dev!.uasNoPunct)}`,
        ),
    }).parser;
    const foSeconds = Number(process.hrtime.bigint() - t1) / 1e9;

    // Coverage of the top-k restriction on dev.
    const atoms = new AtomCache();
    const fs = new FeatureSentence();
    const covRows: Cell[][] = [];
    for (const kk of [1, 2, 3, 5, 10, 20]) {
      const pruner = new TopKPruner(fo.quantizedArcWeights, kk);
      const pev = new PruningEvaluator();
      const t0 = process.hrtime.bigint();
      for (const s of dev) pev.add(pruner.maskOf(atoms.prepare(s, vocab, fs), null), s.head);
      const sec = Number(process.hrtime.bigint() - t0) / 1e9;
      const sc = pev.scores();
      covRows.push([
        kk,
        round(sc.coverage),
        round(sc.sentenceCoverage),
        round(sc.reduction),
        round(sc.headsPerToken),
        Math.round(devTokens / sec),
      ]);
    }
    ctx.table(
      `Top-k first-order pruning on ${tb} dev (gold tags)`,
      ["k", "coverage %", "sentences all kept %", "reduction %", "heads/token", "prune tok/s"],
      covRows,
    );

    interface Config {
      name: string;
      parser: DependencyParser;
      trainSeconds: number | null;
      sents: Sentence[];
    }
    const configs: Config[] = [{ name: "1st", parser: fo, trainSeconds: foSeconds, sents: dev }];
    const short = maxLen3 > 0 ? dev.filter((s) => s.n <= maxLen3) : dev;
    const shortName = maxLen3 > 0 ? ` n≤${maxLen3}` : "";
    for (const order of orders as (2 | 3)[]) {
      const t0 = process.hrtime.bigint();
      const r = trainHigherOrderParser(train, vocab, {
        order,
        epochs,
        k,
        firstOrder: fo,
        goldPruned,
        dev,
        onEpoch: (e) =>
          ctx.note(
            `  order ${order} epoch ${e.epoch}: ${e.seconds.toFixed(1)} s, train UAS ${round(e.trainUas)}, dev UAS ${round(e.dev!.uasNoPunct)}${e.skipped > 0 ? `, skipped ${e.skipped}` : ""}`,
          ),
      });
      const sec = Number(process.hrtime.bigint() - t0) / 1e9;
      ctx.note(
        `  order ${order}: best epoch ${r.bestEpoch}; train coverage of top-${k} ${round(r.trainPruning!.coverage)}%; ${sec.toFixed(0)} s training (+ ${foSeconds.toFixed(0)} s first order)`,
      );
      const p = r.parser;
      configs.push({
        name: `${order === 2 ? "2nd" : "3rd"} top-${k}`,
        parser: p,
        trainSeconds: sec,
        sents: dev,
      });
      const unpruned = new HigherOrderParser(p.config, p.weights, fo);
      const o = order === 2 ? "2nd" : "3rd";
      if (maxLen3 > 0 && order === 3)
        configs.push({ name: `3rd top-${k}${shortName}`, parser: p, trainSeconds: null, sents: short });
      configs.push({
        name: `${o} top-${k} weights, unpruned${order === 3 ? shortName : ""}`,
        parser: unpruned,
        trainSeconds: null,
        sents: order === 3 ? short : dev,
      });
      if (trainUnpruned.includes(order)) {
        const u0 = process.hrtime.bigint();
        const u = trainHigherOrderParser(train, vocab, {
          order,
          epochs,
          k: 0,
          firstOrder: fo,
          dev,
          onEpoch: (e) =>
            ctx.note(
              `  order ${order} unpruned epoch ${e.epoch}: ${e.seconds.toFixed(1)} s, train UAS ${round(e.trainUas)}, dev UAS ${round(e.dev!.uasNoPunct)}`,
            ),
        });
        const usec = Number(process.hrtime.bigint() - u0) / 1e9;
        ctx.note(`  order ${order} unpruned: best epoch ${u.bestEpoch}; ${usec.toFixed(0)} s training`);
        configs.push({
          name: `${o} unpruned (NoPrune)`,
          parser: u.parser,
          trainSeconds: usec,
          sents: order === 3 ? short : dev,
        });
      }
    }

    const rows: Cell[][] = [];
    // Passes are interleaved across the parsers (round robin), so all of them meet the same host phases.
    const timers = configs.map((c) => new ParserTiming(c.parser, c.sents, vocab));
    const repsOf = (c: Config) => (c.name.startsWith("3rd") && c.name.includes("unpruned") ? 1 : reps);
    for (let rep = 0; rep < reps; rep++)
      configs.forEach((c, i) => {
        if (rep < repsOf(c)) timers[i]!.pass();
      });
    const timings: Timing[] = timers.map((t) => t.result());
    for (let ci = 0; ci < configs.length; ci++) {
      const c = configs[ci]!;
      const tm = timings[ci]!;
      const tokens = c.sents.reduce((a, s) => a + s.n, 0);
      const arcs = c.sents.reduce((a, s) => a + s.n * s.n, 0);
      rows.push([
        c.name,
        c.sents.length,
        round(tm.scores.uasNoPunct),
        round(tm.scores.lasNoPunct),
        round(tm.scores.uas),
        round(tm.scores.las),
        c.trainSeconds === null ? "" : round(c.trainSeconds / 60, 1),
        Math.round(tokens / tm.seconds),
        Math.round(c.sents.length / tm.seconds),
        c.parser.order === 1 ? "" : round((100 * tm.arcsKept) / arcs, 1),
        tm.fallbacks,
      ]);
    }
    ctx.table(
      `Parsers of order 1-3 on ${tb} dev (gold tags, best epoch by dev UAS)`,
      [
        "model",
        "sentences",
        "UAS-P",
        "LAS-P",
        "UAS",
        "LAS",
        "train min",
        "tok/s",
        "sent/s",
        "arcs kept %",
        "fallbacks",
      ],
      rows,
    );
    ctx.note(
      "UAS-P/LAS-P exclude punctuation. 'train min' of a higher order excludes its first-order model (the 1st row). Speeds are in-process (sentences in memory, model loaded), best of the repetitions (passes interleaved across the models, so all meet the same host phases), pruning and labelling included. Rows 'n≤L' use only dev sentences of at most L tokens. 'top-k weights, unpruned' decodes the pruned-trained weights on all arcs; 'unpruned (NoPrune)' is trained and decoded without pruning. Unpruned third order is timed once (no repetition).",
    );

    // Time against sentence length: buckets of 5 tokens, mean ms per sentence, fitted exponent.
    const maxN = dev.reduce((a, s) => Math.max(a, s.n), 0);
    const nb = Math.ceil(maxN / 5);
    const lenRows: Cell[][] = [];
    const fits: Cell[] = ["exponent k", ""];
    const perConfig: { len: number[]; ms: number[] }[] = configs.map(() => ({ len: [], ms: [] }));
    for (let b = 0; b < nb; b++) {
      const lo = 5 * b + 1;
      const hi = 5 * b + 5;
      const row: Cell[] = [`${lo}-${hi}`];
      let count = 0;
      for (const s of dev) if (s.n >= lo && s.n <= hi) count++;
      if (count === 0) continue;
      row.push(count);
      configs.forEach((c, ci) => {
        let t = 0;
        let len = 0;
        let cnt = 0;
        c.sents.forEach((s, i) => {
          if (s.n < lo || s.n > hi) return;
          t += timings[ci]!.perSentence[i]!;
          len += s.n;
          cnt++;
        });
        if (cnt === 0) {
          row.push("");
          return;
        }
        row.push(round((1000 * t) / cnt, 3));
        if (cnt >= 3) {
          perConfig[ci]!.len.push(len / cnt);
          perConfig[ci]!.ms.push((1000 * t) / cnt);
        }
      });
      lenRows.push(row);
    }
    for (const pc of perConfig) fits.push(round(fitExponent(pc.len, pc.ms), 2));
    lenRows.push(fits);
    ctx.table(
      `Parse time per sentence (ms) against length on ${tb} dev; exponent k of time ∝ n^k (least squares on log-log over buckets with ≥ 3 sentences)`,
      ["length", "sentences", ...configs.map((c) => c.name)],
      lenRows,
    );
    ctx.note(
      `load average at end ${loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}`,
    );
  },
};
