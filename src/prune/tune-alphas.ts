import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { VineparseError } from "../errors.js";
import type { AttachmentScores } from "../eval/attachment.js";
import { evaluateParser } from "../parser/evaluate.js";
import type { DependencyParser } from "../parser/types.js";
import { PruningCascade } from "./cascade.js";
import type { ArcPruner } from "./pruner.js";

/** A pass whose threshold is t_α = α·max + (1 − α)·mean (the vine and max-marginal passes). */
export interface AlphaPass extends ArcPruner {
  alpha: number;
}

export function isAlphaPass(p: ArcPruner): p is AlphaPass {
  return (
    (p.kind === "vine" || p.kind === "maxmarginal") && typeof (p as Partial<AlphaPass>).alpha === "number"
  );
}

/** Whether `cascade` has a pass whose α `tuneCascadeAlphas` sets. */
export function hasAlphaPass(cascade: PruningCascade): boolean {
  return cascade.passes.some(isAlphaPass);
}

/**
 * Sets the test-time α of the vine and max-marginal passes of `cascade`, in place and in pass order,
 * to `alphas` (one value per such pass, from the first; passes beyond the list keep theirs). A larger
 * α prunes more: the speed–accuracy knob of `vineparse parse --alpha`. Returns the passes set.
 */
export function setCascadeAlphas(cascade: PruningCascade, alphas: readonly number[]): AlphaPass[] {
  const passes = cascade.passes.filter(isAlphaPass);
  if (alphas.length > passes.length)
    throw new VineparseError(
      "usage",
      `--alpha: ${alphas.length} value(s) given, but the cascade (${cascade.name}) has ${passes.length} pass(es) with an alpha`,
    );
  for (const a of alphas)
    if (!(a >= -1 && a <= 1)) throw new VineparseError("usage", `--alpha: ${a} is not in [-1, 1]`);
  alphas.forEach((a, i) => {
    passes[i]!.alpha = a;
  });
  return passes.slice(0, alphas.length);
}

/** Candidate α values (−0.9, −0.8, …, 0.9): each pass tries those above its own α, in turn. */
export const DEFAULT_ALPHA_GRID: readonly number[] = Array.from({ length: 19 }, (_, i) => (i - 9) / 10);

/**
 * Default tolerance, in UAS-P points on each half of dev: on en_ewt about a dozen of each half's
 * 12,500 tokens, the size of the wiggles of a half's UAS-P as α moves by 0.1 where the curve is flat.
 */
export const DEFAULT_ALPHA_TOLERANCE = 0.1;

export interface AlphaTuneOptions {
  /** Candidate α values (default `DEFAULT_ALPHA_GRID`). */
  grid?: readonly number[];
  /**
   * Dev UAS-P (points) a candidate may lose against the cascade as given, on each half of dev
   * (default `DEFAULT_ALPHA_TOLERANCE`).
   */
  tolerance?: number;
  /**
   * What the tolerance is measured from: the dev UAS-P with the cascade as given (`cascade`, the
   * default) or of the same final model parsing without any cascade (`unpruned`: the accuracy bar of
   * Rush & Petrov's comparison, "pruned UAS-P ≥ unpruned − tolerance", which a model trained on its
   * cascade's masks may sit well below).
   */
  reference?: AlphaReference;
  log?: (line: string) => void;
}

/** What `tuneCascadeAlphas` measures the tolerance from (see `AlphaTuneOptions.reference`). */
export const ALPHA_REFERENCES = ["cascade", "unpruned"] as const;
export type AlphaReference = (typeof ALPHA_REFERENCES)[number];

/** One candidate tried: pass `pass` (index in the cascade) at `alpha`, the later passes as they stand. */
export interface AlphaTrial {
  pass: number;
  alpha: number;
  uasNoPunct: number;
  accepted: boolean;
}

export interface AlphaTuneResult {
  /** Each tuned pass's index in the cascade, its α before and after. */
  passes: { pass: number; kind: string; before: number; after: number }[];
  /** Dev UAS-P the tolerance was measured from (`reference`), with the α values as given, and as tuned. */
  reference: number;
  before: number;
  after: number;
  trials: AlphaTrial[];
}

/**
 * Sets the test-time α of the vine and max-marginal passes of `cascade` (in place) on dev data: the
 * passes are trained to lose at most a budget of dev gold arcs, which says little about what the
 * final parser does with the arcs it gets, and a parser trained on such masks often loses nothing
 * when they are tighter (docs/results.md). Pass by pass, first to last, each climbs the grid from its
 * own α and keeps climbing while the dev UAS-P, parsing with every pass as it then stands, stays at
 * least what it is with the cascade as given (with `reference: "unpruned"`, what the final model
 * gives without a cascade), minus `tolerance`, on each half of dev (even and odd sentences)
 * separately; it stops at the first α that falls below on either half and keeps the one
 * before. Dev UAS-P is a noisy function of α: taking the largest α anywhere on the grid that passes
 * on the whole dev set, chosen on the even half of en_ewt dev, the third-order cascade lost 0.72
 * UAS-P on the odd half, whose curve fell where the even one's stayed flat. A larger α only raises
 * the pass's threshold, so it removes more arcs and the parse gets faster. Passes of other kinds are
 * left alone.
 */
export function tuneCascadeAlphas(
  parser: DependencyParser,
  cascade: PruningCascade,
  dev: Sentence[],
  vocab: Vocabularies,
  opts: AlphaTuneOptions = {},
): AlphaTuneResult {
  const grid = [...(opts.grid ?? DEFAULT_ALPHA_GRID)].sort((a, b) => a - b);
  const tolerance = opts.tolerance ?? DEFAULT_ALPHA_TOLERANCE;
  const log = opts.log ?? (() => {});
  const halves = [dev.filter((_, i) => i % 2 === 0), dev.filter((_, i) => i % 2 === 1)];
  const scores = () => halves.map((h) => evaluateParser(parser, h, vocab, cascade));
  // Whole-dev UAS-P from the halves' counts (UAS-P is over the non-punctuation tokens).
  const whole = (s: AttachmentScores[]) => {
    const tokens = s[0]!.tokensNoPunct + s[1]!.tokensNoPunct;
    const correct = s[0]!.uasNoPunct * s[0]!.tokensNoPunct + s[1]!.uasNoPunct * s[1]!.tokensNoPunct;
    return tokens === 0 ? 0 : correct / tokens;
  };
  const start0 = scores();
  const ref =
    opts.reference === "unpruned"
      ? halves.map((h) => evaluateParser(parser, h, vocab, new PruningCascade()))
      : start0;
  const floors = ref.map((s) => s.uasNoPunct - tolerance);
  const before = whole(start0);
  const tuned: AlphaTuneResult["passes"] = [];
  const trials: AlphaTrial[] = [];
  let current = before;
  cascade.passes.forEach((p, i) => {
    if (!isAlphaPass(p)) return;
    const start = p.alpha;
    let best = start;
    for (const a of grid) {
      if (!(a > start)) continue;
      p.alpha = a;
      const s = scores();
      const u = whole(s);
      const accepted = s.every((h, k) => h.uasNoPunct >= floors[k]! - 1e-9);
      trials.push({ pass: i, alpha: a, uasNoPunct: u, accepted });
      log(
        `alpha: pass ${i + 1} (${p.kind}) at ${a}: dev UAS-P ${u.toFixed(2)} (halves ${s.map((h) => h.uasNoPunct.toFixed(2)).join(" / ")})${accepted ? "" : " (stop)"}`,
      );
      if (!accepted) break;
      best = a;
      current = u;
    }
    p.alpha = best;
    tuned.push({ pass: i, kind: p.kind, before: start, after: best });
  });
  return { passes: tuned, reference: whole(ref), before, after: current, trials };
}
