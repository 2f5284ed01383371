/**
 * Jacques Savoy's light stemmers for Finnish, Hungarian and Russian as Lucene 7.7 ships them
 * (FinnishLightStemmer, HungarianLightStemmer, RussianLightStemmer; ES stemmer languages
 * light_finnish, light_hungarian and light_russian). Each may fold accents first, then strips
 * case, possessive and plural endings in steps, each step cutting at most one ending from a word
 * longer than the rule's length.
 */

const VOWELS = 'aeiouy';
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.includes(c);

/** A word as Lucene's char buffer: rewrites keep the length. */
class Word {
  readonly s: string[];
  len: number;
  constructor(word: string, fold: Record<string, string>) {
    this.s = [...word].map((c) => fold[c] ?? c);
    this.len = this.s.length;
  }
  ends(...suffixes: string[]): boolean {
    return suffixes.some((x) => {
      if (x.length > this.len) return false;
      for (let i = 0; i < x.length; i++) if (this.s[this.len - x.length + i] !== x[i]) return false;
      return true;
    });
  }
  /** The char `n` places from the end (1 = last). */
  back(n: number): string | undefined {
    return this.s[this.len - n];
  }
  set(n: number, c: string): void {
    this.s[this.len - n] = c;
  }
  toString(): string {
    return this.s.slice(0, this.len).join('');
  }
}

// --- Finnish ---------------------------------------------------------------------------------

const FI_FOLD: Record<string, string> = { ä: 'a', å: 'a', ö: 'o' };

function fiStep1(w: Word): void {
  for (;;) {
    if (w.len > 8 && w.ends('kin')) w.len -= 3;
    else if (w.len > 8 && w.ends('ko')) w.len -= 2;
    else break;
  }
  if (w.len > 11) {
    if (w.ends('dellinen')) w.len -= 8;
    else if (w.ends('dellisuus')) w.len -= 9;
  }
}

function fiStep2(w: Word): void {
  if (w.len <= 5) return;
  if (w.ends('lla', 'tse', 'sti')) w.len -= 3;
  else if (w.ends('ni')) w.len -= 2;
  else if (w.ends('aa')) w.len -= 1;
}

function fiStep3(w: Word): void {
  if (w.len > 8) {
    if (w.ends('nnen')) {
      w.set(4, 's');
      w.len -= 3;
      return;
    }
    if (w.ends('ntena')) {
      w.set(5, 's');
      w.len -= 4;
      return;
    }
    if (w.ends('tten')) return void (w.len -= 4);
    if (w.ends('eiden')) return void (w.len -= 5);
  }
  if (w.len > 6) {
    if (w.ends('neen', 'niin', 'seen', 'teen', 'inen')) return void (w.len -= 4);
    if (w.back(3) === 'h' && isVowel(w.back(2)) && w.back(1) === 'n') return void (w.len -= 3);
    if (w.ends('den')) {
      w.set(3, 's');
      w.len -= 2;
      return;
    }
    if (w.ends('ksen')) {
      w.set(4, 's');
      w.len -= 3;
      return;
    }
    if (w.ends('ssa', 'sta', 'lla', 'lta', 'tta', 'ksi', 'lle')) return void (w.len -= 3);
  }
  if (w.len > 5) {
    if (w.ends('na', 'ne')) return void (w.len -= 2);
    if (w.ends('nei')) return void (w.len -= 3);
  }
  if (w.len > 4) {
    if (w.ends('ja', 'ta')) return void (w.len -= 2);
    if (w.back(1) === 'a') return void (w.len -= 1);
    if (w.back(1) === 'n' && isVowel(w.back(2))) return void (w.len -= 2);
    if (w.back(1) === 'n') w.len -= 1;
  }
}

function fiNorm1(w: Word): void {
  if (w.len > 5 && w.ends('hde')) {
    w.set(3, 'k');
    w.set(2, 's');
    w.set(1, 'i');
  }
  if (w.len > 4 && w.ends('ei', 'at')) return void (w.len -= 2);
  if (w.len > 3 && 'tsjeai'.includes(w.back(1)!)) w.len -= 1;
}

function fiNorm2(w: Word): void {
  if (w.len > 8 && 'eou'.includes(w.back(1)!)) w.len -= 1;
  if (w.len <= 4) return;
  if (w.back(1) === 'i') w.len -= 1;
  if (w.len <= 4) return;
  // a doubled k, p or t becomes single
  let ch = w.s[0]!;
  for (let i = 1; i < w.len; i++) {
    if (w.s[i] === ch && (ch === 'k' || ch === 'p' || ch === 't')) {
      w.s.splice(i, 1);
      w.len--;
      i--;
    } else {
      ch = w.s[i]!;
    }
  }
}

export function finnishLightStem(word: string): string {
  if ([...word].length < 4) return word;
  const w = new Word(word, FI_FOLD);
  fiStep1(w);
  fiStep2(w);
  fiStep3(w);
  fiNorm1(w);
  fiNorm2(w);
  return w.toString();
}

// --- Hungarian -------------------------------------------------------------------------------

const HU_FOLD: Record<string, string> = {
  á: 'a',
  ë: 'e',
  é: 'e',
  í: 'i',
  ó: 'o',
  ő: 'o',
  õ: 'o',
  ö: 'o',
  ú: 'u',
  ű: 'u',
  ũ: 'u',
  û: 'u',
  ü: 'u',
};

function huCase(w: Word): void {
  if (w.len > 6 && w.ends('kent')) return void (w.len -= 4);
  if (w.len > 5) {
    const cases = ['nak', 'nek', 'val', 'vel', 'ert', 'rol', 'ban', 'ben', 'bol', 'nal', 'nel'];
    if (w.ends(...cases, 'hoz', 'hez', 'tol')) return void (w.len -= 3);
    if (w.ends('al', 'el') && !isVowel(w.back(3)) && w.back(3) === w.back(4)) {
      return void (w.len -= 3);
    }
  }
  if (w.len > 4) {
    if (w.ends('at', 'et', 'ot', 'va', 've', 'ra', 're', 'ba', 'be', 'ul', 'ig')) {
      return void (w.len -= 2);
    }
    if (w.ends('on', 'en') && !isVowel(w.back(3))) return void (w.len -= 2);
    const last = w.back(1);
    if (last === 't' || last === 'n') return void (w.len -= 1);
    if ((last === 'a' || last === 'e') && w.back(2) === w.back(3) && !isVowel(w.back(2))) {
      w.len -= 2;
    }
  }
}

function huPossessive(w: Word): void {
  if (w.len > 6) {
    if (!isVowel(w.back(5)) && w.ends('atok', 'otok', 'etek')) return void (w.len -= 4);
    if (w.ends('itek', 'itok')) return void (w.len -= 4);
  }
  if (w.len > 5) {
    if (!isVowel(w.back(4)) && w.ends('unk', 'tok', 'tek')) return void (w.len -= 3);
    if (isVowel(w.back(4)) && w.ends('juk')) return void (w.len -= 3);
    if (w.ends('ink')) return void (w.len -= 3);
  }
  if (w.len > 4) {
    if (!isVowel(w.back(3)) && w.ends('am', 'em', 'om', 'ad', 'ed', 'od', 'uk')) {
      return void (w.len -= 2);
    }
    if (isVowel(w.back(3)) && w.ends('nk', 'ja', 'je')) return void (w.len -= 2);
    if (w.ends('im', 'id', 'ik')) return void (w.len -= 2);
  }
  if (w.len > 3) {
    const last = w.back(1);
    if ((last === 'a' || last === 'e') && !isVowel(w.back(2))) w.len -= 1;
    else if ((last === 'm' || last === 'd') && isVowel(w.back(2))) w.len -= 1;
    else if (last === 'i') w.len -= 1;
  }
}

function huPlural(w: Word): void {
  if (w.len > 3 && w.back(1) === 'k') {
    const before = w.back(2);
    w.len -= (before === 'a' || before === 'o' || before === 'e') && w.len > 4 ? 2 : 1;
  }
}

export function hungarianLightStem(word: string): string {
  const w = new Word(word, HU_FOLD);
  huCase(w);
  huPossessive(w);
  huPlural(w);
  if (w.len > 3 && 'aeio'.includes(w.back(1)!)) w.len -= 1;
  return w.toString();
}

// --- Russian (Dolamic and Savoy) -------------------------------------------------------------

/** [word longer than, endings]: the first group with a matching ending cuts it. */
const RU_CASES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [6, ['иями', 'оями']],
  [
    5,
    [
      'иям',
      'иях',
      'оях',
      'ями',
      'оям',
      'оьв',
      'ами',
      'его',
      'ему',
      'ери',
      'ими',
      'ого',
      'ому',
    ].concat(['ыми', 'оев']),
  ],
  [
    4,
    ['ая', 'яя', 'ях', 'юю', 'ах', 'ею', 'их', 'ия', 'ию', 'ьв', 'ою', 'ую', 'ям', 'ых', 'ея']
      .concat(['ам', 'ем', 'ей', 'ём', 'ев', 'ий', 'им', 'ое', 'ой', 'ом', 'ов', 'ые', 'ый'])
      .concat(['ым', 'ми']),
  ],
];

export function russianLightStem(word: string): string {
  const w = new Word(word, {});
  removeRussianCase(w);
  if (w.len > 3) {
    const last = w.back(1);
    if (last === 'ь' || last === 'и' || (last === 'н' && w.back(2) === 'н')) w.len -= 1;
  }
  return w.toString();
}

function removeRussianCase(w: Word): void {
  for (const [min, endings] of RU_CASES) {
    if (w.len > min && w.ends(...endings)) {
      w.len -= endings[0]!.length;
      return;
    }
  }
  if (w.len > 3 && 'аеиоуйыяь'.includes(w.back(1)!)) w.len -= 1;
}
