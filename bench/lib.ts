import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReadSentence } from "../src/conllu/read.js";
import { DEPREL, FORM, HEAD, UPOS } from "../src/conllu/types.js";
import { loadCorpus } from "../src/corpus/load.js";
import { type Sentence, sentenceFromWords } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { AttachmentEvaluator, type AttachmentScores } from "../src/eval/attachment.js";
import { pairedBootstrap } from "../src/eval/bootstrap.js";
import { percent } from "../src/eval/percent.js";
import { type Cell, formatMarkdownTable, formatTable } from "../src/eval/table.js";
import type { SentenceTags } from "../src/eval/tag-errors.js";
import { parseBlock, parsePruned } from "../src/parser/pruned-parse.js";
import type { DependencyParser } from "../src/parser/types.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import type { Pipeline } from "../src/pipeline/pipeline.js";
import type { Tagger } from "../src/tagger/tagger.js";

/**
 * A pipeline bundle (default: the bundled model) with its tagger and parser; a model without a
 * tagger is refused, since the benches that call this tag dev themselves.
 */
export function loadTaggingPipeline(model?: string): {
  pipeline: Pipeline;
  tagger: Tagger;
  parser: DependencyParser;
} {
  const pipeline = loadPipeline(model);
  const tagger = pipeline.tagger;
  if (tagger === null) throw new Error("the model has no tagger: give a pipeline bundle");
  return { pipeline, tagger, parser: pipeline.parser };
}

/** Repository root (this file runs from dist/bench). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where result files go: bench/results in the source tree (committable). */
export const resultsDir = join(repoRoot, "bench", "results");

/** The machine a benchmark ran on. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
}

/** One printed table, as recorded in the JSON results. */
export interface RecordedTable {
  title: string;
  columns: string[];
  rows: Cell[][];
}

/** An experiment module `bench/exp-<name>.ts` exports one of these as `experiment`. */
export interface Experiment {
  /** One-line description shown in the list of experiments. */
  summary: string;
  /** Runs the experiment with the arguments after its name. */
  run(args: string[], ctx: BenchContext): Promise<void>;
}

/** Thrown to stop an experiment with a message and an exit code (e.g. 2 when data is missing). */
export class BenchAbort extends Error {
  /** Process exit code. */
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "BenchAbort";
    this.exitCode = exitCode;
  }
}

/** Describes this machine: CPU model, cores, memory, OS and Node version. */
export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? "unknown",
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

/** Short git commit of the repository, with "-dirty" if the tree has uncommitted changes ("unknown" outside git). */
export function gitCommit(root = repoRoot): string {
  const head = spawnSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, encoding: "utf8" });
  if (head.status !== 0) return "unknown";
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], {
    cwd: root,
    encoding: "utf8",
  });
  const dirty = status.status === 0 && status.stdout.trim().length > 0;
  return head.stdout.trim() + (dirty ? "-dirty" : "");
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** Runs `fn` once and returns its result with the wall-clock seconds it took (process.hrtime.bigint). */
export async function time<T>(fn: () => T | Promise<T>): Promise<{ result: T; seconds: number }> {
  const t0 = process.hrtime.bigint();
  const result = await fn();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { result, seconds };
}

const JSON_WIDTH = 110;

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v !== "object";
}

function serialize(v: unknown, indent: string, lead: number): string {
  if (isPrimitive(v)) return JSON.stringify(v) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    if (v.every(isPrimitive)) {
      const line = `[${v.map((x) => JSON.stringify(x) ?? "null").join(", ")}]`;
      if (lead + line.length + 1 <= JSON_WIDTH) return line;
    }
    const items = v.map((x) => inner + serialize(x, inner, inner.length));
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return "{}";
  const items = entries.map(([k, x]) => {
    const key = `${inner}${JSON.stringify(k)}: `;
    return key + serialize(x, inner, key.length);
  });
  return `{\n${items.join(",\n")}\n${indent}}`;
}

/**
 * JSON with 2-space indentation where arrays of numbers/strings (table rows) stay on one line when they
 * fit in 110 columns: the layout Biome's formatter produces, so committed results pass `npm run lint`.
 */
export function compactJson(value: unknown): string {
  return serialize(value, "", 0);
}

/** Root of the UD treebanks: $VINEPARSE_UD, else ../shared/data/ud beside the repository. */
export function udRoot(): string {
  return process.env.VINEPARSE_UD ?? join(repoRoot, "..", "shared", "data", "ud");
}

/** What an experiment gets: run metadata, data paths, timing, and a table printer that records results. */
export class BenchContext {
  /** Experiment name. */
  readonly name: string;
  /** Arguments the experiment was run with. */
  readonly args: string[];
  /** Machine description. */
  readonly machine = machineInfo();
  /** ISO date and time of the run start. */
  readonly date = new Date().toISOString();
  /** Git commit of the code (with "-dirty" if uncommitted changes). */
  readonly commit = gitCommit();
  /** Tables printed so far. */
  readonly tables: RecordedTable[] = [];
  /** Free-form notes printed so far. */
  readonly notes: string[] = [];
  private readonly out: (s: string) => void;
  private readonly record: boolean;

  constructor(name: string, args: string[], opts: { write?: (s: string) => void; record?: boolean } = {}) {
    this.name = name;
    this.args = args;
    this.out = opts.write ?? ((s) => process.stdout.write(s));
    this.record = opts.record ?? true;
  }

  /** Path of the results file of this run with the given extension ("md" or "json"). */
  resultsPath(ext: "md" | "json"): string {
    return this.resultFile(this.name, ext);
  }

  /** bench/results/<base>-<date of the run>.<ext>. */
  private resultFile(base: string, ext: string): string {
    return join(resultsDir, `${base}-${this.date.slice(0, 10)}.${ext}`);
  }

  /**
   * Writes `text` (e.g. a plot) to bench/results/<base>-<date>.<ext> whole or not at all (a temporary
   * file renamed over it) and notes `what` and the path; nothing when the run is not recorded.
   */
  writeResult(base: string, ext: string, text: string, what: string): void {
    if (!this.record) return;
    const path = this.resultFile(base, ext);
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path + ".tmp", text);
    renameSync(path + ".tmp", path);
    this.note(`${what} written to ${path}`);
  }

  /** One line describing the run: machine, Node, commit, date. */
  header(): string {
    const m = this.machine;
    const load = loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
    return `${this.name}: ${m.cpu} (${m.cores} cores, ${m.memoryGiB} GiB), ${m.os}, Node ${m.node}, commit ${this.commit}, ${this.date}, load average ${load}`;
  }

  /** Prints an aligned table and appends it (markdown and JSON) to bench/results/<name>-<date>.{md,json}. */
  table(title: string, columns: string[], rows: Cell[][]): void {
    this.out(`\n${title}\n${formatTable(columns, rows)}`);
    this.tables.push({ title, columns, rows });
    if (!this.record) return;
    mkdirSync(resultsDir, { recursive: true });
    const md = this.resultsPath("md");
    let text = existsSync(md) ? "" : `# ${this.name}\n`;
    if (this.tables.length === 1) {
      text += `\n## Run ${this.date}\n\n${this.header()}\n\nArguments: \`${this.args.join(" ") || "(none)"}\`\n`;
    }
    text += `\n### ${title}\n\n${formatMarkdownTable(columns, rows)}`;
    writeFileSync(md, text, { flag: "a" });
    this.saveJson();
  }

  /** Prints a note (a line of text) and records it with the results. */
  note(text: string): void {
    this.out(`${text}\n`);
    this.notes.push(text);
  }

  /** The run as recorded in the JSON results. */
  toJSON(): object {
    return {
      name: this.name,
      args: this.args,
      date: this.date,
      commit: this.commit,
      machine: this.machine,
      peakRssMiB: peakRssMiB(),
      tables: this.tables,
      notes: this.notes,
    };
  }

  /** Rewrites this run's entry in the JSON results file (a `{ runs: [...] }` document). */
  saveJson(): void {
    if (!this.record || this.tables.length === 0) return;
    const path = this.resultsPath("json");
    let doc: { runs: { date: string }[] } = { runs: [] };
    if (existsSync(path)) {
      try {
        doc = JSON.parse(readFileSync(path, "utf8"));
      } catch {
        doc = { runs: [] };
      }
    }
    const me = this.toJSON() as { date: string };
    const i = doc.runs.findIndex((r) => r.date === this.date);
    if (i >= 0) doc.runs[i] = me;
    else doc.runs.push(me);
    writeFileSync(path, compactJson(doc) + "\n");
  }

  /** The UD data root, or a `BenchAbort` (exit code 2) explaining how to provide it. */
  udRoot(): string {
    const root = udRoot();
    if (!existsSync(root)) {
      throw new BenchAbort(
        `UD data not found at ${root}: put treebanks in ../shared/data/ud/<tb>/{train,dev}.conllu or set VINEPARSE_UD`,
      );
    }
    return root;
  }

  /** Path of one treebank split, e.g. treebank("en_ewt", "dev"); `BenchAbort` (exit 2) if absent. */
  treebank(tb: string, split: string): string {
    const p = join(this.udRoot(), tb, `${split}.conllu`);
    if (!existsSync(p)) throw new BenchAbort(`treebank file not found: ${p}`);
    return p;
  }

  /** Times `fn` (see `time`). */
  time<T>(fn: () => T | Promise<T>): Promise<{ result: T; seconds: number }> {
    return time(fn);
  }

  /** Peak resident set size so far, in MiB. */
  peakRssMiB(): number {
    return peakRssMiB();
  }
}

/** The closing JSON summary that `vineparse parse --json` prints on stderr. */
export interface ParseSummary {
  sentences: number;
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
  loadSeconds: number;
  maxRssMiB: number;
  /** Minor page faults of the whole process (pages touched for the first time). */
  minorPageFaults: number;
}

/** The closing JSON summary of a `vineparse parse --json` run, from its stderr (the last line). */
export function parseSummaryOf(stderr: string): ParseSummary {
  return JSON.parse(stderr.trim().split("\n").pop()!) as ParseSummary;
}

/** Runs `vineparse parse --json` as a separate process; returns its summary and the whole process's wall time. */
export function runParseCommand(
  model: string,
  input: string,
  output: string,
): { summary: ParseSummary; wall: number } {
  const t0 = process.hrtime.bigint();
  const p = spawnSync(
    process.execPath,
    [
      join(repoRoot, "dist", "src", "cli", "main.js"),
      "parse",
      "--model",
      model,
      "--input",
      input,
      "--output",
      output,
      "--json",
    ],
    { encoding: "utf8" },
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (p.status !== 0) throw new Error(`vineparse parse failed: ${p.stderr}`);
  return { summary: parseSummaryOf(p.stderr), wall };
}

/** Median of a non-empty list (the mean of the two middle values when the count is even). */
/**
 * A model as it comes back from its file: saved by `save` into a temporary directory, its size
 * taken, loaded by `load`, the directory removed.
 */
export function throughFile<T>(
  save: (path: string) => void,
  load: (path: string) => T,
): { model: T; bytes: number } {
  const tmp = mkdtempSync(join(tmpdir(), "vineparse-bench-model-"));
  try {
    const path = join(tmp, "model.vpm");
    save(path);
    return { bytes: statSync(path).size, model: load(path) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** The per-round ratios timesA[r] / timesB[r] of two variants timed in the same rounds. */
export function perRoundRatios(timesA: readonly number[], timesB: readonly number[]): number[] {
  const n = Math.min(timesA.length, timesB.length);
  return timesA.slice(0, n).map((t, r) => t / timesB[r]!);
}

/**
 * One line comparing two variants timed in the same rounds (times[r] of each from round r): the
 * median of the per-round ratios a / b with their range, which a host slowing down between rounds
 * moves less than the ratio of medians, given beside it.
 */
export function pairedRatioNote(
  a: string,
  timesA: readonly number[],
  b: string,
  timesB: readonly number[],
): string {
  const ratios = perRoundRatios(timesA, timesB);
  return (
    `${a} / ${b} time: median of ${ratios.length} per-round ratios ${median(ratios).toFixed(3)} ` +
    `(range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}); ratio of medians ` +
    `${(median(timesA) / median(timesB)).toFixed(3)}`
  );
}

/** The rows the benches compare each joint filter with (B&C 2011, Table 2): joint label, 2010 cascade label. */
export const JOINT_PAIRS = [
  ["Joint P1", "Rules+Linear"],
  ["Joint P2", "Rules+Linear+Quad"],
] as const;

/**
 * `pairedRatioNote` lines for the joint filters against the 2010 cascades they are matched with
 * (Joint P1 / Rules+Linear, Joint P2 / Rules+Linear+Quad), for those pairs whose labels are both
 * present; times[i] are the per-round filter times of the row labelled labels[i].
 */
export function jointFilterRatioNotes(
  labels: readonly string[],
  times: readonly (readonly number[])[],
): string[] {
  const notes: string[] = [];
  for (const [a, b] of JOINT_PAIRS) {
    const i = labels.indexOf(a);
    const j = labels.indexOf(b);
    if (i >= 0 && j >= 0) notes.push(pairedRatioNote(`${a} filter`, times[i]!, b, times[j]!));
  }
  return notes;
}

/** Runs `f` `reps` times (at least once): its first result and the shortest time in seconds. */
export function bestOf<T>(reps: number, f: () => T): { result: T; seconds: number } {
  let result: T | undefined;
  let seconds = Number.POSITIVE_INFINITY;
  for (let r = 0; r < Math.max(1, reps); r++) {
    const t = performance.now();
    const x = f();
    seconds = Math.min(seconds, (performance.now() - t) / 1000);
    if (r === 0) result = x;
  }
  return { result: result!, seconds };
}

/**
 * Parses the gold-tokenized sentences of `dev` with the given tags (one `SentenceTags` per sentence)
 * and scores them against `dev`'s gold trees. Parsing (with the parser's own cascade) is timed alone,
 * best of `reps` passes (every pass gives the same trees): a block at a time (`parseBlock`), or with
 * `bySentence` the cascade and the parser in turn for each sentence.
 */
export function parseWithTags(
  parser: DependencyParser,
  dev: readonly ReadSentence[],
  tags: readonly SentenceTags[],
  reps = 1,
  bySentence = false,
): { scores: AttachmentScores; seconds: number } {
  const vocab = new Vocabularies();
  const sents = dev.map((r, i) =>
    sentenceFromWords(
      r.sentence.words.map((w) => w[FORM]!),
      tags[i]!.upos,
      tags[i]!.xpos,
      vocab,
    ),
  );
  const { result: parses, seconds } = bestOf(reps, () =>
    bySentence ? sents.map((x) => parsePruned(parser, x, vocab)) : parseBlock(parser, sents, vocab),
  );
  const ev = new AttachmentEvaluator();
  for (let i = 0; i < dev.length; i++) {
    const words = dev[i]!.sentence.words;
    const gh = [-1, ...words.map((w) => Number(w[HEAD]))];
    const gr = ["", ...words.map((w) => w[DEPREL]!)];
    const sr = ["", ...Array.from(parses[i]!.labels.subarray(1), (l) => parser.labels[l]!)];
    ev.add(words.length, gh, gr, parses[i]!.heads, sr, [false, ...words.map((w) => w[UPOS] === "PUNCT")]);
  }
  return { scores: ev.scores(), seconds };
}

/** Least-squares slope of log(y) on log(x): the empirical exponent k of y ∝ x^k. */
export function fitExponent(xs: readonly number[], ys: readonly number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

/**
 * Per sentence of `dev`: how many non-punctuation words (UPOS id `punct`) `heads[i]` attaches
 * correctly, and how many there are: the counts behind UAS-P (also given), for a paired bootstrap
 * over sentences.
 */
export function headsRightNoPunct(
  dev: readonly Sentence[],
  heads: readonly Int32Array[],
  punct: number,
): { correct: Int32Array; total: Int32Array; uasNoPunct: number } {
  const correct = new Int32Array(dev.length);
  const total = new Int32Array(dev.length);
  let right = 0;
  let words = 0;
  dev.forEach((s, i) => {
    const h = heads[i]!;
    for (let m = 1; m <= s.n; m++)
      if (s.upos[m] !== punct) {
        total[i]!++;
        if (h[m] === s.head[m]) correct[i]!++;
      }
    right += correct[i]!;
    words += total[i]!;
  });
  return { correct, total, uasNoPunct: percent(right, words) };
}

/** "difference d points, 95% paired bootstrap interval [lo, hi]" for UAS-P of a against b. */
export function bootstrapNote(
  what: string,
  a: Int32Array,
  b: Int32Array,
  total: Int32Array,
  samples = 2000,
): string {
  const d = pairedBootstrap(a, b, total, samples);
  return (
    `${what}: UAS-P difference ${d.difference.toFixed(2)} points, 95% paired bootstrap interval over ` +
    `${total.length} sentences [${d.low.toFixed(2)}, ${d.high.toFixed(2)}], first better in ` +
    `${(100 * d.aBetter).toFixed(1)}% of ${samples} resamples`
  );
}

/**
 * A treebank's train split (its first `limit` sentences when limit > 0) and dev split, with their
 * gold tags, in one vocabulary; and dev's token count.
 */
export function goldTrainDev(
  ctx: BenchContext,
  tb: string,
  limit = 0,
): { vocab: Vocabularies; train: Sentence[]; dev: Sentence[]; devTokens: number } {
  const vocab = new Vocabularies();
  let train = loadCorpus(ctx.treebank(tb, "train"), vocab).sentences;
  if (limit > 0) train = train.slice(0, limit);
  const dev = loadCorpus(ctx.treebank(tb, "dev"), vocab).sentences;
  return { vocab, train, dev, devTokens: dev.reduce((a, s) => a + s.n, 0) };
}
