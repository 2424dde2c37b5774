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
