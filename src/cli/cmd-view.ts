import { DEFAULT_MODEL } from "../pipeline/default-model.js";
import { startViewServer } from "../view/server.js";
import { numberOption, parseCommandArgs } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse view [--model FILE] [--port N] [--host H]

Serves a web page that parses text in the browser with a model and shows each sentence's tree, the
arcs each pass of the model's pruning cascade removed, and its CoNLL-U. Prints the page's address,
then runs until interrupted (Ctrl-C).

options:
  --model FILE  model to serve (a bundle of tagger and parser; default the bundled English model)
  --port N      port to listen on (default 8080; 0 = any free port)
  --host H      interface to listen on (default 127.0.0.1)
  -h, --help    show this help
`;

/** Resolves when the process receives SIGINT or SIGTERM (and stops listening for them). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((ok) => {
    const on = (sig: NodeJS.Signals): void => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      ok(sig);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

/** `vineparse view`: the web view of parses and pruning. */
export const command: Command = {
  summary: "serve a web page that parses in the browser and shows trees and pruning",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("view", args, {
      model: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
    });
    const port = numberOption("view", "port", values.port, 8080, { min: 0, max: 65535, integer: true });
    const host = values.host === undefined || values.host === "" ? "127.0.0.1" : values.host;
    const server = await startViewServer({ model: values.model ?? DEFAULT_MODEL, host, port });
    process.stdout.write(`vineparse view: ${server.url}\n`);
    await untilSignal();
    await server.close();
    return 0;
  },
};
