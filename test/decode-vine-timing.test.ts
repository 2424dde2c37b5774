import assert from "node:assert/strict";
import { test } from "node:test";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
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
      // Each measurement takes several milliseconds of CPU (shorter ones were at the mercy of the
      // host's noise and of the CPU clock's granularity: one run in about twenty measured 12×).
      const reps = witness ? 24 : 64;
      // Warm-up, then interleaved rounds; the minimum over rounds is robust to a noisy host.
      cpuMicros(run(100, small), reps);
      cpuMicros(run(400, large), reps);
      let a = Infinity;
      let c = Infinity;
      for (let round = 0; round < 7; round++) {
        a = Math.min(a, cpuMicros(run(100, small), 4 * reps));
        c = Math.min(c, cpuMicros(run(400, large), reps));
      }
      const ratio = c / a;
      rows.push(
        `${String(b).padEnd(5)} ${(witness ? "witness" : "chart").padEnd(9)} ${a.toFixed(1).padStart(11)}  ${c.toFixed(1).padStart(11)}  ${ratio.toFixed(2).padStart(5)}`,
      );
      // Linear: about 4× (4–6× measured: cache effects); quadratic would be 16×.
      assert.ok(
        ratio < 10,
        `band ${b} ${witness ? "witness" : "chart"}: n=400 takes ${ratio.toFixed(2)}× n=100`,
      );
    }
  }
  console.log(rows.join("\n"));
});

test("vine pass against first-order Eisner at n = 25 (CPU µs per sentence, medians of interleaved rounds)", () => {
  const rng = new Rng(6);
  const n = 25;
  const size = n + 1;
  const dense = new Float64Array(size * size);
  for (let i = 0; i < dense.length; i++) dense[i] = rng.next() * 10 - 5;
  const eisner = new EisnerDecoder();
  const eisnerMm = new EisnerMaxMarginals();
  const rows = ["what                       µs"];
  const med = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1]!;
  const e: number[] = [];
  const em: number[] = [];
  const cols: Record<string, number[]> = {};
  const parsers = [3, 5, 8].map((b) => ({
    b,
    parser: new VineParser({ band: b }),
    scores: randomVineScores(rng, n, b, false, new VineScores(b)),
  }));
  for (let round = 0; round < 7; round++) {
    e.push(cpuMicros(() => eisner.decode(n, dense, null), 300));
    em.push(cpuMicros(() => eisnerMm.compute(n, dense, null), 300));
    for (const { b, parser, scores } of parsers) {
      (cols[`vine b=${b} decode`] ??= []).push(cpuMicros(() => parser.decode(n, scores, null), 300));
      (cols[`vine b=${b} max-marginals`] ??= []).push(
        cpuMicros(() => parser.maxMarginals(n, scores, null), 300),
      );
    }
  }
  rows.push(`Eisner decode              ${med(e).toFixed(1)}`);
  rows.push(`Eisner max-marginals       ${med(em).toFixed(1)}`);
  for (const [k, v] of Object.entries(cols)) rows.push(`${k.padEnd(26)} ${med(v).toFixed(1)}`);
  console.log(rows.join("\n"));
  assert.ok(med(e) > 0);
});
