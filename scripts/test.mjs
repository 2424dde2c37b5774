// Runs every compiled test file (dist/test/**/*.test.js) with Node's built-in test runner.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

function find(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...find(p));
    else if (e.name.endsWith(".test.js")) out.push(p);
  }
  return out;
}

const only = process.argv.slice(2);
let files = find("dist/test").sort();
if (only.length > 0) files = files.filter((f) => only.some((o) => f.includes(o)));
// --no-concurrent-recompilation (passed on to every test file's process): Node 20 can deadlock when a
// process ends while a background compile job waits for a garbage collection that the main thread,
// draining its tasks at exit, never runs (nodejs/node#54918). A test file hung that way here once,
// after all its tests had passed, and would have held the suite until CI's time ran out. Optimizing
// on the main thread instead costs the suite little.
const r = spawnSync(
  process.execPath,
  ["--no-concurrent-recompilation", "--test", "--test-reporter=spec", ...files],
  { stdio: "inherit" },
);
process.exit(r.status ?? 1);
