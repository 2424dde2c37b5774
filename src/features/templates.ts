import { finishBits, mix } from "../util/hash.js";

/**
 * A list of hashed feature templates, each a seed followed by the atoms it mixes in, in order: the
 * state of template t is mix(…mix(mix(seed, atoms[a1]), atoms[a2])…), where a1, a2, … index a small
 * per-part atom vector. Feature code keeps its templates in such tables, walked by one small loop
 * (`mixTemplates`) that the JIT inlines `mix` and `finishBits` into, instead of dozens of
 * straight-line call sites, too many to inline (the hashes are the same either way).
 */
export interface TemplateTable {
  /** Number of templates. */
  readonly count: number;
  /** Seed of each template. */
  readonly seed: Int32Array;
  /** Template t mixes the atoms slots[start[t]…start[t + 1]). */
  readonly start: Int32Array;
  /** Atom indices, template after template. */
  readonly slots: Int32Array;
}

/** A table from its rows: [seed, atom index, atom index, …], each with at least one atom. */
export function templateTable(rows: readonly (readonly number[])[]): TemplateTable {
  const count = rows.length;
  const seed = new Int32Array(count);
  const start = new Int32Array(count + 1);
  for (let t = 0; t < count; t++) {
    const row = rows[t]!;
    if (row.length < 2) throw new RangeError("a template needs a seed and at least one atom");
    seed[t] = row[0]!;
    start[t + 1] = start[t]! + row.length - 1;
  }
  const slots = Int32Array.from(rows.flatMap((r) => r.slice(1)));
  return { count, seed, start, slots };
}

/**
 * Writes every template's state at out[k…] (with `finish`, its feature index finishBits(state) & mask
 * instead); returns k + count.
 */
export function mixTemplates(
  table: TemplateTable,
  atoms: Int32Array,
  out: Int32Array,
  k: number,
  finish: boolean,
  mask: number,
): number {
  const { count, seed, start, slots } = table;
  for (let t = 0; t < count; t++) {
    let h = seed[t]!;
    const end = start[t + 1]!;
    for (let j = start[t]!; j < end; j++) h = mix(h, atoms[slots[j]!]!);
    out[k + t] = finish ? finishBits(h) & mask : h;
  }
  return k + count;
}
