/**
 * Built-in date parsing for mappings until the full Joda implementation (src/common/dates/) is
 * plugged in through MappingContext.parseDate: ISO `date_optional_time` (strict and lenient),
 * `epoch_millis`/`epoch_second`, the ES named formats that are plain Joda patterns, and a Joda
 * pattern subset (y M d H h m s S Z a E D literals). Errors use Joda's wording (FormatUtils).
 */
import { illegalArgument } from './errors.js';

/** Result of one alternative: epoch millis, or ~position of the parse error. */
type Attempt = (text: string) => { ms: number } | { err: number; msg?: string };

const cache = new Map<string, (text: string) => number>();

/** Parses `text` with an ES format (`a||b||…`); throws illegal_argument_exception as Joda does. */
export function builtinParseDate(text: string, format: string): number {
  let parser = cache.get(format);
  if (parser === undefined) {
    parser = compileFormat(format);
    if (cache.size > 1000) cache.clear();
    cache.set(format, parser);
  }
  return parser(text);
}

/** Throws when `format` is not a valid ES date format (ES DateFormatter.forPattern). */
export function builtinValidateDateFormat(format: string): void {
  compileFormat(format);
}

function compileFormat(format: string): (text: string) => number {
  const parts = format.split('||');
  const attempts = parts.map(compileOne);
  const first = parts[0]!.trim();
  const slow = compileAttempts(attempts);
  // the default and dynamic formats start with strict ISO: try the allocation-free path first
  if (
    first === 'strict_date_optional_time' ||
    first === 'strictDateOptionalTime' ||
    first === 'date_optional_time'
  ) {
    return (text: string) => {
      const ms = fastIso(text);
      return Number.isNaN(ms) ? slow(text) : ms;
    };
  }
  return slow;
}

function compileAttempts(attempts: Attempt[]): (text: string) => number {
  return (text: string) => {
    let best = -1;
    let msg: string | undefined;
    for (const a of attempts) {
      const r = a(text);
      if ('ms' in r) return r.ms;
      if (r.msg !== undefined) {
        msg ??= r.msg;
      } else if (r.err > best) best = r.err;
    }
    if (msg !== undefined && best <= 0) throw illegalArgument(msg);
    throw illegalArgument(jodaErrorMessage(text, Math.max(best, 0)));
  };
}

/** Joda FormatUtils.createErrorMessage. */
function jodaErrorMessage(text: string, errorPos: number): string {
  const sampleLen = errorPos + 32;
  const sample = text.length <= sampleLen + 3 ? text : text.slice(0, sampleLen) + '...';
  if (errorPos <= 0) return `Invalid format: "${sample}"`;
  if (errorPos >= text.length) return `Invalid format: "${sample}" is too short`;
  return `Invalid format: "${sample}" is malformed at "${sample.slice(errorPos)}"`;
}

const NAMED_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSZ",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssZ",
  basic_ordinal_date: 'yyyyDDD',
  basic_ordinal_date_time: "yyyyDDD'T'HHmmss.SSSZ",
  basic_ordinal_date_time_no_millis: "yyyyDDD'T'HHmmssZ",
  basic_time: 'HHmmss.SSSZ',
  basic_time_no_millis: 'HHmmssZ',
  basic_t_time: "'T'HHmmss.SSSZ",
  basic_t_time_no_millis: "'T'HHmmssZ",
  basic_week_date: "xxxx'W'wwe",
  basic_week_date_time: "xxxx'W'wwe'T'HHmmss.SSSZ",
  basic_week_date_time_no_millis: "xxxx'W'wwe'T'HHmmssZ",
  date: 'yyyy-MM-dd',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZ",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssZZ",
  hour: 'HH',
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  hour_minute_second_fraction: 'HH:mm:ss.SSSSSSSSS',
  hour_minute_second_millis: 'HH:mm:ss.SSS',
  ordinal_date: 'yyyy-DDD',
  ordinal_date_time: "yyyy-DDD'T'HH:mm:ss.SSSSSSSSSZZ",
  ordinal_date_time_no_millis: "yyyy-DDD'T'HH:mm:ssZZ",
  time: 'HH:mm:ss.SSSSSSSSSZZ',
  time_no_millis: 'HH:mm:ssZZ',
  t_time: "'T'HH:mm:ss.SSSSSSSSSZZ",
  t_time_no_millis: "'T'HH:mm:ssZZ",
  week_date: "xxxx-'W'ww-e",
  week_date_time: "xxxx-'W'ww-e'T'HH:mm:ss.SSSSSSSSSZZ",
  week_date_time_no_millis: "xxxx-'W'ww-e'T'HH:mm:ssZZ",
  weekyear: 'xxxx',
  weekyear_week: "xxxx-'W'ww",
  weekyear_week_day: "xxxx-'W'ww-e",
  year: 'yyyy',
  year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
};

/**
 * Allocation-free parse of the common strict ISO shapes (`yyyy-MM-dd`, optionally
 * `THH:mm[:ss[.f…]]` and `Z`/`±HH[:mm]`), the hot path of log ingestion. NaN for anything else
 * (including out-of-range values), which then goes through the general parser and its messages.
 */
function fastIso(t: string): number {
  const n = t.length;
  if (n < 10 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45) return NaN;
  const year = d4(t, 0);
  const month = d2(t, 5);
  const day = d2(t, 8);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  let h = 0;
  let m = 0;
  let sec = 0;
  let ms = 0;
  let off = 0;
  let pos = 10;
  if (pos < n) {
    if (t.charCodeAt(pos) !== 84 || pos + 3 > n) return NaN; // 'T' HH
    h = d2(t, pos + 1);
    pos += 3;
    if (pos < n && t.charCodeAt(pos) === 58) {
      m = d2(t, pos + 1);
      pos += 3;
      if (pos < n && t.charCodeAt(pos) === 58) {
        sec = d2(t, pos + 1);
        pos += 3;
        const c = t.charCodeAt(pos);
        if (pos < n && (c === 46 || c === 44)) {
          pos++;
          let digitsRead = 0;
          while (pos < n && isDigit(t.charCodeAt(pos))) {
            if (digitsRead < 3) ms = ms * 10 + (t.charCodeAt(pos) - 48);
            digitsRead++;
            pos++;
          }
          if (digitsRead === 0 || digitsRead > 9) return NaN;
          for (let i = digitsRead; i < 3; i++) ms *= 10;
        }
      }
    }
    if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59) return NaN;
    if (pos < n) {
      const c = t.charCodeAt(pos);
      if (c === 90 && pos + 1 === n) pos++;
      else if (c === 43 || c === 45) {
        const oh = d2(t, pos + 1);
        if (oh < 0) return NaN;
        let om = 0;
        pos += 3;
        if (pos < n) {
          if (t.charCodeAt(pos) === 58) pos++;
          om = d2(t, pos);
          if (om < 0) return NaN;
          pos += 2;
        }
        off = (c === 45 ? -1 : 1) * (oh * 60 + om);
      }
      if (pos !== n) return NaN;
    }
  }
  return (
    daysFromCivil(year, month, day) * 86400000 +
    h * 3600000 +
    m * 60000 +
    sec * 1000 +
    ms -
    off * 60000
  );
}

function d2(t: string, i: number): number {
  const a = t.charCodeAt(i) - 48;
  const b = t.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function d4(t: string, i: number): number {
  const a = d2(t, i);
  const b = d2(t, i + 2);
  return a < 0 || b < 0 ? -1 : a * 100 + b;
}

function compileOne(raw: string): Attempt {
  let name = raw.trim();
  // ES 6.7+: a leading "8" selects java.time semantics (Y is the week-based year there)
  const javaTime = name.length > 1 && name.startsWith('8');
  if (javaTime) name = name.slice(1);
  const camel = name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()); // ES accepts camelCase names
  const key = NAMED_PATTERNS[camel] !== undefined || isSpecialName(camel) ? camel : name;
  switch (key) {
    case 'date_optional_time':
      return (t) => parseIsoOptionalTime(t, false);
    case 'strict_date_optional_time':
      return (t) => {
        const ms = fastIso(t);
        return Number.isNaN(ms) ? parseIsoOptionalTime(t, true) : { ms };
      };
    case 'epoch_millis':
      return (t) => parseEpoch(t, 1, 13);
    case 'epoch_second':
      return (t) => parseEpoch(t, 1000, 10);
  }
  if (key.startsWith('strict_') && NAMED_PATTERNS[key.slice(7)] !== undefined) {
    return compilePattern(NAMED_PATTERNS[key.slice(7)]!, true);
  }
  const named = NAMED_PATTERNS[key];
  if (named !== undefined) return compilePattern(named, false);
  if (key.length === 0) throw illegalArgument('No date pattern provided');
  return compilePattern(key, false, javaTime);
}

const isSpecialName = (n: string) =>
  n === 'date_optional_time' ||
  n === 'strict_date_optional_time' ||
  n === 'epoch_millis' ||
  n === 'epoch_second' ||
  (n.startsWith('strict_') && NAMED_PATTERNS[n.slice(7)] !== undefined);

// ---- epoch (ES Joda EpochTimeParser) ----

function parseEpoch(
  text: string,
  factor: number,
  maxDigits: number,
): { ms: number } | { err: number } {
  const dot = text.indexOf('.');
  const positive = !text.startsWith('-');
  if (positive && (dot === -1 ? text.length : dot) > maxDigits) return { err: 0 };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return { err: 0 };
  // BigDecimal#longValue truncates toward zero
  const v = Math.trunc(Number(text));
  if (!Number.isFinite(v)) return { err: 0 };
  return { ms: v * factor };
}

// ---- ISO date_optional_time (Joda ISODateTimeFormat.dateOptionalTimeParser) ----

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  offsetMin: number;
  dayOfYear: number;
  weekYear: number;
  week: number;
  weekDay: number;
  halfday: number;
  hour12: number;
}

const newFields = (): Fields => ({
  year: 1970,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  millis: 0,
  offsetMin: 0,
  dayOfYear: -1,
  weekYear: NaN,
  week: -1,
  weekDay: -1,
  halfday: -1,
  hour12: -1,
});

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Reads [min, max] digits at pos; returns the end position or -1. */
function digits(t: string, pos: number, min: number, max: number): number {
  let i = pos;
  while (i < t.length && i - pos < max && isDigit(t.charCodeAt(i))) i++;
  return i - pos >= min ? i : -1;
}

/**
 * Joda/ES (Strict)ISODateTimeFormat.dateOptionalTimeParser: date element, then optionally `T`
 * followed by an optional time element and an optional offset. Optional sections that do not
 * match leave the position where they started (Joda MatchingParser), so errors point there.
 */
function parseIsoOptionalTime(
  t: string,
  strict: boolean,
): { ms: number } | { err: number; msg?: string } {
  const f = newFields();
  let pos = 0;
  let end: number;
  let sign = 1;
  if (!strict && (t[0] === '-' || t[0] === '+')) {
    sign = t[0] === '-' ? -1 : 1;
    pos++;
  }
  end = digits(t, pos, strict ? 4 : 1, strict ? 4 : 9);
  if (end < 0) return { err: pos };
  f.year = sign * Number(t.slice(pos, end));
  pos = end;
  if (t[pos] === '-') {
    // ordinal date (yyyy-DDD) or month [-day]; the longer match wins
    const ord = digits(t, pos + 1, 3, 3);
    const mon = digits(t, pos + 1, strict ? 2 : 1, 2);
    if (ord > 0 && !isDigit(t.charCodeAt(ord))) {
      f.dayOfYear = Number(t.slice(pos + 1, ord));
      pos = ord;
    } else if (mon > 0) {
      f.month = Number(t.slice(pos + 1, mon));
      pos = mon;
      if (t[pos] === '-') {
        const day = digits(t, pos + 1, strict ? 2 : 1, 2);
        if (day > 0) {
          f.day = Number(t.slice(pos + 1, day));
          pos = day;
        }
      }
    }
  }
  if (t[pos] === 'T') {
    pos++;
    pos = parseTimeElement(t, pos, f, strict);
    if (pos < t.length) {
      const r = parseOffset(t, pos, f);
      if (r >= 0) pos = r;
    }
  }
  if (pos < t.length) return { err: pos };
  return finish(t, f);
}

/** HH[:mm[:ss[.fff]]] (fractions of the last unit); returns the position after what matched. */
function parseTimeElement(t: string, start: number, f: Fields, strict: boolean): number {
  const w = strict ? 2 : 1;
  const h = digits(t, start, w, 2);
  if (h < 0) return start;
  f.hour = Number(t.slice(start, h));
  let pos = h;
  if (t[pos] === ':') {
    const m = digits(t, pos + 1, w, 2);
    if (m > 0) {
      f.minute = Number(t.slice(pos + 1, m));
      pos = m;
      if (t[pos] === ':') {
        const sec = digits(t, pos + 1, w, 2);
        if (sec > 0) {
          f.second = Number(t.slice(pos + 1, sec));
          pos = sec;
        }
      }
    }
  }
  if (t[pos] === '.' || t[pos] === ',') {
    const e = digits(t, pos + 1, 1, 9);
    if (e > 0) {
      f.millis = Number(t.slice(pos + 1, Math.min(e, pos + 4)).padEnd(3, '0'));
      pos = e;
    }
  }
  return pos;
}

/** Z | ±HH | ±HHmm | ±HH:mm; returns the new position or ~errorPos. */
function parseOffset(t: string, pos: number, f: Fields): number {
  const c = t[pos];
  if (c === 'Z') {
    f.offsetMin = 0;
    return pos + 1;
  }
  if (c !== '+' && c !== '-') return ~pos;
  const sign = c === '-' ? -1 : 1;
  let p = pos + 1;
  const e = digits(t, p, 2, 2);
  if (e < 0) return ~p;
  let minutes = Number(t.slice(p, e)) * 60;
  p = e;
  if (t[p] === ':') p++;
  const e2 = digits(t, p, 2, 2);
  if (e2 > 0) {
    minutes += Number(t.slice(p, e2));
    p = e2;
  } else if (t[p - 1] === ':') return ~p;
  f.offsetMin = sign * minutes;
  return p;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function rangeError(t: string, value: number, field: string, lo: number, hi: number) {
  return {
    err: 0,
    msg: `Cannot parse "${t}": Value ${value} for ${field} must be in the range [${lo},${hi}]`,
  };
}

function finish(t: string, f: Fields): { ms: number } | { err: number; msg?: string } {
  if (f.halfday >= 0 && f.hour12 >= 0) f.hour = (f.hour12 % 12) + 12 * f.halfday;
  if (!Number.isNaN(f.weekYear)) {
    // ISO week date: Monday of week 1 is the Monday on or before January 4th
    const jan4 = daysFromCivil(f.weekYear, 1, 4);
    const jan4Dow = ((((jan4 + 3) % 7) + 7) % 7) + 1; // 1 = Monday
    const wk = f.week < 0 ? 1 : f.week;
    const wd = f.weekDay < 0 ? 1 : f.weekDay;
    if (wk < 1 || wk > 53) return rangeError(t, wk, 'weekOfWeekyear', 1, 53);
    if (wd < 1 || wd > 7) return rangeError(t, wd, 'dayOfWeek', 1, 7);
    const days = jan4 - (jan4Dow - 1) + (wk - 1) * 7 + (wd - 1);
    return { ms: timeOfDay(days, f) };
  }
  if (f.month < 1 || f.month > 12) return rangeError(t, f.month, 'monthOfYear', 1, 12);
  if (f.hour > 23) return rangeError(t, f.hour, 'hourOfDay', 0, 23);
  if (f.minute > 59) return rangeError(t, f.minute, 'minuteOfHour', 0, 59);
  if (f.second > 59) return rangeError(t, f.second, 'secondOfMinute', 0, 59);
  let days: number;
  if (f.dayOfYear >= 0) {
    const max = daysInMonth(f.year, 2) === 29 ? 366 : 365;
    if (f.dayOfYear < 1 || f.dayOfYear > max)
      return rangeError(t, f.dayOfYear, 'dayOfYear', 1, max);
    days = daysFromCivil(f.year, 1, 1) + f.dayOfYear - 1;
  } else {
    const dim = daysInMonth(f.year, f.month);
    if (f.day < 1 || f.day > dim) return rangeError(t, f.day, 'dayOfMonth', 1, dim);
    days = daysFromCivil(f.year, f.month, f.day);
  }
  return { ms: timeOfDay(days, f) };
}

const timeOfDay = (days: number, f: Fields) =>
  days * 86400000 +
  f.hour * 3600000 +
  f.minute * 60000 +
  f.second * 1000 +
  f.millis -
  f.offsetMin * 60000;

// ---- Joda patterns ----

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

function compilePattern(pattern: string, strict: boolean, javaTime = false): Attempt {
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
