import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { VineparseError } from "../errors.js";

/**
 * Writes a file through a temporary sibling that is renamed over the target only on `commit()`, so a
 * failed run never leaves a half-written output. Path "-" writes straight to stdout.
 */
export class AtomicWriter {
  private readonly fd: number;
  private readonly tmp: string | null;
  private buffer = "";
  private done = false;

  constructor(private readonly path: string) {
    if (path === "-") {
      this.fd = 1;
      this.tmp = null;
      return;
    }
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    try {
      this.fd = openSync(this.tmp, "w");
    } catch (e) {
      throw new VineparseError("write-failed", `cannot write: ${(e as Error).message}`, path);
    }
  }

  /** Appends text (buffered). */
  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length > 1 << 16) this.flush();
  }

  /** Appends raw bytes. */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off);
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    const b = Buffer.from(this.buffer, "utf8");
    this.buffer = "";
    let off = 0;
    while (off < b.length) off += writeSync(this.fd, b, off);
  }

  /** Finishes the file and moves it into place. */
  commit(): void {
    if (this.done) return;
    this.flush();
    this.done = true;
    if (this.tmp === null) return;
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }

  /** Discards everything written (the target is left untouched). */
  abort(): void {
    if (this.done) return;
    this.done = true;
    if (this.tmp === null) return;
    closeSync(this.fd);
    rmSync(this.tmp, { force: true });
  }
}

/** Writes a whole file atomically. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const w = new AtomicWriter(path);
  try {
    if (typeof data === "string") w.write(data);
    else w.writeBytes(data);
    w.commit();
  } catch (e) {
    w.abort();
    throw e;
  }
}
