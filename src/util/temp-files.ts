import { rmSync } from "node:fs";

/**
 * The one process-wide registry of live temporary output files (written, not yet renamed into
 * place). Failures remove their own file; this registry also removes every one of them when the
 * process exits, and, once `removeTempFilesOnSignals()` has been called (the CLI does), on SIGINT
 * (exit 130) and SIGTERM (exit 143).
 *
 * The signal handlers are attached only while a temporary file is live: a JavaScript signal handler
 * runs only when the event loop turns, so a permanent one would make Ctrl-C wait for the end of a
 * long synchronous computation such as training.
 */
const live = new Set<string>();
let onSignals = false;
let attached = false;

function removeAll(): void {
  for (const p of live) rmSync(p, { force: true });
  live.clear();
}

function onSigint(): void {
  removeAll();
  process.exit(130);
}

function onSigterm(): void {
  removeAll();
  process.exit(143);
}

function update(): void {
  const want = live.size > 0;
  if (want === attached) return;
  attached = want;
  if (want) {
    process.on("exit", removeAll);
    if (onSignals) {
      process.on("SIGINT", onSigint);
      process.on("SIGTERM", onSigterm);
    }
  } else {
    process.off("exit", removeAll);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
  }
}

/** Records a temporary file that must not outlive the process (removed on exit and, if enabled, on signals). */
export function registerTempFile(path: string): void {
  live.add(path);
  update();
}

/** Forgets a temporary file (renamed into place or removed by its writer). */
export function releaseTempFile(path: string): void {
  live.delete(path);
  update();
}

/** Paths of the temporary files currently live. */
export function liveTempFiles(): string[] {
  return [...live];
}

/**
 * Makes SIGINT and SIGTERM remove every live temporary file and exit with 130 / 143 (for command-line
 * programs; a library leaves the process's signal handling alone unless asked).
 */
export function removeTempFilesOnSignals(): void {
  onSignals = true;
  attached = false;
  process.off("exit", removeAll);
  update();
}
