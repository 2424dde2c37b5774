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
import { Rng } from "../util/rng.js";
import { applyRule, parseRuleKey, ruleFor, ruleKey, RuleSet } from "./edit-rule.js";
import { bestInt16, HashedPerceptron } from "./hashed-perceptron.js";
import { MAX_MORPH_FEATURES, MorphAtoms } from "./morph-features.js";

/** Model-file kind of a morphology model (lemmatizer and FEATS tagger). */
export const MORPH_KIND = "morph";
/** Version of the morph model's layout (meta.version). */
export const MORPH_VERSION = 2;

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

/**
 * A morph model's dictionary as three columns: keys form + "\u0001" + UPOS, the rule id giving each
 * key's most frequent training lemma, and the FEATS bundle training always gave it (or -1).
 */
export interface MorphDictionary {
  keys: string[];
  rules: number[] | Int32Array;
  feats: number[] | Int32Array;
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

const MAX_CANDIDATES = 4096;
/**
 * A (form, UPOS) pair seen at least this often in training, always with the same FEATS, gets those
 * FEATS without the classifier.
 */
export const FIXED_FEATS_COUNT = 20;
/** Lemmas of unseen (form, UPOS, XPOS) triples kept by a model before it starts its cache again. */
const LEMMA_CACHE = 65536;

function dictKey(form: string, upos: string): string {
  return form + "\u0001" + upos;
}

/** Whether a training lemma is usable ("_" means unannotated unless the form is "_" itself). */
function hasLemma(form: string, lemma: string): boolean {
  return lemma.length > 0 && (lemma !== "_" || form === "_");
}

/** A trained lemmatizer and FEATS tagger. */
export class MorphModel {
  private readonly mask: number;
  /** UPOS → form → the rule of its most frequent training lemma (the dictionary, looked up without building a key). */
  private readonly known = new Map<string, Map<string, number>>();
  /** Per dictionary entry (the numbers `known` maps to): its rule, and its lemma once looked up. */
  private readonly entryRule: Int32Array;
  /** Per dictionary entry: its FEATS bundle when training always gave it that one (and often enough), else -1. */
  private readonly entryFeats: Int32Array;
  private readonly entryLemma: (string | null)[];
  /** Forms seen in training (made when `seen` is first asked). */
  private seenForms: Set<string> | null = null;
  /** Lemmas of words the dictionary lacks, by form, UPOS and XPOS (they depend on nothing else). */
  private readonly guessed = new Map<string, string>();
  private readonly rows = new Int32Array(MAX_MORPH_FEATURES);
  private readonly cands = new Int32Array(MAX_CANDIDATES);
  private readonly atoms = new MorphAtoms();
  private readonly keepRule: number;
  private readonly allBundles: Int32Array;
  /**
   * Whether the model gives lemmas: false when its training data had none (every LEMMA "_", as in a
   * treebank without lemma annotation), whose dictionary is then empty; every lemma is then "_".
   */
  readonly lemmatizes: boolean;

  constructor(
    readonly rules: RuleSet,
    /** The dictionary: (form, UPOS) keys with their lemma rules and FEATS bundles, as columns. */
    dictionary: MorphDictionary,
    readonly bundles: string[],
    /** UPOS → ids of the bundles seen with it (ascending). */
    readonly uposBundles: Map<string, Int32Array>,
    readonly bits: number,
    /** Lemma rule weights: rule r of a feature whose row is at o is at (o + r) & mask. */
    readonly lemmaWeights: Int16Array,
    /** FEATS weights: bundle b of a feature whose row is at o is at (o + b) & mask. */
    readonly featsWeights: Int16Array,
  ) {
    this.mask = (1 << bits) - 1;
    // Index loops only: this runs once per load over some 20,000 entries, before the JIT optimizes
    // anything, and a for-of with destructuring there allocates iterator results for every entry
    // (about 3 MiB of garbage for the bundled model's dictionary, which grew the heap for good).
    const { keys, rules: entryRules, feats: entryFeats } = dictionary;
    const count = keys.length;
    if (entryRules.length !== count || entryFeats.length !== count)
      throw new RangeError("morph dictionary columns differ in length");
    let upos = "";
    let m: Map<string, number> | undefined;
    for (let e = 0; e < count; e++) {
      const k = keys[e]!;
      const cut = k.lastIndexOf("\u0001");
      // Keys come grouped by UPOS (as `toModelData` writes them): look its map up only when it changes.
      if (m === undefined || k.length - cut - 1 !== upos.length || !k.endsWith(upos)) {
        upos = k.slice(cut + 1);
        m = this.known.get(upos);
        if (m === undefined) this.known.set(upos, (m = new Map()));
      }
      m.set(k.slice(0, cut), e);
    }
    this.entryLemma = new Array<string | null>(count).fill(null);
    this.lemmatizes = count > 0;
    this.entryRule = entryRules instanceof Int32Array ? entryRules : Int32Array.from(entryRules);
    this.entryFeats = entryFeats instanceof Int32Array ? entryFeats : Int32Array.from(entryFeats);
    this.keepRule = rules.add({ casing: 0, stripPrefix: "", addPrefix: "", stripSuffix: "", addSuffix: "" });
    this.allBundles = Int32Array.from(bundles.keys());
  }

  /**
   * The dictionary (a new map): (form + "\u0001" + UPOS) → [rule id of its most frequent training
   * lemma, the FEATS bundle training always gave it or -1].
   */
  get dictionary(): Map<string, readonly [number, number]> {
    const d = new Map<string, readonly [number, number]>();
    for (const [upos, m] of this.known)
      for (const [form, e] of m) d.set(dictKey(form, upos), [this.entryRule[e]!, this.entryFeats[e]!]);
    return d;
  }

  /** Whether the form was seen in training (with any UPOS). */
  seen(form: string): boolean {
    if (this.seenForms === null) {
      this.seenForms = new Set();
      for (const m of this.known.values()) for (const f of m.keys()) this.seenForms.add(f);
    }
    return this.seenForms.has(form);
  }

  /** Lemma of word i. */
  lemma(x: MorphInput, i: number): string {
    this.atoms.prepare(x);
    return this.lemmaAt(x, i, this.entryOf(x, i));
  }

  /** FEATS string of word i. */
  featsOf(x: MorphInput, i: number): string {
    this.atoms.prepare(x);
    return this.featsAt(x, i, this.entryOf(x, i));
  }

  /** Lemmas and FEATS of a sentence. */
  predict(x: MorphInput): MorphResult {
    this.atoms.prepare(x);
    const lemmas: string[] = [];
    const feats: string[] = [];
    for (let i = 0; i < x.words.length; i++) {
      const e = this.entryOf(x, i);
      lemmas.push(this.lemmaAt(x, i, e));
      feats.push(this.featsAt(x, i, e));
    }
    return { lemmas, feats };
  }

  /** The dictionary entry of word i ((form, UPOS) seen in training), or -1. */
  private entryOf(x: MorphInput, i: number): number {
    return this.known.get(x.upos[i]!)?.get(x.words[i]!) ?? -1;
  }

  /** Lemma of word i of the sentence whose atoms are prepared; e is its dictionary entry (`entryOf`). */
  private lemmaAt(x: MorphInput, i: number, e: number): string {
    const form = x.words[i]!;
    if (form.length === 0 || !this.lemmatizes) return "_";
    const upos = x.upos[i]!;
    if (e >= 0) {
      // Made once per entry and kept: seen words, most of any text, allocate nothing.
      const l = this.entryLemma[e] ?? applyRule(this.rules.rules[this.entryRule[e]!]!, form);
      if (l !== null) return (this.entryLemma[e] = l);
    }
    const key = form + "\u0001" + upos + "\u0001" + x.xpos[i]!;
    const cached = this.guessed.get(key);
    if (cached !== undefined) return cached;
    let lemma = form;
    const m = this.rules.applicable(form, this.cands);
    if (m > 0) {
      const n = this.atoms.lemmaRows(i, this.mask, this.rows);
      const r = bestInt16(this.lemmaWeights, this.mask, this.rows, n, this.cands, m);
      lemma =
        applyRule(this.rules.rules[r]!, form) ?? applyRule(this.rules.rules[this.keepRule]!, form) ?? form;
    }
    if (this.guessed.size >= LEMMA_CACHE) this.guessed.clear();
    this.guessed.set(key, lemma);
    return lemma;
  }

  /** FEATS of word i of the sentence whose atoms are prepared; e is its dictionary entry (`entryOf`). */
  private featsAt(x: MorphInput, i: number, e: number): string {
    if (e >= 0 && this.entryFeats[e]! >= 0) return this.bundles[this.entryFeats[e]!]!;
    const c = this.uposBundles.get(x.upos[i]!) ?? this.allBundles;
    if (c.length === 0) return "_";
    if (c.length === 1) return this.bundles[c[0]!]!;
    const n = this.atoms.featsRows(i, this.mask, this.rows);
    return this.bundles[bestInt16(this.featsWeights, this.mask, this.rows, n, c, c.length)]!;
  }

  /** Trains both models on gold lemmas and FEATS. */
  static train(train: readonly MorphSentence[], opts: MorphTrainOptions = {}): MorphModel {
    const epochs = opts.epochs ?? 10;
    const bits = opts.bits ?? 20;
    const rules = new RuleSet();
    rules.add({ casing: 0, stripPrefix: "", addPrefix: "", stripSuffix: "", addSuffix: "" });
    const counts = new Map<string, Map<number, number>>();
    // (form, UPOS) → [its one FEATS bundle so far (-1: more than one), count].
    const featsSeen = new Map<string, [number, number]>();
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
        const k = dictKey(form, s.upos[i]!);
        const seen = featsSeen.get(k);
        if (seen === undefined) featsSeen.set(k, [b, 1]);
        else if (seen[0] === b) seen[1]++;
        else seen[0] = -1;
        goldBundle[t] = b;
        uposOfToken.push(s.upos[i]!);
        let set = byUpos.get(s.upos[i]!);
        if (set === undefined) byUpos.set(s.upos[i]!, (set = new Set()));
        set.add(b);
      }
    }
    const dictionary = { keys: [] as string[], rules: [] as number[], feats: [] as number[] };
    for (const [k, m] of counts) {
      let best = -1;
      let bestCount = 0;
      for (const [r, c] of m) if (c > bestCount) [best, bestCount] = [r, c];
      const f = featsSeen.get(k)!;
      dictionary.keys.push(k);
      dictionary.rules.push(best);
      dictionary.feats.push(f[0] >= 0 && f[1] >= FIXED_FEATS_COUNT ? f[0] : -1);
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
    const buf = new Int32Array(MAX_MORPH_FEATURES);
    const cbuf = new Int32Array(MAX_CANDIDATES);
    const grow = (a: Int32Array, need: number): Int32Array => {
      if (need <= a.length) return a;
      const b = new Int32Array(Math.max(need, a.length * 2));
      b.set(a);
      return b;
    };
    const mask = (1 << bits) - 1;
    const atoms = new MorphAtoms();
    t = 0;
    for (const s of train) {
      atoms.prepare(s);
      for (let i = 0; i < s.words.length; i++, t++) {
        let n = atoms.lemmaRows(i, mask, buf);
        lf = grow(lf, lemmaFeatStart[t]! + n);
        lf.set(buf.subarray(0, n), lemmaFeatStart[t]!);
        lemmaFeatStart[t + 1] = lemmaFeatStart[t]! + n;
        n = atoms.featsRows(i, mask, buf);
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
    const dictionary = this.dictionary;
    const keys = [...dictionary.keys()];
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
        dictionaryRules: Int32Array.from(keys.map((k) => dictionary.get(k)![0])),
        dictionaryFeats: Int32Array.from(keys.map((k) => dictionary.get(k)![1])),
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
      if (meta.version === 1)
        throw new VineparseError(
          "model-version",
          "morph model version 1 hashes its features differently: train it again with this version",
        );
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
      for (let i = 0; i < keys.length; i++)
        if (dr[i]! < 0 || dr[i]! >= rules.size) throw new Error("dictionary rule out of range");
      const df = arr("dictionaryFeats", Int32Array) as Int32Array;
      if (df.length !== keys.length) throw new Error("dictionary arrays differ in length");
      for (let i = 0; i < keys.length; i++)
        if (df[i]! < -1 || df[i]! >= bundles.length) throw new Error("dictionary FEATS out of range");
      const dictionary = { keys, rules: dr, feats: df };
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
