import { type ConlluSentence, FEATS, FORM, LEMMA, UPOS, XPOS } from "../conllu/types.js";
import { VineparseError } from "../errors.js";
import {
  fromModelContent,
  int16FromPacked,
  int16Weights,
  type ModelData,
  packInt16,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import { hashString } from "../util/hash.js";
import { Rng } from "../util/rng.js";
import { applyRule, parseRuleKey, ruleFor, ruleKey, RuleSet } from "./edit-rule.js";
import { bestInt16, HashedPerceptron } from "./hashed-perceptron.js";

/** Model-file kind of a morphology model (lemmatizer and FEATS tagger). */
export const MORPH_KIND = "morph";
/** Version of the morph model's layout (meta.version). */
export const MORPH_VERSION = 1;

/** Input to the morphology models: forms and (gold or predicted) tags. */
export interface MorphInput {
  words: readonly string[];
  upos: readonly string[];
  xpos: readonly string[];
}

/** A training sentence: input plus gold lemmas and FEATS. */
export interface MorphSentence extends MorphInput {
  lemmas: readonly string[];
  feats: readonly string[];
}

/** Lemmas and FEATS strings, one per word. */
export interface MorphResult {
  lemmas: string[];
  feats: string[];
}

/** The forms, tags, lemmas and FEATS of a CoNLL-U block's basic words. */
export function morphSentence(s: ConlluSentence): MorphSentence {
  return {
    words: s.words.map((c) => c[FORM]!),
    upos: s.words.map((c) => c[UPOS]!),
    xpos: s.words.map((c) => c[XPOS]!),
    lemmas: s.words.map((c) => c[LEMMA]!),
    feats: s.words.map((c) => c[FEATS]!),
  };
}

export interface MorphTrainOptions {
  /** Training epochs (default 10); the best epoch on `dev` is kept, each model separately. */
  epochs?: number;
  /** Hash table bits of each weight table (default 20). */
  bits?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  dev?: readonly MorphSentence[];
  onEpoch?: (p: { epoch: number; seconds: number; dev?: { lemma: number; ufeats: number } }) => void;
}

const MAX_FEATURES = 48;
const MAX_CANDIDATES = 4096;

/** Word shape: letters to X/x, digits to d, runs collapsed (at most 6 symbols). */
function shape(w: string): string {
  let out = "";
  let last = "";
  for (let i = 0; i < w.length && out.length < 6; i++) {
    const ch = w[i]!;
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    const s = ch >= "0" && ch <= "9" ? "d" : lo !== up ? (ch === up ? "X" : "x") : ch.length > 0 ? "." : "";
    if (s !== last) out += s;
    last = s;
  }
  return out;
}

function h(t: string, v: string): number {
  return hashString(t + "\u0001" + v);
}

/** Features of the lemma classifier for word i; returns how many were written. */
function lemmaFeatures(x: MorphInput, i: number, out: Int32Array): number {
  const w = x.words[i]!;
  const lw = w.toLowerCase();
  const u = x.upos[i]!;
  let n = 0;
  out[n++] = h("b", "");
  out[n++] = h("w", lw);
  out[n++] = h("W", w);
  out[n++] = h("u", u);
  out[n++] = h("x", x.xpos[i]!);
  out[n++] = h("s", shape(w));
  out[n++] = h("uw", u + "\u0002" + lw);
  for (let k = 1; k <= 5 && k <= lw.length; k++) {
    const suf = lw.slice(lw.length - k);
    out[n++] = h("S" + k, suf);
    if (k <= 3) out[n++] = h("uS" + k, u + "\u0002" + suf);
  }
  for (let k = 1; k <= 4 && k <= lw.length; k++) out[n++] = h("P" + k, lw.slice(0, k));
  return n;
}

/** Features of the FEATS tagger for word i; returns how many were written. */
function featsFeatures(x: MorphInput, i: number, out: Int32Array): number {
  const w = x.words[i]!;
  const lw = w.toLowerCase();
  const u = x.upos[i]!;
  const at = (a: readonly string[], j: number) => (j < 0 ? "<s>" : j >= a.length ? "</s>" : a[j]!);
  let n = 0;
  out[n++] = h("b", "");
  out[n++] = h("w", lw);
  out[n++] = h("s", shape(w));
  out[n++] = h("u", u);
  out[n++] = h("x", x.xpos[i]!);
  out[n++] = h("ux", u + "\u0002" + x.xpos[i]!);
  out[n++] = h("u-1", at(x.upos, i - 1));
  out[n++] = h("u+1", at(x.upos, i + 1));
  out[n++] = h("u-2", at(x.upos, i - 2));
  out[n++] = h("u+2", at(x.upos, i + 2));
  out[n++] = h("x-1", at(x.xpos, i - 1));
  out[n++] = h("x+1", at(x.xpos, i + 1));
  out[n++] = h("u-1u", at(x.upos, i - 1) + "\u0002" + u);
  out[n++] = h("uu+1", u + "\u0002" + at(x.upos, i + 1));
  out[n++] = h("w-1", at(x.words, i - 1).toLowerCase());
  out[n++] = h("w+1", at(x.words, i + 1).toLowerCase());
  for (let k = 1; k <= 4 && k <= lw.length; k++) {
    const suf = lw.slice(lw.length - k);
    out[n++] = h("S" + k, suf);
    if (k >= 2) out[n++] = h("uS" + k, u + "\u0002" + suf);
  }
  for (let k = 1; k <= 3 && k <= lw.length; k++) out[n++] = h("P" + k, lw.slice(0, k));
  return n;
}

function dictKey(form: string, upos: string): string {
  return form + "\u0001" + upos;
}

/** Whether a training lemma is usable ("_" means unannotated unless the form is "_" itself). */
function hasLemma(form: string, lemma: string): boolean {
  return lemma.length > 0 && (lemma !== "_" || form === "_");
}

/** A trained lemmatizer and FEATS tagger. */
export class MorphModel {
  private readonly lemmaMask: number;
  private readonly featsMask: number;
  private readonly seenForms = new Set<string>();
  private readonly feats = new Int32Array(MAX_FEATURES);
  private readonly cands = new Int32Array(MAX_CANDIDATES);
  private readonly keepRule: number;

  constructor(
    readonly rules: RuleSet,
    /** (form, UPOS) → rule id giving the most frequent training lemma. */
    readonly dictionary: Map<string, number>,
    readonly bundles: string[],
    /** UPOS → ids of the bundles seen with it (ascending). */
    readonly uposBundles: Map<string, Int32Array>,
    readonly bits: number,
    readonly lemmaWeights: Int16Array,
    readonly featsWeights: Int16Array,
  ) {
    this.lemmaMask = (1 << bits) - 1;
    this.featsMask = (1 << bits) - 1;
    for (const k of dictionary.keys()) this.seenForms.add(k.slice(0, k.lastIndexOf("\u0001")));
    this.keepRule = rules.add({ casing: 0, stripPrefix: "", addPrefix: "", stripSuffix: "", addSuffix: "" });
    this.allBundles = Int32Array.from(bundles.keys());
  }

  private readonly allBundles: Int32Array;

  /** Whether the form was seen in training (with any UPOS). */
  seen(form: string): boolean {
    return this.seenForms.has(form);
  }

  /** Lemma of word i. */
  lemma(x: MorphInput, i: number): string {
    const form = x.words[i]!;
    if (form.length === 0) return "_";
    const d = this.dictionary.get(dictKey(form, x.upos[i]!));
    if (d !== undefined) {
      const l = applyRule(this.rules.rules[d]!, form);
      if (l !== null) return l;
    }
    const m = this.rules.applicable(form, this.cands);
    if (m === 0) return form;
    const n = lemmaFeatures(x, i, this.feats);
    const r = bestInt16(this.lemmaWeights, this.lemmaMask, this.feats, n, this.cands, m);
    return applyRule(this.rules.rules[r]!, form) ?? applyRule(this.rules.rules[this.keepRule]!, form) ?? form;
  }

  /** FEATS string of word i. */
  featsOf(x: MorphInput, i: number): string {
    const c = this.uposBundles.get(x.upos[i]!) ?? this.allBundles;
    if (c.length === 0) return "_";
    if (c.length === 1) return this.bundles[c[0]!]!;
    const n = featsFeatures(x, i, this.feats);
    return this.bundles[bestInt16(this.featsWeights, this.featsMask, this.feats, n, c, c.length)]!;
  }

  /** Lemmas and FEATS of a sentence. */
  predict(x: MorphInput): MorphResult {
    const lemmas: string[] = [];
    const feats: string[] = [];
    for (let i = 0; i < x.words.length; i++) {
      lemmas.push(this.lemma(x, i));
      feats.push(this.featsOf(x, i));
    }
    return { lemmas, feats };
  }

  /** Trains both models on gold lemmas and FEATS. */
  static train(train: readonly MorphSentence[], opts: MorphTrainOptions = {}): MorphModel {
    const epochs = opts.epochs ?? 10;
    const bits = opts.bits ?? 20;
    const rules = new RuleSet();
    rules.add({ casing: 0, stripPrefix: "", addPrefix: "", stripSuffix: "", addSuffix: "" });
    const counts = new Map<string, Map<number, number>>();
    const bundleIds = new Map<string, number>();
    const bundles: string[] = [];
    const byUpos = new Map<string, Set<number>>();
    // Per token: gold rule (-1: no lemma), gold bundle.
    let tokens = 0;
    for (const s of train) tokens += s.words.length;
    const goldRule = new Int32Array(tokens);
    const goldBundle = new Int32Array(tokens);
    const uposOfToken: string[] = [];
    let t = 0;
    for (const s of train) {
      for (let i = 0; i < s.words.length; i++, t++) {
        const form = s.words[i]!;
        const lemma = s.lemmas[i]!;
        if (hasLemma(form, lemma) && form.length > 0) {
          const r = rules.add(ruleFor(form, lemma));
          goldRule[t] = r;
          const k = dictKey(form, s.upos[i]!);
          let m = counts.get(k);
          if (m === undefined) counts.set(k, (m = new Map()));
          m.set(r, (m.get(r) ?? 0) + 1);
        } else goldRule[t] = -1;
        const f = s.feats[i]!;
        let b = bundleIds.get(f);
        if (b === undefined) {
          b = bundles.length;
          bundles.push(f);
          bundleIds.set(f, b);
        }
        goldBundle[t] = b;
        uposOfToken.push(s.upos[i]!);
        let set = byUpos.get(s.upos[i]!);
        if (set === undefined) byUpos.set(s.upos[i]!, (set = new Set()));
        set.add(b);
      }
    }
    const dictionary = new Map<string, number>();
    for (const [k, m] of counts) {
      let best = -1;
      let bestCount = 0;
      for (const [r, c] of m) if (c > bestCount) [best, bestCount] = [r, c];
      dictionary.set(k, best);
    }
    const uposBundles = new Map<string, Int32Array>();
    for (const [u, set] of byUpos) uposBundles.set(u, Int32Array.from([...set].sort((a, b) => a - b)));

    // Instances: feature lists and lemma candidates, flat.
    const lemmaFeatStart = new Int32Array(tokens + 1);
    const featsFeatStart = new Int32Array(tokens + 1);
    const candStart = new Int32Array(tokens + 1);
    let lf: Int32Array = new Int32Array(tokens * 16);
    let ff: Int32Array = new Int32Array(tokens * 24);
    let cs: Int32Array = new Int32Array(tokens * 8);
    const buf = new Int32Array(MAX_FEATURES);
    const cbuf = new Int32Array(MAX_CANDIDATES);
    const grow = (a: Int32Array, need: number): Int32Array => {
      if (need <= a.length) return a;
      const b = new Int32Array(Math.max(need, a.length * 2));
      b.set(a);
      return b;
    };
    t = 0;
    for (const s of train) {
      for (let i = 0; i < s.words.length; i++, t++) {
        let n = lemmaFeatures(s, i, buf);
        lf = grow(lf, lemmaFeatStart[t]! + n);
        lf.set(buf.subarray(0, n), lemmaFeatStart[t]!);
        lemmaFeatStart[t + 1] = lemmaFeatStart[t]! + n;
        n = featsFeatures(s, i, buf);
        ff = grow(ff, featsFeatStart[t]! + n);
        ff.set(buf.subarray(0, n), featsFeatStart[t]!);
        featsFeatStart[t + 1] = featsFeatStart[t]! + n;
        const m = goldRule[t]! < 0 ? 0 : rules.applicable(s.words[i]!, cbuf);
        cs = grow(cs, candStart[t]! + m);
        cs.set(cbuf.subarray(0, m), candStart[t]!);
        candStart[t + 1] = candStart[t]! + m;
      }
    }

    const lemmaP = new HashedPerceptron(bits);
    const featsP = new HashedPerceptron(bits);
    const order = Int32Array.from({ length: tokens }, (_, j) => j);
    const rng = new Rng(opts.seed ?? 1);
    const empty = new Int16Array(1 << bits);
    let best: { lemma: number; ufeats: number; lemmaW: Int16Array; featsW: Int16Array } = {
      lemma: -1,
      ufeats: -1,
      lemmaW: empty,
      featsW: empty,
    };
    for (let e = 1; e <= epochs; e++) {
      const t0 = performance.now();
      rng.shuffle(order);
      for (let o = 0; o < tokens; o++) {
        const j = order[o]!;
        const ls = lemmaFeatStart[j]!;
        const ln = lemmaFeatStart[j + 1]! - ls;
        const lfe = lf.subarray(ls, ls + ln);
        const c0 = candStart[j]!;
        const m = candStart[j + 1]! - c0;
        if (m > 1) {
          const cands = cs.subarray(c0, c0 + m);
          lemmaP.update(lfe, ln, goldRule[j]!, lemmaP.best(lfe, ln, cands, m));
        }
        const fs = featsFeatStart[j]!;
        const fn = featsFeatStart[j + 1]! - fs;
        const ffe = ff.subarray(fs, fs + fn);
        const c = uposBundles.get(uposOfToken[j]!)!;
        if (c.length > 1) featsP.update(ffe, fn, goldBundle[j]!, featsP.best(ffe, fn, c, c.length));
      }
      const lw = int16Weights(lemmaP.averaged()).weights;
      const fw = int16Weights(featsP.averaged()).weights;
      const seconds = (performance.now() - t0) / 1000;
      if (opts.dev === undefined) {
        best = { lemma: 0, ufeats: 0, lemmaW: lw, featsW: fw };
        opts.onEpoch?.({ epoch: e, seconds });
        continue;
      }
      const model = new MorphModel(rules, dictionary, bundles, uposBundles, bits, lw, fw);
      const acc = morphAccuracy(model, opts.dev);
      opts.onEpoch?.({ epoch: e, seconds, dev: { lemma: acc.lemma, ufeats: acc.ufeats } });
      if (acc.lemma > best.lemma) best = { ...best, lemma: acc.lemma, lemmaW: lw };
      if (acc.ufeats > best.ufeats) best = { ...best, ufeats: acc.ufeats, featsW: fw };
    }
    return new MorphModel(rules, dictionary, bundles, uposBundles, bits, best.lemmaW, best.featsW);
  }

  /** The model as model-file content. */
  toModelData(): ModelData {
    const l = packInt16({ weights: this.lemmaWeights, scale: 1 });
    const f = packInt16({ weights: this.featsWeights, scale: 1 });
    const keys = [...this.dictionary.keys()];
    const uposBundles: Record<string, number[]> = {};
    for (const [u, ids] of this.uposBundles) uposBundles[u] = [...ids];
    return {
      kind: MORPH_KIND,
      meta: {
        version: MORPH_VERSION,
        bits: this.bits,
        rules: this.rules.rules.map(ruleKey),
        bundles: this.bundles,
        uposBundles,
        dictionaryKeys: keys,
      },
      arrays: {
        dictionaryRules: Int32Array.from(keys.map((k) => this.dictionary.get(k)!)),
        lemmaDelta: l.delta,
        lemmaValue: l.value,
        featsDelta: f.delta,
        featsValue: f.value,
      },
    };
  }

  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Builds a model from model-file content; a bad file gives a one-line error naming it. */
  static fromModelData(m: ModelData, file: string): MorphModel {
    return fromModelContent(file, () => {
      if (m.kind !== MORPH_KIND)
        throw new VineparseError("model-kind", `not a morph model (kind "${m.kind}")`);
      const meta = m.meta;
      if (meta.version !== MORPH_VERSION)
        throw new VineparseError("model-version", `unsupported morph model version ${String(meta.version)}`);
      const bits = meta.bits;
      if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 4 || bits > 26)
        throw new Error("bad bits");
      const strings = (v: unknown, what: string): string[] => {
        if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw new Error(`bad ${what}`);
        return v as string[];
      };
      const rules = new RuleSet();
      for (const k of strings(meta.rules, "rules")) rules.add(parseRuleKey(k));
      const bundles = strings(meta.bundles, "bundles");
      const keys = strings(meta.dictionaryKeys, "dictionary");
      const arr = (name: string, ctor: typeof Int32Array | typeof Uint32Array | typeof Int16Array) => {
        const a = m.arrays[name];
        if (!(a instanceof ctor)) throw new Error(`missing or mistyped array ${name}`);
        return a;
      };
      const dr = arr("dictionaryRules", Int32Array) as Int32Array;
      if (dr.length !== keys.length) throw new Error("dictionary arrays differ in length");
      const dictionary = new Map<string, number>();
      for (let i = 0; i < keys.length; i++) {
        if (dr[i]! < 0 || dr[i]! >= rules.size) throw new Error("dictionary rule out of range");
        dictionary.set(keys[i]!, dr[i]!);
      }
      const ub = meta.uposBundles;
      if (typeof ub !== "object" || ub === null) throw new Error("bad uposBundles");
      const uposBundles = new Map<string, Int32Array>();
      for (const [u, ids] of Object.entries(ub as Record<string, unknown>)) {
        if (!Array.isArray(ids) || !ids.every((b) => Number.isInteger(b) && b >= 0 && b < bundles.length))
          throw new Error("bad uposBundles");
        uposBundles.set(u, Int32Array.from(ids as number[]));
      }
      const size = 1 << bits;
      const lw = int16FromPacked(
        {
          delta: arr("lemmaDelta", Uint32Array) as Uint32Array,
          value: arr("lemmaValue", Int16Array) as Int16Array,
          scale: 1,
        },
        size,
      );
      const fw = int16FromPacked(
        {
          delta: arr("featsDelta", Uint32Array) as Uint32Array,
          value: arr("featsValue", Int16Array) as Int16Array,
          scale: 1,
        },
        size,
      );
      return new MorphModel(rules, dictionary, bundles, uposBundles, bits, lw.weights, fw.weights);
    });
  }

  static load(path: string): MorphModel {
    return MorphModel.fromModelData(readModelFile(path, MORPH_KIND), path);
  }
}

/** Accuracies (percent) of a morph model against gold annotation. */
export interface MorphAccuracy {
  words: number;
  lemma: number;
  ufeats: number;
  /** UPOS, XPOS and FEATS all right (the input's tags against the gold ones). */
  allTags: number;
  /** Lemma and both FEATS together. */
  lemmaFeats: number;
  seen: { words: number; lemma: number; ufeats: number };
  unseen: { words: number; lemma: number; ufeats: number };
}

/**
 * Scores predictions from `input` (default: the gold sentences' own tags) against `gold`; words
 * are matched by position, and "seen" means the form occurred in the training data.
 */
export function morphAccuracy(
  model: MorphModel,
  gold: readonly MorphSentence[],
  input: readonly MorphInput[] = gold,
): MorphAccuracy {
  let n = 0;
  let lem = 0;
  let fe = 0;
  let all = 0;
  let both = 0;
  const seen = { words: 0, lemma: 0, ufeats: 0 };
  const unseen = { words: 0, lemma: 0, ufeats: 0 };
  for (let s = 0; s < gold.length; s++) {
    const g = gold[s]!;
    const x = input[s]!;
    if (x.words.length !== g.words.length)
      throw new VineparseError(
        "morph-eval",
        `sentence ${s + 1} has ${x.words.length} words, gold ${g.words.length}`,
      );
    const p = model.predict(x);
    for (let i = 0; i < g.words.length; i++) {
      const l = p.lemmas[i] === g.lemmas[i] ? 1 : 0;
      const f = p.feats[i] === g.feats[i] ? 1 : 0;
      n++;
      lem += l;
      fe += f;
      both += l & f;
      if (f === 1 && x.upos[i] === g.upos[i] && x.xpos[i] === g.xpos[i]) all++;
      const b = model.seen(g.words[i]!) ? seen : unseen;
      b.words++;
      b.lemma += l;
      b.ufeats += f;
    }
  }
  const pct = (a: number, d: number) => (d === 0 ? 0 : (100 * a) / d);
  const part = (b: typeof seen) => ({
    words: b.words,
    lemma: pct(b.lemma, b.words),
    ufeats: pct(b.ufeats, b.words),
  });
  return {
    words: n,
    lemma: pct(lem, n),
    ufeats: pct(fe, n),
    allTags: pct(all, n),
    lemmaFeats: pct(both, n),
    seen: part(seen),
    unseen: part(unseen),
  };
}

/** Serializes a sentence block with its words' LEMMA and FEATS replaced (every other byte kept). */
export function formatMorph(s: ConlluSentence, r: MorphResult): string {
  const out = s.lines.slice();
  for (let i = 0; i < s.words.length; i++) {
    const cols = s.words[i]!.slice();
    cols[LEMMA] = r.lemmas[i]!;
    cols[FEATS] = r.feats[i]!;
    out[s.wordLine[i]!] = cols.join("\t");
  }
  return out.join("\n") + "\n\n";
}
