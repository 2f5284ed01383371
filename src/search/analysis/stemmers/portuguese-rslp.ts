/**
 * Lucene 7.7's RSLP Portuguese stemmers over portuguese-rules.ts. The full stemmer (ES
 * `portuguese_rslp`): plural, adverb, feminine and augmentative steps, then a noun suffix or,
 * when none was removed, a verb ending or, when none was removed either, the final vowel; last,
 * accents are dropped. The minimal stemmer (`minimal_portuguese`) only reduces plurals.
 */
import { PORTUGUESE_RSLP } from './portuguese-rules.js';
import { applyStep, parseRslp, type RslpStep } from './rslp.js';

let steps: ReadonlyMap<string, RslpStep> | undefined;
function step(name: string): RslpStep {
  steps ??= parseRslp(PORTUGUESE_RSLP);
  return steps.get(name)!;
}

const ACCENTS: Record<string, string> = {
  à: 'a',
  á: 'a',
  â: 'a',
  ã: 'a',
  ä: 'a',
  å: 'a',
  ç: 'c',
  è: 'e',
  é: 'e',
  ê: 'e',
  ë: 'e',
  ì: 'i',
  í: 'i',
  î: 'i',
  ï: 'i',
  ñ: 'n',
  ò: 'o',
  ó: 'o',
  ô: 'o',
  õ: 'o',
  ö: 'o',
  ù: 'u',
  ú: 'u',
  û: 'u',
  ü: 'u',
  ý: 'y',
  ÿ: 'y',
};
const ACCENTED = new RegExp(`[${Object.keys(ACCENTS).join('')}]`, 'g');

export function portugueseRslpStem(word: string): string {
  let s = applyStep(step('Plural'), word);
  s = applyStep(step('Adverb'), s);
  s = applyStep(step('Feminine'), s);
  s = applyStep(step('Augmentative'), s);
  // Lucene compares lengths: a rule whose replacement is as long as its suffix counts as
  // "nothing removed"
  let before = s.length;
  s = applyStep(step('Noun'), s);
  if (s.length === before) {
    before = s.length;
    s = applyStep(step('Verb'), s);
    if (s.length === before) s = applyStep(step('Vowel'), s);
  }
  return s.replace(ACCENTED, (c) => ACCENTS[c]!);
}

export function portugueseMinimalStem(word: string): string {
  return applyStep(step('Plural'), word);
}
