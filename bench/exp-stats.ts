// Treebank statistics for every UD treebank/split, plus CoNLL-U reader throughput.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { parseConllu, readText, streamConllu } from "../src/conllu/read.js";
import { loadCorpus } from "../src/corpus/load.js";
import { type CorpusStats, StatsAccumulator } from "../src/corpus/stats.js";
import type { Cell } from "../src/eval/table.js";
import type { BenchContext, Experiment } from "./lib.js";

const SPLIT_ORDER = ["train", "dev", "test"];

/** Every `<tb>/<split>.conllu` under the UD root, treebanks sorted, splits train/dev/test first. */
function findSplits(root: string, only: string[] | null): { tb: string; split: string; path: string }[] {
  const out: { tb: string; split: string; path: string }[] = [];
  for (const tb of readdirSync(root).sort()) {
    if (only !== null && !only.includes(tb)) continue;
    const dir = join(root, tb);
    if (!statSync(dir).isDirectory()) continue;
    const splits = readdirSync(dir)
      .filter((f) => f.endsWith(".conllu"))
      .map((f) => f.slice(0, -".conllu".length))
      .sort((a, b) => {
        const ia = SPLIT_ORDER.indexOf(a);
        const ib = SPLIT_ORDER.indexOf(b);
        return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
      });
    for (const split of splits) out.push({ tb, split, path: join(dir, `${split}.conllu`) });
  }
  return out;
}

/** Best (minimum) seconds of `repeat` runs of `fn`. */
async function best(ctx: BenchContext, repeat: number, fn: () => unknown): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) min = Math.min(min, (await ctx.time(fn)).seconds);
  return min;
}

/** `npm run bench -- stats [--repeat N] [--tb a,b]`. */
export const experiment: Experiment = {
  summary: "stats of every UD treebank/split (length, non-projectivity, oracle bound) + reader throughput",
  async run(args, ctx) {
    const { values } = parseCommandArgs("bench stats", args, {
      repeat: { type: "string" },
      tb: { type: "string" },
    });
    const repeat = numberOption("bench stats", "repeat", values.repeat, 3, { integer: true, min: 1 });
    const only = values.tb === undefined ? null : values.tb.split(",");
    const root = ctx.udRoot();
    const files = findSplits(root, only);
    if (files.length === 0) ctx.note(`no treebanks found under ${root}`);
    const statsRows: Cell[][] = [];
    const speedRows: Cell[][] = [];
    for (const { tb, split, path } of files) {
      if (!existsSync(path)) continue;
      const text = readText(path);
      const mb = Buffer.byteLength(text, "utf8") / 1e6;
      let stats: CorpusStats | null = null;
      const streamSeconds = await best(ctx, repeat, async () => {
        const acc = new StatsAccumulator();
        for await (const r of streamConllu(path)) acc.add(r);
        stats = acc.result();
      });
      const s = stats as unknown as CorpusStats;
      const parseSeconds = await best(ctx, repeat, () => {
        let n = 0;
        for (const _ of parseConllu(text, path)) n++;
        return n;
      });
      const loadSeconds = await best(ctx, repeat, () => loadCorpus(path));
      statsRows.push([
        tb,
        split,
        s.sentences,
        s.tokens,
        s.meanLength,
        s.maxLength,
        s.nonProjectiveSentences,
        s.nonProjectiveArcs,
        s.oracleReduction,
        s.multiwordTokens,
        s.emptyNodes,
      ]);
      speedRows.push([
        tb,
        split,
        mb,
        mb / parseSeconds,
        s.sentences / parseSeconds,
        mb / streamSeconds,
        mb / loadSeconds,
        s.tokens / loadSeconds / 1000,
      ]);
    }
    ctx.table(
      "Treebank statistics (rates in %)",
      [
        "treebank",
        "split",
        "sentences",
        "tokens",
        "mean len",
        "max len",
        "non-proj sent",
        "non-proj arcs",
        "oracle red.",
        "MWT",
        "empty",
      ],
      statsRows,
    );
    ctx.table(
      `Reader throughput (best of ${repeat}; parse = in-memory parseConllu, stream = streamConllu + stats from file, load = loadCorpus into typed arrays)`,
      ["treebank", "split", "MB", "parse MB/s", "parse sent/s", "stream MB/s", "load MB/s", "load ktok/s"],
      speedRows.map((r) =>
        r.map((c) => (typeof c === "number" && !Number.isInteger(c) && c > 1000 ? Math.round(c) : c)),
      ),
    );
  },
};
