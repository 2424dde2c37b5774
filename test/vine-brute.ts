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

/** Whether head h may take its head-side outer arc on `side` (some allowed long arc out of h there). */
export function headOuterUsable(
  n: number,
  b: number,
  h: number,
  side: number,
  mask: ArcMask | null,
): boolean {
  const lo = side === 0 ? 1 : h + b + 1;
  const hi = side === 0 ? h - b - 1 : n;
  for (let m = lo; m <= hi; m++) if (mask === null || mask.allows(h, m)) return true;
  return false;
}

/**
 * Max-marginals and witness counts of the vine structure set with head-side outer arcs, by
 * enumeration: every structure of `vineStructures`, with every choice of a partner for each of its
 * outer arcs (a head h beyond the band on that side with h→m allowed, whose head-side outer arc
 * pointing at m the structure then holds, once per outer arc that takes it). Part ids: the vine
 * parser's, then (n + 1)(2b + 3) + 2h + side for the head-side outer arcs; witness counts count a part
 * as often as the witness holds it.
 */
export function bruteVineHeadOuter(
  n: number,
  b: number,
  scores: VineScores,
  mask: ArcMask | null,
  singleRoot: boolean,
): BruteVine {
  const h0 = (n + 1) * (2 * b + 3);
  const parts = h0 + 2 * (n + 1);
  const mm = new Float64Array(parts).fill(NEG);
  const arg: number[][] = new Array<number[]>(parts);
  let best = NEG;
  const structs = vineStructures(n, b, singleRoot, mask);
  for (const vh of structs) {
    const base = vineStructureScore(vh, n, b, scores);
    if (!(base > NEG)) continue;
    const chartIds = vinePartIds(vh, n, b);
    // Partner choices of each outer arc.
    const choices: number[][] = [];
    for (let m = 1; m <= n; m++) {
      const v = vh[m]!;
      if (v !== VINE_LEFT && v !== VINE_RIGHT) continue;
      const list: number[] = [];
      for (let h = 1; h <= n; h++) {
        const far = v === VINE_LEFT ? h < m - b : h > m + b;
        if (far && (mask === null || mask.allows(h, m))) list.push(2 * h + (v === VINE_LEFT ? 1 : 0));
      }
      choices.push(list);
    }
    const pick = new Array<number>(choices.length).fill(0);
    for (;;) {
      let s = base;
      // A head-side outer arc taken by two outer arcs counts twice (in the score and the features).
      const idList = chartIds.slice();
      choices.forEach((list, i) => {
        const f = list[pick[i]!]!;
        s += scores.headOuter[f]!;
        idList.push(h0 + f);
      });
      if (s > best) best = s;
      for (const p of new Set(idList)) {
        if (s > mm[p]!) {
          mm[p] = s;
          arg[p] = idList;
        }
      }
      let i = 0;
      while (i < choices.length && ++pick[i]! === choices[i]!.length) pick[i++] = 0;
      if (i === choices.length) break;
    }
  }
  const count = new Int32Array(parts);
  for (let p = 0; p < parts; p++) if (mm[p]! > NEG) for (const q of arg[p]!) count[q]!++;
  return { best, mm, count, structures: structs.length };
}
