// A parser's worst case: one word repeated N times as a single sentence (`vineparse parse --raw
// --max-words 0`). Its arcs differ only in length, so neither the arc filters nor a max-marginal pass
// can tell them apart, and everything after them sees a dense mask. Parse time and peak RSS of each
// variant (a build of the CLI with a model) at each length, each run a separate process, the variants
// interleaved; a run over the time limit is stopped and reported as such.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import { parseVariant } from "./exp-memory.js";
import { type BenchContext, type Experiment, parseSummaryOf } from "./lib.js";

/**
 * `npm run bench -- worst-case [--words 250,600,1000] [--word W] [--variant NAME=CLI,MODEL[,NODE_OPTIONS[,ENV]] ...]
 * [--limit 300]`: without --variant, this build with the bundled model.
 */
export const experiment: Experiment = {
  summary: "worst case: one word repeated N times as one sentence; parse time and peak RSS per model",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("worst-case", args, {
      words: { type: "string" },
      word: { type: "string" },
      variant: { type: "string", multiple: true },
      limit: { type: "string" },
    });
    const lengths = (values.words ?? "250,600,1000")
      .split(",")
      .map((x) => numberOption("worst-case", "words", x.trim(), 0, { integer: true, min: 1 }));
    const word = values.word ?? "word";
    const limit = numberOption("worst-case", "limit", values.limit, 300, { min: 1 });
    const variants = (values.variant ?? [`bundled=,${DEFAULT_MODEL}`]).map(parseVariant);
    ctx.note(ctx.header());
    for (const v of variants) ctx.note(`variant ${v.name}: ${v.cli} with ${v.model}`);
    const tmp = mkdtempSync(join(tmpdir(), "vp-worst-"));
    try {
      const rows: (string | number)[][] = [];
      for (const n of lengths) {
        const input = join(tmp, `${n}.txt`);
        writeFileSync(input, `${Array.from({ length: n }, () => word).join(" ")}\n`);
        for (const v of variants) {
          const p = spawnSync(
            process.execPath,
            [
              ...v.nodeOptions,
              v.cli,
              "parse",
              "--model",
              v.model,
              "--raw",
              input,
              "--max-words",
              "0",
              "--output",
              "/dev/null",
              "--json",
            ],
            {
              encoding: "utf8",
              timeout: limit * 1000,
              killSignal: "SIGKILL",
              env: { ...process.env, ...v.env },
            },
          );
          if (p.error !== undefined || p.signal !== null) {
            rows.push([v.name, n, `> ${limit}`, "", ""]);
            continue;
          }
          if (p.status !== 0) throw new Error(`${v.name}: vineparse parse failed: ${p.stderr}`);
          const s = parseSummaryOf(p.stderr);
          rows.push([v.name, n, s.seconds.toFixed(2), Math.round(s.tokensPerSecond), s.maxRssMiB]);
        }
      }
      ctx.table(
        `one sentence of "${word}" repeated N times (parse --raw --max-words 0)`,
        ["variant", "N", "parse s", "tok/s", "peak RSS MiB"],
        rows,
      );
      ctx.note(
        "parse s and tok/s as the command reports them (model loading excluded); peak RSS = its maxRssMiB. One run per cell.",
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
