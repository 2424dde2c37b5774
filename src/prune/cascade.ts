import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import { ArcMask } from "../mask/arc-mask.js";
import type { ModelArray, ModelData } from "../model/model-file.js";
import { type NestedPart, nestModel } from "../model/nest.js";
import type { ArcPruner, PruneInput } from "./pruner.js";

/** Model-file kind of a cascade file (several passes in one file). */
export const CASCADE_KIND = "cascade";
/** Version of the cascade file layout. */
export const CASCADE_VERSION = 1;

/** Prefix under which pass i of a cascade keeps its arrays inside any container file. */
export function passPrefix(i: number): string {
  return `prune/${i}`;
}

/** What each pass of a cascade did over a run (totals over the sentences pruned with these stats). */
export interface PassStats {
  /** The pass's kind. */
  kind: string;
  /** Seconds spent in the pass. */
  seconds: number;
  /** Arcs still allowed after the pass (filled by `evaluateCascade`; `prune` only times). */
  kept: number;
}

/** Totals of a cascade run: sentences, possible arcs and, per pass, time and arcs kept. */
export class CascadeStats {
  /** Sentences pruned. */
  sentences = 0;
  /** Arcs before any pass: Σ n² (n heads, root included, for each of n tokens). */
  arcs = 0;
  /** One entry per pass, in cascade order. */
  passes: PassStats[] = [];

  /** Forgets everything. */
  reset(): void {
    this.sentences = 0;
    this.arcs = 0;
    this.passes = [];
  }
}

/**
 * What the passes of one cascade see of a sentence. The feature atoms are prepared on first access, so
 * cascades of filters that never read them (rules, token-role, quadratic, joint) do not pay for them.
 */
class CascadeInput implements PruneInput {
  sentence: Sentence = null as unknown as Sentence;
  vocab: Vocabularies = null as unknown as Vocabularies;
  private readonly cache = new AtomCache();
  private readonly fs = new FeatureSentence();
  private ready = false;

  reset(s: Sentence, vocab: Vocabularies): void {
    this.sentence = s;
    this.vocab = vocab;
    this.ready = false;
  }

  get atoms(): FeatureSentence {
    if (!this.ready) {
      this.cache.prepare(this.sentence, this.vocab, this.fs);
      this.ready = true;
    }
    return this.fs;
  }
}

/**
 * An ordered list of pruning passes: each pass reads the mask the previous one left and only removes
 * arcs. An empty cascade prunes nothing (exhaustive parsing). One instance reuses its buffers between
 * sentences and is not reentrant.
 */
export class PruningCascade {
  /** The passes, applied in order. */
  readonly passes: readonly ArcPruner[];
  private readonly input = new CascadeInput();

  constructor(passes: readonly ArcPruner[] = []) {
    this.passes = passes.slice();
  }

  /** Whether the cascade has no pass. */
  get empty(): boolean {
    return this.passes.length === 0;
  }

  /** Short description: the passes' kinds joined by "+", or "none". */
  get name(): string {
    return this.empty ? "none" : this.passes.map((p) => p.kind).join("+");
  }

  /**
   * Runs every pass on `mask` (a full mask when absent) for sentence `s` and returns it. With `stats`,
   * each pass's time is added up; `afterPass` sees the mask after each pass.
   */
  prune(
    s: Sentence,
    vocab: Vocabularies,
    mask: ArcMask = ArcMask.full(s.n),
    stats?: CascadeStats,
    afterPass?: (pass: number, mask: ArcMask) => void,
  ): ArcMask {
    if (mask.n !== s.n)
      throw new RangeError(`PruningCascade.prune: mask has ${mask.n} tokens, sentence ${s.n}`);
    const input = this.prepare(s, vocab);
    if (stats === undefined && afterPass === undefined) {
      for (const p of this.passes) p.prune(input, mask);
      return mask;
    }
    if (stats !== undefined) this.count(stats, s);
    for (let i = 0; i < this.passes.length; i++) {
      const t0 = performance.now();
      this.passes[i]!.prune(input, mask);
      if (stats !== undefined) stats.passes[i]!.seconds += (performance.now() - t0) / 1000;
      afterPass?.(i, mask);
    }
    return mask;
  }

  /** Adds sentence `s` to `stats` (whose pass entries are made on first use). */
  private count(stats: CascadeStats, s: Sentence): void {
    if (stats.passes.length === 0)
      for (const p of this.passes) stats.passes.push({ kind: p.kind, seconds: 0, kept: 0 });
    stats.sentences++;
    stats.arcs += s.n * s.n;
  }

  /** The mask of sentence `s`, or null when the cascade is empty (so parsers skip mask checks). */
  maskFor(s: Sentence, vocab: Vocabularies, stats?: CascadeStats): ArcMask | null {
    return this.empty ? null : this.prune(s, vocab, ArcMask.full(s.n), stats);
  }

  /**
   * The masks of `sentences` (null for each when the cascade is empty), the same as `maskFor` gives
   * each, made a pass at a time: the first pass over every sentence, then the second, and so on. Each
   * pass reads its own weight tables at random (the token-role filter 4 MiB, the quadratic one 2 MiB
   * and its network), so running them sentence by sentence makes each evict the others' lines from
   * the caches. A pass that reads the feature atoms prepares them again for each sentence. With
   * `stats`, as `prune` keeps them (each pass timed over the whole block: two clock reads a pass).
   */
  masksFor(sentences: readonly Sentence[], vocab: Vocabularies, stats?: CascadeStats): (ArcMask | null)[] {
    if (this.empty) return sentences.map(() => null);
    const masks = sentences.map((s) => ArcMask.full(s.n));
    if (stats !== undefined) for (const s of sentences) this.count(stats, s);
    this.passes.forEach((p, k) => {
      const t0 = stats === undefined ? 0 : performance.now();
      for (let i = 0; i < sentences.length; i++) p.prune(this.prepare(sentences[i]!, vocab), masks[i]!);
      if (stats !== undefined) stats.passes[k]!.seconds += (performance.now() - t0) / 1000;
    });
    return masks;
  }

  /** The input object the passes see for `s` (atoms prepared once, when a pass first asks for them). */
  prepare(s: Sentence, vocab: Vocabularies): PruneInput {
    this.input.reset(s, vocab);
    return this.input;
  }

  /** A cascade running this one's passes, then `other`'s. */
  concat(other: PruningCascade | readonly ArcPruner[]): PruningCascade {
    const more = other instanceof PruningCascade ? other.passes : other;
    return new PruningCascade([...this.passes, ...more]);
  }

  /** Stores every pass in `arrays` under `prune/<i>/` and returns their kinds and metadata, in order. */
  toParts(arrays: Record<string, ModelArray>): NestedPart[] {
    return this.passes.map((p, i) => nestModel(passPrefix(i), p.toModelData(), arrays));
  }

  /** The cascade as a model file of its own (kind "cascade"). */
  toModelData(): ModelData {
    const arrays: Record<string, ModelArray> = {};
    const passes = this.toParts(arrays);
    return { kind: CASCADE_KIND, meta: { version: CASCADE_VERSION, passes }, arrays };
  }

  /** What every pass learned, one block per pass. */
  describe(): string {
    if (this.empty) return "no pruning passes\n";
    return this.passes.map((p, i) => `pass ${i + 1}: ${p.kind}\n${p.describe().trimEnd()}\n`).join("\n");
  }
}
