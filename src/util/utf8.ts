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
    let end = bytes.length;
    for (let k = bytes.length - 1; k >= 0 && k >= bytes.length - 3; k--) {
      const b = bytes[k]!;
      if ((b & 0xc0) === 0x80) continue;
      const len = sequenceLength(b);
      if (len > 1 && k + len > bytes.length) end = k;
      break;
    }
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

/**
 * Reads a file ("-" = stdin) as a stream of strictly decoded UTF-8 text chunks; a missing file or
 * invalid UTF-8 is a one-line `VineparseError`.
 */
export async function* readUtf8Chunks(path: string, chunkBytes = 1 << 16): AsyncGenerator<string> {
  const name = path === "-" ? "<stdin>" : path;
  const input = path === "-" ? process.stdin : createReadStream(path, { highWaterMark: chunkBytes });
  const d = new Utf8StreamDecoder(name);
  try {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      const s = d.decode(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
      if (s.length > 0) yield s;
    }
  } catch (e) {
    if (e instanceof VineparseError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new VineparseError("no-file", "no such file", name);
    if (code === "EISDIR") throw new VineparseError("no-file", "is a directory, not a file", name);
    throw new VineparseError("read-failed", `cannot read: ${(e as Error).message}`, name);
  }
  const rest = d.end();
  if (rest.length > 0) yield rest;
}
