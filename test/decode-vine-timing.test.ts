import assert from "node:assert/strict";
import { test } from "node:test";
import { VineParser } from "../src/decode/vine-parser.js";
import { VineScores } from "../src/decode/vine-structure.js";
import { Rng } from "../src/util/rng.js";
import { randomVineScores } from "./vine-brute.js";

/** CPU microseconds per call of f over `reps` calls. */
function cpuMicros(f: () => void, reps: number): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / reps;
}

test("the vine dynamic program is linear in sentence length (n = 400 vs n = 100)", () => {
  const rng = new Rng(4);
  const rows = ["band  path      us at n=100  us at n=400  ratio"];
  for (const b of [3, 6]) {
    const parser = new VineParser({ band: b });
    const small = randomVineScores(rng, 100, b, false, new VineScores(b));
    const large = randomVineScores(rng, 400, b, false, new VineScores(b));
    for (const witness of [false, true]) {
      const run = (n: number, s: VineScores) => () => parser.maxMarginals(n, s, null, { witness });
      const reps = witness ? 6 : 16;
      // Warm-up, then interleaved rounds; the minimum over rounds is robust to a noisy host.
      cpuMicros(run(100, small), reps);
      cpuMicros(run(400, large), reps);
      let a = Infinity;
      let c = Infinity;
      for (let round = 0; round < 5; round++) {
        a = Math.min(a, cpuMicros(run(100, small), 4 * reps));
        c = Math.min(c, cpuMicros(run(400, large), reps));
      }
      const ratio = c / a;
      rows.push(
        `${String(b).padEnd(5)} ${(witness ? "witness" : "chart").padEnd(9)} ${a.toFixed(1).padStart(11)}  ${c.toFixed(1).padStart(11)}  ${ratio.toFixed(2).padStart(5)}`,
      );
      // Linear: about 4×; quadratic would be 16×.
      assert.ok(
        ratio < 8,
        `band ${b} ${witness ? "witness" : "chart"}: n=400 takes ${ratio.toFixed(2)}× n=100`,
      );
    }
  }
  console.log(rows.join("\n"));
});
