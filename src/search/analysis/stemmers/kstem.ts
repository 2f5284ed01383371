/**
 * The Krovetz stemmer (R. Krovetz, "Viewing Morphology as an Inference Process", SIGIR 1993) as
 * Lucene 7.7's KStemFilter applies it. A word found in the dictionary is left alone (or mapped
 * to its listed root); otherwise inflectional endings (plural, -ed, -ing) and then derivational
 * ones (-ity, -ness, -ion, -er/-or, -ly, -al, -ive, -ize, -ment, -able/-ible, -ism, -ic, -ncy,
 * -nce) are undone one step at a time, each step trying candidate roots against the dictionary
 * and falling back to a default spelling; the first step whose candidate is a dictionary word
 * ends the search, and a dictionary word with a listed root is replaced by that root.
 *
 * Lucene's bookkeeping is kept: the "matched" entry is whatever the latest dictionary lookup
 * found (a failed lookup clears it), a step that does no lookup leaves it as it was, and before
 * the -ive step the current word is checked once more without consulting exception words. Only
 * words of 3 to 49 chars made of a-z are stemmed (the input is expected lower-cased).
 */
import { KSTEM_CONFLATIONS, KSTEM_EXCEPTIONS, KSTEM_HEAD_WORDS } from './kstem-data.js';

interface Entry {
  /** The root the word maps to; null: the word is its own stem. */
  readonly root: string | null;
  readonly exception: boolean;
}

let dict: Map<string, Entry> | undefined;
function dictionary(): Map<string, Entry> {
  if (dict !== undefined) return dict;
  const d = new Map<string, Entry>();
  const words = (s: string) => s.split(/\s+/).filter((w) => w.length > 0);
  // exception words are their own roots
  for (const w of words(KSTEM_EXCEPTIONS)) d.set(w, { root: w, exception: true });
  for (const pair of words(KSTEM_CONFLATIONS)) {
    const [variant, root] = pair.split(':') as [string, string];
    if (!d.has(variant)) d.set(variant, { root, exception: false });
  }
  const plain: Entry = { root: null, exception: false };
  for (const w of words(KSTEM_HEAD_WORDS)) if (!d.has(w)) d.set(w, plain);
  dict = d;
  return d;
}

const MAX_WORD_LENGTH = 50;

function isCons(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c !== 'y' || i === 0) return true;
  return !isCons(w, i - 1);
}

/** A doubled final consonant at index i. */
const doubleC = (w: string, i: number) => i >= 1 && w[i] === w[i - 1] && isCons(w, i);

function vowelIn(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isCons(w, i)) return true;
  return false;
}

/**
 * The part of `w` before `suffix` when `w` ends with it and keeps at least one more char, else
 * null (Lucene's endsIn).
 */
function before(w: string, suffix: string): string | null {
  return suffix.length <= w.length - 1 && w.endsWith(suffix)
    ? w.slice(0, w.length - suffix.length)
    : null;
}

/** One stemming run: the word being reduced and the latest dictionary match. */
class Run {
  matched: Entry | null = null;
  constructor(
    public w: string,
    private readonly d: Map<string, Entry>,
  ) {}

  /** Looks `candidate` up; on a hit it becomes the word. */
  private tryWord(candidate: string): boolean {
    this.matched = this.d.get(candidate) ?? null;
    if (this.matched !== null) this.w = candidate;
    return this.matched !== null;
  }

  /** Tries candidates in order; the first found becomes the word. */
  private tryAll(...candidates: string[]): boolean {
    for (const c of candidates) if (this.tryWord(c)) return true;
    return false;
  }

  /** Sets the word without a lookup (the match stays as the last lookup left it). */
  private set(w: string): void {
    this.w = w;
  }

  /** Sets the word and looks it up. */
  private setAndLook(w: string): void {
    this.w = w;
    this.matched = this.d.get(w) ?? null;
  }

  /** Lucene's wordInDict: a hit that is not an exception counts as a match. */
  private inDictNoException(candidate: string): boolean {
    if (this.matched !== null) return true;
    const e = this.d.get(candidate);
    if (e !== undefined && !e.exception) {
      this.matched = e;
      this.w = candidate;
      return true;
    }
    return false;
  }

  plural(): void {
    const w = this.w;
    if (!w.endsWith('s')) return;
    let s = before(w, 'ies');
    if (s !== null) {
      // calories -> calorie, otherwise -ies -> -y
      if (this.tryWord(s + 'ie')) return;
      this.setAndLook(s + 'y');
      return;
    }
    s = before(w, 'es');
    if (s !== null) {
      // crosses keeps its "e" unless "cross" is the word
      const tryE = s.length > 1 && !(s.endsWith('ss') && s.length >= 2);
      if (tryE && this.tryWord(s + 'e')) return;
      if (this.tryWord(s)) return;
      if (tryE) this.set(s + 'e');
      else this.setAndLook(s + 'e');
      return;
    }
    if (w.length > 3 && w[w.length - 2] !== 's' && before(w, 'ous') === null) {
      this.setAndLook(w.slice(0, -1));
    }
  }

  pastTense(): void {
    const w = this.w;
    if (w.length <= 4) return;
    let s = before(w, 'ied');
    if (s !== null) {
      if (this.tryWord(s + 'ie')) return;
      this.setAndLook(s + 'y');
      return;
    }
    s = before(w, 'ed');
    if (s === null || !vowelIn(w, s.length)) return;
    if (this.inDictNoException(s + 'e')) return;
    if (this.tryWord(s)) return;
    if (doubleC(s, s.length - 1)) {
      if (this.tryWord(s.slice(0, -1))) return;
      this.setAndLook(s);
      return;
    }
    // un- words keep their ending
    if (w.startsWith('un')) this.set(w);
    else this.set(s + 'e');
  }

  aspect(): void {
    const w = this.w;
    if (w.length <= 5) return;
    const s = before(w, 'ing');
    if (s === null || !vowelIn(w, s.length)) return;
    if (this.inDictNoException(s + 'e')) return;
    if (this.tryWord(s)) return;
    const j = s.length - 1;
    if (doubleC(s, j)) {
      if (this.tryWord(s.slice(0, -1))) return;
      this.setAndLook(s);
      return;
    }
    // two final consonants: no "e" (footstamping -> footstamp)
    if (j > 0 && isCons(s, j) && isCons(s, j - 1)) this.set(s);
    else this.set(s + 'e');
  }

  ity(): void {
    const w = this.w;
    const s = before(w, 'ity');
    if (s === null) return;
    if (this.tryAll(s, s + 'e')) return;
    const j = s.length - 1;
    if (j > 0 && s.endsWith('il')) return this.setAndLook(s.slice(0, -2) + 'le'); // -ability
    if (j > 0 && s.endsWith('iv')) return this.setAndLook(s + 'e'); // -ivity
    if (j > 0 && s.endsWith('al')) return this.setAndLook(s); // -ality
    if (this.tryWord(w)) return;
    this.set(s);
  }

  ness(): void {
    const s = before(this.w, 'ness');
    if (s === null) return;
    this.setAndLook(s.endsWith('i') ? s.slice(0, -1) + 'y' : s);
  }

  ion(): void {
    const w = this.w;
    if (before(w, 'ion') === null) return;
    let s = before(w, 'ization');
    if (s !== null) return this.setAndLook(s + 'ize');
    s = before(w, 'ition');
    if (s !== null) {
      if (this.tryWord(s + 'e')) return;
    } else {
      s = before(w, 'ation');
      if (s !== null && this.tryAll(s + 'ate', s + 'e', s)) return;
    }
    s = before(w, 'ication');
    if (s !== null && this.tryWord(s + 'y')) return;
    s = w.slice(0, -3);
    this.tryAll(s + 'e', s);
  }

  erOr(): void {
    const w = this.w;
    if (!w.endsWith('r')) return;
    const izer = before(w, 'izer');
    if (izer !== null) return this.setAndLook(izer + 'ize');
    const s = before(w, 'er') ?? before(w, 'or');
    if (s === null) return;
    const j = s.length - 1;
    if (doubleC(s, j) && this.tryWord(s.slice(0, -1))) return;
    if (s[j] === 'i' && this.tryWord(s.slice(0, -1) + 'y')) return; // -ier
    if (s[j] === 'e' && this.tryWord(s.slice(0, -1))) return; // -eer
    this.tryAll(w.slice(0, -1), s, s + 'e');
  }

  ly(): void {
    const w = this.w;
    const s = before(w, 'ly');
    if (s === null) return;
    const j = s.length - 1;
    if (this.tryAll(s + 'le', s)) return;
    if (j > 0 && s.endsWith('al')) return this.set(s); // -ally -> -al
    if (j > 0 && s.endsWith('ab')) return this.set(s + 'le'); // -ably -> -able
    if (s[j] === 'i' && this.tryWord(s.slice(0, -1) + 'y')) return; // militarily
    this.set(s);
  }

  al(): void {
    const w = this.w;
    if (w.length < 4) return;
    const s = before(w, 'al');
    if (s === null) return;
    const j = s.length - 1;
    if (this.tryWord(s)) return;
    if (doubleC(s, j) && this.tryWord(s.slice(0, -1))) return;
    if (this.tryAll(s + 'e', s + 'um')) return;
    if (j > 0 && s.endsWith('ic')) {
      const t = s.slice(0, -2);
      if (this.tryAll(t, t + 'y')) return;
      return this.setAndLook(s); // -ical -> -ic
    }
    if (s[j] === 'i') {
      if (this.tryWord(s.slice(0, -1))) return;
      this.setAndLook(w);
    }
  }

  /** Lucene checks the word once more before the -ive step, ignoring exception words. */
  recheck(): void {
    this.inDictNoException(this.w);
  }

  ive(): void {
    const w = this.w;
    const s = before(w, 'ive');
    if (s === null) return;
    if (this.tryAll(s, s + 'e')) return;
    const j = s.length - 1;
    if (j > 0 && s.endsWith('at')) {
      const t = s.slice(0, -2);
      if (this.tryAll(t + 'e', t)) return;
    }
    this.tryWord(s + 'ion'); // injunctive -> injunction
  }

  ize(): void {
    const s = before(this.w, 'ize');
    if (s === null) return;
    if (this.tryWord(s)) return;
    if (doubleC(s, s.length - 1) && this.tryWord(s.slice(0, -1))) return;
    this.tryWord(s + 'e');
  }

  ment(): void {
    const s = before(this.w, 'ment');
    if (s !== null) this.tryWord(s);
  }

  ble(): void {
    const s = before(this.w, 'ble');
    if (s === null || !(s.endsWith('a') || s.endsWith('i'))) return;
    const t = s.slice(0, -1);
    if (this.tryWord(t)) return;
    if (doubleC(t, t.length - 1) && this.tryWord(t.slice(0, -1))) return;
    this.tryAll(t + 'e', t + 'ate');
  }

  ism(): void {
    const s = before(this.w, 'ism');
    if (s !== null) this.setAndLook(s);
  }

  ic(): void {
    const s = before(this.w, 'ic');
    if (s !== null) this.tryAll(s + 'ical', s + 'y', s + 'e', s);
  }

  ncy(): void {
    const s = before(this.w, 'ncy');
    if (s === null || !(s.endsWith('e') || s.endsWith('a'))) return;
    if (this.tryWord(s + 'nt')) return;
    this.setAndLook(s + 'nce');
  }

  nce(): void {
    const s = before(this.w, 'nce');
    if (s === null || !(s.endsWith('e') || s.endsWith('a'))) return;
    const t = s.slice(0, -1);
    this.tryAll(t + 'e', t);
  }
}

const STEPS: ReadonlyArray<(r: Run) => void> = [
  (r) => r.plural(),
  (r) => r.pastTense(),
  (r) => r.aspect(),
  (r) => r.ity(),
  (r) => r.ness(),
  (r) => r.ion(),
  (r) => r.erOr(),
  (r) => r.ly(),
  (r) => r.al(),
  (r) => {
    r.recheck();
    r.ive();
  },
  (r) => r.ize(),
  (r) => r.ment(),
  (r) => r.ble(),
  (r) => r.ism(),
  (r) => r.ic(),
  (r) => r.ncy(),
  (r) => r.nce(),
];

export function kstem(term: string): string {
  if (term.length <= 2 || term.length >= MAX_WORD_LENGTH) return term;
  const d = dictionary();
  const known = d.get(term);
  if (known !== undefined) return known.root ?? term;
  if (!/^[a-z]+$/.test(term)) return term;
  const run = new Run(term, d);
  for (const step of STEPS) {
    step(run);
    if (run.matched !== null) break;
  }
  return run.matched?.root ?? run.w;
}
