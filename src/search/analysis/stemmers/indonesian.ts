/**
 * Asian & Tala's Indonesian stemmer as Lucene 7.7's IndonesianStemmer applies it: particles and
 * possessive pronouns, then (derivational mode) first- and second-order prefixes and suffixes,
 * each only while the word keeps more than two syllables.
 */

const MENG = 1;
const DI = 2;
const TER = 4;
const KE = 8;
const PENG = 16;
const BER = 32;
const PE = 64;

const isVowel = (c: string | undefined) => c !== undefined && 'aeiou'.includes(c);

export function indonesianStem(word: string, derivational = true): string {
  let s = word;
  let flags = 0;
  let syllables = 0;
  for (const c of s) if (isVowel(c)) syllables++;

  const suffix = (x: string, n: number): boolean => {
    if (!s.endsWith(x)) return false;
    s = s.slice(0, s.length - n);
    syllables--;
    return true;
  };
  const prefix = (x: string, n: number, flag: number): boolean => {
    if (!s.startsWith(x)) return false;
    s = s.slice(n);
    flags |= flag;
    syllables--;
    return true;
  };

  if (syllables > 2) void (suffix('kah', 3) || suffix('lah', 3) || suffix('pun', 3));
  if (syllables > 2) void (suffix('ku', 2) || suffix('mu', 2) || suffix('nya', 3));
  if (!derivational) return s;

  const firstOrder = (): boolean => {
    if (prefix('meng', 4, MENG)) return true;
    if (s.startsWith('meny') && isVowel(s[4])) {
      s = 's' + s.slice(4);
      flags |= MENG;
      syllables--;
      return true;
    }
    if (prefix('men', 3, MENG) || prefix('mem', 3, MENG) || prefix('me', 2, MENG)) return true;
    if (prefix('peng', 4, PENG)) return true;
    if (s.startsWith('peny') && isVowel(s[4])) {
      s = 's' + s.slice(4);
      flags |= PENG;
      syllables--;
      return true;
    }
    if (prefix('peny', 4, PENG)) return true;
    if (s.startsWith('pen') && isVowel(s[3])) {
      s = 't' + s.slice(3);
      flags |= PENG;
      syllables--;
      return true;
    }
    return (
      prefix('pen', 3, PENG) ||
      prefix('pem', 3, PENG) ||
      prefix('di', 2, DI) ||
      prefix('ter', 3, TER) ||
      prefix('ke', 2, KE)
    );
  };
  const secondOrder = (): boolean => {
    if (prefix('ber', 3, BER)) return true;
    if (s === 'belajar') return prefix('bel', 3, BER);
    if (s.startsWith('be') && s.length > 4 && !isVowel(s[2]) && s[3] === 'e' && s[4] === 'r') {
      return prefix('be', 2, BER);
    }
    if (prefix('per', 3, 0)) return true;
    if (s === 'pelajar') return prefix('pel', 3, 0);
    return prefix('pe', 2, PE);
  };
  const removeSuffix = (): boolean => {
    if (s.endsWith('kan') && (flags & (KE | PENG | PE)) === 0) return suffix('kan', 3);
    if (s.endsWith('an') && (flags & (DI | MENG | TER)) === 0) return suffix('an', 2);
    if (s.endsWith('i') && !s.endsWith('si') && (flags & (BER | KE | PENG)) === 0) {
      return suffix('i', 1);
    }
    return false;
  };

  if (syllables > 2 && firstOrder()) {
    if (syllables > 2 && removeSuffix() && syllables > 2) secondOrder();
  } else {
    if (syllables > 2) secondOrder();
    if (syllables > 2) removeSuffix();
  }
  return s;
}
