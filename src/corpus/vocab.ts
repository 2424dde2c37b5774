import { hashString } from "../util/hash.js";

/** Interns strings to dense integer ids (0 is reserved for the root/none symbol) and remembers a stable hash of each. */
export class Vocab {
  private readonly ids = new Map<string, number>();
  /** strings[id] is the interned string. */
  readonly strings: string[] = [];
  private hashArr = new Int32Array(64);

  constructor(rootSymbol = "<root>") {
    this.add(rootSymbol);
  }

  /** Number of interned strings (including the root symbol). */
  get size(): number {
    return this.strings.length;
  }

  /** Id of `s`, interning it if new. */
  add(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      // Keep a copy of its own: a substring would keep the whole text it was cut from alive (V8
      // sliced strings), so a long stream of input would pile up in memory.
      s = (" " + s).slice(1);
      id = this.strings.length;
      this.ids.set(s, id);
      this.strings.push(s);
      if (id >= this.hashArr.length) {
        const grown = new Int32Array(this.hashArr.length * 2);
        grown.set(this.hashArr);
        this.hashArr = grown;
      }
      this.hashArr[id] = hashString(s);
    }
    return id;
  }

  /** Id of `s`, or -1 if it was never interned. */
  get(s: string): number {
    return this.ids.get(s) ?? -1;
  }

  /** Stable 32-bit hash of the string with this id (same string → same hash in every run). */
  hash(id: number): number {
    return this.hashArr[id]!;
  }

  /** The hash table as a typed array (entries beyond `size` are unused). */
  get hashes(): Int32Array {
    return this.hashArr;
  }
}

/** The vocabularies of one corpus: forms, lemmas, UPOS, XPOS and dependency relations. */
export class Vocabularies {
  readonly form = new Vocab();
  readonly lemma = new Vocab();
  readonly upos = new Vocab();
  readonly xpos = new Vocab();
  readonly deprel = new Vocab();
}
