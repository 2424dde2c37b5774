// The vine-pruning cascade of Rush & Petrov (2012) on a UD dev set: NoPrune, FirstOnly, LocalShort /
// Local (B&C filter files) and VineCascade in front of the same final model of order 1, 2 and 3;
// speed relative to unpruned first order (one interleaved run), pruning efficiency, oracle, UAS-P,
// and parse time against sentence length with fitted exponents.
import { existsSync } from "node:fs";
import { alphaListOption, numberOption, parseCommandArgs } from "../src/cli/args.js";
import { loadCorpus } from "../src/corpus/load.js";
import type { Sentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AttachmentEvaluator } from "../src/eval/attachment.js";
import { round } from "../src/eval/percent.js";
import type { Cell } from "../src/eval/table.js";
import { HigherOrderParser, type HigherOrderParseResult } from "../src/parser/higher-order-parser.js";
import { loadParser } from "../src/parser/load-parser.js";
import {
  type BlockTimes,
  blockTimes,
  PARSE_BLOCK,
  parseBlock,
  parsePruned,
} from "../src/parser/pruned-parse.js";
import type { DependencyParser } from "../src/parser/types.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { loadCascade, prunerFromModelData } from "../src/prune/load-pruner.js";
import { MAX_MARGINAL_KIND, MaxMarginalPass } from "../src/prune/max-marginal-pass.js";
import { TOPK_KIND } from "../src/prune/top-k.js";
import { VINE_KIND } from "../src/prune/vine-pass.js";
import { topKFor } from "../src/prune/spec.js";
import { isAlphaPass, setCascadeAlphas } from "../src/prune/tune-alphas.js";
import {
  type BenchContext,
  BenchAbort,
  type Experiment,
  fitExponent,
  median,
  perRoundRatios,
} from "./lib.js";
import { type ScatterSeries, scatterPlotSvg } from "./svg-plot.js";

/** Sentence-length buckets of the arcs-per-token table: lower bounds (the last is open). */
const LENGTH_BUCKETS = [1, 10, 20, 30, 40, 50];

/** Column names of the length buckets ("1–9", …, "50+"). */
const BUCKET_NAMES = LENGTH_BUCKETS.map((lo, i) =>
  i + 1 < LENGTH_BUCKETS.length ? `${lo}–${LENGTH_BUCKETS[i + 1]! - 1}` : `${lo}+`,
);

/** Bucket of a sentence of n tokens. */
function lengthBucket(n: number): number {
  let b = 0;
  while (b + 1 < LENGTH_BUCKETS.length && n >= LENGTH_BUCKETS[b + 1]!) b++;
  return b;
}

/** One row: a final model behind a cascade, timed over the dev sentences. */
class Row {
  /** Median of the timed passes' totals (seconds). */
  get median(): number {
    return this.totals.length === 0 ? Number.POSITIVE_INFINITY : this.medianOf((_, total) => total);
  }

  readonly per: Float64Array;
  /** Total seconds of each timed pass. */
  readonly totals: number[] = [];
  /**
   * Seconds of the reference row's (unpruned first order's) pass timed just before each of this
   * row's timed passes: `pairedSpeed` divides each by the pass that followed it.
   */
  readonly refTotals: number[] = [];
  /** Seconds of each timed pass by phase (`parseBlock`'s cascade passes, parse and labels). */
  readonly phases: BlockTimes[] = [];
  uasP = 0;
  fallbacks = 0;
  arcs = 0;
  kept = 0;
  gold = 0;
  goldKept = 0;
  /** Tokens the cascade leaves a single head (their arc is in every tree: the parser skips it). */
  forced = 0;
  /** Arcs whose features the final model extracted, and its higher-order parts scored (untimed pass). */
  arcsScored = 0;
  partsScored = 0;
  /** Per sentence-length bucket (`LENGTH_BUCKETS`): arcs the cascade leaves, and tokens. */
  readonly keptBy = new Float64Array(LENGTH_BUCKETS.length);
  readonly tokensBy = new Float64Array(LENGTH_BUCKETS.length);
  constructor(
    readonly order: number,
    readonly name: string,
    readonly parser: DependencyParser,
    readonly cascade: PruningCascade,
    readonly sents: Sentence[],
    readonly vocab: Vocabularies,
  ) {
    this.per = new Float64Array(sents.length).fill(Number.POSITIVE_INFINITY);
  }

  /** Scores the parses and measures the masks (untimed). */
  evaluate(): void {
    const ev = new AttachmentEvaluator({ punctUpos: this.vocab.upos.get("PUNCT") });
    const ids = new Int32Array(this.parser.labels.length);
    for (let l = 0; l < ids.length; l++) ids[l] = this.vocab.deprel.add(this.parser.labels[l]!);
    for (const s of this.sents) {
      const n = s.n;
      this.arcs += n * n;
      this.gold += n;
      const mask = this.cascade.maskFor(s, this.vocab);
      const left = mask === null ? n * n : mask.count();
      this.kept += left;
      if (mask === null) this.goldKept += n;
      else
        for (let m = 1; m <= n; m++) {
          this.goldKept += mask.bits[s.head[m]! * mask.size + m]!;
          if (mask.headCount(m) === 1) this.forced++;
        }
      const b = lengthBucket(n);
      this.keptBy[b] += left;
      this.tokensBy[b] += n;
      const r = parsePruned(this.parser, s, this.vocab, this.cascade);
      if (r.fallback) this.fallbacks++;
      this.arcsScored += r.arcsScored;
      if (this.parser instanceof HigherOrderParser)
        this.partsScored += (r as HigherOrderParseResult).partsScored;
      const rel = new Int32Array(n + 1);
      for (let m = 1; m <= n; m++) rel[m] = ids[r.labels[m]!]!;
      ev.addSentence(s, r.heads, rel);
    }
    this.uasP = ev.scores().uasNoPunct;
  }

  /** One timed pass and its total, kept. */
  pass(): void {
    const times = blockTimes();
    this.totals.push(this.timed(times));
    this.phases.push(times);
  }

  /**
   * Seconds of one pass over the sentences as `vineparse parse` makes it (`parseBlock`: blocks of
   * PARSE_BLOCK sentences, the cascade over a block, then the parser), its phases into `times`.
   */
  timed(times = blockTimes()): number {
    const t0 = process.hrtime.bigint();
    parseBlock(this.parser, this.sents, this.vocab, this.cascade, times);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  }

  /**
   * Speed relative to the reference row as the median of the ratios of adjacent passes (the
   * reference's pass, then this row's): drift of a shared host between passes cancels out of each
   * ratio. 1 for the reference row itself.
   */
  pairedSpeed(): number {
    if (this.refTotals.length === 0) return 1;
    return median(perRoundRatios(this.refTotals, this.totals));
  }

  /** Median over the timed passes of the seconds `part` picks out of each. */
  medianOf(part: (t: BlockTimes, total: number) => number): number {
    const xs = this.phases.map((t, i) => part(t, this.totals[i]!)).sort((a, b) => a - b);
    return xs.length === 0 ? 0 : xs[xs.length >> 1]!;
  }

  /** Seconds of the cascade's passes of the kinds `pick` accepts, in timed pass t. */
  passSeconds(t: BlockTimes, pick: (kind: string) => boolean): number {
    let sum = 0;
    for (const p of t.cascade.passes) if (pick(p.kind)) sum += p.seconds;
    return sum;
  }

  /** One pass sentence by sentence (cascade, then parse), keeping each sentence's best time (for `exponent`). */
  passEach(): void {
    for (let i = 0; i < this.sents.length; i++) {
      const t0 = process.hrtime.bigint();
      parsePruned(this.parser, this.sents[i]!, this.vocab, this.cascade);
      const dt = Number(process.hrtime.bigint() - t0) / 1e9;
      if (dt < this.per[i]!) this.per[i] = dt;
    }
  }

  /** Exponent k of time ∝ n^k: least squares on log-log over length buckets of 5 with ≥ 3 sentences. */
  exponent(): number {
    const sum = new Map<number, { t: number; n: number; c: number }>();
    this.sents.forEach((s, i) => {
      const b = Math.floor((s.n - 1) / 5);
      const e = sum.get(b) ?? { t: 0, n: 0, c: 0 };
      e.t += this.per[i]!;
      e.n += s.n;
      e.c++;
      sum.set(b, e);
    });
    const xs: number[] = [];
    const ys: number[] = [];
    for (const e of sum.values())
      if (e.c >= 3) {
        xs.push(e.n / e.c);
        ys.push(e.t / e.c);
      }
    return fitExponent(xs, ys);
  }
}

/** Makes the max-marginal passes of `cascade` score every allowed arc, forced ones included. */
function scoreEveryPart(cascade: PruningCascade): void {
  for (const p of cascade.passes) if (p instanceof MaxMarginalPass) p.skipForced = false;
}

/**
 * `npm run bench -- cascade --model1 M1 --model2 M2 --model3 M3 [--dev F] [--reps 3] [--k 10]
 * [--local-short FILE] [--local FILE] [--alphas A;…] [--also ORDER:NAME=PATH;…] [--all-parts
 * ORDER:NAME=PATH;…] [--eager-parts ORDER:NAME=PATH;…] [--min-length N]`: models trained with
 * `vineparse train --order N --prune vine` (or `--prune CASCADE_FILE`); every row runs the same final
 * model of its order, but the --also rows, which run other models of that order with their own
 * cascades, the --all-parts rows, which do the same with every allowed part scored (`skipForced` and
 * `lazyParts` off: what leaving forced and unreachable parts unscored saves), and the --eager-parts
 * rows, with only `lazyParts` off (every allowed sibling part scored before the DP). --min-length N
 * keeps only the dev sentences of at least N words (e.g. 20: about the Penn Treebank's average, on
 * which Rush & Petrov measured).
 */
export const experiment: Experiment = {
  summary: "vine-pruning cascade (Rush & Petrov 2012): speed, pruning, oracle, UAS-P, exponents per order",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("cascade", args, {
      model1: { type: "string" },
      model2: { type: "string" },
      model3: { type: "string" },
      dev: { type: "string" },
      reps: { type: "string" },
      k: { type: "string" },
      "local-short": { type: "string" },
      local: { type: "string" },
      limit: { type: "string" },
      "min-length": { type: "string" },
      alphas: { type: "string" },
      also: { type: "string" },
      "all-parts": { type: "string" },
      "eager-parts": { type: "string" },
    });
    // Other models' own cascades, each a row of its order: "ORDER:NAME=PATH;…" (e.g. a model trained
    // with --prune FILTER,vine, whose cascade starts with the filters).
    // --all-parts rows are --also rows whose parser and passes score every allowed part, the forced
    // ones included (skipForced off) and all sibling parts before the DP (lazyParts off): the same
    // trees, to time what leaving those parts unscored saves in one run.
    // --eager-parts rows keep skipForced but turn lazyParts off: what asking for sibling parts on first
    // use saves by itself.
    const otherRows = (
      option: "also" | "all-parts" | "eager-parts",
      skipForced: boolean,
      lazyParts: boolean,
    ) =>
      (values[option] ?? "")
        .split(";")
        .filter((x) => x.trim() !== "")
        .map((entry) => {
          const m = /^\s*([123])\s*:\s*([^=]+?)\s*=\s*(.+?)\s*$/.exec(entry);
          if (m === null) throw new BenchAbort(`cascade: --${option} wants ORDER:NAME=PATH, not "${entry}"`);
          return { order: Number(m[1]), name: m[2]!, path: m[3]!, skipForced, lazyParts };
        });
    const also = [
      ...otherRows("also", true, true),
      ...otherRows("eager-parts", true, false),
      ...otherRows("all-parts", false, false),
    ];
    // Extra rows of each model's own cascade with the passes' α replaced: "a1,a2,a3;b1,b2,b3" (one
    // value per pass that has an α, in order; filter passes have none).
    const alphaSets = (values.alphas ?? "")
      .split(";")
      .filter((x) => x.trim() !== "")
      .map((set) => alphaListOption("cascade", "alphas", set));
    const reps = numberOption("cascade", "reps", values.reps, 3, { integer: true, min: 1 });
    const k = numberOption("cascade", "k", values.k, 10, { integer: true, min: 1 });
    const limit = numberOption("cascade", "limit", values.limit, 0, { integer: true, min: 0 });
    const minLength = numberOption("cascade", "min-length", values["min-length"], 0, {
      integer: true,
      min: 0,
    });
    const devPath =
      values.dev ??
      (existsSync("/work/cache/en_ewt/dev.tagged.conllu")
        ? "/work/cache/en_ewt/dev.tagged.conllu"
        : ctx.treebank("en_ewt", "dev"));
    const models = [values.model1, values.model2, values.model3];
    if (models[0] === undefined)
      throw new BenchAbort("cascade: --model1 is required (the unpruned first order is the speed reference)");
    const vocab = new Vocabularies();
    let sents = loadCorpus(devPath, vocab).sentences;
    if (minLength > 0) sents = sents.filter((s) => s.n >= minLength);
    if (limit > 0) sents = sents.slice(0, limit);
    if (sents.length === 0) throw new BenchAbort("cascade: no dev sentence left (--min-length, --limit)");
    const tokens = sents.reduce((a, s) => a + s.n, 0);
    ctx.note(
      `dev: ${devPath}${minLength > 0 ? ` (sentences of ${minLength} words or more)` : ""}, ${sents.length} sentences, ${tokens} tokens, ${(tokens / sents.length).toFixed(1)} words a sentence; reps ${reps} (interleaved)`,
    );
    const filters: [string, string | undefined][] = [
      ["LocalShort", values["local-short"]],
      ["Local", values.local],
    ];
    const rows: Row[] = [];
    models.forEach((path, i) => {
      if (path === undefined) return;
      const order = i + 1;
      const parser = loadParser(path);
      ctx.note(`order ${order}: ${path}, cascade ${parser.cascade.name}`);
      rows.push(new Row(order, "NoPrune", parser, new PruningCascade(), sents, vocab));
      for (const [name, file] of filters)
        if (file !== undefined) rows.push(new Row(order, name, parser, loadCascade(file), sents, vocab));
      if (parser.firstOrderWeights !== null)
        rows.push(
          new Row(
            order,
            `FirstOnly (top-${k})`,
            parser,
            new PruningCascade([topKFor(parser, k)]),
            sents,
            vocab,
          ),
        );
      /** The model's own cascade as row NAME, then one row per α set. */
      const cascadeRows = (name: string, model: DependencyParser, path: string): void => {
        rows.push(new Row(order, name, model, model.cascade, sents, vocab));
        for (const set of alphaSets) {
          // The set's values go to the passes that have an α, in order (filters have none).
          const copy = new PruningCascade(
            model.cascade.passes.map((p) => prunerFromModelData(p.toModelData(), path)),
          );
          if (!model.skipForced) scoreEveryPart(copy);
          const given = setCascadeAlphas(copy, set.slice(0, copy.passes.filter(isAlphaPass).length));
          rows.push(
            new Row(order, `${name} α ${given.map((p) => p.alpha).join("/")}`, model, copy, sents, vocab),
          );
        }
      };
      if (!parser.cascade.empty) cascadeRows("VineCascade", parser, path);
      for (const a of also.filter((x) => x.order === order)) {
        const other = loadParser(a.path);
        if (other.order !== order)
          throw new BenchAbort(`cascade: ${a.path} is of order ${other.order}, not ${order}`);
        if (!a.skipForced) {
          other.skipForced = false;
          scoreEveryPart(other.cascade);
        }
        if (!a.lazyParts && other instanceof HigherOrderParser) other.lazyParts = false;
        ctx.note(`order ${order}, ${a.name}: ${a.path}, cascade ${other.cascade.name}`);
        cascadeRows(a.name, other, a.path);
      }
    });
    for (const r of rows) r.evaluate();
    // Each row's final model without any cascade (untimed; once per model): the accuracy bar of the
    // target "UAS-P ≥ NoPrune − 0.2" for rows whose model is not the order's NoPrune row's.
    const unpruned = new Map<DependencyParser, number>();
    for (const r of rows) {
      if (unpruned.has(r.parser)) continue;
      if (r.cascade.empty) unpruned.set(r.parser, r.uasP);
      else {
        const bare = new Row(r.order, "unpruned", r.parser, new PruningCascade(), sents, vocab);
        bare.evaluate();
        unpruned.set(r.parser, bare.uasP);
      }
    }
    // Each round times every row once, each right after a pass of the reference (the unpruned first
    // order), then the sentence-by-sentence passes of the exponents: a row's speed is both the ratio of
    // the medians and the median of its adjacent-pass ratios ("paired ×").
    const ref = rows[0]!;
    for (let rep = 0; rep < reps; rep++) {
      for (const r of rows) {
        if (r !== ref) r.refTotals.push(ref.timed());
        r.pass();
      }
      for (const r of rows) r.passEach();
    }
    const table: Cell[][] = rows.map((r) => [
      r.order,
      r.name,
      round(ref.median / r.median),
      round(r.pairedSpeed()),
      Math.round(tokens / r.median),
      round(100 * (1 - r.kept / r.arcs)),
      round((100 * r.goldKept) / r.gold),
      round(r.uasP),
      round(unpruned.get(r.parser)!),
      r.fallbacks,
    ]);
    ctx.table(
      `Speed relative to unpruned first order (ratio of the medians of ${reps} interleaved passes, and "paired": the median of the ratios of each pass to a pass of the unpruned first order just before it; cascade time included, ${PARSE_BLOCK} sentences at a time as vineparse parse does), pruning efficiency (share of arcs pruned), oracle (share of gold arcs kept), UAS-P, and the UAS-P of the row's final model without a cascade, on ${sents.length} dev sentences`,
      [
        "order",
        "pruning",
        "speed ×",
        "paired ×",
        "tok/s",
        "pruned %",
        "oracle %",
        "UAS-P",
        "UAS-P unpruned",
        "fallbacks",
      ],
      table,
    );
    // Where each row's time goes: the cascade's passes (filters, top-k, vine, max-marginal), the final
    // model's unlabelled parse and the labels, from the same timed passes (medians of each). The last
    // column bounds what pruning can give: the speed if the final parse took no time at all.
    const filterKind = (k: string) => k !== VINE_KIND && k !== MAX_MARGINAL_KIND && k !== TOPK_KIND;
    const ms = (x: number) => round(1000 * x, 1);
    ctx.table(
      `Where the time goes: milliseconds over the ${sents.length} dev sentences in each phase of the timed passes above (medians), and the speed relative to unpruned first order if the final model's parse were free (median of the per-round ratios)`,
      [
        "order",
        "pruning",
        "filters ms",
        "top-k ms",
        "vine ms",
        "max-marginal ms",
        "parse ms",
        "labels ms",
        "other ms",
        "total ms",
        "speed × without the parse",
      ],
      rows.map((r) => [
        r.order,
        r.name,
        ms(r.medianOf((t) => r.passSeconds(t, filterKind))),
        ms(r.medianOf((t) => r.passSeconds(t, (k) => k === TOPK_KIND))),
        ms(r.medianOf((t) => r.passSeconds(t, (k) => k === VINE_KIND))),
        ms(r.medianOf((t) => r.passSeconds(t, (k) => k === MAX_MARGINAL_KIND))),
        ms(r.medianOf((t) => t.parse)),
        ms(r.medianOf((t) => t.label)),
        ms(r.medianOf((t, total) => total - t.parse - t.label - r.passSeconds(t, () => true))),
        ms(r.median),
        round(median(r.totals.map((total, i) => ref.totals[i]! / (total - r.phases[i]!.parse)))),
      ]),
    );
    // The slides' speed–accuracy plot: every row a point (colour by order), labelled by its pruning
    // (abbreviated, with the key beside the legend); the rows of one cascade at several α joined by a
    // dashed line, the speed–accuracy curve that α traces.
    const { groups, key } = speedAccuracyGroups(
      rows.map((r) => ({ order: r.order, name: r.name, speed: ref.median / r.median, uasP: r.uasP })),
    );
    const xs = groups.flatMap((g) => g.points.map((p) => p.x));
    const ys = groups.flatMap((g) => g.points.map((p) => p.y));
    const svg = scatterPlotSvg(
      {
        title: "Speed against accuracy on dev (rows of the table above)",
        xLabel: "speed relative to unpruned first order",
        yLabel: "UAS without punctuation",
        // Room right of the fastest point for its label.
        x: [0, Math.ceil(Math.max(...xs) * 1.15 * 2) / 2],
        y: [Math.floor(Math.min(...ys)) - 0.5, Math.ceil(Math.max(...ys)) + 0.5],
      },
      groups,
      key,
    );
    ctx.writeResult("cascade", "svg", svg, "speed–accuracy plot");
    // Arcs a cascade leaves per token, by sentence length: flat for a cascade whose passes after it
    // cost O(n), growing with n when it keeps O(n²) arcs (unpruned: n per token).
    // Then: tokens left with a single head, whose arc (and, around it, the parts every tree holds)
    // the final model does not score (`skipForced`), and what it does score per token: arcs (first-order
    // features) and, at orders 2 and 3, the scorer calls for arc, sibling, grandparent and
    // grand-sibling parts (`partsScored`; sibling parts only when the DP reads them, `lazyParts`).
    ctx.table(
      "Arcs the cascade leaves per token (the final model may score these), by sentence length on dev; the share of tokens it leaves a single head; arcs and higher-order parts the final model scores per token",
      ["order", "pruning", ...BUCKET_NAMES, "one head %", "arcs scored", "parts scored"],
      rows.map((r) => [
        r.order,
        r.name,
        ...Array.from(r.keptBy, (k, i) => (r.tokensBy[i]! > 0 ? round(k / r.tokensBy[i]!) : "")),
        round((100 * r.forced) / r.gold),
        round(r.arcsScored / r.gold),
        r.order === 1 ? "" : round(r.partsScored / r.gold),
      ]),
    );
    // Speed against unpruned first order by sentence length, from the best per-sentence times: where
    // the sentences are as long as the Penn Treebank's (about 24 words), how far pruning goes.
    const timeBy = (r: Row): Float64Array => {
      const t = new Float64Array(LENGTH_BUCKETS.length);
      r.sents.forEach((s, i) => (t[lengthBucket(s.n)] += r.per[i]!));
      return t;
    };
    const refBy = timeBy(ref);
    ctx.table(
      "Speed relative to unpruned first order by sentence length (sums of each sentence's best time over the passes sentence by sentence, cascade included; sentences per bucket in the first row)",
      ["order", "pruning", ...BUCKET_NAMES],
      [
        [
          "",
          "sentences",
          ...LENGTH_BUCKETS.map((_, b) => sents.filter((s) => lengthBucket(s.n) === b).length),
        ],
        ...rows.map((r) => {
          const t = timeBy(r);
          return [r.order, r.name, ...Array.from(t, (x, b) => (x > 0 ? round(refBy[b]! / x) : ""))];
        }),
      ],
    );
    ctx.table(
      "Fitted exponent k of parse time ∝ n^k (least squares on log-log over length buckets of 5 with ≥ 3 sentences; best time per sentence over the passes sentence by sentence, cascade included)",
      ["order", "pruning", "k"],
      rows.map((r) => [r.order, r.name, round(r.exponent())]),
    );
  },
};

/** One row of the speed–accuracy plot. */
interface PlotRow {
  order: number;
  name: string;
  speed: number;
  uasP: number;
}

/**
 * The speed–accuracy plot's groups (one per order, in order) and its key. A row named "BASE α A…"
 * is labelled by the initials of BASE's words ("VineCascade" → VC, "filters + coarse pass" → fcp;
 * parentheses dropped, a digit added when two bases share initials) and "α A…"; the rows of one
 * base at one order are joined, by speed, when there are two or more.
 */
export function speedAccuracyGroups(rows: PlotRow[]): { groups: ScatterSeries[]; key: string[] } {
  const baseOf = (name: string) => {
    const i = name.indexOf(" α ");
    return i < 0 ? name : name.slice(0, i);
  };
  const abbr = new Map<string, string>();
  const used = new Set<string>();
  for (const r of rows) {
    const base = baseOf(r.name);
    if (abbr.has(base)) continue;
    const words = base.replace(/\([^)]*\)/g, " ").match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [base];
    let a = words.map((w) => w[0]).join("");
    for (let k = 2; used.has(a); k++) a = `${words.map((w) => w[0]).join("")}${k}`;
    used.add(a);
    abbr.set(base, a);
  }
  const groups: ScatterSeries[] = [];
  for (const order of [...new Set(rows.map((r) => r.order))].sort((a, b) => a - b)) {
    const rs = rows.filter((r) => r.order === order);
    const points = rs.map((r) => {
      const base = baseOf(r.name);
      const alpha = r.name.slice(base.length).trim();
      return { x: r.speed, y: r.uasP, label: alpha === "" ? abbr.get(base)! : `${abbr.get(base)!} ${alpha}` };
    });
    const curves: number[][] = [];
    for (const base of new Set(rs.map((r) => baseOf(r.name)))) {
      const idx = rs.flatMap((r, i) => (baseOf(r.name) === base ? [i] : []));
      if (idx.length > 1) curves.push(idx.sort((a, b) => points[a]!.x - points[b]!.x));
    }
    groups.push({ name: `order ${order}`, points, curves });
  }
  return { groups, key: [...abbr].map(([base, a]) => `${a}: ${base}`) };
}
