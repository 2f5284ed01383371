/**
 * Snowball's German and German2 stemmers as Lucene 7.7 ships them.
 *
 * German2 (Lucene's German2Stemmer, ES `stemmer` language `german2`) is (Lucene's German2Stemmer, ES `stemmer` language `german2`): the
 * German algorithm, but a word written without umlauts ("ae", "oe", "ue" for ä, ö, ü, as in
 * "Muelleimer") stems like its umlaut spelling. Its prelude marks `u` and `y` between vowels
 * first (as consonants, upper case), then rewrites ß and the digraphs, leaving "qu" alone; the
 * rest of the algorithm is the German one, which then sees no unmarked u/y to mark.
 *
 * Lucene's German and German2 stemmers are the 2007 algorithms, without the "-nisse" rule the
 * Snowball German got in December 2009 (after removing an ending, drop the second s of "niss":
 * "bündnisse" → "bundnis", where Lucene gives "bundniss"); `snowball-stemmers` has that rule,
 * so its step is undone here.
 */
import { createRequire } from 'node:module';

interface SnowballFactory {
  newStemmer(language: string): { stem(word: string): string };
}

const VOWELS = new Set([...'aeiouyäöü']);

/** German2's prelude: u/y between vowels marked, then ß → ss, ae/oe/ue → ä/ö/ü except in "qu". */
export function german2Prelude(word: string): string {
  const cs = [...word];
  for (let i = 0; i + 2 < cs.length; i++) {
    const c = cs[i + 1]!;
    if (VOWELS.has(cs[i]!) && (c === 'u' || c === 'y') && VOWELS.has(cs[i + 2]!))
      cs[i + 1] = c.toUpperCase();
  }
  let out = '';
  for (let i = 0; i < cs.length;) {
    const c = cs[i]!;
    const pair = c + (cs[i + 1] ?? '');
    if (c === 'ß') {
      out += 'ss';
      i += 1;
    } else if (pair === 'ae' || pair === 'oe' || pair === 'ue') {
      out += pair === 'ae' ? 'ä' : pair === 'oe' ? 'ö' : 'ü';
      i += 2;
    } else if (pair === 'qu') {
      out += pair;
      i += 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

let german: ((s: string) => string) | undefined;

function germanStem(): (s: string) => string {
  const factory = createRequire(import.meta.url)('snowball-stemmers') as SnowballFactory;
  const st = factory.newStemmer('german');
  return (s) => st.stem(s);
}

/** The prelude's and postlude's foldings, to compare a word with its stem. */
const fold = (s: string) =>
  s.replace(/[äöüUYß]/g, (c) => ({ ä: 'a', ö: 'o', ü: 'u', U: 'u', Y: 'y', ß: 'ss' })[c]!);

const STEP1_ENDINGS = ['e', 'em', 'en', 'ern', 'er', 'es'];

/** Lucene's GermanStemmer: the package's German without the 2009 "-nisse" rule. */
export function luceneGermanStem(word: string): string {
  german ??= germanStem();
  const stem = german(word);
  if (stem.endsWith('nis')) {
    const folded = fold(word);
    if (STEP1_ENDINGS.some((e) => folded === `${stem}s${e}`)) return `${stem}s`;
  }
  return stem;
}

export function german2Stem(word: string): string {
  return luceneGermanStem(german2Prelude(word));
}
