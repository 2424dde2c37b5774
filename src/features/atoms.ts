import { hashString } from "../util/hash.js";

/** Atom for the position before the first token (the root's left neighbour). */
export const BOS = hashString("<s>");
/** Atom for the position after the last token. */
export const EOS = hashString("</s>");
