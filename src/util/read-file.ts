import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { VineparseError } from "../errors.js";

/** The one-line error for a file that cannot be opened or read. */
function readError(e: unknown, path: string, what: string): VineparseError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new VineparseError("no-file", `no such ${what}`, path);
  if (code === "EISDIR") return new VineparseError("no-file", "is a directory, not a file", path);
  return new VineparseError("read-failed", `cannot read: ${(e as Error).message}`, path);
}

/**
 * Reads a whole file, turning a missing or unreadable one into a clear VineparseError that names it
 * ("no such model file", "is a directory, not a file", "cannot read: …").
 */
export function readFileBytes(path: string, what = "file"): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw readError(e, path, what);
  }
}

/** Largest read that `PositionalFile` serves from its reused buffer. */
const REUSED_BYTES = 1 << 20;

/**
 * A file opened for reading at arbitrary positions, so large files can be consumed piece by piece
 * instead of being held in memory whole. Errors are the one-line ones of `readFileBytes`.
 */
export class PositionalFile {
  /** Size of the file in bytes (when opened). */
  readonly size: number;
  private readonly fd: number;
  private buf: Buffer = Buffer.alloc(0);

  constructor(
    readonly path: string,
    private readonly what = "file",
  ) {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch (e) {
      throw readError(e, path, what);
    }
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      this.size = st.size;
    } catch (e) {
      closeSync(fd);
      throw readError(e, path, what);
    }
    this.fd = fd;
  }

  /**
   * `length` bytes from `position`, in a buffer that the next call may reuse (copy what must outlive
   * it); a file that shrank meanwhile gives the bytes there are. Reads of more than `REUSED_BYTES`
   * get a buffer of their own, not kept here, so that it can be freed as soon as the caller is done.
   */
  read(position: number, length: number): Buffer {
    let buf = this.buf;
    if (length > REUSED_BYTES) buf = Buffer.allocUnsafe(length);
    else if (buf.length < length) buf = this.buf = Buffer.allocUnsafe(REUSED_BYTES);
    let got = 0;
    try {
      while (got < length) {
        const k = readSync(this.fd, buf, got, length - got, position + got);
        if (k === 0) break;
        got += k;
      }
    } catch (e) {
      throw readError(e, this.path, this.what);
    }
    return buf.subarray(0, got);
  }

  /** Closes the file. */
  close(): void {
    closeSync(this.fd);
  }
}
