import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { VineparseError } from "../src/errors.js";
import { AtomicWriter, writeFileAtomic } from "../src/util/atomic-write.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-atomic-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("abort leaves neither the target nor a temporary file", () => {
  const dir = mkdtempSync(join(tmp, "abort-"));
  const path = join(dir, "out.conllu");
  const w = new AtomicWriter(path);
  w.write("1\ta\n".repeat(50_000)); // beyond the buffer, so bytes reach the temporary file
  w.writeBytes(new Uint8Array([65, 10]));
  assert.equal(readdirSync(dir).length, 1, "the temporary file exists while writing");
  assert.ok(!existsSync(path), "the target does not exist before commit");
  w.abort();
  assert.deepEqual(readdirSync(dir), []);
  w.abort(); // idempotent
  w.commit(); // no effect after abort
  assert.deepEqual(readdirSync(dir), []);
});

test("abort keeps an existing target untouched; commit replaces it", () => {
  const dir = mkdtempSync(join(tmp, "replace-"));
  const path = join(dir, "model.bin");
  writeFileSync(path, "old");
  const w = new AtomicWriter(path);
  w.write("new");
  w.abort();
  assert.equal(readFileSync(path, "utf8"), "old");
  assert.deepEqual(readdirSync(dir), ["model.bin"]);
  writeFileAtomic(path, "new ő");
  assert.equal(readFileSync(path, "utf8"), "new ő");
  writeFileAtomic(path, new Uint8Array([1, 2, 3]));
  assert.deepEqual([...readFileSync(path)], [1, 2, 3]);
  assert.deepEqual(readdirSync(dir), ["model.bin"]);
});

test("an unwritable location is a VineparseError", () => {
  assert.throws(
    () => new AtomicWriter(join(tmp, "no", "such", "dir", "f")),
    (e: unknown) => e instanceof VineparseError && e.code === "write-failed",
  );
});
