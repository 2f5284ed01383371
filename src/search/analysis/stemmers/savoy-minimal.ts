/**
 * Jacques Savoy's minimal (plural-only) stemmers for French and German as Lucene 7.7 ships them
 * (FrenchMinimalStemmer, GermanMinimalStemmer; ES stemmer languages minimal_french and
 * minimal_german).
 */

export function frenchMinimalStem(word: string): string {
  const s = [...word];
  let len = s.length;
  if (len < 6) return word;
  if (s[len - 1] === 'x') {
    // -aux → -al (chevaux → cheval), else the x goes (hiboux → hibou)
    if (s[len - 3] === 'a' && s[len - 2] === 'u') s[len - 2] = 'l';
    return s.slice(0, len - 1).join('');
  }
  if (s[len - 1] === 's') len--;
  if (s[len - 1] === 'r') len--;
  if (s[len - 1] === 'e') len--;
  if (s[len - 1] === 'é') len--;
  // 7.7 undoubles any final char, digits too (later Lucene versions spare digits)
  if (s[len - 1] === s[len - 2]) len--;
  return s.slice(0, len).join('');
}

const DE_FOLD: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u' };

export function germanMinimalStem(word: string): string {
  if ([...word].length < 5) return word;
  const s = [...word].map((c) => DE_FOLD[c] ?? c);
  const len = s.length;
  const last = s[len - 1]!;
  const before = s[len - 2];
  if (len > 6 && s[len - 3] === 'n' && before === 'e' && last === 'n') return cut(s, 3);
  if (len > 5) {
    if ((last === 'n' || last === 's' || last === 'r') && before === 'e') return cut(s, 2);
    if (last === 'e' && before === 's') return cut(s, 2);
  }
  if ('nesr'.includes(last)) return cut(s, 1);
  return s.join('');
}

const cut = (s: readonly string[], n: number) => s.slice(0, s.length - n).join('');
