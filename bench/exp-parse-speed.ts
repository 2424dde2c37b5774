// Parse speed of the `vineparse parse` command (tags given, I/O included), repeated to tame the noise
// of a shared machine: median and best tokens/s, timed inside the command and for the whole process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import { type BenchContext, type Experiment, type ParseSummary, runParseCommand } from "./lib.js";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** `npm run bench -- parse-speed [--model M] [--tb en_ewt] [--repeat 5] [--decoder eisner|mst ...]`. */
export const experiment: Experiment = {
  summary: "vineparse parse speed on a dev set (tags given, I/O included): median and best of N runs",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("parse-speed", args, {
      model: { type: "string", multiple: true },
      tb: { type: "string" },
      repeat: { type: "string" },
    });
    const tb = values.tb ?? "en_ewt";
    const repeat = numberOption("parse-speed", "repeat", values.repeat, 5, { integer: true, min: 1 });
    const models = values.model ?? [DEFAULT_MODEL];
    const input = join(ctx.udRoot(), tb, "dev.conllu");
    const tmp = mkdtempSync(join(tmpdir(), "vp-speed-"));
    ctx.note(ctx.header());
    const rows: (string | number)[][] = [];
    try {
      for (const model of models) {
        const inCmd: number[] = [];
        const whole: number[] = [];
        let last: ParseSummary | null = null;
        for (let r = 0; r < repeat; r++) {
          const { summary, wall } = runParseCommand(model, input, join(tmp, "out.conllu"));
          last = summary;
          inCmd.push(last.tokensPerSecond);
          whole.push(last.tokens / wall);
        }
        rows.push([
          model === DEFAULT_MODEL ? "bundled" : model,
          last!.tokens,
          Math.round(median(inCmd)),
          Math.round(Math.max(...inCmd)),
          Math.round(median(whole)),
          Math.round(Math.max(...whole)),
          last!.loadSeconds,
          last!.maxRssMiB,
        ]);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    ctx.table(
      `vineparse parse on ${tb} dev (tags from the file), ${repeat} runs`,
      [
        "model",
        "tokens",
        "tok/s I/O median",
        "tok/s I/O best",
        "tok/s process median",
        "tok/s process best",
        "load s",
        "RSS MiB",
      ],
      rows,
    );
    ctx.note(
      "'I/O' = timed by the command from the first sentence read to the last written (model loaded); 'process' = whole command incl. Node start and model load.",
    );
  },
};
