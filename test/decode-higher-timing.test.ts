import assert from "node:assert/strict";
import { test } from "node:test";
import type { GrandSiblingScorer } from "../src/decode/parts-types.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { ThirdOrderDecoder } from "../src/decode/third-order.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { finish, mix } from "../src/util/hash.js";

/**
 * Random part scores from hashing the part (about the cost of one hashed feature lookup per part);
 * arcs get a distance penalty so that, as with a trained model, the best heads of a token lie near it.
 */
class HashScorer implements GrandSiblingScorer {
  constructor(readonly seed: number) {}
  arc(h: number, m: number): number {
    return finish(mix(mix(mix(this.seed, 1), h), m)) / 4294967296 - 0.15 * Math.abs(h - m);
  }
  sib(h: number, s: number, m: number): number {
    return finish(mix(mix(mix(mix(this.seed, 2), h), s), m)) / 4294967296;
  }
  grand(g: number, h: number, m: number): number {
    return finish(mix(mix(mix(mix(this.seed, 3), g), h), m)) / 4294967296;
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return finish(mix(mix(mix(mix(mix(this.seed, 4), g), h), s), m)) / 4294967296;
  }
}

/** The cost of the dynamic program alone: trivially cheap, deterministic part scores. */
class CheapScorer implements GrandSiblingScorer {
  arc(h: number, m: number): number {
    return ((h * 31 + m * 17) & 15) / 16 - 0.15 * Math.abs(h - m);
  }
  sib(h: number, s: number, m: number): number {
    return ((h * 7 + s * 13 + m * 5) & 7) / 8;
  }
  grand(g: number, h: number, m: number): number {
    return ((g * 11 + h * 3 + m) & 7) / 8;
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return ((g * 5 + h * 3 + s * 7 + m) & 7) / 8;
  }
}

/** Mask keeping, for every token, the k heads with the best arc scores. */
function topK(n: number, scorer: HashScorer, k: number): ArcMask {
  const mask = ArcMask.empty(n);
  const hs: number[] = [];
  for (let m = 1; m <= n; m++) {
    hs.length = 0;
    for (let h = 0; h <= n; h++) if (h !== m) hs.push(h);
    hs.sort((a, b) => scorer.arc(b, m) - scorer.arc(a, m));
    for (let i = 0; i < k && i < hs.length; i++) mask.allow(hs[i]!, m);
  }
  return mask;
}

const quick = process.env.VINEPARSE_TIMING === undefined;

test("decode time per sentence (random hashed scorer; VINEPARSE_TIMING=1 for more repetitions)", () => {
  const second = new SecondOrderDecoder();
  const third = new ThirdOrderDecoder();
  const cheap = new CheapScorer();
  const rows: string[] = ["order  n   mask   ms/sentence  cpu ms  DP-only ms  parts/sentence  fallbacks"];
  for (const n of [10, 25, 50]) {
    for (const kind of ["full", "top5"] as const) {
      for (const order of [2, 3] as const) {
        const reps = quick ? (order === 3 && n === 50 && kind === "full" ? 2 : 10) : n === 50 ? 20 : 200;
        const scorers = Array.from({ length: reps }, (_, i) => new HashScorer(1000 * n + i));
        const masks = scorers.map((s) => (kind === "full" ? ArcMask.full(n) : topK(n, s, 5)));
        // Warm-up, then time all.
        for (let i = 0; i < Math.min(reps, 5); i++) {
          if (order === 2) second.decode(masks[i]!, scorers[i]!);
          else third.decode(masks[i]!, scorers[i]!);
        }
        let parts = 0;
        let fallbacks = 0;
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < reps; i++) {
          const r =
            order === 2 ? second.decode(masks[i]!, scorers[i]!) : third.decode(masks[i]!, scorers[i]!);
          parts += r.partsScored;
          if (r.fallback) fallbacks++;
        }
        const ms = Number(process.hrtime.bigint() - t0) / 1e6 / reps;
        const cu = process.cpuUsage(c0);
        const cpuMs = (cu.user + cu.system) / 1e3 / reps;
        const t1 = process.hrtime.bigint();
        for (let i = 0; i < reps; i++) {
          if (order === 2) second.decode(masks[i]!, cheap);
          else third.decode(masks[i]!, cheap);
        }
        const dpMs = Number(process.hrtime.bigint() - t1) / 1e6 / reps;
        rows.push(
          `${String(order).padEnd(6)} ${String(n).padEnd(3)} ${kind.padEnd(6)} ${ms.toFixed(3).padStart(11)}  ${cpuMs.toFixed(3).padStart(6)}  ${dpMs.toFixed(3).padStart(10)}  ${String(Math.round(parts / reps)).padStart(14)}  ${fallbacks}`,
        );
        assert.ok(parts > 0);
      }
    }
  }
  console.log(rows.join("\n"));
});
