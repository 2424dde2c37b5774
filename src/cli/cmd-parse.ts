import { streamConllu } from "../conllu/read.js";
import { formatSentence } from "../conllu/write.js";
import { toSentence } from "../corpus/sentence.js";
import { Vocabularies } from "../corpus/vocab.js";
import { loadParser } from "../parser/load-parser.js";
import { AtomicWriter } from "../util/atomic-write.js";
import { parseCommandArgs, requireOption } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse parse --model MODEL --input F.conllu [--output G.conllu] [--json]

Parses CoNLL-U input with a trained model, using the UPOS/XPOS tags present in the input, and
writes CoNLL-U with HEAD and DEPREL filled in (every other line and column is kept as it was).
Input heads, if any, are ignored. "-" means stdin / stdout (the default output).

options:
  --model FILE     parser model from 'vineparse train'
  --input FILE     CoNLL-U to parse ("-" = stdin)
  --output FILE    where to write the parse (default "-" = stdout; files are written atomically)
  --json           print the closing summary as one JSON line
  --skip-invalid   skip malformed sentences with a warning instead of stopping
  -h, --help       show this help
`;

/** `vineparse parse`: parses CoNLL-U with a trained model. */
export const command: Command = {
  summary: "parse CoNLL-U input with a trained model",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("parse", args, {
      model: { type: "string" },
      input: { type: "string" },
      output: { type: "string" },
      json: { type: "boolean" },
      "skip-invalid": { type: "boolean" },
    });
    const modelPath = requireOption("parse", "model", values.model);
    const input = requireOption("parse", "input", values.input);
    const t0 = process.hrtime.bigint();
    const parser = loadParser(modelPath);
    const loadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const out = new AtomicWriter(values.output ?? "-");
    const vocab = new Vocabularies();
    let sentences = 0;
    let tokens = 0;
    let fallbacks = 0;
    let start = 0n;
    try {
      for await (const r of streamConllu(input, {
        requireTree: false,
        onInvalid: values["skip-invalid"] === true ? "skip" : "abort",
        onWarning: (e) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
      })) {
        if (sentences === 0) start = process.hrtime.bigint();
        const s = toSentence(r, vocab);
        const p = parser.parse(s, vocab);
        const rels = new Array<string>(s.n + 1);
        for (let m = 1; m <= s.n; m++) rels[m] = parser.labels[p.labels[m]!]!;
        out.write(formatSentence(r.sentence, { heads: p.heads, deprels: rels }));
        sentences++;
        tokens += s.n;
        if (p.fallback) fallbacks++;
      }
      out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
    const seconds = sentences === 0 ? 0 : Number(process.hrtime.bigint() - start) / 1e9;
    const summary = {
      sentences,
      tokens,
      seconds: Number(seconds.toFixed(3)),
      tokensPerSecond: seconds > 0 ? Math.round(tokens / seconds) : 0,
      sentencesPerSecond: seconds > 0 ? Math.round(sentences / seconds) : 0,
      loadSeconds: Number(loadSeconds.toFixed(3)),
      fallbacks,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    if (values.json === true) process.stderr.write(JSON.stringify(summary) + "\n");
    else
      process.stderr.write(
        `parsed ${sentences} sentences, ${tokens} tokens in ${summary.seconds} s (${summary.tokensPerSecond} tokens/s, ${summary.sentencesPerSecond} sentences/s; model loaded in ${summary.loadSeconds} s)\n`,
      );
    return 0;
  },
};
