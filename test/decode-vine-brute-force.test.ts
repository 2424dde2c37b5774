import assert from "node:assert/strict";
import { test } from "node:test";
import { enumerateTrees } from "../src/decode/brute-force.js";
import { EisnerDecoder } from "../src/decode/eisner.js";
import { EisnerMaxMarginals } from "../src/decode/eisner-max-marginals.js";
import { isProjective, rootChildren } from "../src/decode/tree-predicates.js";
import { type VineMaxMarginals, VineParser } from "../src/decode/vine-parser.js";
import {
  isVineStructure,
  toVineStructure,
  VINE_LEFT,
  VINE_RIGHT,
  vineShortIndex,
  VineScores,
  vineStructureScore,
  vineTree,
} from "../src/decode/vine-structure.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import { Rng } from "../src/util/rng.js";
import {
  bruteVine,
  bruteVineHeadOuter,
  headOuterUsable,
  randomVineScores,
  vinePartIds,
  vineStructures,
} from "./vine-brute.js";

const EPS = 1e-9;
const NEG = Number.NEGATIVE_INFINITY;

/** A mask removing each arc with probability between 0.1 and 0.6. */
function randomMask(rng: Rng, n: number): ArcMask {
  const mask = ArcMask.full(n);
  const p = 0.1 + 0.5 * rng.next();
  for (let h = 0; h <= n; h++) for (let m = 1; m <= n; m++) if (h !== m && rng.next() < p) mask.remove(h, m);
  return mask;
}

/** Overwrites with NaN every score the parser must not read (pruned or standing for no allowed arc). */
function poisonUnusable(n: number, b: number, s: VineScores, mask: ArcMask | null): void {
  for (let m = 1; m <= n; m++) {
    for (let h = Math.max(1, m - b); h <= Math.min(n, m + b); h++)
      if (h !== m && mask !== null && !mask.allows(h, m)) s.short[vineShortIndex(b, h, m)] = Number.NaN;
    for (let slot = 0; slot < 2 * b; slot++) {
      const h = slot < b ? m - b + slot : m + slot - b + 1;
      if (h < 1 || h > n) s.short[m * 2 * b + slot] = Number.NaN;
    }
    if (mask !== null && !mask.allows(0, m)) s.root[m] = Number.NaN;
    let left = false;
    let right = false;
    for (let h = 1; h <= n; h++) {
      if (mask !== null && !mask.allows(h, m)) continue;
      if (h < m - b) left = true;
      if (h > m + b) right = true;
    }
    if (!left) s.outer[2 * m] = Number.NaN;
    if (!right) s.outer[2 * m + 1] = Number.NaN;
  }
}

/** The parser's max-marginal (or witness count) of part id p. */
function partValue(r: VineMaxMarginals, p: number, counts: boolean): number {
  const r0 = r.root.length === 0 ? 0 : (r.n + 1) * 2 * r.band;
  const o0 = r0 + r.n + 1;
  if (counts) {
    const w = r.witness!;
    return p < r0 ? w.short[p]! : p < o0 ? w.root[p - r0]! : w.outer[p - o0]!;
  }
  return p < r0 ? r.short[p]! : p < o0 ? r.root[p - r0]! : r.outer[p - o0]!;
}

function close(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) < EPS;
}

/**
 * Checks part p's max-marginal from the parser (g) and from its chart alone (f) against brute force
 * (w); returns whether w is finite.
 */
function checkPart(tag: string, p: number, g: number, f: number, w: number): boolean {
  if (w === NEG) {
    assert.equal(g, NEG, `${tag} part ${p}: ${g} vs -Inf`);
    assert.equal(f, NEG, `${tag} part ${p}: ${f} vs -Inf (chart)`);
    return false;
  }
  assert.ok(close(g, w), `${tag} part ${p}: ${g} vs ${w}`);
  assert.ok(close(f, w), `${tag} part ${p}: ${f} vs ${w} (chart)`);
  return true;
}

for (const singleRoot of [true, false]) {
  test(`vine max-marginals, best structure and witness counts equal brute force (singleRoot=${singleRoot})`, () => {
    const rng = new Rng(singleRoot ? 7 : 8);
    let checked = 0;
    let outerSeen = 0;
    for (let n = 1; n <= 7; n++) {
      for (const b of new Set([1, 2, 3, n])) {
        const parser = new VineParser({ band: b, singleRoot });
        const sc = new VineScores(b);
        const count = n <= 4 ? 10 : n === 5 ? 5 : n === 6 ? 2 : b === 1 ? 1 : 0;
        for (let t = 0; t < count; t++) {
          const ties = t % 4 === 3;
          randomVineScores(rng, n, b, ties, sc);
          const mask = t % 2 === 1 ? randomMask(rng, n) : null;
          poisonUnusable(n, b, sc, mask);
          const want = bruteVine(n, b, sc, mask, singleRoot);
          const got = parser.maxMarginals(n, sc, mask, { witness: true });
          const fast = parser.maxMarginals(n, sc, mask);
          const dec = parser.decode(n, sc, mask);
          const tag = `n=${n} b=${b} t=${t}`;
          if (want.best === NEG) {
            assert.equal(got.best, NEG, tag);
            assert.equal(dec.score, NEG, tag);
            assert.equal(got.parts, 0, tag);
          } else {
            assert.ok(close(got.best, want.best), `${tag}: best ${got.best} vs ${want.best}`);
            assert.ok(close(dec.score, want.best), tag);
            assert.ok(isVineStructure(dec.heads, n, b, singleRoot, mask), tag);
            assert.ok(close(vineStructureScore(dec.heads, n, b, sc), want.best), tag);
            assert.deepEqual([...got.heads], [...dec.heads], tag);
            assert.deepEqual([...fast.heads], [...dec.heads], tag);
          }
          assert.equal(fast.witness, null);
          assert.ok(close(fast.best, got.best), tag);
          assert.equal(fast.parts, got.parts, tag);
          let finite = 0;
          for (let p = 0; p < want.mm.length; p++) {
            const g = partValue(got, p, false);
            const f = partValue(fast, p, false);
            if (checkPart(tag, p, g, f, want.mm[p]!)) {
              finite++;
              if (p >= (n + 1) * (2 * b + 1)) outerSeen++;
            }
            if (!ties) assert.equal(partValue(got, p, true), want.count[p], `${tag} count of part ${p}`);
            checked++;
          }
          assert.equal(got.parts, finite, tag);
          // Every witness has n parts.
          let total = 0;
          for (let p = 0; p < want.mm.length; p++) total += partValue(got, p, true);
          assert.equal(total, finite * n, tag);
        }
      }
    }
    assert.ok(checked > 3000, `checked ${checked}`);
    assert.ok(outerSeen > 100, `outer arcs with finite max-marginal: ${outerSeen}`);
  });
}

test("every tree whose vine tree is projective maps into the vine structure set, with the right bounds", () => {
  const rng = new Rng(21);
  let images = 0;
  let structures = 0;
  let realized = 0;
  for (const singleRoot of [true, false]) {
    for (let n = 1; n <= 6; n++) {
      for (const b of [1, 2, 3]) {
        if (b >= n && b > 1) continue;
        const parser = new VineParser({ band: b, singleRoot });
        const sc = new VineScores(b);
        for (let t = 0; t < (n <= 4 ? 4 : 2); t++) {
          randomVineScores(rng, n, b, false, sc);
          const mask = t % 2 === 1 ? randomMask(rng, n) : null;
          poisonUnusable(n, b, sc, mask);
          const r = parser.maxMarginals(n, sc, mask);
          const seen = new Set<string>();
          let bestTree = NEG;
          for (const heads of enumerateTrees(n, { mask, singleRoot })) {
            const vh = toVineStructure(heads, n, b);
            if (!isProjective(vineTree(vh, n), n)) continue;
            assert.ok(isVineStructure(vh, n, b, singleRoot, mask), `n=${n} b=${b} ${[...heads]}`);
            const s = vineStructureScore(vh, n, b, sc);
            if (s > bestTree) bestTree = s;
            assert.ok(s <= r.best + EPS);
            for (const p of vinePartIds(vh, n, b)) {
              const v =
                p < (n + 1) * 2 * b
                  ? r.short[p]!
                  : p <= (n + 1) * (2 * b + 1)
                    ? r.root[p - (n + 1) * 2 * b]!
                    : r.outer[p - (n + 1) * (2 * b + 1)]!;
              assert.ok(v >= s - EPS);
            }
            seen.add(vh.join(","));
            images++;
          }
          assert.ok(bestTree <= r.best + EPS);
          if (mask === null) {
            const all = vineStructures(n, b, singleRoot, null);
            structures += all.length;
            for (const vh of all) if (seen.has(vh.join(","))) realized++;
          }
        }
      }
    }
  }
  assert.ok(images > 10000);
  // The relaxation is small: most structures are images of trees.
  assert.ok(realized / structures > 0.8, `${realized} of ${structures} structures are images of trees`);
  console.log(`unmasked vine structures that are images of trees: ${realized} of ${structures}`);
});

for (const singleRoot of [true, false]) {
  test(`with b ≥ n − 1 the vine parser is first-order projective parsing (singleRoot=${singleRoot})`, () => {
    const rng = new Rng(singleRoot ? 31 : 32);
    for (let n = 1; n <= 9; n++) {
      for (const b of [Math.max(1, n - 1), n, n + 3]) {
        const parser = new VineParser({ band: b, singleRoot });
        const eisner = new EisnerMaxMarginals({ singleRoot });
        const decoder = new EisnerDecoder({ singleRoot });
        const sc = new VineScores(b);
        for (let t = 0; t < 4; t++) {
          randomVineScores(rng, n, b, false, sc);
          const mask = t % 2 === 1 ? randomMask(rng, n) : null;
          const size = n + 1;
          const dense = new Float64Array(size * size);
          for (let m = 1; m <= n; m++) {
            dense[m] = sc.root[m]!;
            for (let h = 1; h <= n; h++)
              if (h !== m) dense[h * size + m] = sc.short[vineShortIndex(b, h, m)]!;
          }
          const r = parser.maxMarginals(n, sc, mask, { witness: true });
          const e = eisner.compute(n, dense, mask);
          if (e.best === NEG) {
            assert.equal(r.best, NEG);
            continue;
          }
          assert.ok(close(r.best, e.best), `n=${n} b=${b}: ${r.best} vs ${e.best}`);
          const d = decoder.decode(n, dense, mask);
          assert.deepEqual([...r.heads], [...d.heads]);
          for (let m = 1; m <= n; m++) {
            assert.ok(close(r.root[m]!, e.marginals[m]!));
            assert.equal(r.outer[2 * m], NEG);
            assert.equal(r.outer[2 * m + 1], NEG);
            for (let h = 1; h <= n; h++)
              if (h !== m) assert.ok(close(r.short[vineShortIndex(b, h, m)]!, e.marginals[h * size + m]!));
          }
        }
      }
    }
  });
}

test("vine structures of trees: long arcs become outer arcs on their side, the root arc stays", () => {
  // 0→3, 3→1, 1→2, 3→6, 6→4, 4→5, 3→7, with b = 2: 0→3 root, 3→1 short, 1→2 short, 3→6 long right
  // of 6 seen from 6 its head is to the left: left outer arc; 6→4 short, 4→5 short, 3→7 long.
  const heads = Int32Array.from([-1, 3, 1, 0, 6, 4, 3, 3]);
  const vh = toVineStructure(heads, 7, 2);
  assert.deepEqual([...vh], [-1, 3, 1, 0, 6, 4, VINE_LEFT, VINE_LEFT]);
  assert.ok(isVineStructure(vh, 7, 2, true));
  assert.equal(rootChildren(vineTree(vh, 7)), 3);
  // A right outer arc: 1's head 5 with b = 2.
  assert.deepEqual(
    [...toVineStructure(Int32Array.from([-1, 5, 1, 2, 0, 4]), 5, 2)],
    [-1, VINE_RIGHT, 1, 2, 0, 4],
  );
  // The first fragment cannot hang from a left outer arc, the last one not from a right outer arc.
  assert.ok(isVineStructure(Int32Array.from([-1, 2, 3, 0, VINE_LEFT, 4]), 5, 1, true));
  assert.ok(!isVineStructure(Int32Array.from([-1, 2, 3, VINE_LEFT, 0]), 4, 1, true));
  assert.ok(!isVineStructure(Int32Array.from([-1, 0, VINE_RIGHT, 2, 3]), 4, 1, true));
  // Outer arcs must stand for at least one long arc.
  assert.ok(!isVineStructure(Int32Array.from([-1, 0, VINE_LEFT]), 2, 1, true));
  // The relaxation: 1 and 3 can only take each other as long heads (a cycle), yet the structure is in
  // the set, as no linear-time dynamic program can rule it out in general.
  assert.ok(isVineStructure(Int32Array.from([-1, VINE_RIGHT, 0, VINE_LEFT]), 3, 1, true));
});

test("chart and hypergraph paths agree on longer sentences; buffers are reused across lengths", () => {
  const rng = new Rng(41);
  for (const singleRoot of [true, false]) {
    for (const b of [1, 4, 7]) {
      const parser = new VineParser({ band: b, singleRoot });
      const sc = new VineScores(b);
      for (const n of [60, 9, 90, 30]) {
        randomVineScores(rng, n, b, false, sc);
        const mask = n === 30 ? null : randomMask(rng, n);
        const fast = parser.maxMarginals(n, sc, mask);
        const copy = {
          best: fast.best,
          short: fast.short.slice(),
          root: fast.root.slice(),
          outer: fast.outer.slice(),
        };
        const heads = fast.heads;
        const slow = parser.maxMarginals(n, sc, mask, { witness: true });
        const dec = parser.decode(n, sc, mask);
        if (slow.best === NEG) {
          assert.equal(copy.best, NEG);
          continue;
        }
        assert.ok(Math.abs(copy.best - slow.best) < 1e-8);
        assert.ok(Math.abs(dec.score - slow.best) < 1e-8);
        assert.deepEqual([...heads], [...slow.heads]);
        assert.ok(isVineStructure(dec.heads, n, b, singleRoot, mask));
        const pairs: [Float64Array, Float64Array][] = [
          [copy.short, slow.short],
          [copy.root, slow.root],
          [copy.outer, slow.outer],
        ];
        for (const [x, y] of pairs) {
          assert.equal(x.length, y.length);
          for (let i = 0; i < x.length; i++) assert.ok(x[i] === y[i] || Math.abs(x[i]! - y[i]!) < 1e-8);
        }
        // Every part's max-marginal is at most the best score; the best structure's parts reach it.
        for (let m = 1; m <= n; m++) {
          const h = dec.heads[m]!;
          const v =
            h === 0
              ? slow.root[m]!
              : h === VINE_LEFT
                ? slow.outer[2 * m]!
                : h === VINE_RIGHT
                  ? slow.outer[2 * m + 1]!
                  : slow.short[vineShortIndex(b, h, m)]!;
          assert.ok(Math.abs(v - slow.best) < 1e-8);
        }
        let total = 0;
        for (const c of [slow.witness!.short, slow.witness!.root, slow.witness!.outer])
          for (const x of c) total += x;
        assert.equal(total, slow.parts * n);
      }
    }
  }
});

test("with head-side outer arcs, max-marginals, best structure and witness counts equal brute force", () => {
  const rng = new Rng(41);
  let checked = 0;
  let headSeen = 0;
  let pruned = 0;
  for (const singleRoot of [true, false]) {
    for (let n = 1; n <= 6; n++) {
      for (const b of new Set([1, 2, n])) {
        const parser = new VineParser({ band: b, singleRoot, headOuter: true });
        const sc = new VineScores(b);
        const count = n <= 4 ? 16 : n === 5 ? 6 : b === 1 ? 2 : 0;
        for (let t = 0; t < count; t++) {
          const ties = t % 4 === 3;
          randomVineScores(rng, n, b, ties, sc);
          for (let i = 0; i < 2 * (n + 1); i++) sc.headOuter[i] = ties ? rng.int(3) - 1 : rng.next() * 8 - 4;
          const mask = t % 2 === 1 ? randomMask(rng, n) : null;
          poisonUnusable(n, b, sc, mask);
          for (let h = 1; h <= n; h++)
            for (let side = 0; side < 2; side++)
              if (!headOuterUsable(n, b, h, side, mask)) sc.headOuter[2 * h + side] = Number.NaN;
          const want = bruteVineHeadOuter(n, b, sc, mask, singleRoot);
          const got = parser.maxMarginals(n, sc, mask, { witness: true });
          // The head-side arrays are views of buffers the next call reuses.
          const gotHead = got.headOuter.slice();
          const gotHeadCount = got.witness!.headOuter.slice();
          const fast = parser.maxMarginals(n, sc, mask);
          const dec = parser.decode(n, sc, mask);
          const tag = `n=${n} b=${b} t=${t} singleRoot=${singleRoot}`;
          assert.ok(got.headSide && fast.headSide);
          if (want.best === NEG) {
            assert.equal(got.best, NEG, tag);
            assert.equal(dec.score, NEG, tag);
            continue;
          }
          assert.ok(close(got.best, want.best), `${tag}: best ${got.best} vs ${want.best}`);
          assert.ok(close(fast.best, want.best), tag);
          assert.ok(close(dec.score, want.best), tag);
          assert.ok(isVineStructure(dec.heads, n, b, singleRoot, mask), tag);
          assert.deepEqual([...got.heads], [...dec.heads], tag);
          // The best structure's score: its parts, each outer arc with its best partner.
          let score = vineStructureScore(dec.heads, n, b, sc);
          for (let m = 1; m <= n; m++) {
            const v = dec.heads[m]!;
            if (v !== VINE_LEFT && v !== VINE_RIGHT) continue;
            const side = v === VINE_LEFT ? 0 : 1;
            const h = fast.outerHead[2 * m + side]!;
            assert.ok(
              h >= 1 && (side === 0 ? h < m - b : h > m + b) && (mask === null || mask.allows(h, m)),
              tag,
            );
            score += sc.headOuter[2 * h + 1 - side]!;
          }
          assert.ok(close(score, want.best), `${tag}: best structure scores ${score}`);
          const h0 = (n + 1) * (2 * b + 3);
          let finite = 0;
          let sum = 0;
          for (let p = 0; p < want.mm.length; p++) {
            const isHead = p >= h0;
            const g = isHead ? gotHead[p - h0]! : partValue(got, p, false);
            const f = isHead ? fast.headOuter[p - h0]! : partValue(fast, p, false);
            const w = want.mm[p]!;
            if (checkPart(tag, p, g, f, w)) {
              finite++;
              sum += w;
              if (isHead) {
                headSeen++;
                if (w < got.best - EPS) pruned++;
              }
            }
            const c = isHead ? gotHeadCount[p - h0]! : partValue(got, p, true);
            if (!ties) assert.equal(c, want.count[p], `${tag} count of part ${p}`);
            checked++;
          }
          assert.equal(got.parts, finite, tag);
          assert.equal(fast.parts, finite, tag);
          assert.ok(close(got.mean, sum / finite), tag);
        }
      }
    }
  }
  assert.ok(checked > 2000, `checked ${checked}`);
  assert.ok(headSeen > 200, `head-side outer arcs with finite max-marginal: ${headSeen}`);
  assert.ok(pruned > 50, `head-side outer arcs below the best: ${pruned}`);
});
