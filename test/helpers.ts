import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Rng } from "../src/util/rng.js";

/** Repository root (tests run from dist/test). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Path of ../shared/data/ud beside the repository, or null when it is absent (fresh clone). */
export function sharedUd(): string | null {
  const p = process.env.VINEPARSE_UD ?? join(repoRoot, "..", "shared", "data", "ud");
  return existsSync(p) ? p : null;
}

/** Path of a fixture file committed under test/fixtures. */
export function fixture(name: string): string {
  return join(repoRoot, "test", "fixtures", name);
}

/** A random tree over n words (heads[m] for m = 1..n; projective or not, any number of root children). */
export function randomHeads(rng: Rng, n: number): Int32Array {
  const order = Int32Array.from({ length: n }, (_, i) => i + 1);
  rng.shuffle(order);
  const heads = new Int32Array(n + 1);
  heads[0] = -1;
  const attached = [0];
  for (const m of order) {
    heads[m] = attached[rng.int(attached.length)]!;
    attached.push(m);
  }
  return heads;
}

/** Makes a tree single-rooted (UD): every further child of the root is re-attached to the first one. */
export function singleRooted(heads: Int32Array): Int32Array {
  let first = 0;
  for (let m = 1; m < heads.length; m++) {
    if (heads[m] !== 0) continue;
    if (first === 0) first = m;
    else heads[m] = first;
  }
  return heads;
}
