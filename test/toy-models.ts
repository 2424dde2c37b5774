import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, type SpawnSyncReturns, spawnSync } from "node:child_process";
import type { Command } from "../src/cli/command.js";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import type { Parser } from "../src/parser/parser.js";
import { trainParser } from "../src/parser/train.js";
import { writeBundle } from "../src/pipeline/bundle.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { repoRoot } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

/** Path of the compiled CLI. */
export const cli = join(repoRoot, "dist", "src", "cli", "main.js");

/** Runs the CLI to completion. */
export function runCli(args: string[], input?: string | Buffer): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input });
}

/** Starts the CLI as a child process with piped stdio. */
export function startCli(args: string[]) {
  return spawn(process.execPath, [cli, ...args], { stdio: ["pipe", "pipe", "pipe"] });
}

/**
 * Arguments of `vineparse train` for a small model of `order` behind a vine cascade on toy
 * treebanks (two epochs for the parser and each pass, small tables), then `more`, then `--out out`.
 */
export function toyVineTrainArgs(
  train: string,
  dev: string,
  order: 1 | 2 | 3,
  out: string,
  ...more: string[]
): string[] {
  return [
    "train",
    "--train",
    train,
    "--dev",
    dev,
    "--order",
    String(order),
    "--prune",
    "vine",
    "--epochs",
    "2",
    "--cascade-epochs",
    "2",
    "--cascade-bits",
    "14",
    "--bits",
    "16",
    ...more,
    "--out",
    out,
  ];
}

/** Small models trained on the toy treebank, written to a fresh temporary directory. */
export interface ToyModels {
  dir: string;
  /** Training treebank (CoNLL-U, gold tags and trees). */
  train: string;
  /** Pipeline bundle: tagger + first-order parser. */
  bundle: string;
  /** Parser-only model (no tagger). */
  parser: string;
  /** Removes the directory. */
  cleanup(): void;
}

/** A tiny tagger and first-order parser trained on a CoNLL-U text (2 epochs each; well under a second on a toy treebank). */
export function trainToyPair(conllu: string): { tagger: Tagger; parser: Parser } {
  const read = [...parseConllu(conllu)];
  const vocab = new Vocabularies();
  const tagger = Tagger.train(
    read.map((r) => taggedSentence(r.sentence)),
    { epochs: 2 },
  );
  const { parser } = trainParser(
    read.map((r) => toSentence(r, vocab)),
    vocab,
    { epochs: 2, bits: 16, labelBits: 10 },
  );
  return { tagger, parser };
}

/** Trains a tiny tagger and parser (well under a second) and writes them as a bundle and a parser model. */
export function toyModels(): ToyModels {
  const dir = mkdtempSync(join(tmpdir(), "vp-toy-"));
  const text = toyTreebank(120, 7);
  const train = join(dir, "train.conllu");
  writeFileSync(train, text);
  const { tagger, parser } = trainToyPair(text);
  const bundle = join(dir, "toy.vpm");
  writeBundle(bundle, { tagger, parser, info: { treebank: "toy" } });
  const parserPath = join(dir, "parser.model");
  parser.save(parserPath);
  return {
    dir,
    train,
    bundle,
    parser: parserPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs a CLI command inside the test process (much faster than a new process) and reports it like
 * `runCli`: status 0, 1 for a `VineparseError` (its one-line message on stderr, as the CLI prints
 * it) or 2 for a usage error; anything else is rethrown. Only for runs that read no stdin and write
 * no stdout (use --output FILE).
 */
export async function runInProcess(args: string[]): Promise<{ status: number; stderr: string }> {
  const [name, ...rest] = args;
  const { command } = (await import(`../src/cli/cmd-${name}.js`)) as { command: Command };
  let stderr = "";
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stderr.write;
  try {
    const status = await command.run(rest);
    return { status, stderr };
  } catch (e) {
    if (e instanceof VineparseError) return { status: 1, stderr: `${stderr}vineparse: ${e.message}\n` };
    if ((e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true)
      return { status: 2, stderr: `${stderr}vineparse: ${(e as Error).message}\n` };
    throw e;
  } finally {
    process.stderr.write = write;
  }
}
