import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { PruningCascade } from "./cascade.js";
import { type LenVineInfo, LenVinePruner } from "./len-vine.js";
import { HEAD_LEFT, HEAD_RIGHT, TagArcCounts } from "./tag-arc-counts.js";

/** Default training coverage a trained Len-Vine limit keeps (%). */
export const DEFAULT_LENVINE_COVERAGE = 99;

/** Coverage and reduction (%) of a corpus after earlier passes and one length limit. */
export interface LengthCurvePoint {
  /** The length limit. */
  limit: number;
  /** % of all gold arcs kept (earlier passes included). */
  coverage: number;
  /** % of all possible arcs removed (earlier passes included). */
  reduction: number;
}

/**
 * Coverage and reduction of every length limit 1..longest arc over a corpus counted by length only
 * (`TagArcCounts.collect(…, null, prefix)`), root arcs always kept; one point per limit, in order.
 */
export function lengthCurve(counts: TagArcCounts): LengthCurvePoint[] {
  if (counts.tags !== 1) throw new RangeError("lengthCurve: counts must be by length only (tagMap null)");
  const L1 = counts.maxLength + 1;
  let gold = counts.rootGold[0]!;
  let kept = counts.rootAll[0]!;
  const out: LengthCurvePoint[] = [];
  for (let len = 1; len <= Math.max(1, counts.maxLength); len++) {
    for (const dir of [HEAD_LEFT, HEAD_RIGHT]) {
      gold += counts.gold[dir * L1 + len] ?? 0;
      kept += counts.all[dir * L1 + len] ?? 0;
    }
    out.push({
      limit: len,
      coverage: counts.tokens === 0 ? 100 : (100 * gold) / counts.tokens,
      reduction: counts.arcs === 0 ? 0 : 100 * (1 - kept / counts.arcs),
    });
  }
  return out;
}

/** Options of `trainLenVine`. */
export interface LenVineOptions {
  /** Coverage (%) of the training data's gold arcs the limit must keep, earlier passes included (default 99). */
  coverage?: number;
  /** A fixed limit instead (the coverage targets are then ignored). */
  limit?: number;
  /** Development sentences, for `devCoverage`. */
  dev?: readonly Sentence[];
  /**
   * Or choose on `dev`: the smallest limit whose dev coverage (earlier passes included) reaches this
   * (%); the largest dev coverage when none does. Overrides `coverage`.
   */
  devCoverage?: number;
  /** Passes before this one: coverage counts the gold arcs they lose too. */
  prefix?: PruningCascade;
}

/** A trained Len-Vine pass and the training data's coverage–reduction curve over every limit. */
export interface LenVineTraining {
  /** The pass. */
  pass: LenVinePruner;
  /** Training coverage and reduction of every limit. */
  curve: LengthCurvePoint[];
  /** Dev coverage and reduction of every limit (empty without dev). */
  devCurve: LengthCurvePoint[];
}

/** The smallest limit of `curve` reaching coverage `target` (or the best coverage the curve has). */
function firstReaching(curve: LengthCurvePoint[], target: number): LengthCurvePoint {
  const best = curve[curve.length - 1]!.coverage;
  for (const p of curve) if (p.coverage >= Math.min(target, best) - 1e-9) return p;
  return curve[curve.length - 1]!;
}

/**
 * Chooses a Len-Vine limit: the smallest limit whose training coverage (earlier passes included)
 * reaches the target, or with `devCoverage` the smallest whose dev coverage does; when no limit can
 * (the earlier passes already lose more), the smallest limit that loses nothing more.
 */
export function trainLenVine(
  train: readonly Sentence[],
  vocab: Vocabularies,
  opts: LenVineOptions = {},
): LenVineTraining {
  const target = opts.coverage ?? DEFAULT_LENVINE_COVERAGE;
  const curve = lengthCurve(TagArcCounts.collect(train, vocab, null, opts.prefix));
  const useDev = opts.dev !== undefined && opts.dev.length > 0;
  const devCurve = useDev ? lengthCurve(TagArcCounts.collect(opts.dev!, vocab, null, opts.prefix)) : [];
  let limit: number;
  const info: LenVineInfo = {};
  if (opts.limit !== undefined) limit = opts.limit;
  else if (opts.devCoverage !== undefined) {
    if (!useDev) throw new RangeError("trainLenVine: devCoverage needs dev sentences");
    limit = firstReaching(devCurve, opts.devCoverage).limit;
    info.devTarget = opts.devCoverage;
  } else {
    limit = firstReaching(curve, target).limit;
    info.target = target;
  }
  const point = curve[Math.min(limit, curve.length) - 1]!;
  info.trainCoverage = round4(point.coverage);
  info.trainReduction = round4(point.reduction);
  if (useDev) {
    const d = devCurve[Math.min(limit, devCurve.length) - 1]!;
    info.devCoverage = round4(d.coverage);
    info.devReduction = round4(d.reduction);
  }
  return { pass: new LenVinePruner(limit, info), curve, devCurve };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
