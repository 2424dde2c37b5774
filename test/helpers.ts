import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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
