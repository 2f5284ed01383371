/**
 * Lucene EnglishMinimalStemmer (the "S-stemmer": plural endings only) and the `stemmer` /
 * `porter_stem` filters that apply a stemming function to non-keyword tokens.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

/** Lucene EnglishMinimalStemmer.stem. */
export function englishMinimalStem(s: string): string {
  const len = s.length;
  if (len < 3 || s[len - 1] !== 's') return s;
  switch (s[len - 2]) {
    case 'u':
    case 's':
      return s;
    case 'e':
      if (len > 3 && s[len - 3] === 'i' && s[len - 4] !== 'a' && s[len - 4] !== 'e') {
        return s.slice(0, len - 3) + 'y';
      }
      if (s[len - 3] === 'i' || s[len - 3] === 'a' || s[len - 3] === 'o' || s[len - 3] === 'e') {
        return s;
      }
      return s.slice(0, len - 1);
    default:
      return s.slice(0, len - 1);
  }
}

/** Applies `stem` to every token not marked as a keyword (KeywordAttribute). */
export class StemFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly stem: (term: string) => string,
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (!t.keyword) t.term = this.stem(t.term);
    return true;
  }
}
