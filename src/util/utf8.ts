import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { VineparseError } from "../errors.js";

/**
 * Strict UTF-8 decoding that names the line of the first invalid byte ("FILE:LINE: invalid UTF-8")
 * instead of silently turning it into U+FFFD, and drops a leading byte-order mark.
 */

/** Length of the UTF-8 sequence a lead byte starts (0 for a continuation or invalid byte). */
function sequenceLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** Offset of the first byte of `bytes` that is not part of valid UTF-8, or -1 if all is valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 0 || i + len > n) return i;
    const b1 = bytes[i + 1]!;
    // second-byte ranges exclude overlong forms, surrogates and code points above U+10FFFF
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (b1 < lo || b1 > hi) return i;
    for (let k = 2; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return -1;
}

/** Number of "\n" bytes in bytes[0, end). */
function countNewlines(bytes: Uint8Array, end = bytes.length): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, end);
  let c = 0;
  let i = b.indexOf(10);
  while (i >= 0) {
    c++;
    i = b.indexOf(10, i + 1);
  }
  return c;
}

/** Where an incomplete multi-byte sequence at the end of `bytes` starts (bytes.length if there is none). */
function completeEnd(bytes: Uint8Array): number {
  for (let k = bytes.length - 1; k >= 0 && k >= bytes.length - 3; k--) {
    const b = bytes[k]!;
    if ((b & 0xc0) === 0x80) continue;
    const len = sequenceLength(b);
    return len > 1 && k + len > bytes.length ? k : bytes.length;
  }
  return bytes.length;
}

/** Decodes a stream of byte chunks as strict UTF-8, keeping the line count for error messages. */
export class Utf8StreamDecoder {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  private carry: Uint8Array | null = null;
  private line = 1;
  private first = true;

  /** `file` names the input in error messages. */
  constructor(readonly file: string) {}

  /** Decodes the next chunk (a sequence cut at the chunk's end is completed by the next one). */
  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry !== null) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = null;
    }
    // Keep an incomplete sequence at the end for the next chunk.
    const end = completeEnd(bytes);
    if (end < bytes.length) this.carry = bytes.slice(end);
    return this.text(bytes.subarray(0, end));
  }

  /** Ends the input; throws if it stopped inside a multi-byte sequence. */
  end(): string {
    if (this.carry === null) return "";
    const c = this.carry;
    this.carry = null;
    throw new VineparseError(
      "invalid-utf8",
      "invalid UTF-8 (truncated character at the end)",
      this.file,
      this.line + countNewlines(c),
    );
  }

  private text(bytes: Uint8Array): string {
    let s: string;
    try {
      s = this.decoder.decode(bytes);
    } catch {
      const at = Math.max(0, firstInvalidUtf8(bytes));
      throw new VineparseError(
        "invalid-utf8",
        "invalid UTF-8",
        this.file,
        this.line + countNewlines(bytes, at),
      );
    }
    this.line += countNewlines(bytes);
    if (this.first && s.length > 0) {
      this.first = false;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    return s;
  }
}

/** Decodes a whole file's bytes as strict UTF-8 (leading byte-order mark dropped). */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  const d = new Utf8StreamDecoder(file);
  const s = d.decode(bytes);
  return s + d.end();
}

/** The name errors give a path ("-" = stdin), and its bytes as a stream of chunks. */
function openInput(
  path: string,
  chunkBytes: number,
): { name: string; input: AsyncIterable<Buffer | string> } {
  const name = path === "-" ? "<stdin>" : path;
  const input = path === "-" ? process.stdin : createReadStream(path, { highWaterMark: chunkBytes });
  return { name, input };
}

/** The one-line error for a failure while reading `name` (VineparseErrors pass through). */
function readError(e: unknown, name: string): VineparseError {
  if (e instanceof VineparseError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new VineparseError("no-file", "no such file", name);
  if (code === "EISDIR") return new VineparseError("no-file", "is a directory, not a file", name);
  return new VineparseError("read-failed", `cannot read: ${(e as Error).message}`, name);
}

/**
 * Reads a file ("-" = stdin) as a stream of strictly decoded UTF-8 text chunks; a missing file or
 * invalid UTF-8 is a one-line `VineparseError`.
 */
export async function* readUtf8Chunks(path: string, chunkBytes = 1 << 16): AsyncGenerator<string> {
  const { name, input } = openInput(path, chunkBytes);
  const d = new Utf8StreamDecoder(name);
  try {
    for await (const chunk of input) {
      const s = d.decode(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
      if (s.length > 0) yield s;
    }
  } catch (e) {
    throw readError(e, name);
  }
  const rest = d.end();
  if (rest.length > 0) yield rest;
}

/**
 * Reads a file ("-" = stdin) as strict UTF-8 lines (without their "\n"; a "\r" before it is kept),
 * a batch of lines per chunk read; a last line without "\n" comes last unless empty. The errors and
 * the dropped byte-order mark are those of `readUtf8Chunks`. Each line is decoded from the bytes on
 * its own, so it is a string of its own: slicing lines out of one decoded chunk would give strings
 * that keep the whole chunk alive (V8 slices longer substrings instead of copying them), and any such
 * line or column kept beyond its sentence (an interned form) would keep its chunk of the input in
 * memory, so that memory grew with the input.
 */
export async function* readUtf8Lines(path: string, chunkBytes = 1 << 16): AsyncGenerator<string[]> {
  const { name, input } = openInput(path, chunkBytes);
  let carry: Buffer | null = null;
  let line = 1;
  let first = true;
  /** The lines of bytes[0, end) (each ended by "\n", or by `end` if `last`), after checking them. */
  const lines = (bytes: Buffer, end: number, last: boolean): string[] => {
    if (!isUtf8(bytes.subarray(0, end))) {
      const at = firstInvalidUtf8(bytes.subarray(0, end));
      throw new VineparseError("invalid-utf8", "invalid UTF-8", name, line + countNewlines(bytes, at));
    }
    let start = 0;
    if (first && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    if (end > 0) first = false;
    const out: string[] = [];
    let nl = bytes.indexOf(10, start);
    while (nl >= 0 && nl < end) {
      out.push(bytes.toString("utf8", start, nl));
      line++;
      start = nl + 1;
      nl = bytes.indexOf(10, start);
    }
    if (last && start < end) out.push(bytes.toString("utf8", start, end));
    return out;
  };
  try {
    for await (const chunk of input) {
      let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      if (carry !== null) bytes = Buffer.concat([carry, bytes]);
      // Complete lines now; the bytes after the last "\n" wait for the next chunk.
      const end = bytes.lastIndexOf(10) + 1;
      carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
      const out = lines(bytes, end, false);
      if (out.length > 0) yield out;
    }
  } catch (e) {
    throw readError(e, name);
  }
  if (carry === null) return;
  // The last line, without "\n": a multi-byte sequence cut short by the end of the input is its own error.
  const end = completeEnd(carry);
  const out = lines(carry, end, true);
  if (end < carry.length)
    throw new VineparseError("invalid-utf8", "invalid UTF-8 (truncated character at the end)", name, line);
  if (out.length > 0) yield out;
}
