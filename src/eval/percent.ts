/** 100 · part / whole, or 0 when `whole` is 0 (an empty corpus scores 0, never NaN). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (100 * part) / whole;
}

/** Rounds to `digits` decimals (2 by default), for printing percentages in JSON and tables. */
export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
