import type { FilterKind } from "./kind.js";
import { jointKind } from "./kind-joint.js";
import { lenVineKind } from "./kind-lenvine.js";
import { linearKind } from "./kind-linear.js";
import { quadraticKind } from "./kind-quadratic.js";
import { rulesKind } from "./kind-rules.js";
import { tagVineKind } from "./kind-tagvine.js";
import { topKKind } from "./kind-topk.js";

/** Every filter kind `vineparse filter train` knows, in the order the usage text lists them. */
export const FILTER_KINDS: readonly FilterKind[] = [
  lenVineKind,
  tagVineKind,
  rulesKind,
  linearKind,
  quadraticKind,
  jointKind,
  topKKind,
];
