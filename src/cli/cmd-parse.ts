import { statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { streamConllu } from "../conllu/read.js";
import { VineparseError } from "../errors.js";
import { loadPipeline, loadSegmenter } from "../pipeline/default-model.js";
import { noTaggerError } from "../pipeline/no-tagger.js";
import { BLOCK_WORDS, parseTextStream, textBlocks } from "../pipeline/parse-stream.js";
import {
  type AnnotatedSentence,
  type PipelineTimes,
  pipelineTimes,
  toConllu,
  toJsonLine,
  toTreeText,
} from "../pipeline/pipeline.js";
import { resolvePruneSpec } from "../prune/spec.js";
import { setCascadeAlphas } from "../prune/tune-alphas.js";
import { AtomicWriter, checkWritable } from "../util/atomic-write.js";
import { readUtf8Chunks } from "../util/utf8.js";
import { MAX_SENTENCE_WORDS } from "../pipeline/sentence-split.js";
import { PARSE_BLOCK } from "../parser/pruned-parse.js";
import { readyBlocks } from "../util/blocks.js";
import { alphaListOption, choiceOption, numberOption, parseCommandArgs } from "./args.js";
import type { Command } from "./command.js";
import type { ParsedBlock, ParseWorkerSetup } from "./parse-pool.js";
import type { ConlluSentence } from "../conllu/types.js";

const usage = `usage: vineparse parse [--model MODEL] (--input F.conllu | --text "raw text" | --raw [FILE]) [options]

Parses with a trained model and writes CoNLL-U (or a readable tree). Without --model, the bundled
English model (UD en_ewt: tokenizer, tagger, parser) is used.
  --input   CoNLL-U input: the tags present in the input are used (retagged with --retag, or when
            absent); HEAD and DEPREL are filled in, every other line and column is kept.
  --text    raw text: split into sentences and tokenized (by the model's learned tokenizer, or by
            the English rules of UD English EWT when it has none), tagged, parsed.
  --raw     raw text from FILE or stdin ("-" or no FILE).

options:
  --model FILE      pipeline bundle or parser model (default: the bundled English model)
  --input FILE      CoNLL-U to parse ("-" = stdin)
  --text TEXT       raw text to parse
  --raw [FILE]      read raw text from FILE (or --input FILE; "-" or none = stdin)
  --output FILE     where to write (default "-" = stdout; files are written atomically)
  --format NAME     conllu (default), tree, or json (JSON Lines: one object per sentence with its
                    id, text, words and multiword tokens; raw text adds each word's offsets)
  --retag           tag CoNLL-U input with the bundle's tagger instead of using its tags
  --morph WHEN      where the bundle's lemmatizer and FEATS tagger fill LEMMA and FEATS: tagged
                    (default: in the sentences the pipeline tags itself, i.e. raw text, untagged
                    CoNLL-U and --retag), always (every sentence, from the tags it is parsed with),
                    or never
  --prune SPEC      pruning before parsing, replacing the model's own cascade: none (exhaustive),
                    default (the model's cascade), topk[:K] (each token's K best heads by the
                    model's first-order scores), topk:K:A (the same, only in sentences keeping
                    more than A heads per token on average) or filter / cascade files,
                    comma-separated, in order
  --alpha A[,A…]    test-time alpha of the cascade's vine and max-marginal passes, in order (a
                    larger alpha prunes more and parses faster: t_alpha = alpha·max + (1 − alpha)·mean;
                    the model keeps its own for the passes not given)
  --newline-breaks  with raw text: every line break ends a sentence
  --max-words N     with raw text: cut longer sentences (default 250; 0 = no cap), at a line
                    break or after ; : or , where possible
  --timing          add to the closing summary the seconds spent tagging, making lemmas and
                    features, in each pass of the cascade, parsing and labelling (the rest:
                    reading, tokenizing, writing)
  --json            print the closing summary as one JSON line
  --quiet           no closing summary
  --skip-invalid    skip malformed CoNLL-U sentences with a warning instead of stopping
  --threads N       parse on N worker threads (default 1), each with its own copy of the model
                    (about 120 MB more a thread with the bundled model); the output is the same.
                    Pays on large inputs only. With --timing, the stages are summed over the threads
  -h, --help        show this help
`;

/**
 * The stages of `times` over a run of `total` seconds, in order (tagging, each pass of the cascade by
 * kind, parsing, labelling, then the rest: reading, tokenizing and writing), in seconds to the
 * millisecond.
 */
function stageSeconds(times: PipelineTimes, total: number): { stage: string; seconds: number }[] {
  const stages = [
    { stage: "tagging", seconds: times.tag },
    ...(times.morph > 0 ? [{ stage: "lemmas and features", seconds: times.morph }] : []),
    ...times.cascade.passes.map((p) => ({ stage: p.kind, seconds: p.seconds })),
    { stage: "parsing", seconds: times.parse },
    { stage: "labelling", seconds: times.label },
  ];
  const rest = total - stages.reduce((a, x) => a + x.seconds, 0);
  stages.push({ stage: "rest", seconds: Math.max(0, rest) });
  return stages.map((x) => ({ stage: x.stage, seconds: Number(x.seconds.toFixed(3)) }));
}

/** Whether `path` names a regular file (all its input is there: blocks need not stop for more). */
function isFile(path: string): boolean {
  try {
    return path !== "-" && statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Blocks of the sentences of a CoNLL-U file (or "-"), as `vineparse parse` parses them (see
 * PARSE_BLOCK, PARSE_BLOCK_WORDS); malformed sentences stop the run, or are skipped with a warning.
 */
async function* conlluBlocks(
  path: string,
  skipInvalid: boolean,
): AsyncGenerator<{ cs: ConlluSentence[]; spans: null }> {
  const input = streamConllu(path, {
    requireTree: false,
    onInvalid: skipInvalid ? "skip" : "abort",
    onWarning: (e) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
  });
  for await (const block of readyBlocks(input, PARSE_BLOCK, isFile(path), BLOCK_WORDS)) {
    const cs = block.map((r) => r.sentence);
    block.length = 0; // the sentences are in cs, which the parse empties as it goes
    yield { cs, spans: null };
  }
}

/** The closing summary of a run. */
interface ParseSummary {
  sentences: number;
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
  sentencesPerSecond: number;
  loadSeconds: number;
  fallbacks: number;
  prune: string;
  maxRssMiB: number;
  minorPageFaults: number;
  stages?: { stage: string; seconds: number }[];
}

/** The summary of a run from its counts (seconds: from the first sentence read to the last written). */
function summaryOf(
  run: {
    sentences: number;
    tokens: number;
    fallbacks: number;
    seconds: number;
    loadSeconds: number;
    prune: string;
  },
  stages: { stage: string; seconds: number }[] | undefined,
): ParseSummary {
  const { seconds } = run;
  const usage = process.resourceUsage();
  return {
    sentences: run.sentences,
    tokens: run.tokens,
    seconds: Number(seconds.toFixed(3)),
    tokensPerSecond: seconds > 0 ? Math.round(run.tokens / seconds) : 0,
    sentencesPerSecond: seconds > 0 ? Math.round(run.sentences / seconds) : 0,
    loadSeconds: Number(run.loadSeconds.toFixed(3)),
    fallbacks: run.fallbacks,
    prune: run.prune,
    // The whole process, worker threads included.
    maxRssMiB: Math.round(usage.maxRSS / 1024),
    // Pages the process touched for the first time (minor faults): each costs a kernel entry, and
    // on some virtual machines far more (bench/memory: first-touch cost of this host).
    minorPageFaults: usage.minorPageFault,
    ...(stages === undefined ? {} : { stages }),
  };
}

/** Writes the closing summary to stderr: one JSON line, a sentence (and the stages), or nothing. */
function writeSummary(summary: ParseSummary, json: boolean, quiet: boolean): void {
  if (json) process.stderr.write(JSON.stringify(summary) + "\n");
  else if (!quiet) {
    process.stderr.write(
      `parsed ${summary.sentences} sentences, ${summary.tokens} tokens in ${summary.seconds} s (${summary.tokensPerSecond} tokens/s, ${summary.sentencesPerSecond} sentences/s; model loaded in ${summary.loadSeconds} s)\n`,
    );
    if (summary.stages !== undefined)
      process.stderr.write(`time: ${summary.stages.map((x) => `${x.stage} ${x.seconds} s`).join(", ")}\n`);
  }
}

/**
 * `vineparse parse --threads N`: N workers load the model and parse the blocks, while this thread
 * reads the input, splits it into blocks (tokenizing raw text) and writes the parsed blocks in their
 * order, with at most two blocks a worker read ahead. Any failure stops the workers and leaves no
 * output behind, as a run on one thread would.
 */
async function parseThreaded(
  threads: number,
  setup: ParseWorkerSetup,
  blocks: AsyncIterable<{ cs: ConlluSentence[]; spans: number[][] | null }>,
  retag: boolean,
  output: string,
  t0: bigint,
): Promise<ParseSummary> {
  // Imported here, not at the top: node's worker_threads module costs about 1 MiB of resident
  // memory, which a parse on one thread (the default) never needs.
  const { ParseWorkerPool } = await import("./parse-pool.js");
  const pool = await ParseWorkerPool.start(threads, setup);
  const loadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const out = new AtomicWriter(output);
  const run = { sentences: 0, tokens: 0, fallbacks: 0, seconds: 0, loadSeconds, prune: pool.prune };
  // Blocks sent and not yet written, in input order. Each is written as soon as it and every block
  // before it are parsed, not when the next block is read: on a pipe, output keeps up with input.
  // Each slot holds its block's outcome once the worker has answered (null until then).
  const ahead: { outcome: { block: ParsedBlock } | { error: unknown } | null }[] = [];
  // (A field, not a variable: it is set in callbacks, which the loops below must see.)
  const state: { failed: { error: unknown } | null } = { failed: null };
  let wake: (() => void) | null = null;
  const drain = () => {
    while (state.failed === null && ahead.length > 0 && ahead[0]!.outcome !== null) {
      const o = ahead.shift()!.outcome!;
      if ("error" in o) state.failed = o;
      else {
        const b = o.block;
        out.write(b.text);
        run.sentences += b.sentences;
        run.tokens += b.tokens;
        run.fallbacks += b.fallbacks;
      }
    }
    const w = wake;
    wake = null;
    w?.();
  };
  const settled = () => new Promise<void>((resolve) => (wake = resolve));
  let start = 0n;
  let times: PipelineTimes | null = null;
  try {
    try {
      for await (const { cs, spans } of blocks) {
        if (state.failed !== null) break;
        if (start === 0n) start = process.hrtime.bigint();
        const slot: (typeof ahead)[number] = { outcome: null };
        ahead.push(slot);
        pool.parse(cs, retag, spans).then(
          (block) => {
            slot.outcome = { block };
            drain();
          },
          (error: unknown) => {
            slot.outcome = { error };
            drain();
          },
        );
        while (state.failed === null && ahead.length >= 2 * threads) await settled();
      }
      while (state.failed === null && ahead.length > 0) await settled();
      if (state.failed !== null) throw state.failed.error;
      if (setup.timing) times = await pool.times();
      out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
  } finally {
    await pool.close();
  }
  run.seconds = run.sentences === 0 ? 0 : Number(process.hrtime.bigint() - start) / 1e9;
  return summaryOf(run, times === null ? undefined : threadStages(times));
}

/** The stages of `times` summed over the worker threads (thread seconds: no "rest" against the wall time). */
function threadStages(times: PipelineTimes): { stage: string; seconds: number }[] {
  return stageSeconds(times, 0).filter((x) => x.stage !== "rest");
}

/** `vineparse parse`: parses CoNLL-U or raw text with a trained model. */
export const command: Command = {
  summary: "parse CoNLL-U or raw text (bundled English model by default)",
  usage,
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      "parse",
      args,
      {
        model: { type: "string" },
        input: { type: "string" },
        text: { type: "string" },
        raw: { type: "boolean" },
        output: { type: "string" },
        format: { type: "string" },
        retag: { type: "boolean" },
        morph: { type: "string" },
        prune: { type: "string" },
        alpha: { type: "string" },
        "newline-breaks": { type: "boolean" },
        "max-words": { type: "string" },
        json: { type: "boolean" },
        timing: { type: "boolean" },
        quiet: { type: "boolean" },
        "skip-invalid": { type: "boolean" },
        threads: { type: "string" },
      },
      { max: 1, name: "FILE" },
    );
    const rawFile = positionals[0];
    if (rawFile !== undefined && values.raw !== true) {
      throw new VineparseError(
        "usage",
        `parse: unexpected argument "${rawFile}" (a FILE argument goes with --raw; CoNLL-U: --input FILE)`,
      );
    }
    if (rawFile !== undefined && values.input !== undefined) {
      throw new VineparseError(
        "usage",
        "parse: give the raw text file once: --raw FILE or --raw --input FILE",
      );
    }
    const rawPath = rawFile ?? values.input;
    const maxWords = numberOption("parse", "max-words", values["max-words"], MAX_SENTENCE_WORDS, {
      integer: true,
      min: 0,
    });
    const format = choiceOption(
      "parse",
      "format",
      values.format,
      ["conllu", "tree", "json"] as const,
      "conllu",
    );
    const sources =
      (values.text !== undefined ? 1 : 0) + (values.raw === true || values.input !== undefined ? 1 : 0);
    if (sources !== 1) {
      throw new VineparseError(
        "usage",
        "parse: give exactly one of --input FILE, --text TEXT or --raw (see --help)",
      );
    }
    const morph = choiceOption(
      "parse",
      "morph",
      values.morph,
      ["tagged", "always", "never"] as const,
      "tagged",
    );
    const threads = numberOption("parse", "threads", values.threads, 1, { integer: true, min: 1 });
    checkWritable(values.output ?? "-");
    // The old generation may grow by half its live size between full collections, instead of the
    // factor of up to 4 V8 picks when collecting is cheap against the work: a block's sentences live
    // through every stage and are then garbage, and left to itself the heap grew by a block's garbage
    // several times over. Peak RSS on en_ewt dev (bundled model, tagged input) 138 -> 133 MiB, on
    // dev's sentences of 40+ words repeated (98,104 words) 175 -> 141 MiB, for a few more full
    // collections (a further 10-30 ms of pauses in runs of 1.5-6 s, from --trace-gc). A library user
    // gets the same with node --heap-growing-percent=50.
    setFlagsFromString("--heap-growing-percent=50");
    const t0 = process.hrtime.bigint();
    const raw = values.text !== undefined || values.raw === true;
    const report = (summary: ParseSummary) =>
      writeSummary(summary, values.json === true, values.quiet === true);
    if (threads > 1) {
      const setup: ParseWorkerSetup = {
        model: values.model,
        prune: values.prune,
        alpha: values.alpha === undefined ? undefined : alphaListOption("parse", "alpha", values.alpha),
        tagAll: raw || values.retag === true,
        timing: values.timing === true,
        format,
        morph,
      };
      const blocks: AsyncIterable<{ cs: ConlluSentence[]; spans: number[][] | null }> = raw
        ? textBlocks(values.text !== undefined ? [values.text] : readUtf8Chunks(rawPath ?? "-"), {
            newlineBoundary: values["newline-breaks"] === true,
            maxWords,
            segmenter: loadSegmenter(values.model),
          })
        : conlluBlocks(values.input!, values["skip-invalid"] === true);
      report(
        await parseThreaded(threads, setup, blocks, raw || values.retag === true, values.output ?? "-", t0),
      );
      return 0;
    }
    // A bundle's tagger is built at once if every sentence needs it; otherwise only if a sentence
    // lacks tags (tagged CoNLL-U never holds the tagger's tables).
    const pipeline = loadPipeline(values.model, { lazyTagger: !(raw || values.retag === true) });
    if (values.prune !== undefined) pipeline.cascade = resolvePruneSpec(values.prune, pipeline.parser);
    if (values.alpha !== undefined)
      setCascadeAlphas(pipeline.cascade, alphaListOption("parse", "alpha", values.alpha));
    if (values.timing === true) pipeline.times = pipelineTimes();
    pipeline.morphMode = morph;
    const loadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (!pipeline.hasTagger && (raw || values.retag === true)) throw noTaggerError(values.model);
    const out = new AtomicWriter(values.output ?? "-");
    const render = format === "tree" ? toTreeText : format === "json" ? toJsonLine : toConllu;
    let sentences = 0;
    let tokens = 0;
    let fallbacks = 0;
    let start = 0n;
    const emit = (a: AnnotatedSentence) => {
      out.write(render(a));
      sentences++;
      tokens += a.forms.length - 1;
      if (a.fallback) fallbacks++;
    };
    try {
      if (raw) {
        // Read, split, parse and write as the text arrives: memory stays flat, output starts at once.
        const source = values.text !== undefined ? [values.text] : readUtf8Chunks(rawPath ?? "-");
        start = process.hrtime.bigint();
        for await (const a of parseTextStream(pipeline, source, {
          newlineBoundary: values["newline-breaks"] === true,
          maxWords,
        }))
          emit(a);
      } else {
        // A block at a time (each stage over the whole block: see PARSE_BLOCK, PARSE_BLOCK_WORDS).
        for await (const { cs } of conlluBlocks(values.input!, values["skip-invalid"] === true)) {
          if (sentences === 0) start = process.hrtime.bigint();
          // annotateEach empties cs as it goes.
          for (const a of pipeline.annotateEach(cs, values.retag === true)) emit(a);
        }
      }
      out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
    const seconds = sentences === 0 ? 0 : Number(process.hrtime.bigint() - start) / 1e9;
    report(
      summaryOf(
        { sentences, tokens, fallbacks, seconds, loadSeconds, prune: pipeline.cascade.name },
        pipeline.times === null ? undefined : stageSeconds(pipeline.times, seconds),
      ),
    );
    return 0;
  },
};
