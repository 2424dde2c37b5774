// The Node side of `npm run bench -- browser`: `node dist/bench/browser-node.js MODEL TEXT REPS` runs
// `browserRun` on files and prints its result as one line of JSON.
import { readFile } from "node:fs/promises";
import { browserRun } from "./browser-run.js";

const [model, text, reps] = process.argv.slice(2);
const run = await browserRun(
  async () => new Uint8Array(await readFile(model!)),
  () => readFile(text!, "utf8"),
  Number(reps),
);
process.stdout.write(JSON.stringify(run) + "\n");
