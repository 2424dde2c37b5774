/** A CLI subcommand module: `src/cli/cmd-<name>.ts` exports one of these as `command`. */
export interface Command {
  /** One-line summary shown by `vineparse --help`. */
  summary: string;
  /** Full usage text shown by `vineparse <name> --help`. */
  usage: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}
