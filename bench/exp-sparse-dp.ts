// Cost of the decoders' dynamic programs on pruned masks: time per sentence against sentence length
// (random arc scores, each token keeping its 3 best heads), fitted exponents, the same decoders on full
// masks, and the memory of the third-order tables.
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import type { GrandSiblingScorer } from "../src/decode/parts-types.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { SiblingMaxMarginals } from "../src/decode/sibling-max-marginals.js";
import { ThirdOrderDecoder } from "../src/decode/third-order.js";
import type { Cell } from "../src/eval/table.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";
import { type BenchContext, type Experiment, fitExponent } from "./lib.js";

/** How random arc scores depend on arc length: "short" = U − 0.15·d (as test/decode-higher-timing), "zipf" = Gumbel − 2 ln d. */
type MaskKind = "short" | "zipf";

/** One random sentence: arc scores (the first-order input), the pruned mask, and a cheap part scorer. */
interface Case {
  n: number;
  scores: Float64Array;
  mask: ArcMask;
  scorer: TableScorer;
}

/**
 * Part scores at the cost of a few multiplications (the DP's cost, not feature extraction's): arcs read
 * the sentence's arc-score table, the other parts are deterministic functions of their indices.
 */
class TableScorer implements GrandSiblingScorer {
  constructor(
    readonly scores: Float64Array,
    readonly size: number,
  ) {}
  arc(h: number, m: number): number {
    return this.scores[h * this.size + m]!;
  }
  sib(h: number, s: number, m: number): number {
    return (((h * 7 + s * 13 + m * 5) & 7) - 3.5) / 8;
  }
  grand(g: number, h: number, m: number): number {
    return (((g * 11 + h * 3 + m) & 7) - 3.5) / 8;
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return (((g * 5 + h * 3 + s * 7 + m) & 7) - 3.5) / 8;
  }
}

const treeDecoder = new EisnerDecoder();

function randomCase(rng: Rng, n: number, k: number, kind: MaskKind): Case {
  const size = n + 1;
  const scores = new Float64Array(size * size);
  for (let h = 0; h <= n; h++) {
    for (let m = 1; m <= n; m++) {
      if (h === m) continue;
      const d = Math.abs(h - m);
      const u = rng.next();
      scores[h * size + m] =
        kind === "short" ? u - 0.15 * d : -Math.log(-Math.log(u + 1e-12)) - 2 * Math.log(d);
    }
  }
  const mask = ArcMask.empty(n);
  const hs: number[] = [];
  for (let m = 1; m <= n; m++) {
    hs.length = 0;
    for (let h = 0; h <= n; h++) if (h !== m) hs.push(h);
    hs.sort((a, b) => scores[b * size + m]! - scores[a * size + m]!);
    for (let i = 0; i < k && i < hs.length; i++) mask.allow(hs[i]!, m);
  }
  // As after max-marginal pruning, the best (unpruned, projective) tree survives: the mask admits a tree.
  const best = treeDecoder.decode(n, scores, null).heads;
  for (let m = 1; m <= n; m++) mask.allow(best[m]!, m);
  return { n, scores, mask, scorer: new TableScorer(scores, size) };
}

/** A decoder under test: runs one sentence. */
interface Contender {
  name: string;
  order: number;
  run(c: Case): void;
}

function contenders(orders: number[]): Contender[] {
  const eisner = new EisnerDecoder();
  const mm1 = new EisnerMaxMarginals();
  const second = new SecondOrderDecoder();
  const mm2 = new SiblingMaxMarginals();
  const third = new ThirdOrderDecoder();
  let out = new Float64Array(0);
  const buffer = (n: number): Float64Array => {
    if (out.length < (n + 1) ** 2) out = new Float64Array((n + 1) ** 2);
    return out;
  };
  const all: Contender[] = [
    { name: "eisner decode", order: 1, run: (c) => eisner.decode(c.n, c.scores, c.mask) },
    { name: "eisner max-marginals", order: 1, run: (c) => mm1.compute(c.n, c.scores, c.mask, buffer(c.n)) },
    {
      name: "  + witness counts",
      order: 1,
      run: (c) => {
        mm1.compute(c.n, c.scores, c.mask, buffer(c.n));
        mm1.witnessCounts();
      },
    },
    { name: "second-order decode", order: 2, run: (c) => second.decode(c.mask, c.scorer) },
    { name: "second-order max-marginals", order: 2, run: (c) => mm2.compute(c.mask, c.scorer, buffer(c.n)) },
    {
      name: "  + witness counts",
      order: 2,
      run: (c) => {
        mm2.compute(c.mask, c.scorer, buffer(c.n));
        mm2.witnessCounts();
      },
    },
    { name: "third-order decode", order: 3, run: (c) => third.decode(c.mask, c.scorer) },
  ];
  return all.filter((c) => orders.includes(c.order));
}

/** Seconds per sentence of each contender on `cases`: best of `reps` interleaved passes. */
function timeAll(list: Contender[], cases: Case[], reps: number): number[] {
  for (const c of list) for (const x of cases.slice(0, 3)) c.run(x);
  const best = list.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < reps; r++) {
    list.forEach((c, i) => {
      const t0 = process.hrtime.bigint();
      for (const x of cases) c.run(x);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      if (s < best[i]!) best[i] = s;
    });
  }
  return best.map((s) => s / cases.length);
}

/** Mean heads per token, mean and largest arc length, share of arcs of length ≤ 3. */
function maskStats(cases: Case[]): Cell[] {
  let arcs = 0;
  let len = 0;
  let short = 0;
  let max = 0;
  let tokens = 0;
  for (const c of cases) {
    tokens += c.n;
    const size = c.n + 1;
    for (let h = 0; h <= c.n; h++) {
      for (let m = 1; m <= c.n; m++) {
        if (c.mask.bits[h * size + m] !== 1) continue;
        const d = Math.abs(h - m);
        arcs++;
        len += d;
        if (d <= 3) short++;
        if (d > max) max = d;
      }
    }
  }
  return [(arcs / tokens).toFixed(2), (len / arcs).toFixed(2), max, `${((100 * short) / arcs).toFixed(1)}%`];
}

/** `npm run bench -- sparse-dp [--lengths 10,20,40,80] [--sentences 40] [--reps 7] [--k 3] [--orders 1,2,3]`. */
export const experiment: Experiment = {
  summary:
    "decoder DP time vs sentence length on pruned masks (3 heads/token): exponents, full masks, memory",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("sparse-dp", args, {
      lengths: { type: "string" },
      sentences: { type: "string" },
      reps: { type: "string" },
      k: { type: "string" },
      orders: { type: "string" },
      seed: { type: "string" },
    });
    const lengths = (values.lengths ?? "10,20,40,80").split(",").map(Number);
    const count = numberOption("sparse-dp", "sentences", values.sentences, 40, { integer: true, min: 1 });
    const reps = numberOption("sparse-dp", "reps", values.reps, 7, { integer: true, min: 1 });
    const k = numberOption("sparse-dp", "k", values.k, 3, { integer: true, min: 1 });
    const seed = numberOption("sparse-dp", "seed", values.seed, 1, { integer: true, min: 0 });
    const orders = (values.orders ?? "1,2,3").split(",").map(Number);
    ctx.note(
      `${count} random sentences per length, each token keeping its ${k} best heads by random arc score (plus the best projective tree's arcs); part scores from a table (DP cost only); best of ${reps} interleaved passes`,
    );
    const list = contenders(orders);
    // Warm-up on every length and mask kind, so that no measured pass includes compilation.
    const warm = new Rng(seed + 99);
    for (let r = 0; r < 3; r++)
      for (const n of lengths)
        for (const kind of ["short", "zipf"] as MaskKind[]) {
          const cases = Array.from({ length: 5 }, () => randomCase(warm, n, k, kind));
          timeAll(list, cases, 1);
        }
    for (const kind of ["short", "zipf"] as MaskKind[]) {
      const rng = new Rng(seed + (kind === "short" ? 0 : 1000));
      const times: number[][] = list.map(() => []);
      const statRows: Cell[][] = [];
      for (const n of lengths) {
        const cases = Array.from({ length: count }, () => randomCase(rng, n, k, kind));
        statRows.push([n, ...maskStats(cases)]);
        timeAll(list, cases, reps).forEach((s, i) => times[i]!.push(s));
      }
      ctx.table(
        `Masks (${kind}: ${kind === "short" ? "score U − 0.15·d" : "score Gumbel − 2 ln d"}, top ${k} heads per token + best tree)`,
        ["n", "heads/token", "mean arc length", "max arc length", "arcs of length ≤ 3"],
        statRows,
      );
      ctx.table(
        `Time per sentence (µs), ${kind} masks; exponent k of time ∝ n^k (least squares on log-log)`,
        ["decoder", ...lengths.map((n) => `n=${n}`), "exponent"],
        list.map((c, i) => [
          c.name,
          ...times[i]!.map((s) => (s * 1e6).toFixed(1)),
          fitExponent(lengths, times[i]!).toFixed(2),
        ]),
      );
    }
    // Full masks: what pruning saves, and a check that dense decoding did not get slower.
    const fullRows: Cell[][] = [];
    for (const n of [20, 40]) {
      const rng = new Rng(seed + n);
      const cases = Array.from({ length: n === 40 ? 6 : 12 }, () => {
        const c = randomCase(rng, n, k, "short");
        c.mask = ArcMask.full(n);
        return c;
      });
      const t = timeAll(list, cases, Math.max(2, Math.floor(reps / 2)));
      list.forEach((c, i) => fullRows.push([c.name, n, (t[i]! * 1e6).toFixed(1)]));
    }
    ctx.table("Time per sentence (µs), full masks", ["decoder", "n", "µs"], fullRows);
    // Memory of the third-order tables on long sentences with pruned masks.
    if (orders.includes(3)) {
      const memRows: Cell[][] = [];
      for (const n of [80, 150, 250]) {
        const c = randomCase(new Rng(seed + 7 * n), n, k, "short");
        const before = process.memoryUsage().arrayBuffers;
        const third = new ThirdOrderDecoder();
        third.decode(c.mask, c.scorer);
        const bytes = process.memoryUsage().arrayBuffers - before;
        memRows.push([n, c.mask.count(), third.tableCells, (bytes / 2 ** 20).toFixed(2)]);
      }
      ctx.table(
        "Third-order decoder: span-table cells and typed-array memory after one decode (fresh decoder, short mask)",
        ["n", "arcs kept", "span cells", "MiB"],
        memRows,
      );
    }
  },
};
