// Child process of `npm run bench -- memory`: loads a model and parses a CoNLL-U file the way
// `vineparse parse --input` does (blocks of PARSE_BLOCK sentences or PARSE_BLOCK_WORDS words, each
// sentence written before the next is assembled, the tagger built only with --retag, the old
// generation's growth as the command sets it), printing one JSON line per stage with the process's
// memory: peak and current resident set (VmHWM, VmRSS), its anonymous and file-backed parts
// (smaps_rollup), V8's heap and the bytes of ArrayBuffers; then the bytes of the decoded model's
// arrays by group.
// Usage: node dist/bench/memory-stages.js MODEL INPUT [--retag]
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { streamConllu } from "../src/conllu/read.js";
import { readModelFile } from "../src/model/model-file.js";
import { PARSE_BLOCK, PARSE_BLOCK_WORDS } from "../src/parser/pruned-parse.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { toConllu } from "../src/pipeline/pipeline.js";
import { readyBlocks } from "../src/util/blocks.js";

/** Memory of this process at one stage (MiB). */
export interface StageMemory {
  stage: string;
  hwm: number;
  rss: number;
  anon: number | null;
  file: number | null;
  heapTotal: number;
  arrayBuffers: number;
  /** Minor page faults of the process so far. */
  faults: number;
}

const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

function kib(text: string, key: string): number | null {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text);
  return m === null ? null : Number(m[1]);
}

function stage(name: string): void {
  let status = "";
  let rollup = "";
  try {
    status = readFileSync("/proc/self/status", "utf8");
    rollup = readFileSync("/proc/self/smaps_rollup", "utf8");
  } catch {
    // not Linux: only what Node reports
  }
  const m = process.memoryUsage();
  const rss = kib(rollup, "Rss");
  const anon = kib(rollup, "Anonymous");
  const s: StageMemory = {
    stage: name,
    hwm: mib((kib(status, "VmHWM") ?? process.resourceUsage().maxRSS) * 1024),
    rss: mib(rss !== null ? rss * 1024 : m.rss),
    anon: anon === null ? null : mib(anon * 1024),
    file: anon === null || rss === null ? null : mib((rss - anon) * 1024),
    heapTotal: mib(m.heapTotal),
    arrayBuffers: mib(m.arrayBuffers),
    faults: process.resourceUsage().minorPageFault,
  };
  process.stdout.write(`${JSON.stringify(s)}\n`);
}

const [model, input, ...rest] = process.argv.slice(2);
const retag = rest.includes("--retag");
// As the command line sets them (src/cli/main.ts, src/cli/cmd-parse.ts).
setFlagsFromString("--semi-space-growth-factor=1");
setFlagsFromString("--heap-growing-percent=50");
stage("node + modules");
const pipeline = loadPipeline(model, { lazyTagger: !retag });
stage(retag ? "pipeline loaded" : "pipeline loaded (tagger not built)");
let n = 0;
let blocks = 0;
let chars = 0;
const words = {
  weigh: (r: { sentence: { words: unknown[] } }) => r.sentence.words.length,
  max: PARSE_BLOCK_WORDS,
};
for await (const block of readyBlocks(
  streamConllu(input!, { requireTree: false }),
  PARSE_BLOCK,
  true,
  words,
)) {
  const cs = block.map((r) => r.sentence);
  block.length = 0;
  for (const a of pipeline.annotateEach(cs, retag)) {
    chars += toConllu(a).length;
    if (++n === 1) stage("first sentence parsed");
  }
  stage(`block ${++blocks} parsed (${n} sentences)`);
}
stage(`all ${n} sentences parsed`);
// The arrays by group, from a separate read of the whole file (after the stages, not to disturb them).
const groups: Record<string, number> = {};
for (const [name, a] of Object.entries(readModelFile(model!).arrays)) {
  const g = name.replace(/\/[^/]*$/, "") + "/" + name.replace(/^.*\//, "").replace(/\..*$/, "");
  groups[g] = (groups[g] ?? 0) + a.byteLength;
}
process.stdout.write(
  `${JSON.stringify({ arrays: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, mib(v)])), chars })}\n`,
);
// What a first touch of fresh memory costs on this machine: 64 MiB never used before, one write per
// 4 KiB page, timed, against the page faults it took (three times; the median). With transparent huge
// pages one fault maps 2 MiB, so the size a fault maps is given too.
const trials: { perFault: number; kibPerFault: number; msPerMib: number }[] = [];
for (let r = 0; r < 3; r++) {
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = process.hrtime.bigint();
  const a = new Uint8Array(64 << 20);
  for (let i = 0; i < a.length; i += 4096) a[i] = 1;
  const ns = Number(process.hrtime.bigint() - t0);
  const faults = process.resourceUsage().minorPageFault - f0;
  if (faults > 0)
    trials.push({ perFault: ns / 1000 / faults, kibPerFault: (64 * 1024) / faults, msPerMib: ns / 1e6 / 64 });
}
trials.sort((x, y) => x.msPerMib - y.msPerMib);
const mid = trials[1] ?? trials[0] ?? null;
process.stdout.write(
  `${JSON.stringify({
    firstTouchMicros: mid === null ? null : mid.perFault,
    kibPerFault: mid === null ? null : mid.kibPerFault,
    msPerMib: mid === null ? null : mid.msPerMib,
  })}\n`,
);
