import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, test } from "node:test";
import { startViewServer } from "../src/view/server.js";
import { repoRoot } from "./helpers.js";
import { cli, runCli, startCli, toyModels } from "./toy-models.js";

const toy = toyModels();
const server = await startViewServer({ model: toy.bundle, port: 0 });
after(async () => {
  await server.close();
  toy.cleanup();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends one request with `path` exactly as given (no normalisation of "..", unlike fetch). */
function send(port: number, path: string, method = "GET"): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end();
  });
}

test("GET / is the page, which loads the app module", async () => {
  const r = await send(server.port, "/");
  assert.equal(r.status, 200);
  assert.match(String(r.headers["content-type"]), /^text\/html/);
  const html = r.body.toString("utf8");
  assert.equal(html, readFileSync(join(repoRoot, "web", "index.html"), "utf8"));
  assert.match(html, /<script type="module" src="dist\/src\/view\/app\.js"><\/script>/);
  assert.match(html, /id="result-json"/);
  const css = await send(server.port, "/web/style.css");
  assert.equal(css.status, 200);
  assert.match(String(css.headers["content-type"]), /^text\/css/);
});

test("modules under /dist/src are served as text/javascript, byte for byte", async () => {
  for (const path of ["/dist/src/view/app.js", "/dist/src/browser.js", "/dist/src/view/render.js"]) {
    const r = await send(server.port, path);
    assert.equal(r.status, 200, path);
    assert.match(String(r.headers["content-type"]), /^text\/javascript/, path);
    assert.deepEqual(r.body, readFileSync(join(repoRoot, path.slice(1))), path);
  }
  const map = await send(server.port, "/dist/src/view/app.js.map");
  assert.equal(map.status, 200);
  // Only .js and .js.map files, and only under dist/src.
  for (const path of [
    "/dist/src/view/app.d.ts",
    "/dist/test/helpers.js",
    "/dist/src/view/",
    "/dist/src/nope.js",
  ])
    assert.equal((await send(server.port, path)).status, 404, path);
});

test("GET /model gives the model's bytes; HEAD its length only", async () => {
  const bytes = readFileSync(toy.bundle);
  const r = await send(server.port, "/model");
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "application/octet-stream");
  assert.deepEqual(r.body, bytes);
  const h = await send(server.port, "/model", "HEAD");
  assert.equal(h.status, 200);
  assert.equal(Number(h.headers["content-length"]), bytes.length);
  assert.equal(h.body.length, 0);
});

test("path traversal, raw or encoded, is refused with 404", async () => {
  const paths = [
    "/dist/src/../../package.json",
    "/dist/src/view/../../../package.json",
    "/web/../package.json",
    "/web/%2e%2e/package.json",
    "/web/%2E%2E/%2E%2E/etc/passwd",
    "/dist/src/%2e%2e/%2e%2e/package.json",
    "/web/..%2f..%2fpackage.json",
    "/dist/src/..%5c..%5cpackage.json.js",
    "/web/%252e%252e/package.json",
    "/web/./index.html",
    "/web//etc/passwd",
    "/web/%00",
    "/web/%zz",
    "/package.json",
    "/models/en_ewt.vpm",
    "//etc/passwd",
  ];
  for (const p of paths) {
    const r = await send(server.port, p);
    assert.equal(r.status, 404, p);
    assert.doesNotMatch(r.body.toString("utf8"), /"name": "vineparse"|root:/, p);
  }
});

test("methods other than GET and HEAD get 405", async () => {
  for (const method of ["POST", "PUT", "DELETE"]) {
    const r = await send(server.port, "/", method);
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.allow, "GET, HEAD");
  }
});

test("vineparse view prints its address, serves, and stops cleanly on SIGTERM", async () => {
  const child = startCli(["view", "--port", "0", "--model", toy.bundle]);
  let out = "";
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no address printed; stderr: ${err}`)), 20000);
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const m = /^vineparse view: (http:\/\/127\.0\.0\.1:(\d+)\/)\n/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
    child.on("exit", (code) => fail(new Error(`exited with ${code}: ${err}`)));
  });
  const port = Number(new URL(url).port);
  assert.equal((await send(port, "/")).status, 200);
  assert.deepEqual((await send(port, "/model")).body, readFileSync(toy.bundle));
  const code = await new Promise<number | null>((ok) => {
    child.on("exit", (c) => ok(c));
    child.kill("SIGTERM");
  });
  assert.equal(code, 0);
  assert.equal(err, "");
});

/** Checks a CLI run failed with exit status `status` and exactly one line on stderr matching `re`. */
function assertOneLineError(
  r: { status: number | null; stderr: string; stdout: string },
  status: number,
  re: RegExp,
) {
  assert.equal(r.status, status, r.stderr);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, re);
}

test("a missing or bad --model is one line naming the file, and no server", () => {
  const missing = join(toy.dir, "missing.vpm");
  assertOneLineError(
    runCli(["view", "--port", "0", "--model", missing]),
    1,
    new RegExp(`^vineparse: ${missing}: no such file$`),
  );
  const text = join(toy.dir, "not-a-model.txt");
  writeFileSync(text, "hello, world\n");
  assertOneLineError(
    runCli(["view", "--port", "0", "--model", text]),
    1,
    new RegExp(`^vineparse: ${text}: not a vineparse model file$`),
  );
  assertOneLineError(runCli(["view", "--port", "0", "--model", toy.dir]), 1, /: not a file$/);
  assertOneLineError(runCli(["view", "--port", "http"]), 2, /--port must be an integer/);
  assertOneLineError(runCli(["view", "--port", "70000"]), 2, /--port must be an integer/);
  assertOneLineError(runCli(["view", "stray"]), 2, /unexpected argument "stray"/);
});

test("a port in use is a one-line error", () => {
  const r = spawnSync(process.execPath, [cli, "view", "--port", String(server.port), "--model", toy.bundle], {
    encoding: "utf8",
    timeout: 20000,
  });
  assertOneLineError(
    r,
    1,
    new RegExp(`^vineparse: view: cannot listen on 127\\.0\\.0\\.1:${server.port}: address already in use$`),
  );
});

test("vineparse view --help and the command list", () => {
  const h = runCli(["view", "--help"]);
  assert.equal(h.status, 0);
  assert.match(h.stdout, /^usage: vineparse view \[--model FILE\] \[--port N\] \[--host H\]/);
  const all = runCli(["--help"]);
  assert.match(all.stdout, /\n {2}view {7}serve a web page/);
});
