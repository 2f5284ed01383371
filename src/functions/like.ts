/**
 * LIKE and RLIKE matching: ql StringUtils.likeToJavaPattern (% and _ with an optional ESCAPE
 * character and its "Invalid sequence" error) and Java-regex full matching (RegexProcessor), with
 * the few Java-only regex constructs translated to JavaScript. Compiled patterns are cached.
 */
import { qlIllegalArgument } from './errors.js';

const REGEX_SPECIAL = new Set([
  '\\',
  '^',
  '$',
  '.',
  '*',
  '?',
  '+',
  '|',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
]);

/** StringUtils.likeToJavaPattern: `^...$` Java regex for a LIKE pattern. */
export function likeToJavaPattern(pattern: string, escape: string | null = null): string {
  let regex = '^';
  let escaped = false;
  for (let i = 0; i < pattern.length; i++) {
    const curr = pattern[i]!;
    if (!escaped && escape !== null && curr === escape) {
      escaped = true;
      if (i + 1 === pattern.length) {
        throw qlIllegalArgument(
          'Invalid sequence - escape character is not followed by special wildcard char',
        );
      }
    } else {
      if (curr === '%') regex += escaped ? '%' : '.*';
      else if (curr === '_') regex += escaped ? '_' : '.';
      else {
        if (escaped) {
          throw qlIllegalArgument(
            'Invalid sequence - escape character is not followed by special wildcard char',
          );
        }
        if (REGEX_SPECIAL.has(curr)) regex += '\\';
        regex += curr;
      }
      escaped = false;
    }
  }
  return regex + '$';
}

/** StringUtils.likeToLuceneWildcard: `*` and `?` with `\` escapes (for wildcard queries). */
export function likeToLuceneWildcard(pattern: string, escape: string | null = null): string {
  let out = '';
  let escaped = false;
  for (let i = 0; i < pattern.length; i++) {
    const curr = pattern[i]!;
    if (!escaped && escape !== null && curr === escape) {
      if (i + 1 === pattern.length) {
        throw qlIllegalArgument(
          'Invalid sequence - escape character is not followed by special wildcard char',
        );
      }
      escaped = true;
    } else {
      if (curr === '%') out += escaped ? '%' : '*';
      else if (curr === '_') out += escaped ? '_' : '?';
      else {
        if (escaped) {
          throw qlIllegalArgument(
            'Invalid sequence - escape character is not followed by special wildcard char',
          );
        }
        if (curr === '\\' || curr === '*' || curr === '?') out += '\\';
        out += curr;
      }
      escaped = false;
    }
  }
  return out;
}

/** Translates Java regex syntax JavaScript lacks (\A, \z, \Z, possessive quantifiers, POSIX classes). */
function javaRegexToJs(p: string): string {
  return p
    .replace(/\\A/g, '^')
    .replace(/\\[zZ]/g, '$')
    .replace(/([*+?}])\+/g, '$1')
    .replace(/\\p\{Alpha\}/g, '[A-Za-z]')
    .replace(/\\p\{Digit\}/g, '[0-9]')
    .replace(/\\p\{Alnum\}/g, '[A-Za-z0-9]')
    .replace(/\\p\{Upper\}/g, '[A-Z]')
    .replace(/\\p\{Lower\}/g, '[a-z]')
    .replace(/\\p\{Punct\}/g, '[!-/:-@\\[-`{-~]')
    .replace(/\\p\{Space\}/g, '\\s');
}

const cache = new Map<string, RegExp>();

/** A full-match matcher for a Java regex (Pattern.compile(p).matcher(s).matches()). */
export function compileJavaRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = new RegExp('^(?:' + javaRegexToJs(pattern) + ')$');
    } catch (e) {
      throw qlIllegalArgument('Invalid regex [{}]: {}', [pattern, (e as Error).message]);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

/** RegexOperation.match: TRUE without a pattern, NULL for a null value. */
export function regexMatch(value: unknown, pattern: string | null | undefined): boolean | null {
  if (pattern == null) return true;
  if (value == null) return null;
  return compileJavaRegex(pattern).test(String(value));
}

/** `value LIKE pattern [ESCAPE e]`. */
export function like(
  value: unknown,
  pattern: string,
  escape: string | null = null,
): boolean | null {
  return regexMatch(value, likeToJavaPattern(pattern, escape));
}

/** `value RLIKE pattern`. */
export const rlike = (value: unknown, pattern: string): boolean | null =>
  regexMatch(value, pattern);
