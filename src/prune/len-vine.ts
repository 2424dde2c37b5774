import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";
import type { ArcPruner, PruneInput } from "./pruner.js";

/** Model-file kind of a Len-Vine pass. */
export const LENVINE_KIND = "lenvine";
/** Version of the Len-Vine pass layout. */
export const LENVINE_VERSION = 1;

/** What training measured for a Len-Vine limit (kept in the model file, shown by `filter show`). */
export interface LenVineInfo {
  /** Coverage the limit was chosen to keep on the training data (%), if chosen that way. */
  target?: number;
  /** Coverage of the limit on the training data (%). */
  trainCoverage?: number;
  /** Reduction of the limit on the training data (%). */
  trainReduction?: number;
  /** Dev coverage the limit was chosen to keep (%), if chosen that way. */
  devTarget?: number;
  /** Coverage of the limit on the dev data (%). */
  devCoverage?: number;
  /** Reduction of the limit on the dev data (%). */
  devReduction?: number;
}

/** The numeric fields of `LenVineInfo`, as stored in the model file. */
const INFO_KEYS = [
  "target",
  "trainCoverage",
  "trainReduction",
  "devTarget",
  "devCoverage",
  "devReduction",
] as const;

/**
 * Len-Vine (Eisner & Smith 2005, the baseline of Bergsma & Cherry 2010 §3.1): one hard limit on arc
 * length. An arc h→m between two tokens is removed when |h − m| > limit. Arcs from the artificial root
 * are always kept: the root has no position in the sentence, and in a vine grammar any word may hang
 * from it (that is what keeps long-distance structure reachable as a "vine" of root children).
 */
export class LenVinePruner implements ArcPruner {
  /** Always "lenvine". */
  readonly kind = LENVINE_KIND;

  constructor(
    /** Longest arc kept (≥ 1). */
    readonly limit: number,
    /** Training measurements, for display. */
    readonly info: LenVineInfo = {},
  ) {
    if (!(Number.isInteger(limit) && limit >= 1))
      throw new RangeError(`LenVinePruner: limit must be an integer ≥ 1 (got ${limit})`);
  }

  /** Removes every token→token arc longer than the limit, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    pruneLength(mask, this.limit);
  }

  /** The pass as model-file content (no arrays: the limit is the whole model). */
  toModelData(): ModelData {
    return {
      kind: LENVINE_KIND,
      meta: { version: LENVINE_VERSION, limit: this.limit, ...this.info },
      arrays: {},
    };
  }

  /** The limit, then what it kept on the training and dev data. */
  describe(): string {
    const i = this.info;
    let out = `arcs between tokens more than ${this.limit} apart are removed; root arcs are kept\n`;
    if (i.trainCoverage !== undefined)
      out +=
        `training: coverage ${i.trainCoverage}%, reduction ${i.trainReduction}%` +
        (i.target === undefined ? "" : ` (limit chosen for training coverage ${i.target}%)`) +
        "\n";
    if (i.devCoverage !== undefined)
      out +=
        `dev: coverage ${i.devCoverage}%, reduction ${i.devReduction}%` +
        (i.devTarget === undefined ? "" : ` (limit chosen for dev coverage ${i.devTarget}%)`) +
        "\n";
    return out;
  }

  /** Loads a pass written by `toModelData`. */
  static fromModelData(m: ModelData, file: string): LenVinePruner {
    const meta = m.meta as { version?: number; limit?: unknown } & LenVineInfo;
    if (meta.version !== LENVINE_VERSION)
      throw new VineparseError(
        "model-version",
        `Len-Vine pass version ${meta.version} is not supported`,
        file,
      );
    const limit = meta.limit;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)
      throw new VineparseError("model-corrupt", "corrupted model: Len-Vine pass has a bad limit", file);
    const info: LenVineInfo = {};
    for (const k of INFO_KEYS) if (typeof meta[k] === "number") info[k] = meta[k];
    return new LenVinePruner(limit, info);
  }
}

/** Clears every token→token arc of `mask` longer than `limit` (root arcs untouched). */
export function pruneLength(mask: ArcMask, limit: number): void {
  const n = mask.n;
  const size = mask.size;
  const bits = mask.bits;
  for (let h = 1; h <= n; h++) {
    const row = h * size;
    // Modifiers 1..h−limit−1 on the left, h+limit+1..n on the right.
    if (h - limit > 1) bits.fill(0, row + 1, row + h - limit);
    if (h + limit < n) bits.fill(0, row + h + limit + 1, row + size);
  }
}
