/** An error a user can cause (bad input, missing file, bad model); the CLI prints its message and exits non-zero. */
export class VineparseError extends Error {
  /** Machine-readable error class, e.g. "conllu-columns", "no-file". */
  readonly code: string;
  /** File the error refers to, if any. */
  readonly file: string | undefined;
  /** 1-based line number in `file`, if any. */
  readonly line: number | undefined;

  constructor(code: string, message: string, file?: string, line?: number) {
    const where = file === undefined ? "" : line === undefined ? `${file}: ` : `${file}:${line}: `;
    super(where + message);
    this.name = "VineparseError";
    this.code = code;
    this.file = file;
    this.line = line;
  }
}
