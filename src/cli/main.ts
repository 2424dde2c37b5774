#!/usr/bin/env node
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { VineparseError } from "../errors.js";
import { removeTempFilesOnSignals } from "../util/temp-files.js";
import type { Command } from "./command.js";

const here = dirname(fileURLToPath(import.meta.url));

// The young generation keeps its initial size instead of growing to 2 × 16 MiB: parsing and training
// allocate mostly short-lived objects, and the grown nursery only added resident memory. On en_ewt
// dev, `parse --retag` peaks at 140 instead of 165 MiB at the same speed (`npm run bench -- memory`;
// a first-order training run on 2,000 sentences: 440 instead of 500 MiB). Node accepts V8 flags at
// run time; a library user can pass --max-semi-space-size=1 to node for the same effect.
setFlagsFromString("--semi-space-growth-factor=1");

/** Names of the available subcommands (every `cmd-<name>.js` beside this file). */
function commandNames(): string[] {
  return readdirSync(here)
    .filter((f) => f.startsWith("cmd-") && f.endsWith(".js"))
    .map((f) => f.slice(4, -3))
    .sort();
}

async function loadCommand(name: string): Promise<Command | null> {
  if (!commandNames().includes(name)) return null;
  const mod = (await import(`./cmd-${name}.js`)) as { command: Command };
  return mod.command;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const lines = [
      "usage: vineparse <command> [options]   (vineparse <command> --help for details)",
      "",
      "commands:",
    ];
    for (const c of commandNames()) {
      const cmd = await loadCommand(c);
      lines.push(`  ${c.padEnd(10)} ${cmd?.summary ?? ""}`);
    }
    process.stdout.write(lines.join("\n") + "\n");
    return name === undefined ? 1 : 0;
  }
  if (name === "--version") {
    process.stdout.write("vineparse 0.1.0\n");
    return 0;
  }
  const cmd = await loadCommand(name);
  if (cmd === null) {
    process.stderr.write(`vineparse: unknown command "${name}" (try vineparse --help)\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(cmd.usage.trimEnd() + "\n");
    return 0;
  }
  return cmd.run(rest);
}

/** Exit status of a run whose output was closed by its reader (as if killed by SIGPIPE). */
const OUTPUT_CLOSED = 141;

// Ctrl-C / SIGTERM remove any half-written output file (exit 130 / 143).
removeTempFilesOnSignals();
// A reader that goes away (`vineparse ... | head -1`) ends the run quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(OUTPUT_CLOSED);
    throw e;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof VineparseError && err.code === "output-closed") {
      process.exitCode = OUTPUT_CLOSED;
    } else if (err instanceof VineparseError) {
      process.stderr.write(`vineparse: ${err.message}\n`);
      // A bad command line exits 2, as the argument parser's errors do; anything else 1.
      process.exitCode = err.code === "usage" ? 2 : 1;
    } else if (
      err instanceof Error &&
      (err as NodeJS.ErrnoException).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
    ) {
      process.stderr.write(`vineparse: ${err.message}\n`);
      process.exitCode = 2;
    } else if (err instanceof Error && (err as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`vineparse: ${err.message}\n`);
      process.exitCode = 2;
    } else {
      throw err;
    }
  },
);
