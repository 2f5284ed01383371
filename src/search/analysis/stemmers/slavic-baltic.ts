/**
 * Light stemmers for Czech (Dolamic & Savoy), Bulgarian (Nakov) and Latvian (Kreslins), as
 * Lucene 7.7's CzechStemmer, BulgarianStemmer and LatvianStemmer apply them; written from the
 * published rules (case and possessive suffixes, then consonant normalisation).
 */

const endsAny = (s: string, xs: readonly string[]) => xs.some((x) => s.endsWith(x));

const CZ_CASE_3 = [
  'ech',
  'ich',
  'ích',
  'ého',
  'ěmi',
  'emi',
  'ému',
  'ěte',
  'ete',
  'ěti',
  'eti',
  'ího',
  'iho',
  'ími',
  'ímu',
  'imu',
  'ách',
  'ata',
  'aty',
  'ých',
  'ama',
  'ami',
  'ové',
  'ovi',
  'ými',
];
const CZ_CASE_2 = ['em', 'es', 'ém', 'ím', 'ům', 'at', 'ám', 'os', 'us', 'ým', 'mi', 'ou'];
const CZ_VOWELS = 'aeiouůyáéíýě';

/** Dolamic & Savoy's light Czech stemmer (Lucene CzechStemmer). */
export function czechStem(word: string): string {
  let s = czechCase(word);
  if (s.length > 5 && endsAny(s, ['ov', 'in', 'ův'])) s = s.slice(0, -2);
  return s.length > 0 ? czechNormalize(s) : s;
}

function czechCase(s: string): string {
  const n = s.length;
  if (n > 7 && s.endsWith('atech')) return s.slice(0, n - 5);
  if (n > 6 && endsAny(s, ['ětem', 'etem', 'atům'])) return s.slice(0, n - 4);
  if (n > 5 && endsAny(s, CZ_CASE_3)) return s.slice(0, n - 3);
  if (n > 4 && endsAny(s, CZ_CASE_2)) return s.slice(0, n - 2);
  if (n > 3 && CZ_VOWELS.includes(s[n - 1]!)) return s.slice(0, n - 1);
  return s;
}

function czechNormalize(s: string): string {
  const n = s.length;
  if (s.endsWith('čt')) return s.slice(0, n - 2) + 'ck';
  if (s.endsWith('št')) return s.slice(0, n - 2) + 'sk';
  const last = s[n - 1]!;
  if (last === 'c' || last === 'č') return s.slice(0, n - 1) + 'k';
  if (last === 'z' || last === 'ž') return s.slice(0, n - 1) + 'h';
  if (n > 1 && s[n - 2] === 'e') return s.slice(0, n - 2) + last;
  if (n > 2 && s[n - 2] === 'ů') return s.slice(0, n - 2) + 'o' + last;
  return s;
}

/** Nakov's light Bulgarian stemmer (Lucene BulgarianStemmer). */
export function bulgarianStem(word: string): string {
  let s = word;
  if (s.length < 4) return s;
  if (s.length > 5 && s.endsWith('ища')) return s.slice(0, -3);
  s = bulgarianPlural(bulgarianArticle(s));
  if (s.length > 3) {
    // a final я goes first, then (one more) final а, о or е
    if (s.endsWith('я')) s = s.slice(0, -1);
    if ('аое'.includes(s[s.length - 1]!)) s = s.slice(0, -1);
  }
  // -ен → -н
  if (s.length > 4 && s.endsWith('ен')) s = s.slice(0, -2) + 'н';
  // -ъN → -N
  if (s.length > 5 && s[s.length - 2] === 'ъ') s = s.slice(0, -2) + s[s.length - 1];
  return s;
}

function bulgarianArticle(s: string): string {
  const n = s.length;
  if (n > 6 && s.endsWith('ият')) return s.slice(0, n - 3);
  if (n > 5 && endsAny(s, ['ът', 'то', 'те', 'та', 'ия'])) return s.slice(0, n - 2);
  if (n > 4 && s.endsWith('ят')) return s.slice(0, n - 2);
  return s;
}

function bulgarianPlural(s: string): string {
  const n = s.length;
  if (n > 6) {
    if (s.endsWith('овци')) return s.slice(0, n - 3);
    if (s.endsWith('ове')) return s.slice(0, n - 3);
    if (s.endsWith('еве')) return s.slice(0, n - 3) + 'й';
  }
  if (n > 5) {
    if (s.endsWith('ища')) return s.slice(0, n - 3);
    if (s.endsWith('та')) return s.slice(0, n - 2);
    if (s.endsWith('ци')) return s.slice(0, n - 2) + 'к';
    if (s.endsWith('зи')) return s.slice(0, n - 2) + 'г';
    if (s[n - 3] === 'е' && s[n - 1] === 'и') return s.slice(0, n - 3) + 'я' + s[n - 2];
  }
  if (n > 4) {
    if (s.endsWith('си')) return s.slice(0, n - 2) + 'х';
    if (s.endsWith('и')) return s.slice(0, n - 1);
  }
  return s;
}

/** Latvian suffixes: [suffix, vowels the word must have more than, palatalises]. */
const LV_AFFIXES: ReadonlyArray<readonly [string, number, boolean]> = [
  ['ajiem', 3, false],
  ['ajai', 3, false],
  ['ajam', 2, false],
  ['ajām', 2, false],
  ['ajos', 2, false],
  ['ajās', 2, false],
  ['iem', 2, true],
  ['ajā', 2, false],
  ['ais', 2, false],
  ['ai', 2, false],
  ['ei', 2, false],
  ['ām', 1, false],
  ['am', 1, false],
  ['ēm', 1, false],
  ['īm', 1, false],
  ['im', 1, false],
  ['um', 1, false],
  ['us', 1, true],
  ['as', 1, false],
  ['ās', 1, false],
  ['es', 1, false],
  ['os', 1, true],
  ['ij', 1, false],
  ['īs', 1, false],
  ['ēs', 1, false],
  ['is', 1, false],
  ['ie', 1, false],
  ['u', 1, true],
  ['a', 1, true],
  ['i', 1, true],
  ['e', 1, false],
  ['ā', 1, false],
  ['ē', 0, false],
  ['ī', 0, false],
  ['ū', 0, false],
  ['o', 0, false],
  ['s', 0, false],
  ['š', 0, false],
];

/** Kreslins' light Latvian stemmer (Lucene LatvianStemmer). */
export function latvianStem(s: string): string {
  let vowels = 0;
  for (const c of s) if ('aeiouāīēū'.includes(c)) vowels++;
  for (const [suffix, vc, palatalizes] of LV_AFFIXES) {
    if (vowels > vc && s.length >= suffix.length + 3 && s.endsWith(suffix)) {
      const stem = s.slice(0, s.length - suffix.length);
      return palatalizes ? latvianUnpalatalize(stem, suffix[0]!) : stem;
    }
  }
  return s;
}

function latvianUnpalatalize(s: string, removedFirst: string): string {
  const n = s.length;
  // only the genitive plural (-u) undoes kš → kst and ņņ → nn
  if (removedFirst === 'u') {
    if (s.endsWith('kš')) return s.slice(0, n - 1) + 'st';
    if (s.endsWith('ņņ')) return s.slice(0, n - 2) + 'nn';
  }
  if (endsAny(s, ['pj', 'bj', 'mj', 'vj'])) return s.slice(0, n - 1);
  const pairs: Record<string, string> = {
    šņ: 'sn',
    žņ: 'zn',
    šļ: 'sl',
    žļ: 'zl',
    ļņ: 'ln',
    ļļ: 'll',
  };
  const two = s.slice(n - 2);
  if (pairs[two] !== undefined) return s.slice(0, n - 2) + pairs[two];
  const one: Record<string, string> = { č: 'c', ļ: 'l', ņ: 'n' };
  const last = s[n - 1];
  if (last !== undefined && one[last] !== undefined) return s.slice(0, n - 1) + one[last];
  return s;
}
