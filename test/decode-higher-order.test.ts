import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import {
  grandSiblingParts,
  scoreGrandSiblingTree,
  scoreSiblingTree,
  siblingParts,
} from "../src/decode/parts.js";
import { ProjectiveFeasibility, withAdjacentArcs } from "../src/decode/parts-mask.js";
import type { GrandSiblingScorer } from "../src/decode/parts-types.js";
import { SecondOrderDecoder } from "../src/decode/second-order.js";
import { ThirdOrderDecoder } from "../src/decode/third-order.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { finish, mix } from "../src/util/hash.js";
import { Rng } from "../src/util/rng.js";

/** Deterministic pseudo-random part scores in [-1, 1), a function of the seed and the part. */
class HashScorer implements GrandSiblingScorer {
  constructor(readonly seed: number) {}
  private u(h: number): number {
    return finish(h) / 2147483648 - 1;
  }
  arc(h: number, m: number): number {
    return this.u(mix(mix(mix(this.seed, 1), h), m));
  }
  sib(h: number, s: number, m: number): number {
    return this.u(mix(mix(mix(mix(this.seed, 2), h), s), m));
  }
  grand(g: number, h: number, m: number): number {
    return this.u(mix(mix(mix(mix(this.seed, 3), g), h), m));
  }
  gsib(g: number, h: number, s: number, m: number): number {
    return this.u(mix(mix(mix(mix(mix(this.seed, 4), g), h), s), m));
  }
}

/** Wraps a scorer: throws when a part uses a pruned arc or is asked twice; counts calls. */
class StrictScorer implements GrandSiblingScorer {
  readonly seen = new Set<string>();
  calls = 0;
  constructor(
    readonly inner: GrandSiblingScorer,
    readonly mask: ArcMask,
  ) {}
  private check(key: string, arcs: number[]): void {
    for (let i = 0; i < arcs.length; i += 2) {
      const h = arcs[i]!;
      const m = arcs[i + 1]!;
      if (h === -1 || h === m) continue;
      if (!this.mask.allows(h, m)) throw new Error(`part ${key} uses pruned arc ${h}→${m}`);
    }
    if (this.seen.has(key)) throw new Error(`part ${key} scored twice`);
    this.seen.add(key);
    this.calls++;
  }
  arc(h: number, m: number): number {
    this.check(`a${h},${m}`, [h, m]);
    return this.inner.arc(h, m);
  }
  sib(h: number, s: number, m: number): number {
    if (s !== h && (s - h) * (m - h) <= 0) throw new Error(`sib(${h},${s},${m}) on opposite sides`);
    this.check(`s${h},${s},${m}`, [h, m, h, s]);
    return this.inner.sib(h, s, m);
  }
  grand(g: number, h: number, m: number): number {
    if (g === -1 && h !== 0) throw new Error("g = -1 for a non-root head");
    this.check(`g${g},${h},${m}`, [g, h, h, m]);
    return this.inner.grand(g, h, m);
  }
  gsib(g: number, h: number, s: number, m: number): number {
    this.check(`G${g},${h},${s},${m}`, [g, h, h, m, h, s]);
    return this.inner.gsib(g, h, s, m);
  }
}

/** Whether heads[1..n] is a tree rooted at 0. */
function isTree(heads: ArrayLike<number>, n: number): boolean {
  for (let m = 1; m <= n; m++) {
    let x = m;
    for (let steps = 0; x !== 0; steps++) {
      const h = heads[x]!;
      if (h < 0 || h > n || h === x || steps > n) return false;
      x = h;
    }
  }
  return true;
}

/** Whether a tree is projective: every token strictly inside an arc descends from its head. */
function isProjective(heads: ArrayLike<number>, n: number): boolean {
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    const lo = Math.min(h, m);
    const hi = Math.max(h, m);
    for (let k = lo + 1; k < hi; k++) {
      let x = k;
      while (x !== h && x !== 0) x = heads[x]!;
      if (x !== h) return false;
    }
  }
  return true;
}

/** Every projective tree of n tokens using only allowed arcs (with one root child when singleRoot). */
function allTrees(mask: ArcMask, singleRoot: boolean): Int32Array[] {
  return Array.from(enumerateTrees(mask.n, { mask, singleRoot, projective: true }));
}

/** A random mask keeping each arc with probability p. */
function randomMask(rng: Rng, n: number, p: number): ArcMask {
  const mask = ArcMask.full(n);
  for (let h = 0; h <= n; h++) for (let m = 1; m <= n; m++) if (h !== m && rng.next() >= p) mask.remove(h, m);
  return mask;
}

const close = (a: number, b: number): boolean =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function allowsTree(mask: ArcMask, heads: Int32Array): boolean {
  for (let m = 1; m <= mask.n; m++) if (!mask.allows(heads[m]!, m)) return false;
  return true;
}

test("siblingParts and grandSiblingParts follow the factorization", () => {
  // 0 → 3; 3 → 1, 2, 5; 5 → 4, 6: left children of 3 are 2 (closest) then 1.
  const heads = Int32Array.from([-1, 3, 3, 0, 5, 3, 5]);
  assert.deepEqual(Array.from(siblingParts(heads)), [3, 2, 1, 3, 3, 2, 0, 0, 3, 5, 5, 4, 3, 3, 5, 5, 5, 6]);
  const g = grandSiblingParts(heads);
  assert.deepEqual(Array.from(g.subarray(0, 4)), [0, 3, 2, 1]);
  assert.deepEqual(Array.from(g.subarray(8, 12)), [-1, 0, 0, 3]);
  assert.deepEqual(Array.from(g.subarray(20, 24)), [3, 5, 5, 6]);
});

for (const singleRoot of [true, false]) {
  test(`DPs equal brute force over all projective trees (singleRoot=${singleRoot})`, () => {
    const rng = new Rng(singleRoot ? 17 : 23);
    const second = new SecondOrderDecoder();
    const third = new ThirdOrderDecoder();
    // The same decoders asking for every allowed sibling part before the DP (lazyParts off).
    const secondAll = new SecondOrderDecoder();
    secondAll.lazyParts = false;
    const thirdAll = new ThirdOrderDecoder();
    thirdAll.lazyParts = false;
    let unread = 0;
    const feas = new ProjectiveFeasibility();
    let fallbacks = 0;
    let cases = 0;
    for (let n = 1; n <= 7; n++) {
      const trials = n <= 4 ? 40 : n <= 6 ? 12 : 3;
      for (let t = 0; t < trials; t++) {
        for (const p of [1, 0.7, 0.4, 0.2]) {
          const mask = p === 1 ? ArcMask.full(n) : randomMask(rng, n, p);
          const scorer = new HashScorer(rng.int(1 << 30));
          let trees = allTrees(mask, singleRoot);
          const feasible = trees.length > 0;
          assert.equal(feas.admits(mask, singleRoot), feasible, "feasibility check agrees with enumeration");
          const used = feasible ? mask : withAdjacentArcs(mask);
          if (!feasible) trees = allTrees(used, singleRoot);
          let best2 = Number.NEGATIVE_INFINITY;
          let best3 = Number.NEGATIVE_INFINITY;
          for (const tr of trees) {
            best2 = Math.max(best2, scoreSiblingTree(tr, scorer));
            best3 = Math.max(best3, scoreGrandSiblingTree(tr, scorer));
          }
          const ctx = `n=${n} p=${p} t=${t}`;
          const s2 = new StrictScorer(scorer, used);
          const r2 = second.decode(mask, s2, { singleRoot });
          assert.equal(r2.fallback, !feasible, ctx);
          assert.ok(close(r2.score, best2), `${ctx}: 2nd ${r2.score} vs brute ${best2}`);
          assert.equal(r2.partsScored, s2.calls, ctx);
          const s3 = new StrictScorer(scorer, used);
          const r3 = third.decode(mask, s3, { singleRoot });
          assert.equal(r3.fallback, !feasible, ctx);
          assert.ok(close(r3.score, best3), `${ctx}: 3rd ${r3.score} vs brute ${best3}`);
          assert.equal(r3.partsScored, s3.calls, ctx);
          for (const [lazy, all] of [
            [r2, secondAll.decode(mask, new StrictScorer(scorer, used), { singleRoot })],
            [r3, thirdAll.decode(mask, new StrictScorer(scorer, used), { singleRoot })],
          ] as const) {
            assert.deepEqual(
              Array.from(all.heads),
              Array.from(lazy.heads),
              `${ctx}: lazyParts changes the tree`,
            );
            assert.equal(all.score, lazy.score, ctx);
            assert.ok(all.partsScored >= lazy.partsScored, ctx);
            unread += all.partsScored - lazy.partsScored;
          }
          for (const [r, score] of [
            [r2, scoreSiblingTree(r2.heads, scorer)],
            [r3, scoreGrandSiblingTree(r3.heads, scorer)],
          ] as const) {
            assert.equal(r.heads[0], -1);
            assert.ok(isTree(r.heads, n) && isProjective(r.heads, n), `${ctx}: not a projective tree`);
            assert.ok(allowsTree(used, r.heads), `${ctx}: uses a pruned arc`);
            if (singleRoot) assert.equal(r.heads.filter((h, i) => i > 0 && h === 0).length, 1, ctx);
            assert.ok(close(score, r.score), `${ctx}: recomputed ${score} vs reported ${r.score}`);
          }
          if (!feasible) fallbacks++;
          cases++;
        }
      }
    }
    assert.ok(fallbacks > 10, `only ${fallbacks} fallback cases of ${cases}`);
    assert.ok(unread > 0, "lazy decoders never left an allowed part unread");
  });
}

/** The keys of every part of a tree: arcs, sibling, grandparent and grand-sibling parts. */
function partKeys(heads: Int32Array): string[] {
  const keys: string[] = [];
  const p = grandSiblingParts(heads);
  for (let i = 0; i < p.length; i += 4) {
    const [g, h, s, m] = [p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!];
    keys.push(`a${h},${m}`, `s${h},${s},${m}`, `g${g},${h},${m}`, `G${g},${h},${s},${m}`);
  }
  return keys;
}

/**
 * Hashed part scores, but 0 for the parts in `fixed` (those every tree under the mask holds), and
 * with `skipForced` set: a decoder that leaves only such parts unasked reports each tree's true score.
 */
class FixedZeroScorer extends HashScorer {
  readonly skipForced = true;
  constructor(
    seed: number,
    readonly fixed: Set<string>,
  ) {
    super(seed);
  }
  override arc(h: number, m: number): number {
    return this.fixed.has(`a${h},${m}`) ? 0 : super.arc(h, m);
  }
  override sib(h: number, s: number, m: number): number {
    return this.fixed.has(`s${h},${s},${m}`) ? 0 : super.sib(h, s, m);
  }
  override grand(g: number, h: number, m: number): number {
    return this.fixed.has(`g${g},${h},${m}`) ? 0 : super.grand(g, h, m);
  }
  override gsib(g: number, h: number, s: number, m: number): number {
    return this.fixed.has(`G${g},${h},${s},${m}`) ? 0 : super.gsib(g, h, s, m);
  }
}

test("skipForced: decoders leave only parts every tree holds unasked, and find the brute-force best tree", () => {
  const rng = new Rng(41);
  const second = new SecondOrderDecoder();
  const third = new ThirdOrderDecoder();
  let cases = 0;
  let skipped2 = 0;
  let skipped3 = 0;
  for (let n = 2; n <= 7; n++) {
    for (let t = 0; t < (n <= 5 ? 150 : 80); t++) {
      // Half the modifiers keep a single random head of those allowed: their arcs are forced.
      const mask = randomMask(rng, n, 0.75);
      for (let m = 1; m <= n; m++) {
        if (rng.next() < 0.5) continue;
        const heads = [];
        for (let h = 0; h <= n; h++) if (mask.allows(h, m)) heads.push(h);
        if (heads.length < 2) continue;
        const keep = heads[rng.int(heads.length)]!;
        for (const h of heads) if (h !== keep) mask.remove(h, m);
      }
      const trees = allTrees(mask, true);
      if (trees.length === 0) continue;
      // The parts common to every tree, found by enumeration: the only ones a decoder may skip.
      let fixed = new Set(partKeys(trees[0]!));
      for (const tr of trees) {
        const keys = new Set(partKeys(tr));
        fixed = new Set([...fixed].filter((k) => keys.has(k)));
      }
      const scorer = new FixedZeroScorer(rng.int(1 << 30), fixed);
      let best2 = Number.NEGATIVE_INFINITY;
      let best3 = Number.NEGATIVE_INFINITY;
      for (const tr of trees) {
        best2 = Math.max(best2, scoreSiblingTree(tr, scorer));
        best3 = Math.max(best3, scoreGrandSiblingTree(tr, scorer));
      }
      const ctx = `n=${n} t=${t}`;
      const all2 = second.decode(mask, new StrictScorer(scorer, mask));
      const r2 = second.decode(mask, scorer);
      assert.ok(close(r2.score, best2), `${ctx}: 2nd order ${r2.score} against ${best2}`);
      assert.ok(close(scoreSiblingTree(r2.heads, scorer), best2), `${ctx}: 2nd order tree`);
      const all3 = third.decode(mask, new StrictScorer(scorer, mask));
      const r3 = third.decode(mask, scorer);
      assert.ok(close(r3.score, best3), `${ctx}: 3rd order ${r3.score} against ${best3}`);
      assert.ok(close(scoreGrandSiblingTree(r3.heads, scorer), best3), `${ctx}: 3rd order tree`);
      skipped2 += all2.partsScored - r2.partsScored;
      skipped3 += all3.partsScored - r3.partsScored;
      cases++;
    }
  }
  assert.ok(cases > 100, `${cases} cases`);
  assert.ok(skipped2 > 200 && skipped3 > 200, `parts left unasked: ${skipped2}, ${skipped3}`);
});

test("a mask admitting only a non-projective tree falls back without scoring pruned parts", () => {
  // Only tree: 0→2, 2→4, 4→1, 1→3 (arc 4→1 covers 2, which is not below 4).
  const mask = ArcMask.fromHeads([-1, 4, 0, 1, 2], 4);
  const scorer = new HashScorer(5);
  for (const order of [2, 3]) {
    const strict = new StrictScorer(scorer, withAdjacentArcs(mask));
    const r =
      order === 2
        ? new SecondOrderDecoder().decode(mask, strict)
        : new ThirdOrderDecoder().decode(mask, strict);
    assert.equal(r.fallback, true);
    assert.ok(isTree(r.heads, 4) && isProjective(r.heads, 4));
  }
  const empty = ArcMask.empty(6);
  const r = new ThirdOrderDecoder().decode(empty, new StrictScorer(scorer, withAdjacentArcs(empty)));
  assert.equal(r.fallback, true);
  assert.ok(isTree(r.heads, 6) && isProjective(r.heads, 6));
});

test("a one-tree mask returns that tree; heads can be written into a given array", () => {
  const gold = Int32Array.from([-1, 2, 0, 2, 5, 3]);
  const mask = ArcMask.fromHeads(gold, 5);
  const out = new Int32Array(6);
  const r = new SecondOrderDecoder().decode(mask, new HashScorer(9), { heads: out });
  assert.equal(r.heads, out);
  assert.deepEqual(Array.from(out), Array.from(gold));
  const r3 = new ThirdOrderDecoder().decode(mask, new HashScorer(9));
  assert.deepEqual(Array.from(r3.heads), Array.from(gold));
  assert.equal(r3.fallback, false);
});

test("decoders handle n = 0 and longer sentences after short ones", () => {
  const second = new SecondOrderDecoder();
  const third = new ThirdOrderDecoder();
  assert.deepEqual(Array.from(second.decode(ArcMask.full(0), new HashScorer(1)).heads), [-1]);
  assert.deepEqual(Array.from(third.decode(ArcMask.full(0), new HashScorer(1)).heads), [-1]);
  for (const n of [3, 30, 5, 40, 2]) {
    const sc = new HashScorer(n);
    const r2 = second.decode(ArcMask.full(n), sc);
    const r3 = third.decode(ArcMask.full(n), sc);
    for (const r of [r2, r3]) assert.ok(isTree(r.heads, n) && isProjective(r.heads, n));
    assert.ok(close(r2.score, scoreSiblingTree(r2.heads, sc)));
    assert.ok(close(r3.score, scoreGrandSiblingTree(r3.heads, sc)));
  }
});
