// Issue #13, outputs: devices, FIFOs and symbolic links are never replaced, a full disk is an error,
// interrupted or failed runs leave no temporary file, unwritable outputs are refused before the work,
// and a closed stdout ends the run quietly.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { VineparseError } from "../src/errors.js";
import { AtomicWriter, checkWritable, writeFileAtomic } from "../src/util/atomic-write.js";
import { repoRoot } from "./helpers.js";
import { cli, runCli, runInProcess, startCli, toyModels } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const toy = toyModels();
const tmp = mkdtempSync(join(tmpdir(), "vp-outputs-"));
after(() => {
  toy.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const TEXT = "the big dog saw a cat . every man slept .";

/** A fresh empty directory under the test's temporary directory. */
function fresh(name: string): string {
  return mkdtempSync(join(tmp, `${name}-`));
}

/**
 * A character device like /dev/null (1,3) or /dev/full (1,7). As root, a private node in a temporary
 * directory, so that a broken writer could only ever replace that node; otherwise the real device
 * (which a non-root writer cannot replace).
 */
function device(name: "null" | "full"): string {
  if (process.getuid?.() === 0) {
    const p = join(fresh("dev"), name);
    const r = spawnSync("mknod", [p, "c", "1", name === "null" ? "3" : "7"]);
    if (r.status === 0) return p;
  }
  return `/dev/${name}`;
}

/** Asserts a failed run printed exactly one line matching `re` and no stack trace. */
function oneLineError(r: { status: number | null; stderr: string }, re: RegExp): void {
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, re);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

test("--output to a character device writes into it and leaves the device in place", async () => {
  const dev = device("null");
  const r = await runInProcess(["parse", "--model", toy.bundle, "--text", TEXT, "--output", dev, "--quiet"]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(statSync(dev).isCharacterDevice(), `${dev} is no longer a character device`);
  assert.deepEqual(
    readdirSync(join(dev, "..")).filter((f) => f.endsWith(".tmp") && f.includes("null")),
    [],
  );
});

test("--output to a full device (/dev/full) is a one-line 'no space left' error", async () => {
  const dev = device("full");
  const r = await runInProcess(["parse", "--model", toy.bundle, "--text", TEXT, "--output", dev, "--quiet"]);
  oneLineError(r, /no space left on device/);
  assert.ok(statSync(dev).isCharacterDevice());
  // And through the command line: one line, no stack trace.
  oneLineError(
    runCli(["parse", "--model", toy.bundle, "--text", TEXT, "--output", dev]),
    /no space left on device/,
  );
});

test("--output /dev/stdout writes to the standard output", () => {
  const r = runCli(["parse", "--model", toy.bundle, "--text", TEXT, "--output", "/dev/stdout", "--quiet"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^# sent_id = s1\n# text = the big dog saw a cat \.\n1\tthe\t/);
  assert.ok(lstatSync("/dev/stdout").isSymbolicLink() || statSync("/dev/stdout").isCharacterDevice());
});

test("--output to a FIFO delivers the output to its reader and keeps the FIFO", async () => {
  const dir = fresh("fifo");
  const fifo = join(dir, "pipe");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "ignore"] });
  let got = "";
  reader.stdout.on("data", (d: Buffer) => (got += d.toString("utf8")));
  const readerDone = new Promise<void>((res) => reader.on("close", () => res()));
  // Opening the FIFO waits for `cat` to open it too; the output then goes straight to `cat`.
  const r = await runInProcess(["parse", "--model", toy.bundle, "--text", TEXT, "--output", fifo, "--quiet"]);
  const timer = setTimeout(() => reader.kill(), 3000);
  await readerDone;
  clearTimeout(timer);
  assert.equal(r.status, 0, r.stderr);
  assert.match(got, /# sent_id = s2\n/);
  assert.ok(lstatSync(fifo).isFIFO(), "the FIFO was replaced");
  assert.deepEqual(readdirSync(dir), ["pipe"]);
});

test("--output through a symbolic link replaces the link's target and keeps the link", async () => {
  const dir = fresh("link");
  const other = fresh("target");
  writeFileSync(join(other, "real.conllu"), "old\n");
  symlinkSync(join(other, "real.conllu"), join(dir, "link.conllu"));
  const out = join(dir, "link.conllu");
  const r = await runInProcess(["parse", "--model", toy.bundle, "--text", TEXT, "--output", out, "--quiet"]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(lstatSync(join(dir, "link.conllu")).isSymbolicLink(), "the link was replaced by a file");
  assert.equal(readlinkSync(join(dir, "link.conllu")), join(other, "real.conllu"));
  assert.match(readFileSync(join(other, "real.conllu"), "utf8"), /^# sent_id = s1\n/);
  assert.deepEqual(readdirSync(dir), ["link.conllu"]);
  assert.deepEqual(readdirSync(other), ["real.conllu"]);
  // A dangling link: the file it names is created.
  symlinkSync("new.conllu", join(dir, "dangling.conllu"));
  writeFileAtomic(join(dir, "dangling.conllu"), "new\n");
  assert.ok(lstatSync(join(dir, "dangling.conllu")).isSymbolicLink());
  assert.equal(readFileSync(join(dir, "new.conllu"), "utf8"), "new\n");
});

test("a regular file keeps its permissions when replaced", () => {
  const dir = fresh("mode");
  const path = join(dir, "out.conllu");
  writeFileSync(path, "old\n", { mode: 0o640 });
  writeFileAtomic(path, "new\n");
  assert.equal(statSync(path).mode & 0o777, 0o640);
  assert.equal(readFileSync(path, "utf8"), "new\n");
  assert.deepEqual(readdirSync(dir), ["out.conllu"]);
});

/** Interrupts `parse --raw - --output F` once its temporary file exists; returns its exit and what is left. */
async function interrupt(signal: "SIGINT" | "SIGTERM") {
  const dir = fresh(signal);
  const out = join(dir, "out.conllu");
  const p = startCli(["parse", "--model", toy.bundle, "--raw", "-", "--output", out, "--quiet"]);
  let stderr = "";
  p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((res) =>
    p.on("close", (c, s) => res({ code: c, signal: s })),
  );
  p.stdin.write(`${TEXT}\n\n`);
  // Wait until the output's temporary file exists (the model is loaded and writing has begun).
  const t0 = Date.now();
  while (readdirSync(dir).length === 0 && Date.now() - t0 < 10_000)
    await new Promise((r) => setTimeout(r, 20));
  const during = readdirSync(dir).length;
  await new Promise((r) => setTimeout(r, 50));
  p.kill(signal);
  const exit = await exited;
  p.stdin.destroy();
  return { during, exit, left: readdirSync(dir), stderr };
}

test("SIGINT / SIGTERM during parse --output F remove the temporary file (exit 130 / 143)", async () => {
  const [int, term] = await Promise.all([interrupt("SIGINT"), interrupt("SIGTERM")]);
  for (const [r, code] of [
    [int, 130],
    [term, 143],
  ] as const) {
    assert.equal(r.during, 1, "no temporary file appeared");
    assert.deepEqual(r.exit, { code, signal: null }, r.stderr);
    assert.deepEqual(r.left, [], "the temporary file (or a partial output) is left");
    assert.equal(r.stderr, "");
  }
});

test("a failed rename removes the temporary file and is a one-line error", () => {
  const dir = fresh("rename");
  const path = join(dir, "out.conllu");
  const w = new AtomicWriter(path);
  w.write("1\ta\n".repeat(30_000));
  // The target turns into a non-empty directory while the output is written: the rename must fail.
  mkdirSync(path);
  writeFileSync(join(path, "x"), "");
  assert.throws(
    () => w.commit(),
    (e: unknown) => e instanceof VineparseError && e.code === "write-failed" && !e.message.includes("\n"),
  );
  assert.deepEqual(readdirSync(dir), ["out.conllu"]);
});

test("checkWritable: directories, missing directories and read-only places are refused up front", () => {
  const dir = fresh("check");
  const bad = (p: string, re: RegExp) =>
    assert.throws(
      () => checkWritable(p),
      (e: unknown) => e instanceof VineparseError && e.code === "write-failed" && re.test(e.message),
    );
  bad(dir, /is a directory/);
  bad(join(dir, "no", "such", "m.model"), /directory .* does not exist/);
  writeFileSync(join(dir, "file"), "");
  bad(join(dir, "file", "m.model"), /is not a directory/);
  checkWritable(join(dir, "new.model"));
  checkWritable("-");
  assert.deepEqual(readdirSync(dir), ["file"]);
});

test("every writing command checks --output / --out before the work starts", async () => {
  const dir = fresh("precheck");
  const missing = join(dir, "no", "such", "out");
  const cases: [string[], RegExp][] = [
    [["parse", "--model", toy.bundle, "--text", TEXT, "--output", dir], /is a directory/],
    [["parse", "--model", toy.bundle, "--text", TEXT, "--output", missing], /does not exist/],
    [["tag", "--model", toy.bundle, "--input", toy.train, "--output", missing], /does not exist/],
    [["tag", "--jackknife", "2", "--input", toy.train, "--output", dir], /is a directory/],
    [["train", "--train", toy.train, "--out", dir, "--epochs", "1"], /is a directory/],
    [["train", "--train", toy.train, "--out", missing, "--epochs", "1"], /does not exist/],
    [["tagger", "train", "--train", toy.train, "--out", missing, "--epochs", "1"], /does not exist/],
  ];
  for (const [args, re] of cases) {
    const r = await runInProcess(args);
    oneLineError(r, re);
    assert.doesNotMatch(
      r.stderr,
      /epoch|training on|fold/,
      `${args.join(" ")}: work started before the check`,
    );
  }
  // The model builder too (it would otherwise train for a quarter of an hour first).
  const b = spawnSync(
    process.execPath,
    [join(repoRoot, "dist", "scripts", "build-model.js"), "--out", missing, "--ud", join(dir, "nowhere")],
    { encoding: "utf8" },
  );
  oneLineError(b, /build-model: .*does not exist/);
  assert.deepEqual(readdirSync(dir), []);
});

test("a closed stdout (… | head) ends the run quietly: exit 141, no stack trace", () => {
  const big = join(fresh("epipe"), "big.conllu");
  writeFileSync(big, toyTreebank(1000, 3));
  for (const cmd of [`"${process.execPath}" "${cli}" tag --model "${toy.bundle}" --input "${big}"`]) {
    const r = spawnSync("bash", ["-c", `${cmd} | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`], {
      encoding: "utf8",
    });
    assert.equal(r.stdout.trim(), "141", r.stderr);
    assert.equal(r.stderr, "", "something was printed");
  }
  assert.ok(existsSync(big));
});
