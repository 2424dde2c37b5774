// Peak memory of `vineparse parse --retag` with the bundled model (or others), in separate processes:
// peak RSS (the command's maxRssMiB, = VmHWM), speed and output of each variant, run interleaved
// (A B A B …) to tame the noise of a shared machine; then where the memory goes, stage by stage.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { VineparseError } from "../src/errors.js";
import { DEFAULT_MODEL } from "../src/pipeline/default-model.js";
import {
  type BenchContext,
  type Experiment,
  median,
  type ParseSummary,
  parseSummaryOf,
  repoRoot,
} from "./lib.js";
import type { StageMemory } from "./memory-stages.js";

/** One thing to measure: a build of the CLI (its main.js) with a model, under node options. */
export interface Variant {
  name: string;
  cli: string;
  model: string;
  /** Options for node itself, before the CLI (e.g. --v8-pool-size=0). */
  nodeOptions: string[];
  /** Environment variables set for the variant's processes, on top of the bench's own. */
  env: Record<string, string>;
  /** More arguments of `vineparse parse` (e.g. --threads 2). */
  args: string[];
}

const thisCli = join(repoRoot, "dist", "src", "cli", "main.js");

/**
 * `NAME=CLI,MODEL`, `NAME=,MODEL` (this build), either with `,NODE_OPTIONS` after the model (node's
 * own options, space-separated, e.g. `NAME=,,--v8-pool-size=0`) and then `,ENV` (space-separated
 * `KEY=VALUE` settings for the variant's processes, e.g. `NAME=,,,GLIBC_TUNABLES=glibc.malloc.hugetlb=1`)
 * and then `,ARGS` (more arguments of `vineparse parse`, space-separated, e.g. `NAME=,,,,--threads 2`),
 * or a bare model path.
 */
export function parseVariant(spec: string): Variant {
  const eq = spec.indexOf("=");
  if (eq < 0) return { name: spec, cli: thisCli, model: spec, nodeOptions: [], env: {}, args: [] };
  const [cli, model, options, env, args] = spec.slice(eq + 1).split(",");
  const vars: Record<string, string> = {};
  for (const kv of (env ?? "").split(" ").filter((x) => x !== "")) {
    const at = kv.indexOf("=");
    if (at <= 0) throw new VineparseError("usage", `memory: --variant environment "${kv}" is not KEY=VALUE`);
    vars[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return {
    name: spec.slice(0, eq),
    cli: cli || thisCli,
    model: model || DEFAULT_MODEL,
    nodeOptions: (options ?? "").split(" ").filter((o) => o !== ""),
    env: vars,
    args: (args ?? "").split(" ").filter((a) => a !== ""),
  };
}

/**
 * `npm run bench -- memory [--tb en_ewt] [--repeat 5] [--variant NAME=CLI,MODEL[,NODE_OPTIONS[,ENV[,ARGS]]] ...]
 * [--no-retag] [--copies K] [--text TEXT]`: without --variant, this build with the bundled model. Every
 * round runs each variant once, in order. With --copies, the input is dev K times over (a larger run).
 * With --text, each run is `parse --text TEXT --format tree` instead (raw text, as the README's first
 * command parses it), and the stages are not measured.
 */
export const experiment: Experiment = {
  summary:
    "peak RSS of vineparse parse --retag (bundled model) per variant, interleaved runs; memory by stage",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("memory", args, {
      tb: { type: "string" },
      repeat: { type: "string" },
      variant: { type: "string", multiple: true },
      "no-retag": { type: "boolean" },
      copies: { type: "string" },
      text: { type: "string" },
    });
    const text = values.text;
    const tb = values.tb ?? "en_ewt";
    const repeat = numberOption("memory", "repeat", values.repeat, 5, { integer: true, min: 1 });
    const retag = values["no-retag"] !== true;
    const variants = (values.variant ?? [`bundled=,${DEFAULT_MODEL}`]).map(parseVariant);
    const copies = numberOption("memory", "copies", values.copies, 1, { integer: true, min: 1 });
    const dev = ctx.treebank(tb, "dev");
    const tmp = mkdtempSync(join(tmpdir(), "vp-memory-"));
    let input = dev;
    if (copies > 1) {
      input = join(tmp, "input.conllu");
      writeFileSync(input, readFileSync(dev, "utf8").repeat(copies));
    }
    ctx.note(ctx.header());
    for (const v of variants)
      ctx.note(
        `variant ${v.name}: ${v.cli} with ${v.model}${v.args.length > 0 ? `, parse ${v.args.join(" ")}` : ""}${v.nodeOptions.length > 0 ? `, node ${v.nodeOptions.join(" ")}` : ""}${
          Object.keys(v.env).length > 0
            ? `, environment ${Object.entries(v.env)
                .map(([k, x]) => `${k}=${x}`)
                .join(" ")}`
            : ""
        }`,
      );
    try {
      const runs = variants.map(() => [] as ParseSummary[]);
      /** Whole-process wall seconds of each run (node's start and exit included). */
      const walls = variants.map(() => [] as number[]);
      const outputs = variants.map(() => "");
      for (let r = 0; r < repeat; r++) {
        variants.forEach((v, i) => {
          const out = join(tmp, `out-${i}.conllu`);
          const t0 = process.hrtime.bigint();
          const p = spawnSync(
            process.execPath,
            [
              ...v.nodeOptions,
              v.cli,
              "parse",
              "--model",
              v.model,
              ...(text === undefined ? ["--input", input] : ["--text", text, "--format", "tree"]),
              "--output",
              out,
              "--json",
              ...(retag && text === undefined ? ["--retag"] : []),
              ...v.args,
            ],
            { encoding: "utf8", env: { ...process.env, ...v.env } },
          );
          walls[i]!.push(Number(process.hrtime.bigint() - t0) / 1e9);
          if (p.status !== 0) throw new Error(`${v.name}: vineparse parse failed: ${p.stderr}`);
          runs[i]!.push(parseSummaryOf(p.stderr));
          if (r === 0) outputs[i] = readFileSync(out, "utf8");
        });
      }
      const base = runs[0]!;
      const rows = variants.map((v, i) => {
        const rss = runs[i]!.map((s) => s.maxRssMiB);
        const speed = runs[i]!.map((s) => s.tokensPerSecond);
        const load = runs[i]!.map((s) => s.loadSeconds);
        const faults = runs[i]!.map((s) => s.minorPageFaults);
        // Each round's wall time against the first variant's in the same round (paired: the host's
        // drift moves both).
        const paired = walls[i]!.map((w, r) => w / walls[0]![r]!);
        return [
          v.name,
          median(rss),
          Math.min(...rss),
          Math.max(...rss),
          Math.round(median(speed)),
          (median(speed) / median(base.map((s) => s.tokensPerSecond))).toFixed(3),
          median(load).toFixed(3),
          median(walls[i]!).toFixed(3),
          median(paired).toFixed(3),
          Math.round(median(faults)),
          outputs[i] === outputs[0] ? "yes" : "NO",
        ];
      });
      ctx.table(
        text === undefined
          ? `vineparse parse${retag ? " --retag" : ""} on ${tb} dev${copies > 1 ? ` × ${copies}` : ""}, ${repeat} interleaved rounds (medians)`
          : `vineparse parse --text ${JSON.stringify(text)} --format tree, ${repeat} interleaved rounds (medians)`,
        [
          "variant",
          "peak RSS MiB",
          "min",
          "max",
          "tok/s",
          "speed ratio",
          "load s",
          "process wall s",
          "wall / first (paired)",
          "page faults",
          `output = ${variants[0]!.name}`,
        ],
        rows,
      );
      ctx.note(
        "peak RSS = the command's maxRssMiB (getrusage ru_maxrss = VmHWM); tok/s timed by the command (model loaded, I/O included); speed ratio = median tok/s / first variant's; process wall s = the whole process, node's start and exit included; wall / first = median over rounds of its wall time over the first variant's in the same round; page faults = the whole process's minor faults (pages touched for the first time, node's own start included).",
      );

      // Where the memory goes in this build, stage by stage (one run per variant of this build).
      // (In-process stages: not for variants with parse options of their own, such as --threads.)
      for (const v of variants.filter(
        (x) => x.cli === thisCli && x.args.length === 0 && text === undefined,
      )) {
        const p = spawnSync(
          process.execPath,
          [
            ...v.nodeOptions,
            join(repoRoot, "dist", "bench", "memory-stages.js"),
            v.model,
            input,
            ...(retag ? ["--retag"] : []),
          ],
          { encoding: "utf8", env: { ...process.env, ...v.env } },
        );
        if (p.status !== 0) throw new Error(`memory-stages failed: ${p.stderr}`);
        const lines = p.stdout
          .trim()
          .split("\n")
          .map(
            (l) =>
              JSON.parse(l) as
                StageMemory | { arrays: Record<string, number> } | { firstTouchMicros: number | null },
          );
        const stages = lines.filter((l): l is StageMemory => "stage" in l);
        const arrays = (lines.find((l) => "arrays" in l) as { arrays: Record<string, number> }).arrays;
        const touch = lines.find((l) => "firstTouchMicros" in l) as {
          firstTouchMicros: number | null;
          kibPerFault?: number | null;
          msPerMib?: number | null;
        };
        ctx.table(
          `${v.name}: memory by stage (MiB; anon = private memory, file = mapped files such as the node binary; page faults so far)`,
          ["stage", "peak RSS", "RSS", "anon", "file", "V8 heap", "ArrayBuffers", "page faults"],
          stages.map((s) => [
            s.stage,
            s.hwm,
            s.rss,
            s.anon ?? "",
            s.file ?? "",
            s.heapTotal,
            s.arrayBuffers,
            s.faults,
          ]),
        );
        const perFault = touch.firstTouchMicros;
        if (perFault !== null) {
          const last = stages[stages.length - 1]!;
          const kib = touch.kibPerFault ?? 4;
          const fresh = `a first touch of fresh memory costs ${(touch.msPerMib ?? (perFault * 256) / 1000).toFixed(2)} ms per MiB on this machine, ${perFault.toFixed(2)} µs per page fault, a fault mapping ${kib.toFixed(0)} KiB on average (64 MiB written once, one write per 4 KiB; median of 3)`;
          // Only when faults map single pages does their count price the run's (huge pages mix sizes).
          ctx.note(
            kib < 8
              ? `${v.name}: ${fresh}, so the ${last.faults} page faults of this run cost about ${((last.faults * perFault) / 1000).toFixed(0)} ms (faults of file-backed pages, such as the node binary's, cost less).`
              : `${v.name}: ${fresh}: faults map huge pages here, so their count does not price the run's.`,
          );
        }
        ctx.table(
          `${v.name}: decoded model arrays (MiB)`,
          ["group", "MiB"],
          Object.entries(arrays)
            .sort((a, b) => b[1] - a[1])
            .map(([k, x]) => [k, x]),
        );
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
