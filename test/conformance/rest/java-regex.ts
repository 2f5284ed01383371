/**
 * java.util.regex patterns as JS RegExps, with find() semantics (ES: RegexMatcher uses
 * `matcher.find()`). `match` values use Pattern.COMMENTS: unescaped whitespace (also inside
 * character classes, as Java does) and `#` comments to end of line are dropped. Java-only syntax
 * the tests can meet is translated: `$` and `\Z` also match before a final line terminator, `\z`,
 * `\A`, `\h`, `\Q...\E`, possessive quantifiers and atomic groups, leading inline flags.
 */

const JAVA_WS = new Set([' ', '\t', '\n', '\u000b', '\f', '\r']);
const LINE_END = '(?=(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])?$)';
const HSPACE = '[ \\t\\xA0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]';

const POSIX: Record<string, string> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0B\\f\\r',
};

export interface JavaRegexOptions {
  comments?: boolean;
}

/** Compiles a Java regex source into an equivalent RegExp (unanchored, like find()). */
export function compileJavaRegex(source: string, opts: JavaRegexOptions = {}): RegExp {
  let flags = '';
  let src = source;
  // Leading inline flags, e.g. (?i) or (?s).
  const inline = /^\(\?([imsxu]+)\)/.exec(src);
  let comments = opts.comments ?? false;
  if (inline) {
    for (const f of inline[1]!) {
      if (f === 'x') comments = true;
      else if (f === 'i' || f === 'm' || f === 's') flags += flags.includes(f) ? '' : f;
    }
    src = src.slice(inline[0].length);
  }
  return new RegExp(translate(src, comments, flags.includes('m')), flags);
}

function translate(src: string, comments: boolean, multiline: boolean): string {
  let out = '';
  let inClass = 0;
  // Whether the last token was a quantifier: a `+` right after one makes it possessive.
  let afterQuantifier = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const wasQuantifier: boolean = afterQuantifier;
    afterQuantifier = false;
    if (c === '\\') {
      const n = src[i + 1];
      i++;
      if (n === undefined) {
        out += '\\\\';
      } else if (n === 'Q') {
        const end = src.indexOf('\\E', i + 1);
        const lit = end < 0 ? src.slice(i + 1) : src.slice(i + 1, end);
        out += lit.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');
        i = end < 0 ? src.length : end + 1;
      } else if (n === 'Z' && !inClass) {
        out += LINE_END;
      } else if (n === 'z' && !inClass) {
        out += '$(?![\\s\\S])';
      } else if (n === 'A' && !inClass) {
        out += '(?<![\\s\\S])';
      } else if (n === 'h') {
        out += inClass ? HSPACE.slice(1, -1) : HSPACE;
      } else if ((n === 'p' || n === 'P') && src[i + 1] === '{') {
        const close = src.indexOf('}', i);
        const name = src.slice(i + 2, close).replace(/^Is/, '');
        const set = POSIX[name];
        if (set !== undefined && close > 0) {
          out += inClass ? set : `[${n === 'P' ? '^' : ''}${set}]`;
          i = close;
        } else {
          out += '\\' + n;
        }
      } else {
        out += '\\' + n;
      }
      continue;
    }
    if (comments && (JAVA_WS.has(c) || c === '#')) {
      if (c === '#') while (i + 1 < src.length && src[i + 1] !== '\n') i++;
      afterQuantifier = wasQuantifier;
      continue;
    }
    if (inClass) {
      if (c === '[') inClass++;
      else if (c === ']') inClass--;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = 1;
      out += c;
      // A leading ']' (or '^]') is a literal in Java, as in JS.
      if (src[i + 1] === '^') out += src[++i];
      if (src[i + 1] === ']') out += '\\' + src[++i];
      continue;
    }
    if (c === '$') {
      out += multiline ? '$' : LINE_END;
      continue;
    }
    if (c === '(' && src.startsWith('(?>', i)) {
      out += '(?:';
      i += 2;
      continue;
    }
    // Possessive quantifiers (x*+, x++, x?+, x{n}+) behave like greedy ones for find().
    if (c === '+' && wasQuantifier) continue;
    if (c === '{') {
      const counted = /^\{\d+(?:,\d*)?\}/.exec(src.slice(i));
      if (counted) {
        out += counted[0];
        i += counted[0].length - 1;
        afterQuantifier = true;
        continue;
      }
    }
    afterQuantifier = c === '*' || c === '+' || c === '?';
    out += c;
  }
  return out;
}

/** MatchAssertion: a string value wrapped in slashes (after trim) is a regex. */
export function asRegexLiteral(expected: unknown): string | null {
  if (typeof expected !== 'string') return null;
  const v = javaTrim(expected);
  if (v.length > 2 && v.startsWith('/') && v.endsWith('/')) return v.slice(1, -1);
  return null;
}

/** String.trim(): strips chars <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}
