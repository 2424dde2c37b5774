import { enumerateTrees } from "../src/decode/brute-force.js";
import {
  isVineStructure,
  VINE_LEFT,
  VINE_RIGHT,
  vineShortIndex,
  type VineScores,
  vineStructureScore,
} from "../src/decode/vine-structure.js";
import type { ArcMask } from "../src/mask/arc-mask.js";
import type { Rng } from "../src/util/rng.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Brute-force results over an explicit list of structures, in the vine parser's part-id space. */
export interface BruteVine {
  /** Best structure score (-Infinity when none). */
  best: number;
  /** Max-marginal per part id (short, then root, then outer, as in `VineParser`). */
  mm: Float64Array;
  /** Witness counts per part id (meaningful when all structure scores are distinct). */
  count: Int32Array;
  /** Number of structures. */
  structures: number;
}

const projectiveCache = new Map<number, Int32Array[]>();

/** Every projective tree over n tokens (any number of root children), cached per n. */
export function projectiveTrees(n: number): Int32Array[] {
  let list = projectiveCache.get(n);
  if (list === undefined) {
    list = [...enumerateTrees(n, { projective: true })];
    projectiveCache.set(n, list);
  }
  return list;
}

/** Part ids of a vine structure, in the vine parser's layout. */
export function vinePartIds(vh: ArrayLike<number>, n: number, b: number): number[] {
  const r0 = (n + 1) * 2 * b;
  const o0 = r0 + n + 1;
  const ids: number[] = [];
  for (let m = 1; m <= n; m++) {
    const h = vh[m]!;
    if (h === 0) ids.push(r0 + m);
    else if (h === VINE_LEFT) ids.push(o0 + 2 * m);
    else if (h === VINE_RIGHT) ids.push(o0 + 2 * m + 1);
    else ids.push(vineShortIndex(b, h, m));
  }
  return ids;
}

/**
 * Every structure of the vine structure set, straight from its definition: each projective tree over
 * 0..n is a candidate vine tree, each root child labelled root, left outer or right outer in every
 * combination, kept when `isVineStructure` accepts it.
 */
export function vineStructures(
  n: number,
  b: number,
  singleRoot: boolean,
  mask: ArcMask | null,
): Int32Array[] {
  const out: Int32Array[] = [];
  for (const g of projectiveTrees(n)) {
    const kids: number[] = [];
    for (let m = 1; m <= n; m++) if (g[m] === 0) kids.push(m);
    const labels = [0, VINE_LEFT, VINE_RIGHT];
    const total = 3 ** kids.length;
    for (let code = 0; code < total; code++) {
      const vh = g.slice();
      let c = code;
      for (const m of kids) {
        vh[m] = labels[c % 3]!;
        c = Math.floor(c / 3);
      }
      if (isVineStructure(vh, n, b, singleRoot, mask)) out.push(vh);
    }
  }
  return out;
}

/** Max-marginals and witness counts of the vine structure set by enumeration. */
export function bruteVine(
  n: number,
  b: number,
  scores: VineScores,
  mask: ArcMask | null,
  singleRoot: boolean,
): BruteVine {
  const parts = (n + 1) * (2 * b + 3);
  const mm = new Float64Array(parts).fill(NEG);
  const arg: number[][] = new Array<number[]>(parts);
  let best = NEG;
  const structs = vineStructures(n, b, singleRoot, mask);
  for (const vh of structs) {
    const s = vineStructureScore(vh, n, b, scores);
    if (!(s > NEG)) continue;
    const ids = vinePartIds(vh, n, b);
    if (s > best) best = s;
    for (const p of ids) {
      if (s > mm[p]!) {
        mm[p] = s;
        arg[p] = ids;
      }
    }
  }
  const count = new Int32Array(parts);
  for (let p = 0; p < parts; p++) if (mm[p]! > NEG) for (const q of arg[p]!) count[q]!++;
  return { best, mm, count, structures: structs.length };
}

/** Random vine scores; with `ties`, small integers so that ties are common. */
export function randomVineScores(rng: Rng, n: number, b: number, ties: boolean, out: VineScores): VineScores {
  out.ensure(n);
  const draw = (): number => (ties ? rng.int(3) : rng.next() * 10 - 5);
  for (let i = 0; i < (n + 1) * 2 * b; i++) out.short[i] = draw();
  for (let i = 0; i <= n; i++) out.root[i] = draw();
  for (let i = 0; i < 2 * (n + 1); i++) out.outer[i] = draw();
  return out;
}
