import { closeSync, openSync, readSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { VineparseError } from "../errors.js";

/** The package root (dist/src/view → three levels up), holding web/ and dist/src/. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Options of `startViewServer`. */
export interface ViewServerOptions {
  /** The model file served at /model (a bundle or a bare parser). */
  model: string;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 8080; 0 = any free port). */
  port?: number;
  /** Directory holding web/ and dist/src/ (default the package root). */
  root?: string;
}

/** A running view server. */
export interface ViewServer {
  /** The page's address, e.g. "http://127.0.0.1:8080/". */
  url: string;
  /** The port listened on (the one chosen when 0 was asked). */
  port: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Content types of the files the server hands out, by extension. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/** Headers sent with every response: nothing cached (models and code change under a running server), nothing sniffed. */
const COMMON_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
};

/** Magic bytes at the start of every vineparse model file. */
const MODEL_MAGIC = "VINEPARS";

/** Checks that `path` is a readable vineparse model file, or throws a one-line `VineparseError` naming it. */
function checkModelFile(path: string): void {
  let fd: number;
  try {
    if (!statSync(path).isFile()) throw new VineparseError("no-file", "not a file", path);
    fd = openSync(path, "r");
  } catch (e) {
    if (e instanceof VineparseError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const what = code === "ENOENT" ? "no such file" : `cannot read the file (${code ?? String(e)})`;
    throw new VineparseError("no-file", what, path);
  }
  try {
    const head = Buffer.alloc(MODEL_MAGIC.length);
    const got = readSync(fd, head, 0, head.length, 0);
    if (got < head.length || head.toString("latin1") !== MODEL_MAGIC)
      throw new VineparseError("model-format", "not a vineparse model file", path);
  } finally {
    closeSync(fd);
  }
}

/**
 * The file a request path names, or null (→ 404): "/" is web/index.html, "/web/…" a file under web/,
 * "/dist/src/…" a .js or .js.map file under dist/src/. Any "..", "." or empty segment, backslash or
 * NUL, raw or percent-encoded, is refused.
 */
export function resolveStatic(root: string, rawPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (path === "/" || path === "/index.html") return join(root, "web", "index.html");
  if (/[\\\0]/.test(path) || /%/.test(path)) return null;
  const segments = path.split("/").slice(1);
  if (segments.some((s) => s === "" || s === "." || s === "..")) return null;
  let base: string;
  if (segments[0] === "web" && segments.length >= 2) {
    base = join(root, "web");
  } else if (segments[0] === "dist" && segments[1] === "src" && segments.length >= 3) {
    if (!(path.endsWith(".js") || path.endsWith(".js.map"))) return null;
    base = join(root, "dist", "src");
  } else {
    return null;
  }
  const file = resolve(root, ...segments);
  return file.startsWith(base + sep) ? file : null;
}

/** Sends a short plain-text response. */
function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  extra: Record<string, string> = {},
): void {
  const body = Buffer.from(text + "\n", "utf8");
  res.writeHead(status, {
    ...COMMON_HEADERS,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": body.length,
    ...extra,
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/** Sends a file's bytes (404 when it cannot be read as a file). */
async function sendFile(res: ServerResponse, file: string, type: string): Promise<void> {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    sendText(res, 404, "not found");
    return;
  }
  res.writeHead(200, { ...COMMON_HEADERS, "Content-Type": type, "Content-Length": body.length });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/** Answers one request. */
async function handle(root: string, model: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendText(res, 405, "method not allowed", { Allow: "GET, HEAD" });
    return;
  }
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  if (!rawPath.startsWith("/")) {
    sendText(res, 404, "not found");
    return;
  }
  if (rawPath === "/model") {
    await sendFile(res, model, "application/octet-stream");
    return;
  }
  const file = resolveStatic(root, rawPath);
  if (file === null) {
    sendText(res, 404, "not found");
    return;
  }
  await sendFile(res, file, TYPES[extname(file)] ?? "application/octet-stream");
}

/** The URL of a listening address ("[::1]" for IPv6). */
function urlOf(host: string, port: number): string {
  const h = host.includes(":") ? `[${host}]` : host;
  return `http://${h}:${port}/`;
}

/**
 * Starts the HTTP server of `vineparse view`: the page (/ and /web/*), the compiled modules it
 * imports (/dist/src/**.js), and the model's bytes (/model). Refuses path traversal (404) and any
 * method but GET and HEAD (405). Throws a one-line `VineparseError` if the model is missing or not a
 * model file, or the address cannot be listened on (e.g. a port in use).
 */
export async function startViewServer(opts: ViewServerOptions): Promise<ViewServer> {
  const root = opts.root ?? PACKAGE_ROOT;
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8080;
  const model = resolve(opts.model);
  checkModelFile(model);
  const server: Server = createServer((req, res) => {
    handle(root, model, req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, "internal error");
      else res.destroy();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      const why =
        e.code === "EADDRINUSE"
          ? "address already in use"
          : e.code === "EACCES"
            ? "permission denied"
            : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"
              ? "no such address on this host"
              : (e.code ?? e.message);
      fail(new VineparseError("listen", `view: cannot listen on ${where}: ${why}`));
    });
    server.listen(port, host, () => ok());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: urlOf(host, actual),
    port: actual,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
