import type { TagColumn } from "../../prune/tag-map.js";
import { choiceOption } from "../args.js";

/** Parses `--tags upos|xpos|auto` (auto, the default, gives undefined: the trainer chooses). */
export function tagColumnOption(value: string | undefined): TagColumn | undefined {
  const c = choiceOption("filter", "tags", value, ["upos", "xpos", "auto"] as const, "auto");
  return c === "auto" ? undefined : c;
}
