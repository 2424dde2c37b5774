// Writes the English word vectors of the bundled model (see scripts/glove.ts) as a vineparse vector
// table, for `vineparse tagger train --vectors` and `vineparse tag --jackknife K --vectors`:
//
//   npm run build-vectors -- [--out models/en_vectors.vpm] [--words 100000] [--embeddings F.json]
//
// Deterministic: the same input gives a byte-identical file.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeModelFile } from "../src/model/model-file.js";
import { GLOVE_PACKAGE, loadGlove } from "./glove.js";

const repo = resolve(import.meta.dirname, "..", "..");
const { values } = parseArgs({
  options: { embeddings: { type: "string" }, words: { type: "string" }, out: { type: "string" } },
});
const maxWords = Number(values.words ?? 100000);
const out = values.out ?? join(repo, "models", "en_vectors.vpm");
const log = (s: string) => process.stderr.write(`${s}\n`);
const table =
  values.embeddings === undefined ? loadGlove(maxWords, log) : loadGlove(maxWords, log, values.embeddings);
writeModelFile(out, table.toModelData({ source: GLOVE_PACKAGE, words: table.size }));
log(`wrote ${out}: ${table.size} words × ${table.dim} dimensions`);
