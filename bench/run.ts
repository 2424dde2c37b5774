// Benchmark runner: `npm run bench -- NAME [options]` runs the experiment in bench/exp-NAME.ts.
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { VineparseError } from "../src/errors.js";
import { BenchAbort, BenchContext, type Experiment, time } from "./lib.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Names of the available experiments (every `exp-<name>.js` beside this file). */
function experimentNames(): string[] {
  return readdirSync(here)
    .filter((f) => f.startsWith("exp-") && f.endsWith(".js"))
    .map((f) => f.slice(4, -3))
    .sort();
}

async function loadExperiment(name: string): Promise<Experiment | null> {
  if (!experimentNames().includes(name)) return null;
  const mod = (await import(`./exp-${name}.js`)) as { experiment: Experiment };
  return mod.experiment;
}

async function listExperiments(): Promise<string> {
  const lines = ["usage: npm run bench -- NAME [options]", "", "experiments:"];
  for (const n of experimentNames()) {
    let summary: string;
    try {
      summary = (await loadExperiment(n))?.summary ?? "";
    } catch (e) {
      summary = `(fails to load: ${(e as Error).message})`;
    }
    lines.push(`  ${n.padEnd(16)} ${summary}`);
  }
  return lines.join("\n") + "\n";
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    process.stdout.write(await listExperiments());
    return name === undefined ? 1 : 0;
  }
  const exp = await loadExperiment(name);
  if (exp === null) {
    process.stderr.write(`bench: unknown experiment "${name}"\n\n${await listExperiments()}`);
    return 2;
  }
  const ctx = new BenchContext(name, rest);
  process.stdout.write(ctx.header() + "\n");
  try {
    const { seconds } = await time(() => exp.run(rest, ctx));
    process.stdout.write(`\n${name}: done in ${seconds.toFixed(1)} s, peak RSS ${ctx.peakRssMiB()} MiB\n`);
  } catch (e) {
    if (e instanceof BenchAbort) {
      process.stderr.write(`bench ${name}: ${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof VineparseError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`bench ${name}: ${(e as Error).message}\n`);
      return (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
    }
    throw e;
  } finally {
    ctx.saveJson();
  }
  if (ctx.tables.length > 0) process.stdout.write(`results: ${ctx.resultsPath("md")}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
