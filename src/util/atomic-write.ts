import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { VineparseError } from "../errors.js";
import { registerTempFile, releaseTempFile } from "./temp-files.js";

/**
 * How an output path is written: `fd` = an already open descriptor ("-", /dev/stdout, /dev/stderr),
 * `direct` = opened and written in place (character devices, FIFOs, sockets: never replaced), `file` =
 * a regular file or a new path, written to a temporary sibling of `target` (the real path, symbolic
 * links followed) and renamed over it at the end.
 */
export type OutputTarget =
  | { kind: "fd"; fd: number }
  | { kind: "direct"; path: string }
  | { kind: "file"; target: string; mode: number | null };

const STD_FDS = new Map<string, number>([
  ["/dev/stdout", 1],
  ["/dev/fd/1", 1],
  ["/proc/self/fd/1", 1],
  ["/dev/stderr", 2],
  ["/dev/fd/2", 2],
  ["/proc/self/fd/2", 2],
]);

/** Follows a chain of symbolic links that may end at a path that does not exist yet. */
function followLinks(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(p).isSymbolicLink();
    } catch {
      return p;
    }
    if (!isLink) return p;
    p = resolve(dirname(p), readlinkSync(p));
  }
  throw new VineparseError("write-failed", "too many levels of symbolic links", path);
}

function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/**
 * Decides how `path` is written and checks that it can be, throwing a one-line `VineparseError` for a
 * directory, a missing parent directory or a location that is not writable. Nothing is created.
 */
export function outputTarget(path: string): OutputTarget {
  if (path === "-") return { kind: "fd", fd: 1 };
  const std = STD_FDS.get(path);
  if (std !== undefined) return { kind: "fd", fd: std };
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ELOOP") throw new VineparseError("write-failed", "too many levels of symbolic links", path);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw writeError(e, path);
  }
  if (st !== undefined && st.isDirectory())
    throw new VineparseError("write-failed", "is a directory, not a file", path);
  if (st !== undefined && !st.isFile()) {
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      throw writeError(e, path);
    }
    return { kind: "direct", path };
  }
  const target = st === undefined ? followLinks(path) : realpathSync(path);
  const dir = dirname(target);
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch {
    throw new VineparseError("write-failed", `directory ${dir} does not exist`, path);
  }
  if (!dirStat.isDirectory()) throw new VineparseError("write-failed", `${dir} is not a directory`, path);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new VineparseError("write-failed", `cannot write in directory ${dir} (permission denied)`, path);
  }
  return { kind: "file", target, mode: st === undefined ? null : st.mode & 0o7777 };
}

/**
 * Checks, before any work starts, that an output path ("-" = stdout) can be written: not a directory,
 * its directory exists and is writable. Throws a one-line `VineparseError` otherwise.
 */
export function checkWritable(path: string): void {
  outputTarget(path);
}

/** A write error as a one-line VineparseError; a closed pipe becomes code "output-closed". */
function writeError(e: unknown, path: string): VineparseError {
  const code = errnoCode(e);
  const name = path === "-" ? "<stdout>" : path;
  if (code === "EPIPE") return new VineparseError("output-closed", "output closed by its reader", name);
  if (code === "ENOSPC") return new VineparseError("write-failed", "no space left on device", name);
  if (code === "EACCES" || code === "EPERM")
    return new VineparseError("write-failed", "cannot write (permission denied)", name);
  if (code === "EROFS")
    return new VineparseError("write-failed", "cannot write (read-only file system)", name);
  const msg = (e as Error).message ?? String(e);
  return new VineparseError("write-failed", `cannot write: ${msg}`, name);
}

const EAGAIN_WAIT = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `bytes` to `fd`, waiting while a non-blocking descriptor is full. */
function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off);
    } catch (e) {
      if (errnoCode(e) !== "EAGAIN") throw e;
      Atomics.wait(EAGAIN_WAIT, 0, 0, 2);
    }
  }
}

let tempCounter = 0;

/**
 * Writes an output. A regular file (or a new path) is written through a temporary sibling that is
 * renamed over the target only on `commit()`, so a failed or interrupted run never leaves half a file
 * (symbolic links are followed: the real target is replaced, the link stays). Stdout ("-",
 * /dev/stdout), character devices and FIFOs are written straight in and never replaced. Write errors
 * (a full disk, a closed pipe) are one-line `VineparseError`s; the temporary file is then removed.
 */
export class AtomicWriter {
  private readonly fd: number;
  private readonly tmp: string | null;
  private readonly target: OutputTarget;
  private buffer = "";
  private done = false;
  private scheduled = false;
  private pending: VineparseError | null = null;
  private lastFlush = 0;

  constructor(private readonly path: string) {
    this.target = outputTarget(path);
    const t = this.target;
    if (t.kind === "fd") {
      this.fd = t.fd;
      this.tmp = null;
      return;
    }
    if (t.kind === "direct") {
      this.tmp = null;
      try {
        this.fd = openSync(t.path, "w");
      } catch (e) {
        throw writeError(e, path);
      }
      return;
    }
    let fd = -1;
    let tmp = "";
    for (let attempt = 0; fd < 0; attempt++) {
      tmp = join(dirname(t.target), `.${basename(t.target)}.${process.pid}.${++tempCounter}.tmp`);
      try {
        fd = openSync(tmp, "wx", t.mode ?? 0o666);
      } catch (e) {
        if (errnoCode(e) === "EEXIST" && attempt < 100) continue;
        throw writeError(e, path);
      }
    }
    this.fd = fd;
    this.tmp = tmp;
    registerTempFile(tmp);
    if (t.mode !== null) {
      try {
        fchmodSync(fd, t.mode);
      } catch {
        // keep the default mode
      }
    }
  }

  /** True when the output is read while it is written (stdout, a FIFO, a device), not renamed at the end. */
  get streaming(): boolean {
    return this.tmp === null;
  }

  /**
   * Appends text (buffered). On a streaming output, what is buffered is handed over at least every
   * 100 ms and as soon as the program waits for input, so a reader sees results while the input
   * still arrives.
   */
  write(text: string): void {
    if (this.pending !== null) throw this.pending;
    this.buffer += text;
    if (this.buffer.length > 1 << 16) this.flush();
    else if (this.tmp === null && performance.now() - this.lastFlush > 100) this.flush();
    else if (this.tmp === null && !this.scheduled && !this.done) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        if (this.done || this.pending !== null) return;
        try {
          this.flush();
        } catch (e) {
          this.pending = e as VineparseError;
        }
      });
    }
  }

  /** Appends raw bytes. */
  writeBytes(bytes: Uint8Array): void {
    if (this.pending !== null) throw this.pending;
    this.flush();
    this.writeOut(bytes);
  }

  private writeOut(bytes: Uint8Array): void {
    try {
      writeAll(this.fd, bytes);
    } catch (e) {
      const err = writeError(e, this.path);
      this.abort();
      throw err;
    }
  }

  private flush(): void {
    this.lastFlush = performance.now();
    if (this.buffer.length === 0) return;
    const b = Buffer.from(this.buffer, "utf8");
    this.buffer = "";
    this.writeOut(b);
  }

  /** Finishes the output: flushes it and (for a file) moves it into place. */
  commit(): void {
    if (this.pending !== null) throw this.pending;
    if (this.done) return;
    this.flush();
    this.done = true;
    if (this.target.kind === "fd") return;
    try {
      closeSync(this.fd);
    } catch (e) {
      if (this.tmp !== null) this.removeTemp();
      throw writeError(e, this.path);
    }
    if (this.tmp === null) return;
    try {
      renameSync(this.tmp, (this.target as { target: string }).target);
    } catch (e) {
      this.removeTemp();
      throw new VineparseError("write-failed", `cannot replace the file: ${(e as Error).message}`, this.path);
    }
    releaseTempFile(this.tmp);
  }

  /** Discards the output: a file target is left untouched and the temporary file removed. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.buffer = "";
    if (this.target.kind === "fd") return;
    try {
      closeSync(this.fd);
    } catch {
      // already failed; nothing more to release
    }
    if (this.tmp !== null) this.removeTemp();
  }

  private removeTemp(): void {
    rmSync(this.tmp!, { force: true });
    releaseTempFile(this.tmp!);
  }
}

/** Writes a whole file atomically (see `AtomicWriter`). */
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
