import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { scoreSiblingTree, siblingParts } from "../src/decode/parts.js";
import type { SiblingScorer } from "../src/decode/parts-types.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { SiblingMaxMarginals } from "../src/decode/sibling-max-marginals.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { finish, mix } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Deterministic continuous part scores in [-1, 1) (no ties between trees); `ties` = small integers instead. */
class HashScorer implements SiblingScorer {
  constructor(
    readonly seed: number,
    readonly ties = false,
    readonly sibWeight = 1,
  ) {}
  private u(h: number): number {
    return this.ties ? (finish(h) % 3) - 1 : finish(h) / 2147483648 - 1;
  }
  arc(h: number, m: number): number {
    return this.u(mix(mix(mix(this.seed, 1), h), m)) - 0.1 * Math.abs(h - m);
  }
  sib(h: number, s: number, m: number): number {
    return this.sibWeight * this.u(mix(mix(mix(mix(this.seed, 2), h), s), m));
  }
}

/** Wraps a scorer: throws when a part uses a pruned arc or is asked twice; counts calls. */
class StrictScorer implements SiblingScorer {
  readonly seen = new Set<string>();
  calls = 0;
  constructor(
    readonly inner: SiblingScorer,
    readonly mask: ArcMask,
  ) {}
  private check(key: string, h: number, m: number, s: number): void {
    if (!this.mask.allows(h, m) || (s !== h && !this.mask.allows(h, s)))
      throw new Error(`part ${key} uses a pruned arc`);
    if (this.seen.has(key)) throw new Error(`part ${key} scored twice`);
    this.seen.add(key);
    this.calls++;
  }
  arc(h: number, m: number): number {
    this.check(`a${h},${m}`, h, m, h);
    return this.inner.arc(h, m);
  }
  sib(h: number, s: number, m: number): number {
    this.check(`s${h},${s},${m}`, h, m, s);
    return this.inner.sib(h, s, m);
  }
}

function randomMask(rng: Rng, n: number, p: number): ArcMask {
  const mask = ArcMask.full(n);
  for (let h = 0; h <= n; h++) for (let m = 1; m <= n; m++) if (h !== m && rng.next() >= p) mask.remove(h, m);
  return mask;
}

/** Each token keeps its k best heads by arc score (mostly short arcs), plus `extra` random arcs. */
function topKMask(rng: Rng, n: number, scorer: SiblingScorer, k: number, extra: number): ArcMask {
  const mask = ArcMask.empty(n);
  for (let m = 1; m <= n; m++) {
    const hs: number[] = [];
    for (let h = 0; h <= n; h++) if (h !== m) hs.push(h);
    hs.sort((a, b) => scorer.arc(b, m) - scorer.arc(a, m));
    for (let i = 0; i < k && i < hs.length; i++) mask.allow(hs[i]!, m);
  }
  for (let i = 0; i < extra; i++) mask.allow(rng.int(n + 1), 1 + rng.int(n));
  return mask;
}

/** A random projective tree: each interval of tokens under a head is cut into blocks, one child per block. */
function randomProjectiveTree(rng: Rng, n: number, singleRoot: boolean): Int32Array {
  const heads = new Int32Array(n + 1);
  heads[0] = -1;
  const attach = (h: number, lo: number, hi: number): void => {
    for (let p = lo; p <= hi;) {
      const end = p + rng.int(hi - p + 1);
      const c = p + rng.int(end - p + 1);
      heads[c] = h;
      attach(c, p, c - 1);
      attach(c, c + 1, end);
      p = end + 1;
    }
  };
  if (singleRoot) {
    const c = 1 + rng.int(n);
    heads[c] = 0;
    attach(c, 1, c - 1);
    attach(c, c + 1, n);
  } else attach(0, 1, n);
  return heads;
}

const close = (a: number, b: number): boolean =>
  a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

interface Brute {
  marginals: Float64Array;
  witness: (Int32Array | null)[];
  best: number;
}

/** Max-marginals and witness trees (best tree containing each arc) by enumeration. */
function brute(mask: ArcMask, scorer: SiblingScorer, singleRoot: boolean): Brute {
  const n = mask.n;
  const size = n + 1;
  const marginals = new Float64Array(size * size).fill(NEG);
  const witness: (Int32Array | null)[] = new Array(size * size).fill(null);
  let best = NEG;
  for (const heads of enumerateTrees(n, { mask, singleRoot, projective: true })) {
    const s = scoreSiblingTree(heads, scorer);
    if (s > best) best = s;
    for (let m = 1; m <= n; m++) {
      const a = heads[m]! * size + m;
      if (s > marginals[a]!) {
        marginals[a] = s;
        witness[a] = heads;
      }
    }
  }
  return { marginals, witness, best };
}

for (const singleRoot of [true, false]) {
  test(`sibling max-marginals and witness counts equal brute force (singleRoot=${singleRoot})`, () => {
    const rng = new Rng(singleRoot ? 71 : 72);
    const mm = new SiblingMaxMarginals({ singleRoot });
    const decoder = new SecondOrderDecoder();
    let cases = 0;
    let infeasible = 0;
    for (let n = 1; n <= 7; n++) {
      const trials = n <= 4 ? 25 : n <= 6 ? 8 : 2;
      for (let t = 0; t < trials; t++) {
        for (const p of [1, 0.7, 0.45, 0.25]) {
          const mask = p === 1 ? ArcMask.full(n) : randomMask(rng, n, p);
          const scorer = new HashScorer(rng.int(1 << 30));
          const ctx = `n=${n} p=${p} t=${t}`;
          const want = brute(mask, scorer, singleRoot);
          const strict = new StrictScorer(scorer, mask);
          const got = mm.compute(mask, strict);
          assert.equal(got.partsScored, strict.calls, ctx);
          const size = n + 1;
          let arcs = 0;
          let sum = 0;
          for (let a = 0; a < size * size; a++) {
            const w = want.marginals[a]!;
            assert.ok(
              close(got.marginals[a]!, w),
              `${ctx} arc ${Math.floor(a / size)}→${a % size}: ${got.marginals[a]} vs ${w}`,
            );
            if (w > NEG) {
              arcs++;
              sum += w;
            }
          }
          assert.ok(close(got.best, want.best), `${ctx}: best ${got.best} vs ${want.best}`);
          assert.equal(got.arcs, arcs, ctx);
          assert.ok(close(got.sum, sum), ctx);
          const wc = mm.witnessCounts();
          assert.equal(wc.witnesses, arcs, ctx);
          if (want.best === NEG) {
            infeasible++;
            assert.equal(got.partsScored, 0, `${ctx}: nothing is scored without a tree`);
            assert.equal(wc.partCount, 0, ctx);
            continue;
          }
          // Expected counts: the sibling parts and arcs of every arc's witness tree.
          const partWant = new Map<string, number>();
          const arcWant = new Int32Array(size * size);
          for (let a = 0; a < size * size; a++) {
            const tree = want.witness[a];
            if (tree === null || tree === undefined) continue;
            const parts = siblingParts(tree);
            for (let i = 0; i < parts.length; i += 3) {
              const key = `${parts[i]},${parts[i + 1]},${parts[i + 2]}`;
              partWant.set(key, (partWant.get(key) ?? 0) + 1);
              arcWant[parts[i]! * size + parts[i + 2]!]!++;
            }
          }
          const partGot = new Map<string, number>();
          let total = 0;
          for (let i = 0; i < wc.partCount; i++) {
            const q = wc.parts.subarray(4 * i, 4 * i + 4);
            partGot.set(`${q[0]},${q[1]},${q[2]}`, q[3]!);
            total += q[3]!;
          }
          assert.equal(total, arcs * n, `${ctx}: every witness has n parts`);
          assert.deepEqual(partGot, partWant, ctx);
          assert.deepEqual(Array.from(wc.arcs.subarray(0, size * size)), Array.from(arcWant), ctx);
          // The decoder's best tree is the witness of each of its arcs.
          const d = decoder.decode(mask, scorer, { singleRoot });
          assert.ok(close(d.score, got.best), ctx);
          cases++;
        }
      }
    }
    assert.ok(cases > 200 && infeasible > 5, `${cases} cases, ${infeasible} without a tree`);
  });
}

test("sibling max-marginals with ties equal brute force; witness counts stay consistent", () => {
  const rng = new Rng(5);
  for (const singleRoot of [true, false]) {
    const mm = new SiblingMaxMarginals({ singleRoot });
    for (let t = 0; t < 60; t++) {
      const n = 2 + rng.int(5);
      const mask = t % 2 === 0 ? ArcMask.full(n) : randomMask(rng, n, 0.6);
      const scorer = new HashScorer(t, true);
      const want = brute(mask, scorer, singleRoot);
      const got = mm.compute(mask, scorer);
      const size = n + 1;
      for (let a = 0; a < size * size; a++) assert.ok(close(got.marginals[a]!, want.marginals[a]!));
      const wc = mm.witnessCounts();
      let total = 0;
      for (let i = 0; i < wc.partCount; i++) total += wc.parts[4 * i + 3]!;
      assert.equal(total, got.arcs * n);
      // Each arc's own witness contains it.
      for (let a = 0; a < size * size; a++) if (got.marginals[a]! > NEG) assert.ok(wc.arcs[a]! >= 1);
    }
  }
});

/** First-order best projective tree by a plain O(n³) Eisner over the whole chart (no span windows). */
function naiveEisner(n: number, score: (h: number, m: number) => number, singleRoot: boolean): number {
  const size = n + 1;
  const C = new Float64Array(size * size).fill(NEG);
  const I = new Float64Array(size * size).fill(NEG);
  for (let i = 0; i <= n; i++) C[i * size + i] = 0;
  const lo = singleRoot ? 1 : 0;
  for (let w = 1; w <= n; w++) {
    for (let i = lo; i + w <= n; i++) {
      const j = i + w;
      let split = NEG;
      for (let r = i; r < j; r++) split = Math.max(split, C[i * size + r]! + C[j * size + r + 1]!);
      I[i * size + j] = split + score(i, j);
      I[j * size + i] = i === 0 ? NEG : split + score(j, i);
      let right = NEG;
      for (let r = i + 1; r <= j; r++) right = Math.max(right, I[i * size + r]! + C[r * size + j]!);
      C[i * size + j] = right;
      let left = NEG;
      for (let r = i; r < j; r++) left = Math.max(left, I[j * size + r]! + C[r * size + i]!);
      C[j * size + i] = left;
    }
  }
  if (!singleRoot) return C[n]!;
  let best = NEG;
  for (let r = 1; r <= n; r++) best = Math.max(best, score(0, r) + C[r * size + 1]! + C[r * size + n]!);
  return best;
}

test("on longer sentences with pruned masks, max-marginals match a window-free reference", () => {
  const rng = new Rng(9);
  for (const singleRoot of [true, false]) {
    const first = new EisnerMaxMarginals({ singleRoot });
    const second = new SiblingMaxMarginals({ singleRoot });
    const decoder = new SecondOrderDecoder();
    let feasible = 0;
    for (let t = 0; t < 12; t++) {
      const n = 12 + rng.int(14);
      const scorer = new HashScorer(100 + t, false, 0);
      const mask = topKMask(rng, n, scorer, 2 + (t % 3), t % 4 === 0 ? 0 : 3);
      // Most such masks admit a tree only with the arcs of some tree (here a random one) added.
      if (t % 4 !== 3) {
        const tree = randomProjectiveTree(rng, n, singleRoot);
        for (let m = 1; m <= n; m++) mask.allow(tree[m]!, m);
      }
      const size = n + 1;
      const scores = new Float64Array(size * size);
      for (let h = 0; h <= n; h++)
        for (let m = 1; m <= n; m++) if (h !== m) scores[h * size + m] = scorer.arc(h, m);
      const allowed = (h: number, m: number): number => (mask.allows(h, m) ? scores[h * size + m]! : NEG);
      const best = naiveEisner(n, allowed, singleRoot);
      const m1 = first.compute(n, scores, mask);
      // Sibling scores are 0 here, so the second-order marginals are first-order ones.
      const m2 = second.compute(mask, scorer);
      assert.ok(close(m1.best, best) && close(m2.best, best), `t=${t}: ${m1.best} ${m2.best} vs ${best}`);
      for (let h = 0; h <= n; h++) {
        for (let m = 1; m <= n; m++) {
          if (!mask.allows(h, m)) continue;
          // Force arc h→m: every other head of m is forbidden.
          const forced = naiveEisner(n, (x, y) => (y === m && x !== h ? NEG : allowed(x, y)), singleRoot);
          const a = h * size + m;
          assert.ok(
            close(m1.marginals[a]!, forced),
            `t=${t} ${h}→${m}: first ${m1.marginals[a]} vs ${forced}`,
          );
          assert.ok(
            close(m2.marginals[a]!, forced),
            `t=${t} ${h}→${m}: second ${m2.marginals[a]} vs ${forced}`,
          );
        }
      }
      // With sibling scores: the decoder's tree reaches the best max-marginal on each of its arcs.
      const withSib = new HashScorer(200 + t);
      const r = second.compute(mask, withSib);
      const d = decoder.decode(mask, withSib, { singleRoot });
      assert.equal(d.fallback, !(best > NEG));
      if (d.fallback) continue;
      feasible++;
      assert.ok(close(r.best, d.score));
      for (let m = 1; m <= n; m++) assert.ok(close(r.marginals[d.heads[m]! * size + m]!, r.best));
      for (let a = 0; a < size * size; a++) assert.ok(r.marginals[a]! <= r.best + 1e-9);
    }
    assert.ok(feasible >= 9, `only ${feasible} masks admit a tree`);
  }
});

test("sibling max-marginals reuse a caller's buffer and handle n = 0 and masks without a tree", () => {
  const mm = new SiblingMaxMarginals();
  const out = new Float64Array(64 * 64);
  const zero = mm.compute(ArcMask.full(0), new HashScorer(1), out);
  assert.equal(zero.best, 0);
  assert.equal(mm.witnessCounts().witnesses, 0);
  const r = mm.compute(ArcMask.full(40), new HashScorer(2), out);
  assert.equal(r.marginals, out);
  assert.equal(r.arcs, 40 * 40);
  const none = mm.compute(ArcMask.empty(4), new HashScorer(3), out);
  assert.equal(none.best, NEG);
  assert.ok(out.subarray(0, 25).every((v) => v === NEG));
  assert.equal(mm.witnessCounts().partCount, 0);
});
