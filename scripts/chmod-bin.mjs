// Marks the compiled CLI entry point executable (tsc does not preserve modes).
import { chmodSync, existsSync } from "node:fs";

const bin = new URL("../dist/src/cli/main.js", import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
