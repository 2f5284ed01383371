/**
 * Snowball stemmers (Lucene's SnowballFilter languages) from the `snowball-stemmers` package, the
 * Snowball project's published algorithms compiled to JavaScript. One stemmer per language,
 * made on first use. Lithuanian, German2, Lovins and Kp (Kraaij-Pohlmann), missing from the
 * package, are implemented here (lithuanian.ts, snowball-german.ts, lovins.ts, kraaij-pohlmann.ts), and German is corrected to Lucene's older version.
 */
import { createRequire } from 'node:module';
import { lithuanianStem } from './lithuanian.js';
import { lovinsStem } from './lovins.js';
import { kpStem } from './kraaij-pohlmann.js';
import { german2Stem, luceneGermanStem } from './snowball-german.js';

interface SnowballStemmer {
  stem(word: string): string;
}
interface SnowballFactory {
  newStemmer(language: string): SnowballStemmer;
  algorithms(): string[];
}

const factory = createRequire(import.meta.url)('snowball-stemmers') as SnowballFactory;
const AVAILABLE = new Set(factory.algorithms());
const cache = new Map<string, (s: string) => string>([
  ['lithuanian', lithuanianStem],
  ['german', luceneGermanStem],
  ['german2', german2Stem],
  ['lovins', lovinsStem],
  ['kp', kpStem],
]);

/** The stemming function for a Snowball language (lower-case name), or undefined. */
export function snowballStemmer(language: string): ((s: string) => string) | undefined {
  const hit = cache.get(language);
  if (hit !== undefined) return hit;
  if (!AVAILABLE.has(language)) return undefined;
  const st = factory.newStemmer(language);
  const fn = (s: string) => st.stem(s);
  cache.set(language, fn);
  return fn;
}
