import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { HEAD_LEFT, HEAD_RIGHT, tripleIndex } from "./tag-arc-counts.js";
import { TagMap } from "./tag-map.js";

/** Model-file kind of a Tag-Vine pass. */
export const TAGVINE_KIND = "tagvine";
/** Version of the Tag-Vine pass layout. */
export const TAGVINE_VERSION = 1;

/** What training chose and measured for a Tag-Vine pass (kept in the model file, shown by `filter show`). */
export interface TagVineInfo {
  /** Training coverage (%) the greedy lowering stopped at, if it was the stopping rule. */
  targetCoverage?: number;
  /** Training reduction (%) the greedy lowering stopped at, if it was the stopping rule. */
  targetReduction?: number;
  /** Coverage on the training data (%). */
  trainCoverage?: number;
  /** Reduction on the training data (%). */
  trainReduction?: number;
  /** Greedy lowering steps taken. */
  steps?: number;
  /** Dev coverage (%) the steps were chosen to keep, if it was the stopping rule. */
  devTarget?: number;
  /** Coverage on the dev data (%). */
  devCoverage?: number;
  /** Reduction on the dev data (%). */
  devReduction?: number;
}

/** The numeric fields of `TagVineInfo`, as stored in the model file. */
const INFO_KEYS = [
  "targetCoverage",
  "targetReduction",
  "trainCoverage",
  "trainReduction",
  "steps",
  "devTarget",
  "devCoverage",
  "devReduction",
] as const;

/**
 * Tag-Vine (Eisner & Smith 2005, the baseline of Bergsma & Cherry 2010 §3.1): a length limit for every
 * [head tag, modifier tag, direction] triple; a token→token arc longer than its triple's limit is
 * removed (limit 0 removes every arc of the triple). Arcs from the root are always kept, as in Len-Vine.
 * Triples of tags the filter never saw use one limit per direction (`fallback`). The lookup costs one
 * table read per arc and allocates nothing.
 */
export class TagVinePruner implements ArcPruner {
  /** Always "tagvine". */
  readonly kind = TAGVINE_KIND;
  /** Dense tag ids of the filter. */
  readonly tagMap: TagMap;
  /** Limits by `tripleIndex(dir, headTag, modTag, tagMap.size)` (dir: HEAD_LEFT = head before modifier). */
  readonly limits: Uint16Array;
  /** Limits of triples with a tag the filter never saw: [head left, head right]. */
  readonly fallback: readonly [number, number];
  /** Training measurements, for display. */
  readonly info: TagVineInfo;
  private tags = new Int32Array(64);

  constructor(
    tagMap: TagMap,
    limits: Uint16Array,
    fallback: readonly [number, number],
    info: TagVineInfo = {},
  ) {
    const S = tagMap.size;
    if (limits.length !== 2 * S * S)
      throw new RangeError(`TagVinePruner: ${limits.length} limits for ${S} tag ids (need ${2 * S * S})`);
    this.tagMap = tagMap;
    this.limits = limits;
    this.fallback = fallback;
    this.info = info;
    // Triples with the unknown tag always follow the fallback limits.
    const u = tagMap.unknown;
    for (const dir of [HEAD_LEFT, HEAD_RIGHT]) {
      for (let t = 0; t < S; t++) {
        limits[tripleIndex(dir, u, t, S)] = fallback[dir]!;
        limits[tripleIndex(dir, t, u, S)] = fallback[dir]!;
      }
    }
  }

  /** Removes every token→token arc longer than its triple's limit, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    const n = mask.n;
    if (this.tags.length < n + 1) this.tags = new Int32Array(Math.max(n + 1, this.tags.length * 2));
    const tags = this.tags;
    this.tagMap.fill(input.sentence, input.vocab, tags);
    const S = this.tagMap.size;
    const lim = this.limits;
    const bits = mask.bits;
    const size = n + 1;
    for (let h = 1; h <= n; h++) {
      const row = h * size;
      const th = tags[h]!;
      const right = tripleIndex(HEAD_RIGHT, th, 0, S);
      for (let m = 1; m < h; m++) if (h - m > lim[right + tags[m]!]!) bits[row + m] = 0;
      const left = tripleIndex(HEAD_LEFT, th, 0, S);
      for (let m = h + 1; m <= n; m++) if (m - h > lim[left + tags[m]!]!) bits[row + m] = 0;
    }
  }

  /** The limit of one triple of tag strings (the fallback for tags the filter never saw). */
  limitOf(dir: number, head: string, mod: string): number {
    return this.limits[tripleIndex(dir, this.tagMap.id(head), this.tagMap.id(mod), this.tagMap.size)]!;
  }

  /** The pass as model-file content: tags and column in the metadata, the limit table as an array. */
  toModelData(): ModelData {
    return {
      kind: TAGVINE_KIND,
      meta: {
        version: TAGVINE_VERSION,
        column: this.tagMap.column,
        tags: this.tagMap.tags,
        fallback: this.fallback,
        ...this.info,
      },
      arrays: { limits: this.limits },
    };
  }

  /**
   * The training summary, then every head tag's limits per direction ("h←m" = head on the left):
   * each modifier tag with its limit; modifier tags not listed have limit 0 (never linked in training).
   */
  describe(): string {
    const S = this.tagMap.size;
    const tags = this.tagMap.tags;
    const i = this.info;
    let zero = 0;
    let open = 0;
    for (let h = 1; h <= tags.length; h++)
      for (let m = 1; m <= tags.length; m++)
        for (const dir of [HEAD_LEFT, HEAD_RIGHT])
          if (this.limits[tripleIndex(dir, h, m, S)] === 0) zero++;
          else open++;
    const stop =
      i.devTarget !== undefined
        ? `, stopped at dev coverage ${i.devTarget}%`
        : i.targetCoverage !== undefined
          ? `, stopped at training coverage ${i.targetCoverage}%`
          : i.targetReduction !== undefined
            ? `, stopped at training reduction ${i.targetReduction}%`
            : "";
    let out =
      `a length limit per [head tag, modifier tag, direction] (${this.tagMap.column.toUpperCase()}, ${tags.length} tags): ` +
      `${open} triples allowed, ${zero} removed; root arcs are kept; unseen tags: limit ${this.fallback[0]} (h←m) / ${this.fallback[1]} (m→h)\n`;
    if (i.trainCoverage !== undefined)
      out += `training: coverage ${i.trainCoverage}%, reduction ${i.trainReduction}% after ${i.steps ?? 0} greedy steps${stop}\n`;
    if (i.devCoverage !== undefined) out += `dev: coverage ${i.devCoverage}%, reduction ${i.devReduction}%\n`;
    const width = Math.max(4, ...tags.map((t) => t.length));
    for (let h = 1; h <= tags.length; h++) {
      for (const [dir, arrow] of [
        [HEAD_LEFT, "h←m"],
        [HEAD_RIGHT, "m→h"],
      ] as const) {
        const items: string[] = [];
        for (let m = 1; m <= tags.length; m++) {
          const l = this.limits[tripleIndex(dir, h, m, S)]!;
          if (l > 0) items.push(`${tags[m - 1]} ${l}`);
        }
        out += `${tags[h - 1]!.padEnd(width)} ${arrow}: ${items.length === 0 ? "-" : items.join(", ")}\n`;
      }
    }
    return out;
  }

  /** Loads a pass written by `toModelData`. */
  static fromModelData(m: ModelData, file: string): TagVinePruner {
    const meta = m.meta as {
      version?: number;
      column?: unknown;
      tags?: unknown;
      fallback?: unknown;
    } & TagVineInfo;
    if (meta.version !== TAGVINE_VERSION)
      throw new VineparseError(
        "model-version",
        `Tag-Vine pass version ${meta.version} is not supported`,
        file,
      );
    const tags = meta.tags;
    const fb = meta.fallback;
    const limits = m.arrays.limits;
    const ok =
      (meta.column === "upos" || meta.column === "xpos") &&
      Array.isArray(tags) &&
      tags.every((t) => typeof t === "string") &&
      Array.isArray(fb) &&
      fb.length === 2 &&
      fb.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) &&
      limits instanceof Uint16Array &&
      limits.length === 2 * (tags.length + 2) * (tags.length + 2);
    if (!ok)
      throw new VineparseError(
        "model-corrupt",
        "corrupted model: Tag-Vine pass has bad tags or limits",
        file,
      );
    const info: TagVineInfo = {};
    for (const k of INFO_KEYS) if (typeof meta[k] === "number") info[k] = meta[k];
    return new TagVinePruner(
      new TagMap(tags as string[], meta.column as "upos" | "xpos"),
      limits,
      [fb[0] as number, fb[1] as number],
      info,
    );
  }
}
