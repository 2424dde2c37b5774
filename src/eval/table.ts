/** A cell of a printed table: numbers (and numeric strings) are right-aligned, everything else left-aligned. */
export type Cell = string | number | boolean | null | undefined;

/** Options for `formatTable`. */
export interface TableOptions {
  /** Decimals for non-integer numbers (default 2). */
  digits?: number;
  /** Column separator (default two spaces). */
  gap?: string;
}

/** Text of one cell: integers as is, other numbers with `digits` decimals, null/undefined as "-". */
export function formatCell(c: Cell, digits = 2): string {
  if (c === null || c === undefined) return "-";
  if (typeof c === "number") return Number.isInteger(c) ? String(c) : c.toFixed(digits);
  return String(c);
}

const NUMERIC = /^[-+]?[0-9][0-9,]*(\.[0-9]+)?%?$/;

/** Numbers, and strings that read as numbers (e.g. "95.28", "12%"), are right-aligned. */
function isNumeric(c: Cell): boolean {
  return typeof c === "number" || (typeof c === "string" && NUMERIC.test(c));
}

/** Formats rows as an aligned plain-text table with a header line and a rule under it. */
export function formatTable(columns: string[], rows: Cell[][], opts: TableOptions = {}): string {
  const digits = opts.digits ?? 2;
  const gap = opts.gap ?? "  ";
  const text = rows.map((r) => columns.map((_, j) => formatCell(r[j], digits)));
  const right = columns.map((_, j) => rows.length > 0 && rows.every((r) => isNumeric(r[j]) || r[j] == null));
  const width = columns.map((c, j) => Math.max(c.length, ...text.map((r) => r[j]!.length)));
  const pad = (s: string, j: number) => (right[j] ? s.padStart(width[j]!) : s.padEnd(width[j]!));
  const line = (cells: string[]) =>
    cells
      .map((s, j) => pad(s, j))
      .join(gap)
      .trimEnd();
  const out = [line(columns), line(width.map((w) => "-".repeat(w)))];
  for (const r of text) out.push(line(r));
  return out.join("\n") + "\n";
}

/** Formats rows as a GitHub-flavoured markdown table, padded and aligned (numbers right) as Biome formats it. */
export function formatMarkdownTable(columns: string[], rows: Cell[][], opts: TableOptions = {}): string {
  const digits = opts.digits ?? 2;
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const head = columns.map(esc);
  const text = rows.map((r) => columns.map((_, j) => esc(formatCell(r[j], digits))));
  const right = columns.map((_, j) => rows.length > 0 && rows.every((r) => isNumeric(r[j]) || r[j] == null));
  const width = head.map((c, j) => Math.max(3, c.length, ...text.map((r) => r[j]!.length)));
  const pad = (s: string, j: number) => (right[j] ? s.padStart(width[j]!) : s.padEnd(width[j]!));
  const line = (cells: string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const rule = width.map((w, j) => (right[j] ? `${"-".repeat(w - 1)}:` : "-".repeat(w)));
  return [line(head), `| ${rule.join(" | ")} |`, ...text.map(line)].join("\n") + "\n";
}

/** Formats key/value pairs as two aligned columns without a header (numbers right-aligned; for one-object summaries). */
export function formatKeyValues(pairs: [string, Cell][], digits = 2): string {
  const w = Math.max(0, ...pairs.map(([k]) => k.length));
  const vals = pairs.map(([, v]) => formatCell(v, digits));
  const vw = Math.max(0, ...vals.filter((_, i) => isNumeric(pairs[i]![1])).map((v) => v.length));
  const cell = (v: string, i: number) => (isNumeric(pairs[i]![1]) ? v.padStart(vw) : v);
  return pairs.map(([k], i) => `${k.padEnd(w)}  ${cell(vals[i]!, i)}`).join("\n") + "\n";
}
