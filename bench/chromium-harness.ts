// Runs pages in headless Chromium and collects what they post back: for the browser bench and the
// browser tests that need real time (a Web Worker, timings), where `--dump-dom` under a virtual time
// budget would not wait for them. Pages are served with the compiled modules (dist/src, as `vineparse
// view` serves them, and dist/bench), and post one JSON result to /result.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { resolveStatic } from "../src/view/server.js";
import { repoRoot } from "./lib.js";

/** Where Debian's Chromium lives. */
export const CHROMIUM = "/usr/bin/chromium";

/** Content types of what the harness serves, by extension (anything else is bytes). */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** A page server: fixed routes (path → content), the compiled modules, and results by POST /result. */
export interface PageServer {
  /** Base address, e.g. "http://127.0.0.1:41234". */
  origin: string;
  /**
   * Opens `path` in a fresh headless Chromium and resolves with the JSON the page posts to /result
   * (rejects after `timeoutMs`); Chromium is killed either way.
   */
  run(path: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts a page server on a free port of 127.0.0.1. Route contents are read on each request. */
export async function startPageServer(
  routes: Record<string, () => string | Uint8Array>,
  chromium = CHROMIUM,
): Promise<PageServer> {
  let waiting: ((r: unknown) => void) | null = null;
  const send = (res: ServerResponse, status: number, type: string, body: string | Uint8Array): void => {
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "POST" && path === "/result") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        send(res, 200, "text/plain", "ok");
        waiting?.(JSON.parse(body));
        waiting = null;
      });
      return;
    }
    const route = routes[path];
    if (route !== undefined)
      return send(res, 200, TYPES[extname(path)] ?? "application/octet-stream", route());
    const file = path.startsWith("/dist/bench/")
      ? /^\/dist\/bench\/[\w-]+\.js$/.test(path)
        ? join(repoRoot, path)
        : null
      : resolveStatic(repoRoot, path);
    if (file === null || !existsSync(file)) return send(res, 404, "text/plain", "not found");
    send(res, 200, TYPES[".js"]!, readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    async run(path: string, timeoutMs = 300_000): Promise<unknown> {
      const profile = mkdtempSync(join(tmpdir(), "vp-chromium-"));
      const result = new Promise<unknown>((ok) => (waiting = ok));
      const chrome = launchChromium(chromium, origin + path, profile);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () => fail(new Error(`Chromium gave no result in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([result, timeout]);
      } finally {
        clearTimeout(timer);
        waiting = null;
        killGroup(chrome);
        rmSync(profile, { recursive: true, force: true });
      }
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Headless Chromium on `url`, in the profile directory given; killed (its whole process group) by the caller. */
function launchChromium(chromium: string, url: string, profile: string): ChildProcess {
  return spawn(
    chromium,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-extensions",
      `--user-data-dir=${profile}`,
      url,
    ],
    { stdio: "ignore", detached: true },
  );
}

/** Stops a detached process and everything it started. */
function killGroup(p: ChildProcess): void {
  try {
    process.kill(-p.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}
