/**
 * Joda date patterns (DateTimeFormat.forPattern subset: y Y x u w e M d D H k h K m s S a E Z z G C
 * and quoted literals), compiled once into token lists. A leading `8` selects java.time meaning
 * (Y = week-based year). Parsing leaves errors at Joda's positions.
 */
import { illegalArgument } from './errors.js';
import { digits, finish, newFields, parseOffset } from './date-fields.js';
import type { Attempt, Fields } from './date-fields.js';

type Tok =
  | { k: 'num'; field: keyof Fields; min: number; max: number; signed: boolean; pivot?: boolean }
  | { k: 'frac'; max: number }
  | { k: 'lit'; text: string }
  | { k: 'month-text' }
  | { k: 'dow-text' }
  | { k: 'ampm' }
  | { k: 'offset' }
  | { k: 'zone-id' };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
]; // prettier-ignore
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Splits a Joda pattern into letter runs and literals (DateTimeFormat.parseToken). */
function tokenize(pattern: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      out.push(pattern.slice(i, j));
      i = j;
    } else if (c === "'") {
      let j = i + 1;
      let lit = '';
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            lit += "'";
            j++;
          } else break;
        } else lit += pattern[j];
      }
      if (j >= pattern.length) {
        throw illegalArgument(
          `Invalid format: [${pattern}]: Illegal pattern component: ${pattern.slice(i)}`,
        );
      }
      out.push("'" + (i + 1 === j ? "'" : lit));
      i = j + 1;
    } else {
      out.push("'" + c);
      i++;
    }
  }
  return out;
}

const NUMERIC_LETTERS = new Set('yYxuwedDMHhKkmsSCg'.split(''));

export function compilePattern(pattern: string, strict: boolean, javaTime = false): Attempt {
  const raw = tokenize(pattern);
  const toks: Tok[] = [];
  for (let i = 0; i < raw.length; i++) {
    const tok = raw[i]!;
    if (tok[0] === "'") {
      toks.push({ k: 'lit', text: tok.slice(1) });
      continue;
    }
    const c = tok[0]!;
    const n = tok.length;
    const next = raw[i + 1];
    const nextNumeric =
      next !== undefined &&
      next[0] !== "'" &&
      NUMERIC_LETTERS.has(next[0]!) &&
      !(next[0] === 'M' && next.length >= 3);
    const num = (field: keyof Fields, maxDefault: number, signed = false): Tok => ({
      k: 'num',
      field,
      min: strict ? n : 1,
      max: nextNumeric || strict ? Math.max(n, strict ? n : 1) : Math.max(maxDefault, n),
      signed,
    });
    switch (c) {
      case 'y':
      case 'Y':
      case 'u':
        if (c === 'Y' && javaTime) {
          toks.push(num('weekYear', 9, true));
          break;
        }
        // yy: two-digit year around a pivot (Joda appendTwoDigitYear)
        toks.push(
          n === 2
            ? { k: 'num', field: 'year', min: 2, max: 2, signed: false, pivot: true }
            : num('year', 9, true),
        );
        break;
      case 'x':
        toks.push(num('weekYear', 9, true));
        break;
      case 'w':
        toks.push(num('week', 2));
        break;
      case 'e':
        toks.push(num('weekDay', 1));
        break;
      case 'M':
        toks.push(n >= 3 ? { k: 'month-text' } : num('month', 2));
        break;
      case 'd':
        toks.push(num('day', 2));
        break;
      case 'D':
        toks.push(num('dayOfYear', 3));
        break;
      case 'H':
      case 'k':
        toks.push(num('hour', 2));
        break;
      case 'h':
      case 'K':
        toks.push(num('hour12', 2));
        break;
      case 'm':
        toks.push(num('minute', 2));
        break;
      case 's':
        toks.push(num('second', 2));
        break;
      case 'S':
        toks.push({ k: 'frac', max: n });
        break;
      case 'a':
        toks.push({ k: 'ampm' });
        break;
      case 'E':
        toks.push({ k: 'dow-text' });
        break;
      case 'Z':
        toks.push(n >= 3 ? { k: 'zone-id' } : { k: 'offset' });
        break;
      case 'z':
        toks.push({ k: 'zone-id' });
        break;
      case 'G':
        toks.push({ k: 'lit', text: 'AD' });
        break;
      case 'C':
        toks.push(num('year', 7));
        break;
      default:
        throw illegalArgument(`Invalid format: [${pattern}]: Illegal pattern component: ${tok}`);
    }
  }
  return (t) => runPattern(t, toks);
}

function runPattern(t: string, toks: Tok[]): { ms: number } | { err: number; msg?: string } {
  const f = newFields();
  let pos = 0;
  for (const tok of toks) {
    switch (tok.k) {
      case 'lit':
        if (!t.startsWith(tok.text, pos)) return { err: pos };
        pos += tok.text.length;
        break;
      case 'num': {
        let sign = 1;
        let p = pos;
        if (tok.signed && (t[p] === '-' || t[p] === '+')) {
          sign = t[p] === '-' ? -1 : 1;
          p++;
        }
        const e = digits(t, p, tok.min, tok.max);
        if (e < 0) return { err: pos };
        let v = sign * Number(t.slice(p, e));
        if (tok.pivot) v += v < 70 ? 2000 : 1900;
        (f[tok.field] as number) = v;
        pos = e;
        break;
      }
      case 'frac': {
        const e = digits(t, pos, 1, tok.max);
        if (e < 0) return { err: pos };
        f.millis = Number(t.slice(pos, Math.min(e, pos + 3)).padEnd(3, '0'));
        pos = e;
        break;
      }
      case 'month-text':
      case 'dow-text': {
        const low = t.slice(pos).toLowerCase();
        const [full, short] = tok.k === 'month-text' ? [MONTH_NAMES, MONTHS] : [DAY_NAMES, DAYS];
        let idx = full.findIndex((n) => low.startsWith(n));
        const len = idx >= 0 ? full[idx]!.length : 3;
        if (idx < 0) idx = short.findIndex((n) => low.startsWith(n));
        if (idx < 0) return { err: pos };
        if (tok.k === 'month-text') f.month = idx + 1;
        pos += len;
        break;
      }
      case 'ampm': {
        const two = t.slice(pos, pos + 2).toUpperCase();
        if (two !== 'AM' && two !== 'PM') return { err: pos };
        f.halfday = two === 'PM' ? 1 : 0;
        pos += 2;
        break;
      }
      case 'offset': {
        const r = parseOffset(t, pos, f);
        if (r < 0) return { err: ~r };
        pos = r;
        break;
      }
      case 'zone-id': {
        if (t.startsWith('UTC', pos) || t.startsWith('GMT', pos)) pos += 3;
        else if (t[pos] === 'Z') pos += 1;
        else return { err: pos };
        break;
      }
    }
  }
  if (pos < t.length) return { err: pos };
  if (f.hour12 >= 0 && f.halfday < 0) f.hour = f.hour12;
  return finish(t, f);
}
