import { readFileSync } from "node:fs";
import { VineparseError } from "../errors.js";

/**
 * Reads a whole file, turning a missing or unreadable one into a clear VineparseError that names it
 * ("no such model file", "is a directory, not a file", "cannot read: …").
 */
export function readFileBytes(path: string, what = "file"): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new VineparseError("no-file", `no such ${what}`, path);
    if (code === "EISDIR") throw new VineparseError("no-file", "is a directory, not a file", path);
    throw new VineparseError("read-failed", `cannot read: ${(e as Error).message}`, path);
  }
}
