/**
 * Small one-token-in, one-token-out Lucene filters: lowercase, uppercase, length, trim, truncate,
 * reverse, unique (ES UniqueTokenFilter), keyword_marker, english possessive.
 */
import { lowerCaseTerm, upperCaseTerm } from '../java-chars.js';
import { FilteringTokenFilter, TokenFilter, type TokenStream } from '../token-stream.js';

export class LowerCaseFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    this.token.term = lowerCaseTerm(this.token.term);
    return true;
  }
}

export class UpperCaseFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    this.token.term = upperCaseTerm(this.token.term);
    return true;
  }
}

/** Lucene LengthFilter: keeps terms whose UTF-16 length is within [min, max]. */
export class LengthFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly min: number,
    private readonly max: number,
  ) {
    super(input);
  }
  protected accept(): boolean {
    const n = this.token.term.length;
    return n >= this.min && n <= this.max;
  }
}

/** Lucene TrimFilter: strips chars <= ' ' from both ends; offsets unchanged. */
export class TrimFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    const s = this.token.term;
    let a = 0;
    let b = s.length;
    while (a < b && s.charCodeAt(a) <= 0x20) a++;
    while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
    if (a > 0 || b < s.length) this.token.term = s.slice(a, b);
    return true;
  }
}

/** Lucene TruncateTokenFilter: cuts terms to `length` chars (keyword-marked terms excepted). */
export class TruncateFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly length: number,
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (!t.keyword && t.term.length > this.length) t.term = t.term.slice(0, this.length);
    return true;
  }
}

/** Lucene ReverseStringFilter: reverses by code point. */
export class ReverseFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    this.token.term = Array.from(this.token.term).reverse().join('');
    return true;
  }
}

/** ES UniqueTokenFilter: drops repeated terms (positions of dropped tokens are not carried). */
export class UniqueFilter extends TokenFilter {
  private readonly seen = new Set<string>();
  constructor(
    input: TokenStream,
    private readonly onlyOnSamePosition: boolean,
  ) {
    super(input);
  }
  next(): boolean {
    while (this.input.next()) {
      const t = this.token;
      let dup: boolean;
      if (this.onlyOnSamePosition) {
        if (t.posInc > 0) this.seen.clear();
        dup = t.posInc === 0 && this.seen.has(t.term);
      } else {
        dup = this.seen.has(t.term);
      }
      if (dup) continue;
      this.seen.add(t.term);
      return true;
    }
    return false;
  }
}

/** Lucene SetKeywordMarkerFilter / PatternKeywordMarkerFilter. */
export class KeywordMarkerFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly keywords: ReadonlySet<string> | null,
    private readonly ignoreCase: boolean,
    private readonly pattern: RegExp | null,
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (this.keywords !== null) {
      const key = this.ignoreCase ? t.term.toLowerCase() : t.term;
      if (this.keywords.has(key)) t.keyword = true;
    } else if (this.pattern !== null) {
      this.pattern.lastIndex = 0;
      const m = this.pattern.exec(t.term);
      if (m !== null && m.index === 0 && m[0].length === t.term.length) t.keyword = true;
    }
    return true;
  }
}

/** Lucene EnglishPossessiveFilter: strips a trailing 's (also ’s and ＇s). */
export class EnglishPossessiveFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    const s = this.token.term;
    const n = s.length;
    if (n >= 2) {
      const last = s.charCodeAt(n - 1);
      const q = s.charCodeAt(n - 2);
      if ((last === 0x73 || last === 0x53) && (q === 0x27 || q === 0x2019 || q === 0xff07)) {
        this.token.term = s.slice(0, n - 2);
      }
    }
    return true;
  }
}
