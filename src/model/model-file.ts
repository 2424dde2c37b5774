import type * as Zlib from "node:zlib";
import { VineparseError } from "../errors.js";
import { crc32 as jsCrc32 } from "../util/crc32.js";

/**
 * What model files need of Node.js: its zlib (deflate, inflate, CRC-32) and the file helpers. They are
 * imported only when running on Node, so that the decoders below (and every loader built on them)
 * also load in a browser, where models are decoded from bytes by `decodeModelBytes` instead.
 */
interface NodeSide {
  zlib: typeof Zlib;
  files: typeof import("../util/read-file.js") & typeof import("../util/atomic-write.js");
}

const onNode = typeof process !== "undefined" && typeof process.versions?.node === "string";
const nodeSide: NodeSide | null = onNode
  ? {
      zlib: await import("node:zlib"),
      files: { ...(await import("../util/read-file.js")), ...(await import("../util/atomic-write.js")) },
    }
  : null;

/** Node's zlib and file helpers; one clear error elsewhere (a browser). */
function node(): NodeSide {
  if (nodeSide === null)
    throw new VineparseError(
      "usage",
      "model files are read and written by file name on Node.js only; in a browser, decode their bytes with decodeModelBytes",
    );
  return nodeSide;
}

/**
 * What decoding needs of a compression library: CRC-32, and raw inflate into at most `max` bytes
 * (a RangeError when the stream gives more; any other error when it is not a valid deflate stream).
 * The output should start at offset 0 of a buffer of at least `max + 1` bytes when it can (an array is
 * then expanded in that buffer instead of a copy).
 */
export interface Inflater {
  crc32(data: Uint8Array, value: number): number;
  inflateRaw(input: Uint8Array, max: number): Uint8Array;
}

/** Node's zlib as an `Inflater`. */
function nodeInflater(): Inflater {
  const z = node().zlib;
  return {
    crc32: (data, value) => z.crc32(data, value),
    inflateRaw: (input, max) =>
      z.inflateRawSync(input, { maxOutputLength: Math.max(1, max), chunkSize: Math.max(64, max + 1) }),
  };
}

/** Magic bytes at the start of every vineparse model file. */
const MAGIC = "VINEPARS";
/**
 * Version of the container layout written; bump when the layout changes incompatibly. Version 1: one
 * gzip stream of the JSON header and every array. Version 2: the JSON header and each 1 MiB chunk of
 * each array deflated separately, so a reader inflates straight into the arrays it returns, one chunk
 * at a time, and zero-heavy chunks store a bitmap of their non-zero elements.
 */
export const MODEL_FORMAT_VERSION = 2;
/** Container versions this reader understands. */
const READABLE_FORMAT_VERSIONS = [1, 2];
const HEADER_BYTES = 8 + 4 + 4 + 4 + 4;
/** Deflate cannot shrink data by more than about 1032:1; a payload claiming more is corrupt. */
const MAX_INFLATE_RATIO = 1040;
/** Uncompressed bytes per segment of an array (version 2; recorded in each file's header). */
const SEGMENT_BYTES = 1 << 20;
/** Bytes of the payload read at a time while checking its checksum. */
const CRC_PIECE = 1 << 20;
/** Segment modes (first stored byte of a version-2 segment). */
const SEGMENT_PLAIN = 0;
const SEGMENT_MASKED = 1;

/** A typed array that can be stored in a model file. */
export type ModelArray =
  Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array | Int8Array | Uint16Array | Int16Array;

interface Dtype {
  name: string;
  ctor: { new (b: ArrayBuffer, o: number, l: number): ModelArray; new (l: number): ModelArray };
  bytes: number;
}

const DTYPES: Dtype[] = [
  { name: "f32", ctor: Float32Array, bytes: 4 },
  { name: "f64", ctor: Float64Array, bytes: 8 },
  { name: "i32", ctor: Int32Array, bytes: 4 },
  { name: "u32", ctor: Uint32Array, bytes: 4 },
  { name: "u8", ctor: Uint8Array, bytes: 1 },
  { name: "i8", ctor: Int8Array, bytes: 1 },
  { name: "u16", ctor: Uint16Array, bytes: 2 },
  { name: "i16", ctor: Int16Array, bytes: 2 },
];

function dtypeOf(a: ModelArray): number {
  for (let i = 0; i < DTYPES.length; i++) if (a instanceof DTYPES[i]!.ctor) return i;
  throw new Error("unsupported array type");
}

function dtypeNamed(name: string): Dtype {
  return DTYPES.find((t) => t.name === name)!;
}

/** The content of a model file: a kind (e.g. "parser", "tagger"), JSON metadata and named typed arrays. */
export interface ModelData {
  kind: string;
  meta: Record<string, unknown>;
  arrays: Record<string, ModelArray>;
}

/** Directory entry of one stored array. */
interface ArrayEntry {
  name: string;
  dtype: string;
  /** Version 1: byte offset in the payload's array area. */
  offset: number;
  length: number;
  /**
   * Bytes stored plane by plane (all first bytes, then all second bytes, …): integer arrays of
   * weights and index deltas have mostly-constant high bytes, which then compress far better
   * (the parser's arrays shrink by about 13%). Version 2 stores every multi-byte integer array so.
   */
  planar?: boolean;
  /** Version 2: length of the array's deflate stream. */
  bytes?: number;
}

/** Whether arrays of this type are stored byte-planar (multi-byte integers; floats compress worse). */
function storedPlanar(a: { BYTES_PER_ELEMENT: number }): boolean {
  return a.BYTES_PER_ELEMENT > 1 && !(a instanceof Float32Array || a instanceof Float64Array);
}

/** Whether a dtype is stored byte-planar (see `storedPlanar`). */
function dtypePlanar(t: Dtype): boolean {
  return t.bytes > 1 && t.name[0] !== "f";
}

/** Writes the bytes of `src` (elements of `width` bytes) into `dst` plane by plane. */
function toPlanes(src: Uint8Array, width: number, dst: Uint8Array): void {
  const n = src.length / width;
  for (let j = 0; j < width; j++) {
    const base = j * n;
    for (let i = 0; i < n; i++) dst[base + i] = src[i * width + j]!;
  }
}

/**
 * Inverse of `toPlanes`, into `dst` (whose byte offset must be a multiple of `width`): one store per
 * element for 2- and 4-byte elements (model files are little-endian, as are the typed arrays of
 * every platform Node runs on).
 */
function fromPlanes(src: Uint8Array, width: number, dst: Uint8Array): void {
  const n = src.length / width;
  if (width === 2) {
    const out = new Uint16Array(dst.buffer, dst.byteOffset, n);
    for (let i = 0; i < n; i++) out[i] = src[i]! | (src[n + i]! << 8);
  } else if (width === 4) {
    const out = new Int32Array(dst.buffer, dst.byteOffset, n);
    const n2 = 2 * n;
    const n3 = 3 * n;
    for (let i = 0; i < n; i++)
      out[i] = src[i]! | (src[n + i]! << 8) | (src[n2 + i]! << 16) | (src[n3 + i]! << 24);
  } else {
    for (let j = 0; j < width; j++) {
      const base = j * n;
      for (let i = 0; i < n; i++) dst[i * width + j] = src[base + i]!;
    }
  }
}

/**
 * Serializes a model in the current container layout (version 2; `version` 1 writes the old one,
 * which every reader understands): magic, format version, flags, payload length, CRC-32 of the
 * payload, then the payload: the deflated JSON header (kind, meta, array directory), then one
 * deflate stream per array, of its segments (see `encodeArray`).
 */
export function encodeModel(model: ModelData, version = MODEL_FORMAT_VERSION): Uint8Array {
  if (version === 1) return encodeV1(model);
  if (version !== 2) throw new RangeError(`cannot write model format version ${version}`);
  const names = Object.keys(model.arrays).sort();
  const dir: ArrayEntry[] = [];
  const streams: Uint8Array[] = [];
  let bodyBytes = 0;
  for (const name of names) {
    const a = model.arrays[name]!;
    const stream = encodeArray(a);
    streams.push(stream);
    bodyBytes += stream.length;
    // `offset` is meaningless in version 2 (streams follow each other in directory order).
    dir.push({ name, dtype: DTYPES[dtypeOf(a)]!.name, offset: 0, length: a.length, bytes: stream.length });
  }
  const json = Buffer.from(
    JSON.stringify({ kind: model.kind, meta: model.meta, segmentBytes: SEGMENT_BYTES, arrays: dir }),
    "utf8",
  );
  const { deflateRawSync, crc32 } = node().zlib;
  const jsonZ = deflateRawSync(json, { level: 6 });
  const len = 8 + jsonZ.length + bodyBytes;
  const out = new Uint8Array(HEADER_BYTES + len);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(8, 2, true);
  view.setUint32(12, 1, true); // flags: bit 0 = compressed
  view.setUint32(16, len, true);
  view.setUint32(HEADER_BYTES, jsonZ.length, true);
  view.setUint32(HEADER_BYTES + 4, json.length, true);
  out.set(jsonZ, HEADER_BYTES + 8);
  let at = HEADER_BYTES + 8 + jsonZ.length;
  for (const p of streams) {
    out.set(p, at);
    at += p.length;
  }
  view.setUint32(20, crc32(out.subarray(HEADER_BYTES)) >>> 0, true);
  return out;
}

/** Number of elements of `bytes` (elements of `width` bytes) whose bytes are all zero. */
function countZeros(bytes: Uint8Array, width: number): number {
  const n = bytes.length / width;
  let z = 0;
  if (width === 1) {
    for (let i = 0; i < n; i++) if (bytes[i] === 0) z++;
  } else if (width === 2) {
    const v = new Uint16Array(bytes.buffer, bytes.byteOffset, n);
    for (let i = 0; i < n; i++) if (v[i] === 0) z++;
  } else {
    const v = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    const words = width / 4;
    for (let i = 0; i < n; i++) {
      let nz = 0;
      for (let j = 0; j < words; j++) nz |= v[i * words + j]!;
      if (nz === 0) z++;
    }
  }
  return z;
}

/**
 * The deflate stream of one array (version 2): its segments of `SEGMENT_BYTES` one after the other,
 * each a mode byte and then either its elements (byte-planar for multi-byte integers) or, when
 * enough of them are zero, a bitmap of its non-zero elements and those elements only. A masked
 * segment is always shorter than its plain form, so the inflated stream never exceeds the array by
 * more than one byte per segment, and a reader can expand it in place (see `decodeArray`).
 */
function encodeArray(a: ModelArray): Buffer {
  const width = a.BYTES_PER_ELEMENT;
  const planar = storedPlanar(a);
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += SEGMENT_BYTES) {
    const seg = bytes.subarray(at, Math.min(bytes.length, at + SEGMENT_BYTES));
    const n = seg.length / width;
    const mapBytes = Math.ceil(n / 8);
    const zeros = countZeros(seg, width);
    let raw: Uint8Array;
    if (zeros * width >= 2 * mapBytes) {
      const nnz = n - zeros;
      raw = new Uint8Array(1 + mapBytes + nnz * width);
      raw[0] = SEGMENT_MASKED;
      const packed = new Uint8Array(nnz * width);
      let k = 0;
      for (let i = 0; i < n; i++) {
        let nonZero = false;
        for (let j = 0; j < width; j++) if (seg[i * width + j] !== 0) nonZero = true;
        if (!nonZero) continue;
        raw[1 + (i >> 3)] |= 1 << (i & 7);
        for (let j = 0; j < width; j++) packed[k * width + j] = seg[i * width + j]!;
        k++;
      }
      const vals = raw.subarray(1 + mapBytes);
      if (planar) toPlanes(packed, width, vals);
      else vals.set(packed);
    } else {
      raw = new Uint8Array(1 + seg.length);
      raw[0] = SEGMENT_PLAIN;
      if (planar) toPlanes(seg, width, raw.subarray(1));
      else raw.set(seg, 1);
    }
    parts.push(raw);
  }
  return node().zlib.deflateRawSync(Buffer.concat(parts), { level: 6 });
}

/** Serializes a model in container version 1: one gzip stream of the JSON header and 8-byte-aligned arrays. */
function encodeV1(model: ModelData): Uint8Array {
  const names = Object.keys(model.arrays).sort();
  const dir: ArrayEntry[] = [];
  let offset = 0;
  for (const name of names) {
    const a = model.arrays[name]!;
    const e: ArrayEntry = { name, dtype: DTYPES[dtypeOf(a)]!.name, offset, length: a.length };
    if (storedPlanar(a)) e.planar = true;
    dir.push(e);
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const json = Buffer.from(JSON.stringify({ kind: model.kind, meta: model.meta, arrays: dir }), "utf8");
  const jsonPadded = Math.ceil((4 + json.length) / 8) * 8;
  const raw = new Uint8Array(jsonPadded + offset);
  new DataView(raw.buffer).setUint32(0, json.length, true);
  raw.set(json, 4);
  for (let i = 0; i < names.length; i++) {
    const a = model.arrays[names[i]!]!;
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const at = jsonPadded + dir[i]!.offset;
    if (dir[i]!.planar === true) toPlanes(bytes, a.BYTES_PER_ELEMENT, raw.subarray(at, at + bytes.length));
    else raw.set(bytes, at);
  }
  const { gzipSync, crc32 } = node().zlib;
  const payload = gzipSync(raw, { level: 6 });
  const out = new Uint8Array(HEADER_BYTES + payload.length);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(8, 1, true);
  view.setUint32(12, 1, true); // flags: bit 0 = gzip
  view.setUint32(16, payload.length, true);
  view.setUint32(20, crc32(payload) >>> 0, true);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** Bytes of a model file, read by position: the whole file in memory, or an open file read piece by piece. */
interface ByteSource {
  readonly size: number;
  /** `length` bytes at `position`; valid until the next call. */
  read(position: number, length: number): Uint8Array;
}

/** Parses bytes written by `encodeModel`, with one clear error for truncated, corrupted or foreign files. */
export function decodeModel(bytes: Uint8Array, file = "<model>", expectedKind?: string): ModelData {
  return decodeFrom(bytesSource(bytes), file, expectedKind, nodeInflater()).model;
}

/** Bytes in memory as a `ByteSource`. */
function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (position, length) => bytes.subarray(position, position + length) };
}

/**
 * The buffer that holds a segment's stored form while `decodeArray` expands it, for decoding
 * `entries`: never longer than a segment, nor than the largest of the arrays.
 */
function segmentScratch(entries: readonly ArrayEntry[], segmentBytes: number): Uint8Array {
  let largest = 0;
  for (const d of entries) largest = Math.max(largest, d.length * dtypeNamed(d.dtype).bytes);
  return new Uint8Array(Math.min(largest, segmentBytes));
}

/** Arrays a reader leaves compressed (see `readModelFileDeferring`), with what decoding them needs. */
interface DeferredStream {
  entry: ArrayEntry;
  /** The array's deflate stream (a copy of its bytes in the file). */
  stream: Uint8Array;
}

/**
 * Arrays of a model file that `readModelFileDeferring` read but did not decode: their compressed
 * bytes (already covered by the file's checksum), decoded by `take` when they are first needed.
 */
export class DeferredArrays {
  private streams: DeferredStream[];
  private decoded: Record<string, ModelArray>;

  constructor(
    private readonly file: string,
    private readonly segmentBytes: number,
    private readonly inflater: Inflater,
    streams: DeferredStream[],
    /** Arrays that could not be deferred (a version-1 file is one stream: all of it is decoded). */
    decoded: Record<string, ModelArray> = {},
  ) {
    this.streams = streams;
    this.decoded = decoded;
  }

  /** Names of the arrays. */
  get names(): string[] {
    return [...this.streams.map((d) => d.entry.name), ...Object.keys(this.decoded)];
  }

  /**
   * Decodes the arrays `select` names (default: all; each as `readModelFile` would) and hands them
   * over: this object keeps nothing of them, so asking again for the same arrays returns none.
   */
  take(select: (name: string) => boolean = () => true): Record<string, ModelArray> {
    const arrays: Record<string, ModelArray> = {};
    for (const [name, a] of Object.entries(this.decoded))
      if (select(name)) {
        arrays[name] = a;
        delete this.decoded[name];
      }
    const taken = this.streams.filter((d) => select(d.entry.name));
    this.streams = this.streams.filter((d) => !select(d.entry.name));
    const scratch = segmentScratch(
      taken.map((d) => d.entry),
      this.segmentBytes,
    );
    for (const { entry, stream } of taken)
      arrays[entry.name] = decodeArray(stream, entry, this.segmentBytes, scratch, this.file, this.inflater);
    return arrays;
  }
}

/** A decoded model and the arrays left compressed (none unless `defer` names some). */
interface Decoded {
  model: ModelData;
  deferred: DeferredArrays;
}

/** `decodeModel` over any byte source: header, checksum, then the payload of its version. */
function decodeFrom(
  src: ByteSource,
  file: string,
  expectedKind: string | undefined,
  inflater: Inflater,
  defer: (name: string) => boolean = () => false,
): Decoded {
  const { version, len } = checkContainer(src, file, inflater);
  if (version === 1) {
    const model = decodeV1(src.read(HEADER_BYTES, len), file, expectedKind);
    const kept: Record<string, ModelArray> = {};
    for (const name of Object.keys(model.arrays))
      if (defer(name)) {
        kept[name] = model.arrays[name]!;
        delete model.arrays[name];
      }
    return { model, deferred: new DeferredArrays(file, SEGMENT_BYTES, inflater, [], kept) };
  }
  return decodeV2(src, len, file, expectedKind, inflater, defer);
}

/**
 * Checks a model file's container (magic bytes, format version, payload length, checksum) and
 * returns its version and payload length.
 */
function checkContainer(src: ByteSource, file: string, inflater: Inflater): { version: number; len: number } {
  if (src.size < HEADER_BYTES || !isModelFile(src.read(0, 8))) {
    throw new VineparseError("model-format", "not a vineparse model file", file);
  }
  const head = src.read(0, HEADER_BYTES);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = view.getUint32(8, true);
  if (!READABLE_FORMAT_VERSIONS.includes(version)) {
    throw new VineparseError(
      "model-version",
      `model format version ${version} is not supported (this vineparse reads versions 1 to ${MODEL_FORMAT_VERSION}); retrain or convert the model`,
      file,
    );
  }
  const len = view.getUint32(16, true);
  const crc = view.getUint32(20, true);
  if (src.size < HEADER_BYTES + len) {
    throw new VineparseError(
      "model-truncated",
      `model file is truncated (${src.size} of ${HEADER_BYTES + len} bytes)`,
      file,
    );
  }
  if (src.size > HEADER_BYTES + len) {
    throw new VineparseError("model-corrupt", "model file has trailing bytes", file);
  }
  let c = 0;
  for (let at = 0; at < len; at += CRC_PIECE)
    c = inflater.crc32(src.read(HEADER_BYTES + at, Math.min(CRC_PIECE, len - at)), c);
  if (c >>> 0 !== crc) {
    throw new VineparseError("model-corrupt", "model file is corrupted (checksum mismatch)", file);
  }
  if (version === 1 && nodeSide === null)
    throw new VineparseError(
      "model-version",
      "model format version 1 is read on Node.js only; rewrite it in the current version with scripts/upgrade-model",
      file,
    );
  return { version, len };
}

/** The error for a model of another kind than the caller expects. */
function checkKind(kind: string, expectedKind: string | undefined, file: string): void {
  if (expectedKind !== undefined && kind !== expectedKind) {
    throw new VineparseError("model-kind", `expected a ${expectedKind} model, found a ${kind} model`, file);
  }
}

/** Decodes a version-1 payload (one gzip stream); every array gets its own buffer. */
function decodeV1(payload: Uint8Array, file: string, expectedKind: string | undefined): ModelData {
  const { raw, header, jsonLen } = inflatePayload(payload, file);
  checkKind(header.kind, expectedKind, file);
  const base = Math.ceil((4 + jsonLen) / 8) * 8;
  const arrays: Record<string, ModelArray> = {};
  for (const d of header.arrays) {
    const t = dtypeNamed(d.dtype);
    const bytes = d.length * t.bytes;
    if (d.offset < 0 || base + d.offset + bytes > raw.length || d.offset % 8 !== 0) {
      throw new VineparseError("model-corrupt", `array ${d.name} lies outside the model file`, file);
    }
    // A buffer per array (not views of one body): arrays a loader only reads on its way to another
    // form can be freed while the ones it keeps live on.
    const a = new t.ctor(d.length);
    const src = raw.subarray(base + d.offset, base + d.offset + bytes);
    const dst = new Uint8Array(a.buffer, 0, bytes);
    if (d.planar === true) fromPlanes(src, t.bytes, dst);
    else dst.set(src);
    arrays[d.name] = a;
  }
  return { kind: header.kind, meta: header.meta, arrays };
}

/**
 * Decodes a version-2 payload: the JSON header, then each array from its own deflate stream,
 * inflated straight into the buffer the returned array lives in and expanded there; the largest
 * streams first, so that memory beyond the arrays is at most one compressed stream (read from a
 * file into one buffer) and a few segments.
 */
function decodeV2(
  src: ByteSource,
  len: number,
  file: string,
  expectedKind: string | undefined,
  inflater: Inflater,
  defer: (name: string) => boolean,
): Decoded {
  const { header, starts } = layoutV2(src, len, file, inflater);
  checkKind(header.kind, expectedKind, file);
  const order = header.arrays
    .map((_, i) => i)
    .sort((i, j) => header.arrays[j]!.bytes! - header.arrays[i]!.bytes!);
  const decoded: (ModelArray | null)[] = new Array<ModelArray | null>(header.arrays.length).fill(null);
  const deferred: DeferredStream[] = [];
  const scratch = segmentScratch(
    header.arrays.filter((d) => !defer(d.name)),
    header.segmentBytes!,
  );
  for (const i of order) {
    const d = header.arrays[i]!;
    // A copy: the bytes read may be a buffer the next read reuses (Buffer's slice would not copy).
    if (defer(d.name)) deferred.push({ entry: d, stream: new Uint8Array(src.read(starts[i]!, d.bytes!)) });
    else
      decoded[i] = decodeArray(
        src.read(starts[i]!, d.bytes!),
        d,
        header.segmentBytes!,
        scratch,
        file,
        inflater,
      );
  }
  const arrays: Record<string, ModelArray> = {};
  header.arrays.forEach((d, i) => {
    if (decoded[i] !== null) arrays[d.name] = decoded[i]!;
  });
  return {
    model: { kind: header.kind, meta: header.meta, arrays },
    deferred: new DeferredArrays(file, header.segmentBytes!, inflater, deferred),
  };
}

/** Where a version-2 payload's header stream lies, and the size it declares (checked against the payload). */
function headerStreamV2(src: ByteSource, len: number, file: string): { jsonZ: number; jsonLen: number } {
  if (len < 8) throw corrupt(file, "payload too short");
  const lens = src.read(HEADER_BYTES, 8);
  const lensView = new DataView(lens.buffer, lens.byteOffset, 8);
  const jsonZ = lensView.getUint32(0, true);
  const jsonLen = lensView.getUint32(4, true);
  if (8 + jsonZ > len) throw corrupt(file, "payload too short for its header");
  if (jsonLen > MAX_INFLATE_RATIO * jsonZ + 64)
    throw corrupt(file, `declared header size ${jsonLen} is impossible for ${jsonZ} compressed bytes`);
  return { jsonZ, jsonLen };
}

/** The checked JSON header of a version-2 payload and the file position of each array's stream. */
function layoutV2(
  src: ByteSource,
  len: number,
  file: string,
  inflater: Inflater,
): { header: PayloadHeader; starts: number[] } {
  const { jsonZ, jsonLen } = headerStreamV2(src, len, file);
  const json = inflateExactly(src.read(HEADER_BYTES + 8, jsonZ), jsonLen, file, inflater);
  const header = parseHeader(json, 0, jsonLen, file, 2);
  const starts: number[] = [];
  let total = 8 + jsonZ;
  for (const d of header.arrays) {
    starts.push(HEADER_BYTES + total);
    total += d.bytes!;
  }
  if (total !== len) throw corrupt(file, `its arrays need ${total} bytes but the payload has ${len}`);
  return { header, starts };
}

/** The bytes an array's stream may inflate to: the array and one slack byte per segment, rounded up to 8. */
function streamCap(d: ArrayEntry, segmentBytes: number): number {
  const size = d.length * dtypeNamed(d.dtype).bytes;
  return Math.ceil(Math.ceil(size / segmentBytes) / 8) * 8 + size;
}

/** Inflates a raw-deflate stream that must give exactly `size` bytes (never more are produced). */
function inflateExactly(input: Uint8Array, size: number, file: string, inflater: Inflater): Uint8Array {
  let out: Uint8Array;
  try {
    out = inflater.inflateRaw(input, size);
  } catch (e) {
    if (e instanceof RangeError) throw corrupt(file, `header inflates beyond its declared ${size} bytes`);
    throw corrupt(file, "cannot decompress its header");
  }
  if (out.length !== size) throw corrupt(file, `header inflates to ${out.length} bytes, not ${size}`);
  return out;
}

/**
 * One array of a version-2 file from its deflate stream. The stream inflates into a buffer that
 * keeps `slack` bytes (≥ one per segment, rounded up to 8) in front of the array's place, so the
 * stored segments, each at most one byte longer than its expanded form, can be expanded in place
 * from the last to the first: a segment never overwrites stored bytes that are still to be read.
 */
function decodeArray(
  input: Uint8Array,
  d: ArrayEntry,
  segmentBytes: number,
  scratch: Uint8Array,
  file: string,
  inflater: Inflater,
): ModelArray {
  const t = dtypeNamed(d.dtype);
  const width = t.bytes;
  const what = `array ${d.name}`;
  const size = d.length * width;
  const segs = Math.ceil(size / segmentBytes);
  const cap = streamCap(d, segmentBytes);
  const slack = cap - size;
  let out: Uint8Array;
  try {
    out = inflater.inflateRaw(input, cap);
  } catch (e) {
    if (e instanceof RangeError) throw corrupt(file, `${what} inflates beyond its size`);
    throw corrupt(file, `cannot decompress ${what}`);
  }
  if (size === 0) {
    if (out.length !== 0) throw corrupt(file, `${what} inflates beyond its size`);
    return new t.ctor(0);
  }
  // The inflated bytes normally sit at the start of a buffer of cap + 1 bytes (the output buffer
  // asked for); otherwise they are copied into one.
  let buf: Uint8Array;
  if (out.byteOffset === 0 && out.buffer.byteLength >= cap && out.buffer instanceof ArrayBuffer)
    buf = new Uint8Array(out.buffer, 0, cap);
  else {
    buf = new Uint8Array(cap);
    buf.set(out);
  }
  const stored = out.length;
  // Where each stored segment starts (forward pass: masked segments' lengths follow from their bitmaps).
  const at = new Int32Array(segs + 1);
  const perSeg = segmentBytes / width;
  let pos = 0;
  for (let s = 0; s < segs; s++) {
    at[s] = pos;
    const n = Math.min(perSeg, d.length - s * perSeg);
    if (pos >= stored) throw corrupt(file, `${what} is cut short`);
    const mode = buf[pos]!;
    if (mode === SEGMENT_PLAIN) pos += 1 + n * width;
    else if (mode === SEGMENT_MASKED) {
      const mapBytes = Math.ceil(n / 8);
      if (pos + 1 + mapBytes > stored) throw corrupt(file, `${what} is cut short`);
      let nnz = 0;
      for (let b = pos + 1; b < pos + 1 + mapBytes; b++) nnz += popcount8(buf[b]!);
      // A masked segment must be shorter than its plain form (the in-place expansion relies on it).
      if (((n & 7) !== 0 && buf[pos + mapBytes]! >> (n & 7) !== 0) || mapBytes + nnz * width > n * width)
        throw corrupt(file, `${what} has a bad bitmap`);
      pos += 1 + mapBytes + nnz * width;
    } else throw corrupt(file, `${what} has a bad segment`);
  }
  at[segs] = pos;
  if (pos !== stored)
    throw corrupt(file, `${what} inflates to ${stored} bytes, not the ${pos} its segments need`);
  const planar = dtypePlanar(t);
  for (let s = segs - 1; s >= 0; s--) {
    const n = Math.min(perSeg, d.length - s * perSeg);
    const from = at[s]! + 1;
    const to = slack + s * segmentBytes;
    const storedLen = at[s + 1]! - from;
    if (buf[at[s]!] === SEGMENT_PLAIN && !planar) {
      buf.copyWithin(to, from, from + storedLen);
      continue;
    }
    const tmp = scratch;
    tmp.set(buf.subarray(from, from + storedLen));
    const dst = buf.subarray(to, to + n * width);
    if (buf[at[s]!] === SEGMENT_PLAIN) fromPlanes(tmp.subarray(0, storedLen), width, dst);
    else {
      const mapBytes = Math.ceil(n / 8);
      dst.fill(0);
      const nnz = (storedLen - mapBytes) / width;
      scatter(tmp.subarray(0, mapBytes), tmp.subarray(mapBytes, storedLen), nnz, width, planar, dst);
    }
  }
  return new t.ctor(buf.buffer as ArrayBuffer, slack, d.length);
}

/** Number of set bits of a byte. */
function popcount8(x: number): number {
  x = x - ((x >> 1) & 0x55);
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
}

/** Writes the `nnz` packed elements of `vals` to the positions of `dst` whose bits are set in `map`. */
function scatter(
  map: Uint8Array,
  vals: Uint8Array,
  nnz: number,
  width: number,
  planar: boolean,
  dst: Uint8Array,
): void {
  let k = 0;
  if (width === 2 && planar) {
    const out = new Uint16Array(dst.buffer, dst.byteOffset, dst.length / 2);
    for (let b = 0; b < map.length; b++) {
      let x = map[b]!;
      for (let i = b * 8; x !== 0; i++, x >>= 1) {
        if ((x & 1) === 0) continue;
        out[i] = vals[k]! | (vals[nnz + k]! << 8);
        k++;
      }
    }
    return;
  }
  for (let b = 0; b < map.length; b++) {
    let x = map[b]!;
    for (let i = b * 8; x !== 0; i++, x >>= 1) {
      if ((x & 1) === 0) continue;
      for (let j = 0; j < width; j++) dst[i * width + j] = planar ? vals[j * nnz + k]! : vals[k * width + j]!;
      k++;
    }
  }
}

/** A one-line error for a model file whose content is damaged. */
function corrupt(file: string, what: string): VineparseError {
  return new VineparseError("model-corrupt", `model file is corrupted (${what})`, file);
}

/** The decoded JSON header of a model payload. */
interface PayloadHeader {
  kind: string;
  /** Version 2: bytes per segment of an array (a power of two from 2^8 to 2^24). */
  segmentBytes?: number;
  meta: Record<string, unknown>;
  arrays: ArrayEntry[];
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * Whether `bytes` is a plausible stream length for `length` elements of `t`: deflate cannot shrink
 * data more than about 1:1040, and even an all-zero array stores a mode byte and a bitmap per segment.
 */
function validStream(bytes: unknown, length: number, t: Dtype, segmentBytes: number): boolean {
  if (!Number.isSafeInteger(bytes) || (bytes as number) < 1) return false;
  const segs = Math.ceil((length * t.bytes) / segmentBytes);
  const least = segs + Math.ceil(length / 8);
  return least <= (bytes as number) * MAX_INFLATE_RATIO;
}

/** Parses and checks the JSON header (kind, meta, array directory) of container version `version`. */
function parseHeader(
  raw: Uint8Array,
  at: number,
  jsonLen: number,
  file: string,
  version: number,
): PayloadHeader {
  let h: unknown;
  try {
    h = JSON.parse(new TextDecoder().decode(raw.subarray(at, at + jsonLen)));
  } catch {
    throw corrupt(file, "bad JSON header");
  }
  if (!isPlainObject(h) || typeof h.kind !== "string" || !isPlainObject(h.meta) || !Array.isArray(h.arrays))
    throw corrupt(file, "header lacks kind, meta or the array directory");
  const segmentBytes = h.segmentBytes as number;
  if (
    version === 2 &&
    !(
      Number.isSafeInteger(segmentBytes) &&
      segmentBytes >= 1 << 8 &&
      segmentBytes <= 1 << 24 &&
      (segmentBytes & (segmentBytes - 1)) === 0
    )
  )
    throw corrupt(file, "bad segment size");
  const names = new Set<string>();
  for (const d of h.arrays as unknown[]) {
    if (
      !isPlainObject(d) ||
      typeof d.name !== "string" ||
      !DTYPES.some((t) => t.name === d.dtype) ||
      !Number.isSafeInteger(d.offset) ||
      (d.offset as number) < 0 ||
      (d.offset as number) % 8 !== 0 ||
      !Number.isSafeInteger(d.length) ||
      (d.length as number) < 0 ||
      (d.planar !== undefined && typeof d.planar !== "boolean") ||
      (version === 2 &&
        !validStream(d.bytes, d.length as number, dtypeNamed(d.dtype as string), segmentBytes)) ||
      d.name === "__proto__" ||
      names.has(d.name)
    )
      throw corrupt(file, "bad array directory");
    names.add(d.name);
  }
  return h as unknown as PayloadHeader;
}

/**
 * Inflates a version-1 model payload without ever producing more bytes than it declares: the size
 * recorded in the gzip trailer (RFC 1952 ISIZE, covered by the file's checksum; every model file has
 * it). The JSON header is inflated and checked first, and the declared size must match its array
 * directory, so a small file cannot make the reader allocate more than the model it describes.
 */
function inflatePayload(
  payload: Uint8Array,
  file: string,
): { raw: Buffer; header: PayloadHeader; jsonLen: number } {
  const { gunzipSync, constants } = node().zlib;
  if (payload.length < 18) throw corrupt(file, "payload too short");
  const declared = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(
    payload.length - 4,
    true,
  );
  if (declared < 8 || declared > MAX_INFLATE_RATIO * payload.length)
    throw corrupt(file, `declared size ${declared} is impossible for ${payload.length} compressed bytes`);
  const inflate = (input: Uint8Array, partial: boolean): Buffer => {
    try {
      return gunzipSync(input, {
        maxOutputLength: declared,
        ...(partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
      });
    } catch (e) {
      if (e instanceof RangeError) throw corrupt(file, `inflates beyond its declared ${declared} bytes`);
      throw corrupt(file, "cannot decompress");
    }
  };
  // The header first, from a growing prefix of the compressed bytes (a prefix of n bytes cannot
  // inflate to more than about 1032·n bytes, so a garbage header is caught early).
  let part: Buffer;
  for (let prefix = 1 << 12; ; prefix *= 4) {
    const whole = prefix >= payload.length;
    part = inflate(whole ? payload : payload.subarray(0, prefix), !whole);
    if (part.length >= 4 && part.length >= 4 + part.readUInt32LE(0)) break;
    if (whole) throw corrupt(file, "payload too short for its header");
  }
  const jsonLen = part.readUInt32LE(0);
  const header = parseHeader(part, 4, jsonLen, file, 1);
  let size = Math.ceil((4 + jsonLen) / 8) * 8;
  const base = size;
  for (const d of header.arrays) {
    const bytes = d.length * dtypeNamed(d.dtype).bytes;
    size = Math.max(size, base + d.offset + Math.ceil(bytes / 8) * 8);
  }
  if (size !== declared)
    throw corrupt(file, `its arrays need ${size} bytes but the payload declares ${declared}`);
  const raw = part.length === declared ? part : inflate(payload, false);
  if (raw.length !== declared) throw corrupt(file, `payload too short (${raw.length} of ${declared} bytes)`);
  return { raw, header, jsonLen };
}

/**
 * Builds a model object from decoded content with `build`, turning any failure other than a
 * `VineparseError` (a field or array its kind needs is missing or malformed) into one line:
 * "model file is corrupted (…)"; errors that name no file are given the model's.
 */
export function fromModelContent<T>(file: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof VineparseError) {
      if (e.file !== undefined) throw e;
      throw new VineparseError(e.code, e.message, file);
    }
    throw corrupt(file, `${e instanceof Error ? e.message : String(e)}`.split("\n")[0]!);
  }
}

/** Writes a model file atomically (temp file + rename). */
export function writeModelFile(path: string, model: ModelData): void {
  node().files.writeFileAtomic(path, encodeModel(model));
}

/**
 * Reads and checks a model file; `expectedKind` guards against loading e.g. a tagger as a parser.
 * Version-2 files are read piece by piece: memory beyond the arrays returned stays near one chunk.
 */
export function readModelFile(path: string, expectedKind?: string): ModelData {
  return readModelFileDeferring(path, expectedKind).model;
}

/**
 * `readModelFile` that leaves the arrays `defer` names compressed, for `DeferredArrays.take` to decode
 * when (if ever) they are needed: a pipeline bundle's tagger, say, when its input is already tagged.
 * The whole file is checked as `readModelFile` checks it; only the deferred arrays' own layout (their
 * segments) is checked later, when they are decoded.
 */
export function readModelFileDeferring(
  path: string,
  expectedKind?: string,
  defer?: (name: string) => boolean,
): { model: ModelData; deferred: DeferredArrays } {
  const f = new (node().files.PositionalFile)(path, "model file");
  try {
    return decodeFrom(f, path, expectedKind, nodeInflater(), defer);
  } finally {
    f.close();
  }
}

/** Whether `bytes` start like a vineparse model file (its magic bytes). */
export function isModelFile(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Stores a mostly-zero weight vector compactly: indices and values of its non-zero entries. */
export function sparsify(w: Float32Array): { index: Int32Array; value: Float32Array } {
  let nz = 0;
  for (let i = 0; i < w.length; i++) if (w[i] !== 0) nz++;
  const index = new Int32Array(nz);
  const value = new Float32Array(nz);
  let k = 0;
  for (let i = 0; i < w.length; i++) {
    if (w[i] !== 0) {
      index[k] = i;
      value[k++] = w[i]!;
    }
  }
  return { index, value };
}

/** Inverse of `sparsify`. */
export function densify(index: Int32Array, value: Float32Array, size: number): Float32Array {
  const w = new Float32Array(size);
  for (let k = 0; k < index.length; k++) w[index[k]!] = value[k]!;
  return w;
}

/** A weight vector stored compactly: delta-coded indices of non-zero entries and 16-bit quantized values. */
export interface PackedWeights {
  /** Gaps between successive non-zero indices (the first is the index itself). */
  delta: Uint32Array;
  /** Values divided by `scale`, rounded. */
  value: Int16Array;
  /** Quantization step. */
  scale: number;
}

/** The 16-bit quantization step of a weight vector: max |w| / 32767 (1 for an all-zero vector). */
function quantizationStep(w: Float32Array): number {
  let max = 0;
  for (let i = 0; i < w.length; i++) {
    const a = Math.abs(w[i]!);
    if (a > max) max = a;
  }
  return max > 0 ? max / 32767 : 1;
}

/**
 * Packs a weight vector for storage: entries are quantized to 16 bits (step = max |w| / 32767);
 * entries that round to 0 are dropped. Delta-coded indices compress far better than raw ones.
 */
export function packWeights(w: Float32Array): PackedWeights {
  const scale = quantizationStep(w);
  let nz = 0;
  for (let i = 0; i < w.length; i++) if (Math.round(w[i]! / scale) !== 0) nz++;
  const delta = new Uint32Array(nz);
  const value = new Int16Array(nz);
  let k = 0;
  let last = 0;
  for (let i = 0; i < w.length; i++) {
    const q = Math.round(w[i]! / scale);
    if (q === 0) continue;
    delta[k] = i - last;
    value[k++] = q;
    last = i;
  }
  return { delta, value, scale };
}

/** Inverse of `packWeights` (up to quantization). */
export function unpackWeights(p: PackedWeights, size: number): Float32Array {
  return floatWeights(int16FromPacked(p, size));
}

/** The weights as they will be after a save/load round trip (quantized like `packWeights`). */
export function quantizeWeights(w: Float32Array): Float32Array {
  return unpackWeights(packWeights(w), w.length);
}

/** 16-bit weights and the factor that turns their sums into scores. */
export interface QuantizedWeights {
  weights: Int16Array;
  scale: number;
}

/** The 16-bit form of (already quantized) weights: integers and their common step. */
export function int16Weights(w: Float32Array): QuantizedWeights {
  const scale = quantizationStep(w);
  const q = new Int16Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i]! / scale);
  return { weights: q, scale };
}

/**
 * Whether packed weights expand into a table of `size` entries (`int16FromPacked` would not throw):
 * as many values as gaps, and every index below the size. Reads the gaps only.
 */
export function packedFits(p: PackedWeights, size: number): boolean {
  if (p.value.length !== p.delta.length) return false;
  let i = 0;
  for (let k = 0; k < p.delta.length; k++) i += p.delta[k]!;
  return i < size;
}

/** Expands packed weights straight into their 16-bit table (no float pass). */
export function int16FromPacked(p: PackedWeights, size: number): QuantizedWeights {
  const q = new Int16Array(size);
  let i = 0;
  for (let k = 0; k < p.delta.length; k++) {
    i += p.delta[k]!;
    if (i >= size) throw new RangeError("packed weights exceed the vector size");
    q[i] = p.value[k]!;
  }
  return { weights: q, scale: p.scale };
}

/** Float weights of a 16-bit table (each integer times the scale). */
export function floatWeights(q: QuantizedWeights): Float32Array {
  const w = new Float32Array(q.weights.length);
  for (let i = 0; i < w.length; i++) w[i] = q.weights[i]! * q.scale;
  return w;
}

/** Packs a 16-bit weight table for storage (delta-coded indices of its non-zero entries), keeping its scale. */
export function packInt16(q: QuantizedWeights): PackedWeights {
  const w = q.weights;
  let nz = 0;
  for (let i = 0; i < w.length; i++) if (w[i] !== 0) nz++;
  const delta = new Uint32Array(nz);
  const value = new Int16Array(nz);
  let k = 0;
  let last = 0;
  for (let i = 0; i < w.length; i++) {
    if (w[i] === 0) continue;
    delta[k] = i - last;
    value[k++] = w[i]!;
    last = i;
  }
  return { delta, value, scale: q.scale };
}

/**
 * Decodes a model file's bytes where Node's zlib is not available (a browser, say), as `decodeModel`
 * does, with the same checks and the same one-line errors (the wording of a damaged deflate stream's
 * may differ): the checksum by a CRC-32 of our own, and each deflate stream inflated by the platform's
 * `DecompressionStream`, one at a time, into the buffer its array is then expanded in.
 */
export async function decodeModelBytes(
  bytes: Uint8Array,
  file = "<model>",
  expectedKind?: string,
): Promise<ModelData> {
  const src = bytesSource(bytes);
  const inflated = new Map<number, Uint8Array | Error>();
  const lookup: Inflater = {
    crc32: jsCrc32,
    inflateRaw: (input, max) => {
      const r = inflated.get(input.byteOffset - bytes.byteOffset);
      if (r === undefined) throw new Error("stream not inflated");
      if (r instanceof Error) throw r;
      if (r.length > max) throw new RangeError("stream inflates beyond its size");
      return r;
    },
  };
  const { version, len } = checkContainer(src, file, lookup);
  // Version 1 (one gzip stream) is only reached on Node (`checkContainer` refuses it elsewhere).
  if (version === 1) return decodeFrom(src, file, expectedKind, nodeInflater()).model;
  const { jsonZ, jsonLen } = headerStreamV2(src, len, file);
  const at = HEADER_BYTES + 8;
  inflated.set(at, await inflateRawAsync(src.read(at, jsonZ), jsonLen));
  const { header, starts } = layoutV2(src, len, file, lookup);
  checkKind(header.kind, expectedKind, file);
  for (let i = 0; i < header.arrays.length; i++) {
    const d = header.arrays[i]!;
    inflated.set(
      starts[i]!,
      await inflateRawAsync(src.read(starts[i]!, d.bytes!), streamCap(d, header.segmentBytes!)),
    );
  }
  const { model } = decodeV2(src, len, file, expectedKind, lookup, () => false);
  inflated.clear();
  return model;
}

/**
 * Inflates a raw deflate stream with `DecompressionStream` into a buffer of `max + 1` bytes (so that
 * the array can be expanded where it lies): the bytes, a RangeError when the stream gives more than
 * `max`, or the stream's error.
 */
async function inflateRawAsync(input: Uint8Array, max: number): Promise<Uint8Array | Error> {
  const out = new Uint8Array(max + 1);
  let n = 0;
  try {
    const ds = new DecompressionStream("deflate-raw");
    const writer = ds.writable.getWriter();
    writer.write(input as Uint8Array<ArrayBuffer>).catch(() => undefined);
    writer.close().catch(() => undefined);
    const reader = ds.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (n + value.length > max) {
        reader.cancel().catch(() => undefined);
        return new RangeError("stream inflates beyond its size");
      }
      out.set(value, n);
      n += value.length;
    }
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
  return out.subarray(0, n);
}
