import type { FeatureSentence } from "../features/feature-sentence.js";
import { BOS } from "../features/feature-sentence.js";
import { dirDist } from "../features/first-order.js";
import { mixTemplates, type TemplateTable, templateTable } from "../features/templates.js";

/**
 * Per word of a tree: XPOS atom of its leftmost left child and rightmost right child (BOS if none),
 * the word atom of its leftmost left child (BOS if none), child count.
 */
export class ChildSummary {
  leftTag = new Int32Array(0);
  rightTag = new Int32Array(0);
  leftWord = new Int32Array(0);
  count = new Int32Array(0);

  /** Fills the summary for the tree `heads` over the words of `x` (one pass over the sentence). */
  fill(x: FeatureSentence, heads: ArrayLike<number>): this {
    const n = x.n;
    if (this.count.length < n + 1) {
      this.leftTag = new Int32Array(2 * (n + 1));
      this.rightTag = new Int32Array(2 * (n + 1));
      this.leftWord = new Int32Array(2 * (n + 1));
      this.count = new Int32Array(2 * (n + 1));
    }
    this.leftTag.fill(BOS, 0, n + 1);
    this.rightTag.fill(BOS, 0, n + 1);
    this.leftWord.fill(BOS, 0, n + 1);
    this.count.fill(0, 0, n + 1);
    const P = x.xpos;
    for (let i = 1; i <= n; i++) {
      const h = heads[i]!;
      if (h < 0) continue;
      if (i < h && this.leftTag[h] === BOS) {
        this.leftTag[h] = P[i]!;
        this.leftWord[h] = x.word[i]!;
      }
      if (i > h) this.rightTag[h] = P[i]!;
      this.count[h]!++;
    }
    return this;
  }
}

/** Maximum number of features `labelFeatures` emits for one arc. */
export const MAX_LABEL_FEATURES = 32;

// Atoms of an arc for its label features, as indices into the vector `labelFeatures` fills.
const HW = 0; // head word
const HP = 1; // head XPOS
const MW = 2; // modifier word
const MP = 3; // modifier XPOS
const HC = 4; // head UPOS
const MC = 5; // modifier UPOS
const DD = 6; // direction and binned distance
const MPL = 7; // XPOS left of the modifier
const MPR = 8; // XPOS right of the modifier
const LC = 9; // XPOS of the modifier's leftmost left child (BOS if none)
const RC = 10; // XPOS of the modifier's rightmost right child
const HPL = 11; // XPOS left of the head (BOS at the root)
const HPR = 12; // XPOS right of the head
const KIDS = 13; // the modifier's number of children, 3 for three or more
const MF = 14; // the modifier's 5-character prefix
const ROOT = 15; // 1 when the head is the root
const LCW = 16; // word of the modifier's leftmost left child (BOS if none)

/** The label templates of feature set 1 (seed, atoms), in the features' order. */
const SET1 = [
  [1, HW],
  [2, HP],
  [3, MW],
  [4, MP],
  [5, HP, MP],
  [6, HW, MP],
  [7, HP, MW],
  [8, HC, MC, DD],
  [9, DD],
  [10, MP, MPL],
  [11, MP, MPR],
  [12, HP, MP, DD],
  [13, MW, DD],
  [14, MP, LC, RC],
  [15, HP, MP, LC],
  [16, HP, MP, RC],
  [17, HPL, HP, MP],
  [18, HP, HPR, MP],
  [19, HW, MW, DD],
  [20, MC, KIDS, DD],
  [21, MF, HC],
  [22, ROOT, MC],
] as const;

/**
 * The label templates of each label feature set (`labelTemplates`). Set 2 adds the head's and the
 * modifier's UPOS with the word of the modifier's leftmost left child, often the preposition, case
 * marker or determiner that tells obl from obj, nmod from compound, mark from advmod (en_ewt dev,
 * labels of the bundle's trees: about 0.4 LAS-P more than set 1).
 */
const LABEL_SETS = [templateTable(SET1), templateTable([...SET1, [23, HC, MC, LCW]])];

/** The newest label feature set, which training writes. */
export const LABEL_FEATURE_SET = 2;

/** Label feature sets a model may name (models without one use set 1). */
export const LABEL_FEATURE_SETS: readonly number[] = [1, 2];

/** The templates of label feature set `set` (1 or 2). */
export function labelTemplates(set: number): TemplateTable {
  const t = LABEL_SETS[set - 1];
  if (t === undefined) throw new RangeError(`no label feature set ${set}`);
  return t;
}

const labelAtoms = new Int32Array(17);

/**
 * Features for labelling arc h→m given the whole predicted tree (summarized in `kids`): words and tags of head and
 * modifier, their neighbours, direction/distance, and the modifier's leftmost/rightmost child tags
 * (and, with set 2's `templates`, the word of its leftmost left child).
 * Indices are feature-row numbers (hash & rowMask); the label is added by the caller.
 */
export function labelFeatures(
  x: FeatureSentence,
  kids: ChildSummary,
  h: number,
  m: number,
  out: Int32Array,
  rowMask: number,
  templates: TemplateTable = LABEL_SETS[0]!,
): number {
  const P = x.xpos;
  const a = labelAtoms;
  a[HW] = x.word[h]!;
  a[HP] = P[h]!;
  a[MW] = x.word[m]!;
  a[MP] = P[m]!;
  a[HC] = x.upos[h]!;
  a[MC] = x.upos[m]!;
  a[DD] = dirDist(h, m);
  a[MPL] = P[m - 1]!;
  a[MPR] = P[m + 1]!;
  a[LC] = kids.leftTag[m]!;
  a[RC] = kids.rightTag[m]!;
  a[HPL] = h > 0 ? P[h - 1]! : BOS;
  a[HPR] = P[h + 1]!;
  const nKids = kids.count[m]!;
  a[KIDS] = nKids > 3 ? 3 : nKids;
  a[MF] = x.prefix[m]!;
  a[ROOT] = h === 0 ? 1 : 0;
  a[LCW] = kids.leftWord[m]!;
  return mixTemplates(templates, a, out, 0, true, rowMask);
}
