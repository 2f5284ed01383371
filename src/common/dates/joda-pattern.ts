/**
 * Compiles Joda DateTimeFormat patterns (`yyyy-MM-dd HH:mm:ss`, `dd/MMM/yyyy:HH:mm:ss Z`,
 * `E, d MMM yyyy`, quoted literals) into format elements, with Joda's token rules: letter runs
 * form one token, numeric fields followed by another numeric token parse at most their width,
 * `yy` is a two-digit year pivoted on (now - 30), and unknown letters are illegal.
 */

import { yearOf } from './calendar.js';
import * as F from './date-fields.js';
import type { Element } from './format-elements.js';
import { literal, sequence } from './format-elements.js';
import { fraction, number, twoDigitYear } from './number-elements.js';
import { text } from './text-elements.js';
import { offset, zoneId, zoneName } from './zone-elements.js';

/** Thrown for an invalid pattern; message is Joda's. */
export class PatternError extends Error {}

/** Joda DateTimeFormat.parseToken: a run of one letter, or a literal text token starting with '. */
function parseToken(pattern: string, index: number): { token: string; end: number } {
  let i = index;
  const length = pattern.length;
  const c = pattern[i]!;
  if (/[A-Za-z]/.test(c)) {
    let tok = c;
    while (i + 1 < length && pattern[i + 1] === c) {
      tok += c;
      i++;
    }
    return { token: tok, end: i };
  }
  let buf = "'";
  let inLiteral = false;
  for (; i < length; i++) {
    const ch = pattern[i]!;
    if (ch === "'") {
      if (i + 1 < length && pattern[i + 1] === "'") {
        i++;
        buf += ch;
      } else inLiteral = !inLiteral;
    } else if (!inLiteral && /[A-Za-z]/.test(ch)) {
      i--;
      break;
    } else buf += ch;
  }
  return { token: buf, end: i };
}

function isNumericToken(token: string): boolean {
  if (token.length === 0) return false;
  const c = token[0]!;
  if ('cCxyYdhHmsSeDFwWkK'.includes(c)) return true;
  return c === 'M' && token.length <= 2;
}

/** Two-digit years pivot on the current year - 30, like Joda (`new DateTime().getYear() - 30`). */
const currentYear = (): number => yearOf(Date.now());

export function compileJodaPattern(pattern: string): Element {
  const elements: Element[] = [];
  const length = pattern.length;
  for (let i = 0; i < length; i++) {
    const { token, end } = parseToken(pattern, i);
    i = end;
    const tokenLen = token.length;
    if (tokenLen === 0) break;
    const nextIsNumeric = () => {
      if (i + 1 >= length) return false;
      return isNumericToken(parseToken(pattern, i + 1).token);
    };
    const c = token[0]!;
    switch (c) {
      case 'G':
        elements.push(text('era', false));
        break;
      case 'C':
        elements.push(number(F.centuryOfEra, tokenLen, tokenLen, true));
        break;
      case 'x':
      case 'y':
      case 'Y': {
        if (tokenLen === 2) {
          const lenient = !nextIsNumeric();
          const field = c === 'x' ? F.weekyear : F.year;
          elements.push(twoDigitYear(field, currentYear() - 30, lenient));
        } else {
          const maxDigits = nextIsNumeric() ? tokenLen : 9;
          if (c === 'x') elements.push(number(F.weekyear, tokenLen, maxDigits, true));
          else if (c === 'y') elements.push(number(F.year, tokenLen, maxDigits, true));
          else elements.push(number(F.yearOfEra, tokenLen, maxDigits, false));
        }
        break;
      }
      case 'M':
        if (tokenLen >= 3) elements.push(text('month', tokenLen < 4));
        else elements.push(number(F.monthOfYear, tokenLen, 2, false));
        break;
      case 'd':
        elements.push(number(F.dayOfMonth, tokenLen, 2, false));
        break;
      case 'a':
        elements.push(text('halfday', false));
        break;
      case 'h':
        elements.push(number(F.clockhourOfHalfday, tokenLen, 2, false));
        break;
      case 'H':
        elements.push(number(F.hourOfDay, tokenLen, 2, false));
        break;
      case 'k':
        elements.push(number(F.clockhourOfDay, tokenLen, 2, false));
        break;
      case 'K':
        elements.push(number(F.hourOfHalfday, tokenLen, 2, false));
        break;
      case 'm':
        elements.push(number(F.minuteOfHour, tokenLen, 2, false));
        break;
      case 's':
        elements.push(number(F.secondOfMinute, tokenLen, 2, false));
        break;
      case 'S':
        elements.push(fraction(1000, F.FRACTION_RANKS.second, tokenLen, tokenLen));
        break;
      case 'e':
        elements.push(number(F.dayOfWeek, tokenLen, 1, false));
        break;
      case 'E':
        elements.push(text('weekday', tokenLen < 4));
        break;
      case 'D':
        elements.push(number(F.dayOfYear, tokenLen, 3, false));
        break;
      case 'w':
        elements.push(number(F.weekOfWeekyear, tokenLen, 2, false));
        break;
      case 'z':
        elements.push(zoneName(tokenLen >= 4));
        break;
      case 'Z':
        if (tokenLen === 1) elements.push(offset(null, 'Z', false, 2, 2));
        else if (tokenLen === 2) elements.push(offset(null, 'Z', true, 2, 2));
        else elements.push(zoneId());
        break;
      case "'": {
        const sub = token.slice(1);
        if (sub.length > 0) elements.push(literal(sub));
        break;
      }
      default:
        throw new PatternError(`Illegal pattern component: ${token}`);
    }
  }
  return sequence(elements);
}
