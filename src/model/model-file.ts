import { constants, crc32, gunzipSync, gzipSync } from "node:zlib";
import { VineparseError } from "../errors.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { readFileBytes } from "../util/read-file.js";

/** Magic bytes at the start of every vineparse model file. */
const MAGIC = "VINEPARS";
/** Version of the container layout; bump when the layout changes incompatibly. */
export const MODEL_FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 4 + 4 + 4 + 4;
/** Deflate cannot shrink data by more than about 1032:1; a payload claiming more is corrupt. */
const MAX_INFLATE_RATIO = 1040;

/** A typed array that can be stored in a model file. */
export type ModelArray =
  Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array | Int8Array | Uint16Array | Int16Array;

const DTYPES: {
  name: string;
  ctor: new (b: ArrayBuffer, o: number, l: number) => ModelArray;
  bytes: number;
}[] = [
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
  offset: number;
  length: number;
  /**
   * Bytes stored plane by plane (all first bytes, then all second bytes, …): integer arrays of
   * weights and index deltas have mostly-constant high bytes, which then compress far better
   * (the parser's arrays shrink by about 13%).
   */
  planar?: boolean;
}

/** Whether arrays of this type are stored byte-planar (multi-byte integers; floats compress worse). */
function storedPlanar(a: ModelArray): boolean {
  return a.BYTES_PER_ELEMENT > 1 && !(a instanceof Float32Array || a instanceof Float64Array);
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
 * Serializes a model: magic, format version, flags, payload length, CRC-32 of the payload, then a
 * gzip-compressed payload holding the JSON header (kind, meta, array directory) and 8-byte-aligned
 * arrays (multi-byte integer arrays byte-planar).
 */
export function encodeModel(model: ModelData): Uint8Array {
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
  const payload = gzipSync(raw, { level: 6 });
  const out = new Uint8Array(HEADER_BYTES + payload.length);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(8, MODEL_FORMAT_VERSION, true);
  view.setUint32(12, 1, true); // flags: bit 0 = gzip
  view.setUint32(16, payload.length, true);
  view.setUint32(20, crc32(payload) >>> 0, true);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** Parses bytes written by `encodeModel`, with one clear error for truncated, corrupted or foreign files. */
export function decodeModel(bytes: Uint8Array, file = "<model>", expectedKind?: string): ModelData {
  if (bytes.length < HEADER_BYTES || !isModelFile(bytes)) {
    throw new VineparseError("model-format", "not a vineparse model file", file);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== MODEL_FORMAT_VERSION) {
    throw new VineparseError(
      "model-version",
      `model format version ${version} is not supported (this vineparse reads version ${MODEL_FORMAT_VERSION}); retrain or convert the model`,
      file,
    );
  }
  const len = view.getUint32(16, true);
  if (bytes.length < HEADER_BYTES + len) {
    throw new VineparseError(
      "model-truncated",
      `model file is truncated (${bytes.length} of ${HEADER_BYTES + len} bytes)`,
      file,
    );
  }
  if (bytes.length > HEADER_BYTES + len) {
    throw new VineparseError("model-corrupt", "model file has trailing bytes", file);
  }
  const payload = bytes.subarray(HEADER_BYTES, HEADER_BYTES + len);
  if (crc32(payload) >>> 0 !== view.getUint32(20, true)) {
    throw new VineparseError("model-corrupt", "model file is corrupted (checksum mismatch)", file);
  }
  const { raw, header, jsonLen } = inflatePayload(payload, file);
  if (expectedKind !== undefined && header.kind !== expectedKind) {
    throw new VineparseError(
      "model-kind",
      `expected a ${expectedKind} model, found a ${header.kind} model`,
      file,
    );
  }
  const base = Math.ceil((4 + jsonLen) / 8) * 8;
  // Copy into a fresh, aligned buffer so typed arrays can view it directly.
  const body = new ArrayBuffer(raw.length - base);
  new Uint8Array(body).set(raw.subarray(base));
  const arrays: Record<string, ModelArray> = {};
  for (const d of header.arrays) {
    const t = DTYPES.find((x) => x.name === d.dtype)!;
    const bytes = d.length * t.bytes;
    if (d.offset < 0 || d.offset + bytes > body.byteLength || d.offset % 8 !== 0) {
      throw new VineparseError("model-corrupt", `array ${d.name} lies outside the model file`, file);
    }
    if (d.planar === true) {
      const at = base + d.offset;
      fromPlanes(raw.subarray(at, at + bytes), t.bytes, new Uint8Array(body, d.offset, bytes));
    }
    arrays[d.name] = new t.ctor(body, d.offset, d.length);
  }
  return { kind: header.kind, meta: header.meta, arrays };
}

/** A one-line error for a model file whose content is damaged. */
function corrupt(file: string, what: string): VineparseError {
  return new VineparseError("model-corrupt", `model file is corrupted (${what})`, file);
}

/** The decoded JSON header of a model payload. */
interface PayloadHeader {
  kind: string;
  meta: Record<string, unknown>;
  arrays: ArrayEntry[];
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Parses and checks the JSON header (kind, meta, array directory) at the start of the raw payload. */
function parseHeader(raw: Uint8Array, jsonLen: number, file: string): PayloadHeader {
  let h: unknown;
  try {
    h = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset + 4, jsonLen).toString("utf8"));
  } catch {
    throw corrupt(file, "bad JSON header");
  }
  if (!isPlainObject(h) || typeof h.kind !== "string" || !isPlainObject(h.meta) || !Array.isArray(h.arrays))
    throw corrupt(file, "header lacks kind, meta or the array directory");
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
      d.name === "__proto__" ||
      names.has(d.name)
    )
      throw corrupt(file, "bad array directory");
    names.add(d.name);
  }
  return h as unknown as PayloadHeader;
}

/**
 * Inflates a model payload without ever producing more bytes than it declares: the size recorded in
 * the gzip trailer (RFC 1952 ISIZE, covered by the file's checksum; every model file has it). The
 * JSON header is inflated and checked first, and the declared size must match its array directory,
 * so a small file cannot make the reader allocate more than the model it describes.
 */
function inflatePayload(
  payload: Uint8Array,
  file: string,
): { raw: Buffer; header: PayloadHeader; jsonLen: number } {
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
  const header = parseHeader(part, jsonLen, file);
  let size = Math.ceil((4 + jsonLen) / 8) * 8;
  const base = size;
  for (const d of header.arrays) {
    const bytes = d.length * DTYPES.find((t) => t.name === d.dtype)!.bytes;
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
  writeFileAtomic(path, encodeModel(model));
}

/** Reads and checks a model file; `expectedKind` guards against loading e.g. a tagger as a parser. */
export function readModelFile(path: string, expectedKind?: string): ModelData {
  return decodeModel(readFileBytes(path, "model file"), path, expectedKind);
}

/** Whether `bytes` start like a vineparse model file (its magic bytes). */
export function isModelFile(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString("latin1") === MAGIC;
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
