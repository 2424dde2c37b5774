import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { PruningCascade } from "./cascade.js";
import { LenVinePruner } from "./len-vine.js";
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
  /** A fixed limit instead (the coverage target is then ignored). */
  limit?: number;
  /** Passes before this one: coverage counts the gold arcs they lose too. */
  prefix?: PruningCascade;
}

/** A trained Len-Vine pass and the training data's coverage–reduction curve over every limit. */
export interface LenVineTraining {
  /** The pass. */
  pass: LenVinePruner;
  /** Training coverage and reduction of every limit. */
  curve: LengthCurvePoint[];
}

/**
 * Chooses a Len-Vine limit on training data: the smallest limit whose training coverage (earlier passes
 * included) reaches the target; when no limit can (the earlier passes already lose more), the smallest
 * limit that loses nothing more.
 */
export function trainLenVine(
  train: readonly Sentence[],
  vocab: Vocabularies,
  opts: LenVineOptions = {},
): LenVineTraining {
  const target = opts.coverage ?? DEFAULT_LENVINE_COVERAGE;
  const curve = lengthCurve(TagArcCounts.collect(train, vocab, null, opts.prefix));
  const best = curve[curve.length - 1]!.coverage;
  let point = curve[curve.length - 1]!;
  if (opts.limit !== undefined) point = curve[Math.min(opts.limit, curve.length) - 1]!;
  else
    for (const p of curve)
      if (p.coverage >= Math.min(target, best) - 1e-9) {
        point = p;
        break;
      }
  const limit = opts.limit ?? point.limit;
  const pass = new LenVinePruner(limit, {
    ...(opts.limit === undefined ? { target } : {}),
    trainCoverage: round4(point.coverage),
    trainReduction: round4(point.reduction),
  });
  return { pass, curve };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
