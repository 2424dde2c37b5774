import assert from "node:assert/strict";
import { test } from "node:test";
import {
  choiceOption,
  foldOption,
  numberOption,
  parseCommandArgs,
  requireOption,
  UsageError,
} from "../src/cli/args.js";

const isUsage = (pattern: RegExp) => (e: unknown) =>
  e instanceof UsageError && e.code.startsWith("ERR_PARSE_ARGS") && pattern.test(e.message);

test("parseCommandArgs: typed values, positionals, '-' as a positional, limits", () => {
  const { values, positionals } = parseCommandArgs(
    "x",
    ["--json", "-", "--out=f", "-k", "3"],
    { json: { type: "boolean" }, out: { type: "string" }, k: { type: "string", short: "k" } },
    { min: 1, max: 1, name: "FILE" },
  );
  assert.equal(values.json, true);
  assert.equal(values.out, "f");
  assert.equal(values.k, "3");
  assert.deepEqual(positionals, ["-"]);
  assert.throws(
    () => parseCommandArgs("x", [], {}, { min: 1, max: 1, name: "FILE" }),
    isUsage(/x: missing FILE/),
  );
  assert.throws(() => parseCommandArgs("x", ["a"], {}), isUsage(/unexpected argument "a"/));
  assert.throws(
    () => parseCommandArgs("x", ["--nope"], {}),
    (e: unknown) => (e as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION",
  );
});

test("requireOption, numberOption, choiceOption", () => {
  assert.equal(requireOption("x", "gold", "g.conllu"), "g.conllu");
  assert.throws(() => requireOption("x", "gold", undefined), isUsage(/missing required option --gold/));
  assert.equal(numberOption("x", "k", undefined, 5), 5);
  assert.equal(numberOption("x", "k", "0.5", 5), 0.5);
  assert.equal(numberOption("x", "n", "8", 1, { integer: true, min: 1 }), 8);
  assert.throws(() => numberOption("x", "n", "1.5", 1, { integer: true }), isUsage(/--n must be an integer/));
  assert.throws(() => numberOption("x", "n", "0", 1, { min: 1, max: 9 }), isUsage(/≥ 1 and ≤ 9, got "0"/));
  assert.throws(() => numberOption("x", "n", "", 1), isUsage(/must be a number/));
  assert.throws(() => numberOption("x", "n", "abc", 1), isUsage(/must be a number/));
  assert.equal(choiceOption("x", "order", "2", ["1", "2", "3"] as const, "1"), "2");
  assert.equal(choiceOption("x", "order", undefined, ["1", "2"] as const, "1"), "1");
  assert.throws(
    () => choiceOption("x", "order", "4", ["1", "2"] as const, "1"),
    isUsage(/one of 1, 2; got "4"/),
  );
});

test("foldOption: K/N with 0 ≤ K < N and N ≥ 2", () => {
  assert.deepEqual(foldOption("x", "fold", "0/2"), { k: 0, n: 2 });
  assert.deepEqual(foldOption("x", "fold", " 9/10 "), { k: 9, n: 10 });
  for (const bad of ["2/2", "0/1", "1", "a/b", "-1/2", "1/2/3", ""])
    assert.throws(() => foldOption("x", "fold", bad), isUsage(/--fold must be K\/N/), bad);
});
