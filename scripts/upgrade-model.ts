// Rewrites a model file (pipeline bundle, parser or tagger) in the current container version and
// weight layouts: `npm run build --silent && node dist/scripts/upgrade-model.js IN [OUT]` (OUT
// defaults to IN). Nothing is retrained: the weights, tables and metadata are carried over as loaded.
import { VineparseError } from "../src/errors.js";
import { readModelFile } from "../src/model/model-file.js";
import { parserFromModel } from "../src/parser/load-parser.js";
import { BUNDLE_KIND, bundleFromModelData, writeBundle } from "../src/pipeline/bundle.js";
import { TAGGER_KIND, Tagger } from "../src/tagger/tagger.js";

const [input, output = input] = process.argv.slice(2);
if (input === undefined) {
  process.stderr.write("usage: node dist/scripts/upgrade-model.js IN [OUT]\n");
  process.exit(2);
}
try {
  const m = readModelFile(input);
  if (m.kind === BUNDLE_KIND) writeBundle(output!, bundleFromModelData(m, input));
  else if (m.kind === "parser") parserFromModel(m, input).save(output!);
  else if (m.kind === TAGGER_KIND) Tagger.fromModelData(m, input).save(output!);
  else throw new VineparseError("model-kind", `cannot upgrade a ${m.kind} model`, input);
} catch (e) {
  if (!(e instanceof VineparseError)) throw e;
  process.stderr.write(`upgrade-model: ${e.message}\n`);
  process.exit(1);
}
