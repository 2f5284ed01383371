/**
 * Lucene ShingleFilter: word n-grams ("shingles") of min..max consecutive tokens joined by a
 * separator, typed `shingle`, stacked at the position of their first token (after the unigram
 * when unigrams are output). Position gaps left by removed tokens are filled with the filler
 * token. Also Lucene KeywordRepeatFilter and RemoveDuplicatesTokenFilter.
 */
import { Token, TokenFilter, type TokenStream } from '../token-stream.js';

export interface ShingleOptions {
  min: number;
  max: number;
  outputUnigrams: boolean;
  outputUnigramsIfNoShingles: boolean;
  separator: string;
  filler: string;
}

interface Slot {
  token: Token | null; // null: a filler for a removed token
}

export class ShingleFilter extends TokenFilter {
  private readonly out: Token[] = [];
  private slots: Slot[] | null = null;
  private emittedShingle = false;

  constructor(
    input: TokenStream,
    private readonly o: ShingleOptions,
  ) {
    super(input);
  }

  next(): boolean {
    if (this.slots === null) this.slots = this.readAll();
    if (this.out.length === 0) this.build();
    const t = this.out.shift();
    if (t === undefined) return false;
    this.token.copyFrom(t);
    return true;
  }

  /** Reads the input into slots (one per position); gaps become fillers. */
  private readAll(): Slot[] {
    const slots: Slot[] = [];
    while (this.input.next()) {
      const t = new Token();
      t.copyFrom(this.token);
      if (slots.length > 0) for (let k = 1; k < t.posInc; k++) slots.push({ token: null });
      else this.leadingGap = Math.max(0, t.posInc - 1);
      slots.push({ token: t });
    }
    return slots;
  }

  private cursor = 0;

  private build(): void {
    const slots = this.slots!;
    const o = this.o;
    const result: Token[] = [];
    while (result.length === 0 && this.cursor < slots.length) {
      const i = this.cursor++;
      const first = slots[i]!.token;
      // a shingle may start at a filler; a filler is never a unigram
      const base = first ?? this.fillerAt(i);
      if (first !== null && o.outputUnigrams) {
        const u = new Token();
        u.copyFrom(first);
        result.push(u);
      }
      let text = first === null ? o.filler : first.term;
      let last = base;
      for (let n = 2; n <= o.max && i + n - 1 < slots.length; n++) {
        const next = slots[i + n - 1]!.token;
        text += o.separator + (next === null ? o.filler : next.term);
        if (next !== null) last = next;
        if (n < o.min) continue;
        const s = new Token();
        s.copyFrom(base);
        s.term = text;
        s.endOffset = last.endOffset;
        s.type = 'shingle';
        s.posLen = n;
        s.posInc = 0;
        result.push(s);
        this.emittedShingle = true;
      }
      if (result.length > 0) {
        result[0]!.posInc = i - this.lastSlot + (this.lastSlot === -1 ? this.leadingGap : 0);
        this.lastSlot = i;
      }
    }
    if (
      this.cursor >= slots.length &&
      result.length === 0 &&
      !this.emittedShingle &&
      !o.outputUnigrams &&
      o.outputUnigramsIfNoShingles
    ) {
      // no shingle at all: the unigrams after all
      this.emittedShingle = true;
      for (const s of slots) {
        if (s.token === null) continue;
        const u = new Token();
        u.copyFrom(s.token);
        result.push(u);
      }
    }
    this.out.push(...result);
  }

  private lastSlot = -1;
  private leadingGap = 0;

  /** A filler at slot `i`: offsets at the end of the previous real token. */
  private fillerAt(i: number): Token {
    const t = new Token();
    for (let k = i - 1; k >= 0; k--) {
      const prev = this.slots![k]!.token;
      if (prev !== null) {
        t.startOffset = t.endOffset = prev.endOffset;
        break;
      }
    }
    t.term = this.o.filler;
    t.type = 'shingle';
    return t;
  }
}

/** Lucene KeywordRepeatFilter: each token twice, first marked as a keyword, then unmarked. */
export class KeywordRepeatFilter extends TokenFilter {
  private copy: Token | null = null;
  next(): boolean {
    if (this.copy !== null) {
      this.token.copyFrom(this.copy);
      this.copy = null;
      return true;
    }
    if (!this.input.next()) return false;
    const c = new Token();
    c.copyFrom(this.token);
    c.posInc = 0;
    c.keyword = false;
    this.copy = c;
    this.token.keyword = true;
    return true;
  }
}

/** Lucene RemoveDuplicatesTokenFilter: drops a term already seen at the same position. */
export class RemoveDuplicatesFilter extends TokenFilter {
  private readonly seen = new Set<string>();
  next(): boolean {
    while (this.input.next()) {
      const t = this.token;
      if (t.posInc > 0) this.seen.clear();
      if (this.seen.has(t.term)) continue;
      this.seen.add(t.term);
      return true;
    }
    return false;
  }
}
