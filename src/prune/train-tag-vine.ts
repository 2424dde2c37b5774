import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { IndexHeap } from "../util/index-heap.js";
import type { PruningCascade } from "./cascade.js";
import { HEAD_LEFT, HEAD_RIGHT, TagArcCounts, tripleIndex } from "./tag-arc-counts.js";
import { type TagColumn, TagMap } from "./tag-map.js";
import { type TagVineInfo, TagVinePruner } from "./tag-vine.js";

/** Default training coverage at which the greedy lowering of Tag-Vine limits stops (%). */
export const DEFAULT_TAGVINE_COVERAGE = 99.5;

/** One greedy step: a triple's limit lowered to the next shorter gold length (0: every arc removed). */
export interface TagVineStep {
  /** The triple (`tripleIndex(dir, head, mod, tags)`). */
  triple: number;
  /** Limit before the step. */
  from: number;
  /** Limit after the step. */
  to: number;
  /** Training gold arcs the step loses (those of length `from`). */
  lost: number;
  /** Training candidate arcs the step removes (lengths to+1..from). */
  gain: number;
}

/** Coverage and reduction (%) of a corpus at one point of the greedy path. */
export interface TagVinePoint {
  /** Steps taken. */
  steps: number;
  /** % of all gold arcs kept (earlier passes included). */
  coverage: number;
  /** % of all possible arcs removed (earlier passes included). */
  reduction: number;
}

/**
 * The whole greedy path of Eisner & Smith's (2005) Tag-Vine training as Bergsma & Cherry (2010, §3.1)
 * describe it. Every [direction, head tag, modifier tag] triple starts at the longest gold arc training
 * has for it (0 for a triple never linked in training: a structural zero, which loses no training arc);
 * then, one step at a time, the triple whose lowering to its next shorter gold length loses the fewest
 * training gold arcs is lowered (ties: the step removing most candidate arcs, then the lower triple
 * index). A priority queue holds one entry per triple and each triple's pointer only moves down, so the
 * whole path costs O(triples · longest arc + steps · log triples). Triples with a tag training never had
 * (the unknown id) keep the per-direction `fallback` limits: the longest gold arc in that direction.
 */
export class TagVinePath {
  /** Dense tag ids the counts use. */
  readonly tags: number;
  /** Limits before any step (`tripleIndex` layout). */
  readonly initial: Uint16Array;
  /** The steps, in greedy order, until every triple is at 0. */
  readonly steps: TagVineStep[] = [];
  /** Per-direction limits of triples with an unseen tag: [head left, head right]. */
  readonly fallback: [number, number];
  /** Training coverage and reduction before any step and after each (length steps + 1). */
  readonly train: TagVinePoint[];

  constructor(counts: TagArcCounts, unknown: number) {
    const S = counts.tags;
    const L1 = counts.maxLength + 1;
    const triples = 2 * S * S;
    this.tags = S;
    this.initial = new Uint16Array(triples);
    const fallback: [number, number] = [0, 0];
    const limit = new Int32Array(triples);
    const lost = new Int32Array(triples);
    const gain = new Float64Array(triples);
    const g = counts.gold;
    const a = counts.all;
    for (let t = 0; t < triples; t++) {
      let top = 0;
      for (let len = counts.maxLength; len >= 1; len--)
        if (g[t * L1 + len]! > 0) {
          top = len;
          break;
        }
      limit[t] = top;
      this.initial[t] = top;
      const dir = t < S * S ? HEAD_LEFT : HEAD_RIGHT;
      if (top > fallback[dir]) fallback[dir] = top;
    }
    for (const dir of [HEAD_LEFT, HEAD_RIGHT])
      for (let x = 0; x < S; x++) {
        this.initial[tripleIndex(dir, unknown, x, S)] = fallback[dir];
        this.initial[tripleIndex(dir, x, unknown, S)] = fallback[dir];
      }
    this.fallback = fallback;

    // Training state before any step: arcs longer than each triple's start are already removed.
    let goldKept = 0;
    let kept = 0;
    for (let i = 0; i < counts.rootGold.length; i++) {
      goldKept += counts.rootGold[i]!;
      kept += counts.rootAll[i]!;
    }
    for (let t = 0; t < triples; t++)
      for (let len = 1; len <= limit[t]!; len++) {
        goldKept += g[t * L1 + len]!;
        kept += a[t * L1 + len]!;
      }
    const point = (steps: number): TagVinePoint => ({
      steps,
      coverage: counts.tokens === 0 ? 100 : (100 * goldKept) / counts.tokens,
      reduction: counts.arcs === 0 ? 0 : 100 * (1 - kept / counts.arcs),
    });
    this.train = [point(0)];

    // next[t]: the limit the triple's next step lowers it to; lost/gain of that step.
    const next = new Int32Array(triples);
    const plan = (t: number): void => {
      const from = limit[t]!;
      let to = from - 1;
      let gn = a[t * L1 + from]!;
      while (to > 0 && g[t * L1 + to]! === 0) {
        gn += a[t * L1 + to]!;
        to--;
      }
      next[t] = to;
      lost[t] = g[t * L1 + from]!;
      gain[t] = gn;
    };
    const heap = new IndexHeap(
      (x, y) =>
        lost[x]! < lost[y]! ||
        (lost[x] === lost[y] && (gain[x]! > gain[y]! || (gain[x] === gain[y] && x < y))),
      triples,
    );
    for (let t = 0; t < triples; t++)
      if (limit[t]! > 0) {
        plan(t);
        heap.push(t);
      }
    while (heap.size > 0) {
      const t = heap.pop();
      const from = limit[t]!;
      const to = next[t]!;
      this.steps.push({ triple: t, from, to, lost: lost[t]!, gain: gain[t]! });
      goldKept -= lost[t]!;
      kept -= gain[t]!;
      this.train.push(point(this.steps.length));
      limit[t] = to;
      if (to > 0) {
        plan(t);
        heap.push(t);
      }
    }
  }

  /** Steps to take for a training coverage ≥ `coverage` and/or until a training reduction ≥ `reduction`. */
  stepsFor(stop: { coverage?: number; reduction?: number }): number {
    let k = 0;
    while (k < this.steps.length) {
      if (stop.reduction !== undefined && this.train[k]!.reduction >= stop.reduction - 1e-9) break;
      if (stop.coverage !== undefined && this.train[k + 1]!.coverage < stop.coverage - 1e-9) break;
      k++;
    }
    return k;
  }

  /** The limits after the first `k` steps (`tripleIndex` layout). */
  limitsAfter(k: number): Uint16Array {
    const out = this.initial.slice();
    for (let i = 0; i < k && i < this.steps.length; i++) out[this.steps[i]!.triple] = this.steps[i]!.to;
    return out;
  }

  /**
   * Coverage and reduction of another corpus (counted with the same tag ids, e.g. dev) before any step
   * and after each: one point per step, computed from the counts in O(triples · longest arc + steps).
   */
  curveOn(counts: TagArcCounts): TagVinePoint[] {
    const S = this.tags;
    if (counts.tags !== S) throw new RangeError("TagVinePath.curveOn: counts use other tag ids");
    const L1 = counts.maxLength + 1;
    const triples = 2 * S * S;
    // Cumulative counts per triple over length: cum[t * L1 + len] = arcs of length ≤ len.
    const cg = new Float64Array(triples * L1);
    const ca = new Float64Array(triples * L1);
    for (let t = 0; t < triples; t++)
      for (let len = 1; len < L1; len++) {
        cg[t * L1 + len] = cg[t * L1 + len - 1]! + counts.gold[t * L1 + len]!;
        ca[t * L1 + len] = ca[t * L1 + len - 1]! + counts.all[t * L1 + len]!;
      }
    const at = (t: number, limit: number) => t * L1 + Math.min(limit, L1 - 1);
    let goldKept = 0;
    let kept = 0;
    for (let i = 0; i < counts.rootGold.length; i++) {
      goldKept += counts.rootGold[i]!;
      kept += counts.rootAll[i]!;
    }
    for (let t = 0; t < triples; t++) {
      goldKept += cg[at(t, this.initial[t]!)]!;
      kept += ca[at(t, this.initial[t]!)]!;
    }
    const point = (steps: number): TagVinePoint => ({
      steps,
      coverage: counts.tokens === 0 ? 100 : (100 * goldKept) / counts.tokens,
      reduction: counts.arcs === 0 ? 0 : 100 * (1 - kept / counts.arcs),
    });
    const out = [point(0)];
    for (const s of this.steps) {
      goldKept -= cg[at(s.triple, s.from)]! - cg[at(s.triple, s.to)]!;
      kept -= ca[at(s.triple, s.from)]! - ca[at(s.triple, s.to)]!;
      out.push(point(out.length));
    }
    return out;
  }
}

/** Options of `trainTagVine`. */
export interface TagVineOptions {
  /** Stop before the training coverage (earlier passes included) would fall below this (%; default 99.5). */
  coverage?: number;
  /** Or stop once the training reduction reaches this (%); with both, whichever comes first. */
  reduction?: number;
  /** Development sentences: measured at the chosen point, and needed for `devCoverage`. */
  dev?: readonly Sentence[];
  /**
   * Or stop at the last step whose dev coverage (earlier passes included) is still ≥ this (%): the
   * most dev reduction at that coverage (no step when even the start falls short). Overrides the
   * training stops; with an automatic tag column, both columns are tried and the one removing more
   * dev arcs at that coverage wins (the higher dev coverage when neither reaches it).
   */
  devCoverage?: number;
  /** Tag column (default: XPOS when informative, else UPOS; see `devCoverage`). */
  column?: TagColumn;
  /** Passes before this one: the counts cover only the arcs they leave. */
  prefix?: PruningCascade;
}

/** A trained Tag-Vine pass with its greedy path (for curves on other data). */
export interface TagVineTraining {
  /** The pass. */
  pass: TagVinePruner;
  /** The whole greedy path on the training data. */
  path: TagVinePath;
  /** Steps the pass took. */
  steps: number;
  /** The tag ids the pass and the path use. */
  tagMap: TagMap;
  /** Dev coverage and reduction before any step and after each (empty without dev). */
  devCurve: TagVinePoint[];
}

/**
 * Trains a Tag-Vine pass: the greedy path on `train`, stopped at the target training coverage or
 * reduction, or at the target dev coverage.
 */
export function trainTagVine(
  train: readonly Sentence[],
  vocab: Vocabularies,
  opts: TagVineOptions = {},
): TagVineTraining {
  const useDev = opts.dev !== undefined && opts.dev.length > 0;
  if (opts.devCoverage !== undefined && !useDev)
    throw new RangeError("trainTagVine: devCoverage needs dev sentences");
  const columns: TagColumn[] =
    opts.column !== undefined
      ? [opts.column]
      : opts.devCoverage !== undefined && TagMap.collect(train, vocab, "xpos").some((t) => t !== "_")
        ? ["upos", "xpos"]
        : [TagMap.chooseColumn(train, vocab)];
  const devTarget = opts.devCoverage;
  let best: TagVineTraining | null = null;
  for (const column of columns) {
    const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
    const path = new TagVinePath(TagArcCounts.collect(train, vocab, tagMap, opts.prefix), tagMap.unknown);
    const devCurve = useDev ? path.curveOn(TagArcCounts.collect(opts.dev!, vocab, tagMap, opts.prefix)) : [];
    const info: TagVineInfo = {};
    let k: number;
    if (devTarget !== undefined) {
      k = 0;
      while (k < path.steps.length && devCurve[k + 1]!.coverage >= devTarget - 1e-9) k++;
      info.devTarget = devTarget;
    } else {
      const stop =
        opts.coverage === undefined && opts.reduction === undefined
          ? { coverage: DEFAULT_TAGVINE_COVERAGE }
          : { coverage: opts.coverage, reduction: opts.reduction };
      k = path.stepsFor(stop);
      if (stop.coverage !== undefined) info.targetCoverage = stop.coverage;
      if (stop.reduction !== undefined) info.targetReduction = stop.reduction;
    }
    const p = path.train[k]!;
    info.trainCoverage = round4(p.coverage);
    info.trainReduction = round4(p.reduction);
    info.steps = k;
    if (useDev) {
      info.devCoverage = round4(devCurve[k]!.coverage);
      info.devReduction = round4(devCurve[k]!.reduction);
    }
    const pass = new TagVinePruner(tagMap, path.limitsAfter(k), path.fallback, info);
    const run: TagVineTraining = { pass, path, steps: k, tagMap, devCurve };
    if (
      best === null ||
      (devTarget !== undefined && betterOnDev(run.devCurve[k]!, best.devCurve[best.steps]!, devTarget))
    )
      best = run;
  }
  return best!;
}

/** Whether dev point a beats b for a dev coverage target: reaching it with more reduction, else more coverage. */
function betterOnDev(a: TagVinePoint, b: TagVinePoint, target: number): boolean {
  const okA = a.coverage >= target - 1e-9;
  const okB = b.coverage >= target - 1e-9;
  if (okA !== okB) return okA;
  return okA ? a.reduction > b.reduction : a.coverage > b.coverage;
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
