/** Whether this machine stores numbers little-endian, as WebAssembly memory does. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The bytes of a module written out as lines of hexadecimal byte pairs ("00 61 73 6d …"). */
export function hexBytes(lines: readonly string[]): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(lines.join(" ").split(" "), (h) => parseInt(h, 16));
}

/**
 * A getter of the module compiled from `bytes`, compiled on first call and kept; null where
 * WebAssembly, or an instruction the module uses (SIMD), is missing.
 */
export function lazyModule(bytes: Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
  let mod: WebAssembly.Module | null | undefined;
  return () => {
    if (mod !== undefined) return mod;
    mod = null;
    try {
      if (typeof WebAssembly === "object" && WebAssembly.validate(bytes)) mod = new WebAssembly.Module(bytes);
    } catch {
      mod = null;
    }
    return mod;
  };
}

/** Bytes of n as an unsigned LEB128 number. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/**
 * A module's bytes from the contents of its sections (each as hexadecimal byte pairs, without the
 * section's id and size, which are added here) and its function bodies (each without its size).
 */
export function wasmModuleBytes(parts: {
  type: string;
  imports: string;
  functions: string;
  exports: string;
  bodies: readonly Uint8Array[];
}): Uint8Array<ArrayBuffer> {
  const hex = (s: string) => Array.from(hexBytes([s]));
  const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content];
  const code = [...leb(parts.bodies.length)];
  for (const b of parts.bodies) code.push(...leb(b.length), ...b);
  return Uint8Array.from([
    ...hex("00 61 73 6d 01 00 00 00"),
    ...section(1, hex(parts.type)),
    ...section(2, hex(parts.imports)),
    ...section(3, hex(parts.functions)),
    ...section(7, hex(parts.exports)),
    ...section(10, code),
  ]);
}
