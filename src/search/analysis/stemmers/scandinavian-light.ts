/**
 * Jacques Savoy's light stemmers as Lucene 7.7 ships them: Swedish (SwedishLightStemmer) and
 * Norwegian, light and minimal (NorwegianLightStemmer / NorwegianMinimalStemmer), each for
 * Bokmål or Nynorsk. Each removes a genitive -s, then at most one ending, the longest rule first;
 * an ending goes only when the word is longer than the rule's length.
 */

/** [word longer than, endings]: the first group with a matching ending cuts it. */
type Rules = ReadonlyArray<readonly [number, readonly string[]]>;

function stemWith(word: string, rules: Rules, lastChars: string): string {
  let s = word;
  if (s.length > 4 && s.endsWith('s')) s = s.slice(0, -1);
  for (const [min, endings] of rules) {
    if (s.length <= min) continue;
    const hit = endings.find((e) => s.endsWith(e));
    if (hit !== undefined) return s.slice(0, s.length - hit.length);
  }
  if (s.length > 3 && lastChars.includes(s[s.length - 1]!)) return s.slice(0, -1);
  return s;
}

const SWEDISH: Rules = [
  [7, ['elser', 'heten']],
  [6, ['arne', 'erna', 'ande', 'else', 'aste', 'orna', 'aren']],
  [5, ['are', 'ast', 'het']],
  [4, ['ar', 'er', 'or', 'en', 'at', 'te', 'et']],
];

export function swedishLightStem(word: string): string {
  return stemWith(word, SWEDISH, 'tane');
}

export type NorwegianVariant = 'bokmaal' | 'nynorsk';

/** The light stemmer's rules; endings of the other variant are left out. */
function norwegianLightRules(v: NorwegianVariant): Rules {
  const nb = v === 'bokmaal';
  const only = (cond: boolean, endings: string[]) => (cond ? endings : []);
  return [
    [7, [...only(nb, ['heter', 'heten']), ...only(!nb, ['heita'])]],
    [8, only(!nb, ['heiter', 'leiken', 'leikar'])],
    [5, ['dom', ...only(nb, ['het'])]],
    [6, only(!nb, ['heit', 'semd', 'leik'])],
    [7, ['elser', 'elsen']],
    [6, [...only(nb, ['ende', 'este', 'eren']), ...only(!nb, ['ande', 'aste', 'aren']), 'else']],
    [5, [...only(nb, ['ere', 'est']), ...only(!nb, ['are', 'ast', 'ane']), 'ene']],
    [4, ['er', 'en', 'et', 'te', ...only(nb, ['st']), ...only(!nb, ['ar'])]],
  ];
}

const LIGHT: Record<NorwegianVariant, Rules> = {
  bokmaal: norwegianLightRules('bokmaal'),
  nynorsk: norwegianLightRules('nynorsk'),
};

export function norwegianLightStem(word: string, variant: NorwegianVariant): string {
  return stemWith(word, LIGHT[variant], 'aen');
}

const MINIMAL: Record<NorwegianVariant, Rules> = {
  bokmaal: [
    [5, ['ene']],
    [4, ['er', 'en', 'et']],
  ],
  nynorsk: [
    [5, ['ene', 'ane']],
    [4, ['er', 'en', 'et', 'ar']],
  ],
};

export function norwegianMinimalStem(word: string, variant: NorwegianVariant): string {
  return stemWith(word, MINIMAL[variant], 'ae');
}
