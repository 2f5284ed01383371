/**
 * Date, time and timestamp text as ES SQL's `DateUtils` reads it with java.time formatters
 * (`{d '...'}`, `{t '...'}`, `{ts '...'}` and date/time parameters): ISO local date, an optional
 * `T` or space and ISO local time, an optional offset or zone id. Failures carry java.time's
 * DateTimeParseException text, which ES puts in its messages ("Text '2012-13-01' could not be
 * parsed: Invalid value for MonthOfYear (valid values 1 - 12): 13").
 */

/** A java.time parse failure: `message` is DateTimeParseException.getMessage(). */
export class DateTimeParseError extends Error {}

interface DateParts {
  year: number;
  month: number;
  day: number;
}
interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  nano: number;
  fractionDigits: number;
}
interface Parsed {
  date: DateParts | null;
  time: TimeParts | null;
  offsetMinutes: number | null; // null: none parsed (the formatter's UTC override applies)
  zoneId: string | null;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

// java.time parsers return the new position, or ~position on failure (DateTimeFormatterBuilder).
type Step = (text: string, pos: number, out: Parsed) => number;

function fixedNumber(width: number, set: (out: Parsed, v: number) => void): Step {
  return (text, pos, out) => {
    for (let i = 0; i < width; i++) if (!isDigit(text[pos + i])) return ~pos;
    set(out, Number(text.substring(pos, pos + width)));
    return pos + width;
  };
}

function literal(ch: string): Step {
  return (text, pos) => (text[pos] === ch ? pos + 1 : ~pos);
}

// appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD), strict: more than 4 digits need a `+`
const year: Step = (text, pos, out) => {
  let p = pos;
  const sign = text[p];
  if (sign === '+' || sign === '-') p++;
  const digitsStart = p;
  while (p - digitsStart < 10 && isDigit(text[p])) p++;
  const len = p - digitsStart;
  if (len < 4) return ~pos;
  if (sign === '+' && len <= 4) return ~pos;
  if (sign !== '+' && sign !== '-' && len > 4) return ~pos;
  const value = Number(text.substring(digitsStart, p));
  out.date = { year: sign === '-' ? -value : value, month: 0, day: 0 };
  return p;
};

const isoLocalDate: Step[] = [
  year,
  literal('-'),
  fixedNumber(2, (o, v) => (o.date!.month = v)),
  literal('-'),
  fixedNumber(2, (o, v) => (o.date!.day = v)),
];

// appendFraction(NANO_OF_SECOND, 0, 9, true)
const fraction: Step = (text, pos, out) => {
  if (text[pos] !== '.') return pos;
  let p = pos + 1;
  while (p - pos - 1 < 9 && isDigit(text[p])) p++;
  const digits = text.substring(pos + 1, p);
  out.time!.nano = digits.length === 0 ? 0 : Number(digits.padEnd(9, '0'));
  out.time!.fractionDigits = digits.length;
  return p;
};

function optional(steps: Step[]): Step {
  return (text, pos, out) => {
    const saved = structuredClone(out);
    const end = run(steps, text, pos, out);
    if (end >= 0) return end;
    Object.assign(out, saved);
    return pos;
  };
}

const isoLocalTime: Step[] = [
  (text, pos, out) => {
    out.time = { hour: 0, minute: 0, second: 0, nano: 0, fractionDigits: 0 };
    return fixedNumber(2, (o, v) => (o.time!.hour = v))(text, pos, out);
  },
  literal(':'),
  fixedNumber(2, (o, v) => (o.time!.minute = v)),
  optional([literal(':'), fixedNumber(2, (o, v) => (o.time!.second = v)), optional([fraction])]),
];

// appendZoneOrOffsetId: Z, +HH[:MM[:SS]], UTC/GMT/UT[+offset], or a region id
const zoneOrOffset: Step = (text, pos, out) => {
  const c = text[pos];
  if (c === 'Z') {
    out.offsetMinutes = 0;
    return pos + 1;
  }
  if (c === '+' || c === '-') return offset(text, pos, out);
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (text.startsWith(prefix, pos)) {
      const p = pos + prefix.length;
      if (text[p] === '+' || text[p] === '-') {
        const end = offset(text, p, out);
        if (end >= 0) return end;
      }
      out.offsetMinutes = 0;
      return p;
    }
  }
  const m = /^[A-Za-z][A-Za-z0-9~/._+-]+/.exec(text.substring(pos));
  if (m && isRegion(m[0])) {
    out.zoneId = m[0];
    return pos + m[0].length;
  }
  return ~pos;
};

function offset(text: string, pos: number, out: Parsed): number {
  const m = /^([+-])(\d\d)(?::(\d\d)(?::(\d\d))?)?/.exec(text.substring(pos));
  if (!m) return ~pos;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (Number(m[2]) > 18 || Number(m[3] ?? 0) > 59) return ~pos;
  out.offsetMinutes = m[1] === '-' ? -minutes : minutes;
  return pos + m[0].length;
}

function isRegion(id: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: id });
    return id.includes('/');
  } catch {
    return false;
  }
}

function run(steps: Step[], text: string, pos: number, out: Parsed): number {
  for (const step of steps) {
    pos = step(text, pos, out);
    if (pos < 0) return pos;
  }
  return pos;
}

const dateOptionalTime = (separator: string): Step[] => [
  ...isoLocalDate,
  optional([literal(separator), ...isoLocalTime, optional([zoneOrOffset])]),
];
const timeOptionalZone: Step[] = [...isoLocalTime, optional([zoneOrOffset])];

function parse(text: string, steps: Step[]): Parsed {
  const out: Parsed = { date: null, time: null, offsetMinutes: null, zoneId: null };
  const end = run(steps, text, 0, out);
  if (end < 0) throw new DateTimeParseError(`Text '${text}' could not be parsed at index ${~end}`);
  if (end < text.length) {
    throw new DateTimeParseError(
      `Text '${text}' could not be parsed, unparsed text found at index ${end}`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Resolving (ResolverStyle.SMART, the default of DateTimeFormatterBuilder.toFormatter()).

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthLength = (y: number, m: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

function fail(text: string, reason: string): never {
  throw new DateTimeParseError(`Text '${text}' could not be parsed: ${reason}`);
}

function invalidValue(field: string, range: string, value: number): string {
  return `Invalid value for ${field} (valid values ${range}): ${value}`;
}

/** Validates and normalises parsed fields; returns the number of days to add (24:00). */
function resolve(text: string, p: Parsed): number {
  if (p.date) {
    const { year: y, month: m } = p.date;
    if (m < 1 || m > 12) fail(text, invalidValue('MonthOfYear', '1 - 12', m));
    if (p.date.day < 1 || p.date.day > 31) {
      fail(text, invalidValue('DayOfMonth', '1 - 28/31', p.date.day));
    }
    // SMART clamps the day to the month's length (2011-02-30 -> 2011-02-28)
    p.date.day = Math.min(p.date.day, monthLength(y, m));
  }
  if (!p.time) return 0;
  const t = p.time;
  if (t.minute > 59) fail(text, invalidValue('MinuteOfHour', '0 - 59', t.minute));
  if (t.hour === 24 && t.minute === 0 && t.second === 0 && t.nano === 0) {
    t.hour = 0;
    return 1;
  }
  if (t.hour > 23) fail(text, invalidValue('HourOfDay', '0 - 23', t.hour));
  if (t.second > 59) fail(text, invalidValue('SecondOfMinute', '0 - 59', t.second));
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Formatting the values the AST holds.

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function formatDate({ year, month, day }: DateParts): string {
  const y = year > 9999 ? `+${year}` : year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  return `${y}-${pad(month, 2)}-${pad(day, 2)}`;
}

// Date.UTC maps years 0-99 to 19xx; build the instant from a leap year and set the year after
function utcMillis(d: DateParts, h = 0, mi = 0, s = 0): number {
  const date = new Date(Date.UTC(2000, d.month - 1, d.day, h, mi, s));
  date.setUTCFullYear(d.year);
  return date.getTime();
}

function dateOf(ms: number): DateParts {
  const r = new Date(ms);
  return { year: r.getUTCFullYear(), month: r.getUTCMonth() + 1, day: r.getUTCDate() };
}

function addDays(d: DateParts, days: number): DateParts {
  return days === 0 ? d : dateOf(utcMillis(d) + days * 86400000);
}

function formatTime(t: TimeParts): string {
  const digits = Math.max(3, t.nano % 1000000 === 0 ? 3 : t.nano % 1000 === 0 ? 6 : 9);
  const frac = pad(t.nano, 9).substring(0, digits);
  return `${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}.${frac}`;
}

function formatOffset(minutes: number): string {
  if (minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60), 2)}:${pad(a % 60, 2)}`;
}

// offset of a region zone at a local date-time, via the ICU data Node ships
function regionOffsetMinutes(zone: string, d: DateParts, t: TimeParts): number {
  const utc = utcMillis(d, t.hour, t.minute, t.second);
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(utc)
    .find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

// ES DateUtils.timeSeparatorIdx: where a `T` or space would separate date and time
function separatorFor(text: string): string {
  let idx = text.indexOf('-');
  if (idx === 0) idx = text.indexOf('-', 1);
  const sep = text.indexOf('-', idx + 1) + 3;
  return sep >= text.length || text[sep] === 'T' ? 'T' : ' ';
}

/** ES `DateUtils.asDateOnly(String)`: `yyyy-MM-dd` with an optional time; returns `yyyy-MM-dd`. */
export function parseDateOnly(text: string): string {
  const p = parse(text, dateOptionalTime(separatorFor(text)));
  const extraDays = resolve(text, p);
  return formatDate(addDays(p.date!, p.time ? extraDays : 0));
}

/** ES `DateUtils.asTimeOnly(String)`: `HH:mm[:ss[.f]]` with an optional offset. */
export function parseTimeOnly(text: string): string {
  const p = parse(text, timeOptionalZone);
  resolve(text, p);
  const t = p.time!;
  const offset =
    p.zoneId !== null
      ? regionOffsetMinutes(p.zoneId, { year: 1970, month: 1, day: 1 }, t)
      : (p.offsetMinutes ?? 0);
  return `${formatTime(t)}${formatOffset(offset)}`;
}

/** ES `DateUtils.dateTimeOfEscapedLiteral`: `yyyy-MM-dd[( |T)HH:mm[:ss[.f]][zone]]`, time required. */
export function parseEscapedTimestamp(text: string): string {
  const p = parse(text, dateOptionalTime(separatorFor(text)));
  const extraDays = resolve(text, p);
  if (!p.time) {
    fail(
      text,
      `Unable to obtain ZonedDateTime from TemporalAccessor: {},ISO,Z resolved to ` +
        `${formatDate(p.date!)} of type java.time.format.Parsed`,
    );
  }
  const date = addDays(p.date!, extraDays);
  const offset =
    p.zoneId !== null ? regionOffsetMinutes(p.zoneId, date, p.time) : (p.offsetMinutes ?? 0);
  return `${formatDate(date)}T${formatTime(p.time)}${formatOffset(offset)}`;
}

/**
 * ES `DateUtils.asDateTime(String)` (ql): the `strict_date_optional_time` format, converted to
 * UTC. Failures read as ES's DateFormatter writes them.
 */
export function parseStrictDateOptionalTime(text: string): string {
  const m =
    /^(\d{4})(?:-(\d\d)(?:-(\d\d)(?:T(\d\d)(?::(\d\d)(?::(\d\d)(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d\d(?::?\d\d)?)?)?)?)?$/.exec(
      text,
    );
  const failure = () =>
    new DateTimeParseError(
      `failed to parse date field [${text}] with format [strict_date_optional_time]`,
    );
  if (!m) throw failure();
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', f = '', z = 'Z'] = m;
  const date = { year: Number(y), month: Number(mo), day: Number(d) };
  const time = {
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    nano: 0,
    fractionDigits: 0,
  };
  time.nano = f ? Number(f.padEnd(9, '0')) : 0;
  if (
    date.month < 1 ||
    date.month > 12 ||
    date.day < 1 ||
    date.day > monthLength(date.year, date.month) ||
    time.hour > 23 ||
    time.minute > 59 ||
    time.second > 59
  ) {
    throw failure();
  }
  const utc = utcMillis(date, time.hour, time.minute, time.second) - offsetOf(z) * 60000;
  const r = new Date(utc);
  const utcDate = dateOf(utc);
  const utcTime = {
    hour: r.getUTCHours(),
    minute: r.getUTCMinutes(),
    second: r.getUTCSeconds(),
    nano: time.nano,
    fractionDigits: 0,
  };
  return `${formatDate(utcDate)}T${formatTime(utcTime)}Z`;
}

// `Z`, `+hh`, `+hhmm` or `+hh:mm` in minutes
function offsetOf(z: string): number {
  if (z === 'Z') return 0;
  const minutes = Number(z.substring(1, 3)) * 60 + (z.length > 3 ? Number(z.slice(-2)) : 0);
  return z[0] === '-' ? -minutes : minutes;
}
