import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { formatSentence } from "../src/conllu/write.js";
import { sharedUd } from "./helpers.js";

test("every shared UD file survives read → write byte for byte", { skip: sharedUd() === null }, () => {
  const root = sharedUd()!;
  for (const tb of readdirSync(root)) {
    for (const split of ["train.conllu", "dev.conllu"]) {
      const path = join(root, tb, split);
      if (!existsSync(path)) continue;
      const text = readFileSync(path, "utf8");
      let out = "";
      for (const r of parseConllu(text, path)) out += formatSentence(r.sentence);
      assert.equal(out.length, text.length, path);
      assert.ok(out === text, `${path} differs after round-trip`);
    }
  }
});
