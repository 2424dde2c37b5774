// The browser core in a real browser against Node: `npm run bench -- browser` serves a page that
// fetches the model, builds the pipeline with `loadPipelineFromBytes` and parses a raw text (en_ewt
// dev's sentence texts by default) several times, in headless Chromium; then a Node process runs the
// same code (bench/browser-run.ts) on the same files. Rounds alternate browser, Node, browser, …;
// both must give the same parse (a digest of every head and relation).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandArgs } from "../src/cli/args.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import type { BrowserRun } from "./browser-run.js";
import { CHROMIUM, startPageServer } from "./chromium-harness.js";
import { treebankText } from "./exp-raw-stream.js";
import { BenchAbort, type BenchContext, type Experiment, median, pairedRatioNote, repoRoot } from "./lib.js";

/** The page: runs `browserRun` and posts its result (or its error) back to the bench. */
function page(reps: number): string {
  return `<!doctype html><meta charset="utf-8"><title>vineparse bench</title>
<script type="module">
const post = (o) => fetch("/result", { method: "POST", body: JSON.stringify(o) });
try {
  const { browserRun } = await import("/dist/bench/browser-run.js");
  const run = await browserRun(
    async () => new Uint8Array(await (await fetch("/model")).arrayBuffer()),
    async () => (await fetch("/text")).text(),
    ${reps},
  );
  await post({ ...run, userAgent: navigator.userAgent });
} catch (e) {
  await post({ error: String(e && e.stack || e) });
}
</script>`;
}

/** Milliseconds of the parses after the first (which warms the JIT up), as one figure: their median. */
function warmParse(r: BrowserRun): number {
  return median(r.parseMs.length > 1 ? r.parseMs.slice(1) : r.parseMs);
}

export const experiment: Experiment = {
  summary: "the browser core in headless Chromium against Node: model load and parse speed, same parse",
  async run(args: string[], ctx: BenchContext): Promise<void> {
    const { values } = parseCommandArgs("browser", args, {
      model: { type: "string" },
      text: { type: "string" },
      rounds: { type: "string" },
      reps: { type: "string" },
      chromium: { type: "string" },
      timeout: { type: "string" },
    });
    const model = values.model ?? DEFAULT_MODEL;
    const rounds = Number(values.rounds ?? 5);
    const reps = Number(values.reps ?? 4);
    const timeoutMs = Number(values.timeout ?? 300) * 1000;
    const chromium = values.chromium ?? CHROMIUM;
    if (!existsSync(chromium))
      throw new BenchAbort(`no Chromium at ${chromium} (apt-get install chromium, or --chromium PATH)`);
    if (!(rounds >= 1 && reps >= 2)) throw new BenchAbort("--rounds must be ≥ 1 and --reps ≥ 2");
    const tmp = mkdtempSync(join(tmpdir(), "vp-bench-browser-"));
    try {
      let text = values.text;
      if (text === undefined) {
        text = join(tmp, "dev.txt");
        writeFileSync(text, treebankText(readFileSync(ctx.treebank("en_ewt", "dev"), "utf8"), true));
      }
      const chars = (await readFile(text, "utf8")).length;
      const server = await startPageServer(
        {
          "/bench.html": () => page(reps),
          "/model": () => readFileSync(model),
          "/text": () => readFileSync(text),
        },
        chromium,
      );
      const node = join(repoRoot, "dist", "bench", "browser-node.js");
      const browserRuns: BrowserRun[] = [];
      const nodeRuns: BrowserRun[] = [];
      let agent = "";
      try {
        for (let r = 0; r < rounds; r++) {
          let b: BrowserRun & { error?: string; userAgent?: string };
          try {
            b = (await server.run("/bench.html", timeoutMs)) as typeof b;
          } catch (e) {
            throw new BenchAbort((e as Error).message);
          }
          if (b.error !== undefined) throw new BenchAbort(`the page failed: ${b.error}`);
          agent = b.userAgent ?? agent;
          browserRuns.push(b);
          const n = spawnSync(process.execPath, [node, model, text, String(reps)], { encoding: "utf8" });
          if (n.status !== 0) throw new BenchAbort(`the Node run failed: ${n.stderr.trim()}`);
          const nr = JSON.parse(n.stdout) as BrowserRun;
          nodeRuns.push(nr);
          if (nr.digest !== b.digest || nr.tokens !== b.tokens)
            throw new BenchAbort(`Chromium and Node parse differently: ${b.digest} / ${nr.digest}`);
          ctx.note(
            `round ${r + 1}: Chromium load ${b.loadMs.toFixed(0)} ms, parse ${warmParse(b).toFixed(0)} ms; ` +
              `Node load ${nr.loadMs.toFixed(0)} ms, parse ${warmParse(nr).toFixed(0)} ms`,
          );
        }
      } finally {
        await server.close();
      }
      const first = nodeRuns[0]!;
      ctx.note(`${agent}; text ${chars} characters, ${first.sentences} sentences, ${first.tokens} tokens`);
      const row = (what: string, runs: BrowserRun[]): (string | number)[] => {
        const load = median(runs.map((x) => x.loadMs));
        const cold = median(runs.map((x) => x.parseMs[0]!));
        const warm = median(runs.map(warmParse));
        return [
          what,
          median(runs.map((x) => x.fetchMs)).toFixed(0),
          load.toFixed(0),
          cold.toFixed(0),
          warm.toFixed(0),
          Math.round((first.tokens / warm) * 1000),
          runs[0]!.digest,
        ];
      };
      ctx.table(
        `Browser core, ${rounds} rounds (medians), ${reps} parses of the text a round`,
        [
          "runtime",
          "model bytes ms",
          "decode + build ms",
          "first parse ms",
          "later parses ms",
          "tokens/s (later parses)",
          "parse digest",
        ],
        [row("Chromium (headless)", browserRuns), row("Node.js", nodeRuns)],
      );
      ctx.note(
        pairedRatioNote("Chromium", browserRuns.map(warmParse), "Node", nodeRuns.map(warmParse)) +
          " (later parses)",
      );
      ctx.note(
        pairedRatioNote(
          "Chromium",
          browserRuns.map((x) => x.loadMs),
          "Node",
          nodeRuns.map((x) => x.loadMs),
        ) + " (decode + build)",
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
