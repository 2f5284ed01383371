/**
 * Backslash escapes of the classic query syntax: Lucene `QueryParserBase.discardEscapeChar`
 * (including `\uXXXX` escapes and its error messages) and `QueryParser.escape`, which ES applies
 * to the whole string when `query_string.escape` is true.
 */
import { LuceneParseError } from './errors.js';

function hexToInt(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  throw new LuceneParseError(`Non-hex character in Unicode escape sequence: ${c}`);
}

/** Removes escape backslashes, keeping an escaped char once; decodes `\uXXXX`. */
export function discardEscapeChar(input: string): string {
  if (input.indexOf('\\') < 0) return input;
  let out = '';
  let escaped = false;
  let multiplier = 0;
  let codePoint = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (multiplier > 0) {
      codePoint += hexToInt(c) * multiplier;
      multiplier >>>= 4;
      if (multiplier === 0) {
        out += String.fromCharCode(codePoint);
        codePoint = 0;
      }
    } else if (escaped) {
      if (c === 'u') multiplier = 16 * 16 * 16;
      else out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else {
      out += c;
    }
  }
  if (multiplier > 0) throw new LuceneParseError('Truncated unicode escape sequence.');
  if (escaped) throw new LuceneParseError('Term can not end with escape character.');
  return out;
}

const SPECIAL = new Set([...'\\+-!():^[]"{}~*?|&/']);

/** Lucene `QueryParser.escape`: backslash before every syntax character. */
export function escapeQueryString(s: string): string {
  let out = '';
  for (const c of s) out += SPECIAL.has(c) ? `\\${c}` : c;
  return out;
}
