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

type Stem = (term: string) => string;

/** Memoised stemmers, one per stemmer function: stemming is pure and words repeat (Zipf). */
const memoised = new WeakMap<Stem, Stem>();
const MEMO_LIMIT = 65_536;

function memo(stem: Stem): Stem {
  let m = memoised.get(stem);
  if (m === undefined) {
    const seen = new Map<string, string>();
    m = (term) => {
      let out = seen.get(term);
      if (out === undefined) {
        out = stem(term);
        if (seen.size >= MEMO_LIMIT) seen.clear();
        seen.set(term, out);
      }
      return out;
    };
    memoised.set(stem, m);
  }
  return m;
}

/** Applies `stem` to every token not marked as a keyword (KeywordAttribute). */
export class StemFilter extends TokenFilter {
  private readonly stem: Stem;
  constructor(input: TokenStream, stem: Stem) {
    super(input);
    this.stem = memo(stem);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (!t.keyword) t.term = this.stem(t.term);
    return true;
  }
}
