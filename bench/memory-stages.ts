// Child process of `npm run bench -- memory`: loads a model and parses a CoNLL-U file like
// `vineparse parse --retag` does, printing one JSON line per stage with the process's memory: peak
// and current resident set (VmHWM, VmRSS), its anonymous and file-backed parts (smaps_rollup), V8's
// heap and the bytes of ArrayBuffers; then the bytes of the decoded model's arrays by group.
// Usage: node dist/bench/memory-stages.js MODEL INPUT
import { readFileSync } from "node:fs";
import { streamConllu } from "../src/conllu/read.js";
import { readModelFile } from "../src/model/model-file.js";
import { parserFromModel } from "../src/parser/load-parser.js";
import { BUNDLE_KIND, bundleFromModelData } from "../src/pipeline/bundle.js";
import { Pipeline, toConllu } from "../src/pipeline/pipeline.js";

/** Memory of this process at one stage (MiB). */
export interface StageMemory {
  stage: string;
  hwm: number;
  rss: number;
  anon: number | null;
  file: number | null;
  heapTotal: number;
  arrayBuffers: number;
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
  };
  process.stdout.write(`${JSON.stringify(s)}\n`);
}

const [model, input] = process.argv.slice(2);
stage("node + modules");
let data: ReturnType<typeof readModelFile> | null = readModelFile(model!);
const groups: Record<string, number> = {};
for (const [name, a] of Object.entries(data.arrays)) {
  const g = name.replace(/\/[^/]*$/, "") + "/" + name.replace(/^.*\//, "").replace(/\..*$/, "");
  groups[g] = (groups[g] ?? 0) + a.byteLength;
}
stage("model decoded");
const pipeline =
  data.kind === BUNDLE_KIND
    ? (() => {
        const b = bundleFromModelData(data!, model!);
        return new Pipeline(b.tagger, b.parser);
      })()
    : new Pipeline(null, parserFromModel(data, model!));
data = null;
stage("pipeline built");
let n = 0;
let chars = 0;
for await (const r of streamConllu(input!, { requireTree: false })) {
  chars += toConllu(pipeline.annotate(r.sentence, pipeline.tagger !== null)).length;
  if (++n === 1) stage("first sentence parsed");
}
stage(`all ${n} sentences parsed`);
process.stdout.write(
  `${JSON.stringify({ arrays: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, mib(v)])), chars })}\n`,
);
