// Streaming and memory of `vineparse parse --raw` and `vineparse tag` against input size: raw text
// (a treebank's sentence texts, repeated) and CoNLL-U (the treebank, repeated) of 1, 10 and 100 MB,
// each run as its own process. Reports the peak resident memory, the time to the first output byte
// and the throughput: with streaming, memory stays flat and output starts at once, whatever the size.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandArgs } from "../src/cli/args.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import { type BenchContext, type Experiment, repoRoot } from "./lib.js";

const MB = 1_000_000;

/** The treebank's sentence texts, paragraphs (# newpar / # newdoc) separated by blank lines, or one sentence per line. */
export function treebankText(conllu: string, paragraphs: boolean): string {
  const paras: string[][] = [[]];
  for (const line of conllu.split("\n")) {
    if (line.startsWith("# newdoc") || line.startsWith("# newpar")) {
      if (paras[paras.length - 1]!.length > 0) paras.push([]);
    } else if (line.startsWith("# text = ")) paras[paras.length - 1]!.push(line.slice(9));
  }
  return paragraphs ? paras.map((p) => p.join(" ")).join("\n\n") + "\n\n" : paras.flat().join("\n") + "\n";
}

/**
 * Writes `unit` repeated until the file has about `bytes` bytes, the last copy cut after a line break
 * (`blank`: after a blank line, so no CoNLL-U sentence or paragraph is cut).
 */
function writeRepeated(path: string, unit: string, bytes: number, blank: boolean): number {
  const buf = Buffer.from(unit, "utf8");
  const fd = openSync(path, "w");
  let size = 0;
  while (size + buf.length <= bytes) {
    writeSync(fd, buf);
    size += buf.length;
  }
  let cut = bytes - size;
  while (cut > 0 && !(buf[cut - 1] === 10 && (!blank || (cut >= 2 && buf[cut - 2] === 10)))) cut--;
  writeSync(fd, buf, 0, cut);
  closeSync(fd);
  return size + cut;
}

/**
 * Writes `unit` (paragraphs separated by blank lines) again and again as `writeRepeated` does, but with
 * every capitalized word and every number given a suffix of its own, "q" and a running count in base
 * 36 (e.g. "Johnq1a", "2004q1b"): each occurrence is a new form, as in a long stream of names,
 * numbers and typos (about 24,000 new forms a MB of en_ewt text).
 */
function writeNewWords(path: string, unit: string, bytes: number): number {
  const fd = openSync(path, "w");
  let size = 0;
  let count = 0;
  while (size < bytes) {
    let buf = Buffer.from(
      unit.replace(/\b(?:[A-Z][a-z]+|\d+)\b/g, (w) => `${w}q${(count++).toString(36)}`),
      "utf8",
    );
    if (size + buf.length > bytes) {
      let cut = bytes - size;
      while (cut > 0 && !(buf[cut - 1] === 10 && cut >= 2 && buf[cut - 2] === 10)) cut--;
      if (cut === 0) break;
      buf = buf.subarray(0, cut);
    }
    writeSync(fd, buf);
    size += buf.length;
  }
  closeSync(fd);
  return size;
}

interface Run {
  seconds: number;
  firstOutput: number;
  outputBytes: number;
  summary: { sentences: number; tokens: number; tokensPerSecond: number; maxRssMiB: number };
}

/** Runs the CLI with output to stdout, counting the output and timing its first byte. */
function runCli(cli: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(process.execPath, [cli, ...args, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
    let firstOutput = -1;
    let outputBytes = 0;
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => {
      if (firstOutput < 0) firstOutput = Number(process.hrtime.bigint() - t0) / 1e9;
      outputBytes += d.length;
    });
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return reject(new Error(`${args.join(" ")}: exit ${code}: ${stderr}`));
      const summary = JSON.parse(stderr.trim().split("\n").pop()!) as Run["summary"];
      resolve({ seconds, firstOutput, outputBytes, summary });
    });
  });
}

/**
 * `npm run bench -- raw-stream [--sizes 1,10,100] [--tag-sizes 1,10,100] [--lines-sizes 1,10]
 * [--new-words-sizes 2,8] [--tb en_ewt] [--model M] [--cli PATH --label TEXT]` (sizes in MB; none of
 * new words by default; --cli runs another build, e.g. an older commit, whose rows are labelled TEXT).
 */
export const experiment: Experiment = {
  summary: "parse --raw and tag against input size (1, 10, 100 MB): peak memory, time to first output",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("raw-stream", args, {
      sizes: { type: "string" },
      "lines-sizes": { type: "string" },
      "tag-sizes": { type: "string" },
      "new-words-sizes": { type: "string" },
      tb: { type: "string" },
      model: { type: "string" },
      cli: { type: "string" },
      label: { type: "string" },
    });
    const list = (s: string | undefined, d: string) =>
      (s ?? d)
        .split(",")
        .filter((x) => x !== "")
        .map(Number);
    const sizes = list(values.sizes, "1,10,100");
    const linesSizes = list(values["lines-sizes"], "1,10");
    const label = values.label === undefined ? "" : `${values.label}: `;
    const tagSizes = list(values["tag-sizes"], "1,10,100");
    const newWordsSizes = list(values["new-words-sizes"], "");
    const tb = values.tb ?? "en_ewt";
    const model = values.model ?? DEFAULT_MODEL;
    const cli = values.cli ?? join(repoRoot, "dist", "src", "cli", "main.js");
    const train = ctx.treebank(tb, "train");
    const conllu = readFileSync(train, "utf8");
    const tmp = mkdtempSync(join(tmpdir(), "vp-raw-stream-"));
    ctx.note(`cli: ${cli}; model: ${model === DEFAULT_MODEL ? "bundled" : model}`);
    const row = (what: string, mb: number, bytes: number, r: Run) => {
      const row = [
        label + what,
        mb,
        Math.round(bytes / 1000),
        r.summary.sentences,
        r.summary.tokens,
        r.summary.maxRssMiB,
        Number(r.firstOutput.toFixed(2)),
        Number(r.seconds.toFixed(1)),
        Math.round(r.summary.tokens / r.seconds),
        Math.round(r.outputBytes / 1000),
      ];
      ctx.note(
        `${what} ${mb} MB: peak RSS ${r.summary.maxRssMiB} MiB, first output after ${row[6]} s, ${row[7]} s`,
      );
      return row;
    };
    const columns = [
      "input",
      "MB",
      "kB read",
      "sentences",
      "tokens",
      "peak RSS MiB",
      "first output s",
      "wall s",
      "tokens/s (whole process)",
      "kB written",
    ];
    try {
      const rows: (string | number)[][] = [];
      const kinds: [string, number[], boolean][] = [
        ["raw text, blank line between paragraphs", sizes, true],
        ["raw text, one sentence per line, no blank line", linesSizes, false],
      ];
      for (const [what, mbs, paragraphs] of kinds) {
        const unit = treebankText(conllu, paragraphs);
        for (const mb of mbs) {
          const path = join(tmp, `raw-${mb}.txt`);
          const bytes = writeRepeated(path, unit, mb * MB, paragraphs);
          rows.push(
            row(
              `parse --raw: ${what}`,
              mb,
              bytes,
              await runCli(cli, ["parse", "--model", model, "--raw", path]),
            ),
          );
          rmSync(path);
        }
      }
      for (const mb of newWordsSizes) {
        const path = join(tmp, `new-${mb}.txt`);
        const bytes = writeNewWords(path, treebankText(conllu, true), mb * MB);
        rows.push(
          row(
            "parse --raw: raw text, every name and number a new word",
            mb,
            bytes,
            await runCli(cli, ["parse", "--model", model, "--raw", path]),
          ),
        );
        rmSync(path);
      }
      for (const mb of tagSizes) {
        const path = join(tmp, `tag-${mb}.conllu`);
        const bytes = writeRepeated(path, conllu.endsWith("\n\n") ? conllu : conllu + "\n", mb * MB, true);
        rows.push(
          row("tag (CoNLL-U)", mb, bytes, await runCli(cli, ["tag", "--model", model, "--input", path])),
        );
        rmSync(path);
      }
      ctx.table(
        `Memory and streaming against input size (${tb} train texts repeated; output to a pipe the bench reads)`,
        columns,
        rows,
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
