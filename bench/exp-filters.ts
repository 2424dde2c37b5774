// Arc filters of Bergsma & Cherry (2010) on a UD treebank: Table 4 (coverage, reduction, filter speed
// of each filter and cascade, with the oracle bound), Figure 2 (coverage against reduction over each
// filter's settings, SVG), and Table 7 (first- and second-order parsing with each filter, parsers
// trained unfiltered and trained with the filter, timed in one interleaved run).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { FILTER_KINDS } from "../src/cli/filter/kinds.js";
import type { Sentence } from "../src/corpus/sentence.js";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AttachmentEvaluator } from "../src/eval/attachment.js";
import { round } from "../src/eval/percent.js";
import type { Cell } from "../src/eval/table.js";
import { encodeModel } from "../src/model/model-file.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { PARSE_BLOCK, parseBlock, parsePruned } from "../src/parser/pruned-parse.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { roleAblation, roleDecisionQuality } from "../src/prune/token-role-analysis.js";
import { TokenRoleFilter } from "../src/prune/token-role-filter.js";
import { cascadeModelData, loadCascade } from "../src/prune/load-pruner.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import {
  BenchAbort,
  type BenchContext,
  bootstrapNote,
  type Experiment,
  headsRightNoPunct,
  jointFilterRatioNotes,
  median,
  repoRoot,
} from "./lib.js";
import { linePlotSvg, type PlotSeries } from "./svg-plot.js";

/** One row of Table 4: a filter kind trained on top of an earlier row's cascade. */
interface Stage {
  label: string;
  kind: string;
  after: string | null;
  /** Kind options for the row (strings, as on the command line). */
  values: Record<string, string>;
  /** Figure 2: option settings swept for the curve (each merged over `values`). */
  sweep: Record<string, string>[];
  /** Trained only as the prefix of a later row, not shown in Table 4. */
  hidden?: boolean;
}

/** Dev coverage (%) of the linear stage inside the full Rules+Linear+Quad cascade. */
const QUAD_LINEAR_COVERAGE = "99.8";

/** The paper's rows (Table 4), each kind with the settings swept for Figure 2. */
const STAGES: Stage[] = [
  {
    label: "Len-Vine",
    kind: "lenvine",
    after: null,
    values: {},
    sweep: ["99", "99.5", "99.8", "99.9", "99.95"].map((c) => ({ coverage: c })),
  },
  {
    label: "Tag-Vine",
    kind: "tagvine",
    after: null,
    values: {},
    sweep: ["99", "99.5", "99.8", "99.9", "99.95"].map((c) => ({ coverage: c })),
  },
  {
    label: "Rules",
    kind: "rules",
    after: null,
    values: {},
    sweep: ["99.5", "99.7", "99.8", "99.9", "99.95"].map((c) => ({ coverage: c })),
  },
  // The rules at the Rules target (99.8%), beside the cascade's own at 99.95% (the default).
  { label: "Rules (99.8)", kind: "rules", after: null, values: { coverage: "99.8" }, sweep: [] },
  { label: "Rules+Linear", kind: "linear", after: "Rules", values: {}, sweep: [] },
  // The full cascade leaves the quadratic stage more of the gold-arc budget than the Rules+Linear row
  // (at 99.7%) has: on en_ewt dev, linear stages at 99.7 / 99.75 / 99.8% before it gave 71.38 /
  // 72.56 / 72.92% at 99.5%.
  {
    label: "Rules+Linear (for Quad)",
    kind: "linear",
    after: "Rules",
    values: { coverage: QUAD_LINEAR_COVERAGE },
    sweep: [],
    hidden: true,
  },
  { label: "Rules+Linear+Quad", kind: "quadratic", after: "Rules+Linear (for Quad)", values: {}, sweep: [] },
  // The paper's quadratic filter: the linear score alone, without the arc network (beyond the paper).
  {
    label: "Rules+Linear+Quad (linear only)",
    kind: "quadratic",
    after: "Rules+Linear (for Quad)",
    values: { network: "0" },
    sweep: [],
  },
];

/** Runs the built CLI, or stops the bench with its stderr. */
function cli(args: string[]): void {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "src", "cli", "main.js"), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (r.status !== 0) throw new BenchAbort(`vineparse ${args.join(" ")} failed: ${r.stderr}`, 1);
}

/**
 * Tagged copies of the treebank, made once and kept in out/cache/<tb>/: train with 10-fold
 * jack-knifed tags (as a filter meets tags at parse time; with the word vectors of
 * `npm run build-vectors` when models/en_vectors.vpm exists, as the README's recipe and the bundle's
 * build tag it), dev tagged by the bundled model's tagger.
 */
function taggedData(
  ctx: BenchContext,
  tb: string,
  note: (s: string) => void,
): { train: string; dev: string } {
  const dir = join(repoRoot, "out", "cache", tb);
  mkdirSync(dir, { recursive: true });
  const vectors = join(repoRoot, "models", "en_vectors.vpm");
  const withVectors = existsSync(vectors);
  const train = join(dir, withVectors ? "train.jkv.conllu" : "train.jk.conllu");
  const dev = join(dir, "dev.tagged.conllu");
  if (!existsSync(train)) {
    note(
      withVectors
        ? `jack-knifing ${tb} train tags (10 folds, word vectors ${vectors}) into ${train}`
        : `jack-knifing ${tb} train tags (10 folds) into ${train}; without word vectors (npm run build-vectors first for the README's recipe)`,
    );
    const vec = withVectors ? ["--vectors", vectors] : [];
    cli(["tag", "--jackknife", "10", ...vec, "--input", ctx.treebank(tb, "train"), "--output", train]);
  }
  if (!existsSync(dev)) {
    note(`tagging ${tb} dev with the bundled tagger into ${dev}`);
    cli(["tag", "--model", DEFAULT_MODEL, "--input", ctx.treebank(tb, "dev"), "--output", dev]);
  }
  return { train, dev };
}

/**
 * `npm run bench -- filters [--tb en_ewt] [--train T --dev D] [--parts table4,table5,table6,figure2,table7]
 * [--epochs 10] [--reps 5] [--filter-reps 21] [--parse-filters LABELS] [--train-filters LABELS] [--orders 1,2]
 * [--rows LABELS] [--load LABEL=FILE,…] [--extra LABEL=FILE,…]` (--rows: only these Table 4 rows, e.g.
 * Len-Vine,Tag-Vine,Rules; --load: rows read from filter files trained earlier, e.g. Rules+Linear=rl.vpf,
 * instead of retrained; --extra: further rows from any filter or cascade file, e.g. Joint+Quad=jq.vpf,
 * measured like the others and usable in --parse-filters and --train-filters). Table 4's filter times
 * come from --filter-reps rounds over every row (cheap, so more of them than the parse rounds of
 * Table 7, which uses --reps); rows labelled Joint P1 / Joint P2 are also compared round by round
 * with Rules+Linear / Rules+Linear+Quad.
 * T: training data with predicted (jack-knifed) tags, D: dev with predicted tags and gold heads
 * (default: made once and cached in out/cache/<tb>/).
 */
export const experiment: Experiment = {
  summary:
    "B&C 2010 arc filters: Table 4 (coverage/reduction/speed), Figure 2 (SVG), Table 7 (parsing with filters)",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("filters", args, {
      tb: { type: "string" },
      train: { type: "string" },
      dev: { type: "string" },
      parts: { type: "string" },
      epochs: { type: "string" },
      reps: { type: "string" },
      "filter-reps": { type: "string" },
      "parse-filters": { type: "string" },
      "train-filters": { type: "string" },
      orders: { type: "string" },
      "train-limit": { type: "string" },
      rows: { type: "string" },
      load: { type: "string" },
      extra: { type: "string" },
    });
    const tb = values.tb ?? "en_ewt";
    const parts = new Set((values.parts ?? "table4,table5,table6,figure2,table7").split(","));
    const epochs = numberOption("filters", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const reps = numberOption("filters", "reps", values.reps, 5, { integer: true, min: 1 });
    const filterReps = numberOption("filters", "filter-reps", values["filter-reps"], 21, {
      integer: true,
      min: 1,
    });
    const limit = numberOption("filters", "train-limit", values["train-limit"], 0, { integer: true, min: 0 });
    const orders = (values.orders ?? "1,2").split(",").map(Number);
    const wanted = values.rows === undefined ? null : new Set(values.rows.split(","));
    // --load LABEL=FILE,…: rows taken from filter files trained earlier instead of being retrained;
    // --extra LABEL=FILE,…: rows of other filter files (any label but the paper's).
    const fileRows = (option: "load" | "extra", paper: boolean): Map<string, string> => {
      const rows = new Map<string, string>();
      for (const item of values[option] === undefined ? [] : values[option].split(",")) {
        const eq = item.indexOf("=");
        const label = item.slice(0, eq);
        const file = item.slice(eq + 1);
        if (eq <= 0 || STAGES.some((st) => st.label === label) !== paper)
          throw new BenchAbort(
            paper
              ? `filters: --load wants LABEL=FILE with LABEL one of ${STAGES.map((st) => st.label).join(", ")}; got "${item}"`
              : `filters: --extra wants LABEL=FILE with a LABEL of its own (not a Table 4 row); got "${item}"`,
            2,
          );
        if (!existsSync(file)) throw new BenchAbort(`filters: ${file}: not found`, 2);
        rows.set(label, file);
      }
      return rows;
    };
    const preloaded = fileRows("load", true);
    const extra = fileRows("extra", false);
    ctx.note(ctx.header());
    const data =
      values.train !== undefined && values.dev !== undefined
        ? { train: values.train, dev: values.dev }
        : taggedData(ctx, tb, (s) => ctx.note(s));
    const vocab = new Vocabularies();
    let train = loadCorpus(data.train, vocab).sentences;
    if (limit > 0) train = train.slice(0, limit);
    const dev = loadCorpus(data.dev, vocab).sentences;
    const devTokens = dev.reduce((a, s) => a + s.n, 0);
    ctx.note(
      `${tb}: train ${data.train} (${train.length} sentences), dev ${data.dev} (${dev.length} sentences, ${devTokens} tokens); predicted tags`,
    );

    // Table 4: every row trained on train (operating points on dev), measured on dev.
    const cascades = new Map<string, PruningCascade>();
    const t4: Cell[][] = [];
    let oracle = 0;
    const kinds = new Map(FILTER_KINDS.map((k) => [k.name, k]));
    const logs = new Map<string, string[]>();
    const trainStage = (st: Stage, over: Record<string, string>): PruningCascade | null => {
      const kind = kinds.get(st.kind);
      if (kind === undefined) return null;
      const prefix = st.after === null ? new PruningCascade() : cascades.get(st.after);
      if (prefix === undefined) return null;
      const own: Record<string, string | undefined> = {};
      for (const k of Object.keys(kind.options)) own[k] = over[k] ?? st.values[k];
      const lines: string[] = [];
      const passes = kind.train({ train, dev, vocab, values: own, prefix, log: (l) => lines.push(l) });
      if (Object.keys(over).length === 0) logs.set(st.label, lines);
      return prefix.concat(passes);
    };
    const trained: { label: string; c: PruningCascade; trainSeconds: number | null }[] = [];
    const addLoaded = (label: string, file: string) => {
      const c = loadCascade(file);
      ctx.note(`${label}: loaded from ${file} (${c.name})`);
      cascades.set(label, c);
      trained.push({ label, c, trainSeconds: null });
    };
    // A hidden stage is trained when a row built on it is.
    const shown = (label: string) => wanted === null || wanted.has(label);
    const needed = (st: Stage) =>
      st.hidden === true
        ? STAGES.some((o) => o.after === st.label && shown(o.label) && !preloaded.has(o.label))
        : shown(st.label);
    const hiddenSeconds = new Map<string, number>();
    for (const st of STAGES) {
      if (!needed(st)) continue;
      const file = preloaded.get(st.label);
      if (file !== undefined) {
        addLoaded(st.label, file);
        continue;
      }
      const t0 = performance.now();
      const c = trainStage(st, {});
      if (c === null) {
        ctx.note(
          `${st.label}: kind "${st.kind}" (or the row it builds on) is not available in this build; skipped`,
        );
        continue;
      }
      cascades.set(st.label, c);
      let seconds = (performance.now() - t0) / 1000;
      if (st.hidden === true) {
        hiddenSeconds.set(st.label, seconds);
        continue;
      }
      // A row built on a hidden stage also counts that stage's training.
      const own = st.after === null ? undefined : hiddenSeconds.get(st.after);
      if (own !== undefined) {
        seconds += own;
        ctx.note(`${st.label}: train s includes ${own.toFixed(1)} s for its own prefix "${st.after}"`);
      }
      trained.push({ label: st.label, c, trainSeconds: seconds });
    }
    for (const [label, file] of extra) addLoaded(label, file);
    // Filter time: median of `filterReps` runs over dev, the rows interleaved (A B C … A B C …),
    // after a warm-up run of each, so no row pays for the JIT or for training garbage.
    const evals = trained.map((t) => evaluateCascade(t.c, dev, vocab));
    const filterTimes = trained.map(() => [] as number[]);
    for (let r = 0; r < filterReps; r++)
      trained.forEach((t, i) => filterTimes[i]!.push(evaluateCascade(t.c, dev, vocab).seconds));
    for (const note of jointFilterRatioNotes(
      trained.map((t) => t.label),
      filterTimes,
    ))
      ctx.note(note);
    trained.forEach((t, i) => {
      const e = evals[i]!;
      const sec = median(filterTimes[i]!);
      oracle = e.scores.oracleReduction;
      t4.push([
        t.label,
        round(e.scores.coverage),
        round(e.scores.reduction),
        round(e.scores.sentenceCoverage),
        round(e.scores.headsPerToken),
        Number((sec * 1000).toFixed(0)),
        Math.round(devTokens / sec),
        Number((encodeModel(cascadeModelData(t.c)).length / 1e6).toFixed(2)),
        t.trainSeconds === null ? "" : Number(t.trainSeconds.toFixed(1)),
      ]);
    });
    if (parts.has("table4")) {
      t4.push(["Oracle (gold tree)", 100, round(oracle), 100, 1, "", "", "", ""]);
      ctx.table(
        `Table 4: arc filters on ${tb} dev (predicted tags): coverage (gold arcs kept), reduction (arcs removed), time to filter the whole dev set (median of ${filterReps} interleaved runs)`,
        [
          "filter",
          "coverage %",
          "reduction %",
          "sentences all kept %",
          "heads/token",
          "filter ms",
          "filter tok/s",
          "model MB",
          "train s",
        ],
        t4,
      );
    }

    // Tables 5 and 6: the linear decisions of the Rules+Linear row (precision/recall, leave-one-out).
    const lin = cascades.get("Rules+Linear");
    const linPass = lin?.passes[lin.passes.length - 1];
    if (lin !== undefined && linPass instanceof TokenRoleFilter) {
      const prefix = new PruningCascade(lin.passes.slice(0, -1));
      if (parts.has("table5"))
        ctx.table(
          `Table 5: the linear decisions of Rules+Linear on ${tb} dev (tokens where the decision can remove an arc after Rules)`,
          ["decision", "paper", "C1:C2", "precision %", "recall %", "fired", "holds", "active"],
          roleDecisionQuality(linPass, dev, vocab, prefix).map((q, d) => [
            q.decision,
            q.paperName,
            linPass.info[d] === undefined ? "" : `${linPass.info[d]!.c1}:${linPass.info[d]!.c2}`,
            q.precision,
            q.recall,
            q.predicted,
            q.actual,
            q.active,
          ]),
        );
      if (parts.has("table6"))
        ctx.table(
          `Table 6: leave-one-out ablation of the linear decisions (Rules + Linear on ${tb} dev; oracle: the same decisions made perfectly)`,
          ["decisions", "coverage %", "reduction %", "oracle reduction %"],
          roleAblation(linPass, dev, vocab, prefix).map((r) => [
            r.name,
            r.coverage,
            r.reduction,
            r.oracleReduction,
          ]),
        );
    }

    if (parts.has("figure2")) {
      const series: PlotSeries[] = [];
      const rows: Cell[][] = [];
      for (const st of STAGES) {
        if (!cascades.has(st.label) || st.hidden === true) continue;
        if (st.sweep.length === 0) {
          // Linear and quadratic rows: the curve their training traced on dev (no retraining); the
          // last one logged, which for a quadratic filter with the arc network is the network's.
          const line = [...(logs.get(st.label) ?? [])].reverse().find((l) => / curve /.test(l));
          if (line === undefined) continue;
          const pts: [number, number][] = [];
          for (const tok of line
            .slice(line.indexOf(" curve ") + 7)
            .trim()
            .split(/\s+/)) {
            const [cov, red] = tok.split("/").map(Number);
            if (!Number.isFinite(cov) || !Number.isFinite(red)) continue;
            pts.push([red!, cov!]);
            rows.push([st.label, "operating point on the dev curve", round(cov!), round(red!)]);
          }
          series.push({ name: st.label, points: pts });
          continue;
        }
        const pts: [number, number][] = [];
        for (const over of st.sweep) {
          const c = trainStage(st, over);
          if (c === null) continue;
          const e = evaluateCascade(c, dev, vocab);
          pts.push([e.scores.reduction, e.scores.coverage]);
          rows.push([
            st.label,
            Object.entries(over)
              .map(([k, v]) => `--${k} ${v}`)
              .join(" "),
            round(e.scores.coverage),
            round(e.scores.reduction),
          ]);
        }
        series.push({ name: st.label, points: pts });
      }
      ctx.table(
        `Figure 2 data: coverage against reduction on ${tb} dev`,
        ["filter", "setting", "coverage %", "reduction %"],
        rows,
      );
      const minCov = Math.min(99, ...series.flatMap((s) => s.points.map((p) => p[1])));
      const svg = linePlotSvg(
        {
          title: `Arc filters on ${tb} dev: coverage against reduction`,
          xLabel: "reduction (% of arcs removed)",
          yLabel: "coverage (% of gold arcs kept)",
          x: [0, 100],
          y: [Math.floor(minCov * 2) / 2, 100],
        },
        series,
      );
      ctx.writeResult("filters-figure2", "svg", svg, "Figure 2");
    }

    if (!parts.has("table7")) return;
    // Table 7: parsers trained without filters, then with each of --train-filters; every parser parses
    // dev with no filter and with each of --parse-filters, all timed round robin (A B C … A B C …).
    const parseFilters = (
      values["parse-filters"] ??
      [...cascades.keys()].filter((k) => k.startsWith("Rules") && k !== "Rules (99.8)").join(",")
    )
      .split(",")
      .filter((l) => cascades.has(l));
    const trainFilters = (values["train-filters"] ?? "Rules+Linear+Quad")
      .split(",")
      .filter((l) => cascades.has(l));
    interface Run {
      parser: string;
      trainedWith: string;
      filter: string;
      p: DependencyParser;
      cascade: PruningCascade;
      trainMin: number;
      times: number[];
      /** Filter and parse each sentence in turn (parsePruned) instead of a block at a time (parseBlock). */
      bySentence?: boolean;
    }
    const runs: Run[] = [];
    /** The cascade whose first-order rows are also timed sentence by sentence. */
    const FULL = "Rules+Linear+Quad";
    const none = new PruningCascade();
    const addParsers = (trainedWith: string, cascade: PruningCascade) => {
      const made: { name: string; p: DependencyParser; min: number }[] = [];
      for (const decoder of orders.includes(1) ? (["eisner", "mst"] as const) : ([] as const)) {
        const t0 = performance.now();
        const r = trainParser(train, vocab, {
          decoder,
          epochs,
          dev,
          cascade,
          onEpoch: (e) =>
            ctx.note(
              `  1st ${decoder} (trained: ${trainedWith}) epoch ${e.epoch}: dev UAS ${round(e.dev!.uasNoPunct)}`,
            ),
        });
        const min = (performance.now() - t0) / 60000;
        made.push({ name: `1st ${decoder === "eisner" ? "Eisner" : "MST"}`, p: r.parser, min });
      }
      if (orders.includes(2)) {
        const t0 = performance.now();
        const r = trainHigherOrderParser(train, vocab, {
          order: 2,
          epochs,
          k: 0,
          prefix: cascade,
          dev,
          onEpoch: (e) =>
            ctx.note(`  2nd (trained: ${trainedWith}) epoch ${e.epoch}: dev UAS ${round(e.dev!.uasNoPunct)}`),
        });
        made.push({ name: "2nd", p: r.parser, min: (performance.now() - t0) / 60000 });
      }
      return made;
    };
    for (const m of addParsers("none", none)) {
      runs.push({
        parser: m.name,
        trainedWith: "none",
        filter: "none",
        p: m.p,
        cascade: none,
        trainMin: m.min,
        times: [],
      });
      for (const f of parseFilters)
        runs.push({
          parser: m.name,
          trainedWith: "none",
          filter: f,
          p: m.p,
          cascade: cascades.get(f)!,
          trainMin: m.min,
          times: [],
        });
      if (m.name.startsWith("1st") && parseFilters.includes(FULL))
        runs.push({
          parser: m.name,
          trainedWith: "none",
          filter: `${FULL}, sentence by sentence`,
          p: m.p,
          cascade: cascades.get(FULL)!,
          trainMin: m.min,
          times: [],
          bySentence: true,
        });
    }
    for (const f of trainFilters) {
      const c = cascades.get(f)!;
      for (const m of addParsers(f, c))
        runs.push({
          parser: m.name,
          trainedWith: f,
          filter: f,
          p: m.p,
          cascade: c,
          trainMin: m.min,
          times: [],
        });
    }
    const results = runs.map(() => ({ heads: [] as Int32Array[], rels: [] as Int32Array[], fallbacks: 0 }));
    // Filtering alone (in blocks, a pass at a time, as parseBlock does), timed in the same round robin:
    // the share of the unfiltered first-order parse time that the filter costs.
    const filterAlone = new Map(parseFilters.map((f) => [f, [] as number[]]));
    for (let r = 0; r < reps; r++) {
      for (const [f, times] of filterAlone) {
        const c = cascades.get(f)!;
        const t0 = performance.now();
        for (let i = 0; i < dev.length; i += PARSE_BLOCK) c.masksFor(dev.slice(i, i + PARSE_BLOCK), vocab);
        times.push((performance.now() - t0) / 1000);
      }
      runs.forEach((run, i) => {
        const t0 = performance.now();
        const out: Int32Array[] = [];
        const rels: Int32Array[] = [];
        let fb = 0;
        const parses = run.bySentence
          ? dev.map((s) => parsePruned(run.p, s, vocab, run.cascade))
          : parseBlock(run.p, dev, vocab, run.cascade);
        run.times.push((performance.now() - t0) / 1000);
        for (const res of parses) {
          if (res.fallback) fb++;
          if (r === 0) {
            out.push(res.heads);
            rels.push(res.labels);
          }
        }
        if (r === 0) results[i] = { heads: out, rels, fallbacks: fb };
      });
    }
    const base = new Map<string, number>();
    const baseTimes = new Map<string, number[]>();
    for (const run of runs)
      if (run.filter === "none" && run.trainedWith === "none") {
        base.set(run.parser, median(run.times));
        baseTimes.set(run.parser, run.times);
      }
    const rows: Cell[][] = runs.map((run, i) => {
      const ev = new AttachmentEvaluator({ punctUpos: vocab.upos.get("PUNCT") });
      const ids = run.p.labels.map((l) => vocab.deprel.add(l));
      dev.forEach((s: Sentence, j) => {
        const rel = results[i]!.rels[j]!.map((l, m) => (m === 0 ? 0 : ids[l]!));
        ev.addSentence(s, results[i]!.heads[j]!, rel);
      });
      const sc = ev.scores();
      const sec = median(run.times);
      const alone = filterAlone.get(run.filter);
      const first = base.get("1st Eisner");
      return [
        run.parser,
        run.trainedWith,
        run.filter,
        round(sc.uasNoPunct),
        round(sc.lasNoPunct),
        Number(sec.toFixed(3)),
        Math.round(devTokens / sec),
        Number((base.get(run.parser)! / sec).toFixed(2)),
        Number(median(run.times.map((t, r) => baseTimes.get(run.parser)![r]! / t)).toFixed(2)),
        results[i]!.fallbacks,
        alone === undefined ? "" : Number(median(alone).toFixed(3)),
        alone === undefined || first === undefined ? "" : round((100 * median(alone)) / first),
        run.trainedWith === run.filter || run.filter === "none" ? Number(run.trainMin.toFixed(1)) : "",
      ];
    });
    // UAS-P with each filter against the same parser unfiltered, with a paired bootstrap interval.
    const punct = vocab.upos.get("PUNCT");
    const right = runs.map((_, i) => headsRightNoPunct(dev, results[i]!.heads, punct));
    const notes: string[] = [];
    runs.forEach((run, i) => {
      if (run.filter === "none" || run.bySentence) return;
      const b = runs.findIndex((x) => x.parser === run.parser && x.filter === "none");
      notes.push(
        bootstrapNote(
          `${run.parser} trained with ${run.trainedWith}, ${run.filter} − unfiltered`,
          right[i]!.correct,
          right[b]!.correct,
          right[b]!.total,
        ),
      );
    });
    ctx.table(
      `Table 7: parsing ${tb} dev with arc filters (predicted tags; filter time included; ${PARSE_BLOCK} sentences at a time, the cascade over them and then the parser, as vineparse parse does; "${FULL}, sentence by sentence": filtering and parsing each sentence in turn; median of ${reps} interleaved runs; "filter s": filtering alone, in the same round robin, in blocks as parsing does it; "filter % of 1st": that time against the unfiltered 1st Eisner parse; speed-up against the same parser unfiltered, as a ratio of medians and as the median of the per-round ratios)`,
      [
        "parser",
        "trained with",
        "filter",
        "UAS-P",
        "LAS-P",
        "parse s",
        "tok/s",
        "speed-up",
        "speed-up (rounds)",
        "fallbacks",
        "filter s",
        "filter % of 1st",
        "train min",
      ],
      rows,
    );
    for (const note of notes) ctx.note(note);
  },
};
