/**
 * Lucene 7.7's Galician stemmers over the RSLP rules of galician-rules.ts. The full stemmer:
 * plural, spelling unification, adverb, augmentatives/diminutives (repeatedly), then a noun
 * suffix or, when none was removed, a verb ending, then the final vowel, and last the acute
 * and circumflex accents are dropped. The minimal stemmer only reduces plurals.
 */
import { GALICIAN_RSLP } from './galician-rules.js';
import { applyStep, parseRslp, type RslpStep } from './rslp.js';

let steps: ReadonlyMap<string, RslpStep> | undefined;
function step(name: string): RslpStep {
  steps ??= parseRslp(GALICIAN_RSLP);
  return steps.get(name)!;
}

const ACCENTS: Record<string, string> = { á: 'a', é: 'e', ê: 'e', í: 'i', ó: 'o', ú: 'u' };

export function galicianStem(word: string): string {
  let s = applyStep(step('Plural'), word);
  s = applyStep(step('Unification'), s);
  s = applyStep(step('Adverb'), s);
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = applyStep(step('Augmentative'), s);
  }
  // Lucene compares lengths: a noun rule whose replacement is as long as its suffix counts as
  // "nothing removed", and the verb step runs too
  const before = s.length;
  s = applyStep(step('Noun'), s);
  if (s.length === before) s = applyStep(step('Verb'), s);
  s = applyStep(step('Vowel'), s);
  return s.replace(/[áéêíóú]/g, (c) => ACCENTS[c]!);
}

export function galicianMinimalStem(word: string): string {
  return applyStep(step('Plural'), word);
}
