import type { FilterKind } from "./kind.js";
import { jointKind } from "./kind-joint.js";
import { linearKind } from "./kind-linear.js";
import { quadraticKind } from "./kind-quadratic.js";
import { topKKind } from "./kind-topk.js";

/** Every filter kind `vineparse filter train` knows, in the order the usage text lists them. */
export const FILTER_KINDS: readonly FilterKind[] = [topKKind, linearKind, quadraticKind, jointKind];
