import { type ParseArgsConfig, parseArgs } from "node:util";

/**
 * A mistake in the command line (missing or malformed option). Its code starts with "ERR_PARSE_ARGS"
 * like node:util's own parse errors, so the dispatcher prints the message on one line and exits 2.
 */
export class UsageError extends Error {
  /** Always "ERR_PARSE_ARGS_USAGE". */
  readonly code = "ERR_PARSE_ARGS_USAGE";

  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The option table of a command, as `node:util` parseArgs takes it. */
export type OptionTable = NonNullable<ParseArgsConfig["options"]>;

/** What `parseCommandArgs` returns: typed option values and the positional arguments. */
export type ParsedCommandArgs<O extends OptionTable> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/** Limits on positional arguments, checked by `parseCommandArgs`. */
export interface PositionalSpec {
  /** Minimum number of positionals (default 0). */
  min?: number;
  /** Maximum number of positionals (default 0: none allowed). */
  max?: number;
  /** How to call them in error messages, e.g. "FILE" (default "argument"). */
  name?: string;
}

/**
 * Parses a command's arguments strictly with `node:util` parseArgs ("-" is a positional, e.g. stdin)
 * and checks the number of positionals, throwing `UsageError` (or parseArgs' own error) on mistakes.
 */
export function parseCommandArgs<O extends OptionTable>(
  command: string,
  args: string[],
  options: O,
  positionals: PositionalSpec = {},
): ParsedCommandArgs<O> {
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  const min = positionals.min ?? 0;
  const max = positionals.max ?? 0;
  const name = positionals.name ?? "argument";
  const got = parsed.positionals.length;
  if (got < min) throw new UsageError(`${command}: missing ${name} (see vineparse ${command} --help)`);
  if (got > max) {
    const extra = parsed.positionals[max];
    throw new UsageError(`${command}: unexpected argument "${extra}" (see vineparse ${command} --help)`);
  }
  return parsed as ParsedCommandArgs<O>;
}

/** Returns a string option that the command cannot run without, or throws a `UsageError` naming it. */
export function requireOption(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === "") {
    throw new UsageError(`${command}: missing required option --${name} (see vineparse ${command} --help)`);
  }
  return value;
}

/** Parses a numeric option value (undefined → `fallback`), throwing a `UsageError` if it is not a number in range. */
export function numberOption(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  range: { min?: number; max?: number; integer?: boolean } = {},
): number {
  if (value === undefined) return fallback;
  const v = value.trim() === "" ? Number.NaN : Number(value);
  const bad =
    !Number.isFinite(v) ||
    (range.integer === true && !Number.isInteger(v)) ||
    (range.min !== undefined && v < range.min) ||
    (range.max !== undefined && v > range.max);
  if (bad) {
    const kind = range.integer === true ? "an integer" : "a number";
    const lo = range.min === undefined ? "" : ` ≥ ${range.min}`;
    const hi = range.max === undefined ? "" : `${lo === "" ? "" : " and"} ≤ ${range.max}`;
    throw new UsageError(`${command}: --${name} must be ${kind}${lo}${hi}, got "${value}"`);
  }
  return v;
}

/** A comma-separated list of α values (`--alpha A[,A…]`), each a number in [−1, 1]. */
export function alphaListOption(command: string, name: string, spec: string): number[] {
  return spec.split(",").map((a) => numberOption(command, name, a.trim(), 0, { min: -1, max: 1 }));
}

/** Parses an enumerated option value (undefined → `fallback`), throwing a `UsageError` listing the choices. */
export function choiceOption<C extends string>(
  command: string,
  name: string,
  value: string | undefined,
  choices: readonly C[],
  fallback: C,
): C {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as C;
  throw new UsageError(`${command}: --${name} must be one of ${choices.join(", ")}; got "${value}"`);
}

/**
 * A fold "K/N" (0 ≤ K < N, N ≥ 2): the sentences whose index i has i mod N = K. `filter train --fold
 * K/N` trains on every other sentence, so that `train --filter-folds` can mask fold K with a filter
 * that never saw it.
 */
export function foldOption(command: string, name: string, value: string): { k: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const k = m === null ? Number.NaN : Number(m[1]);
  const n = m === null ? Number.NaN : Number(m[2]);
  if (!(n >= 2 && k < n))
    throw new UsageError(`${command}: --${name} must be K/N with 0 ≤ K < N and N ≥ 2; got "${value}"`);
  return { k, n };
}
