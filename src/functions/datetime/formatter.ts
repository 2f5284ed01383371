/**
 * A compact java.time.format.DateTimeFormatter: the printer-parsers of DateTimeFormatterBuilder
 * (numbers with sign styles and adjacent-value parsing, reduced years, fractions, text, offsets,
 * zone ids, optional sections) with Java's format and parse semantics and error messages. Text is
 * English (ES runs Locale.ROOT with COMPAT locale data). Patterns compile in `pattern.ts`; the
 * resolver turning parsed fields into dates/times lives in `resolver.ts`.
 */
import { FIELD_DISPLAY, fieldValue, type FieldName, type TemporalView } from './fields.js';
import { dateTimeException, offsetId, zoneOf, type Zone } from './zones.js';

export type SignStyle = 'NORMAL' | 'ALWAYS' | 'NEVER' | 'NOT_NEGATIVE' | 'EXCEEDS_PAD';
export type TextStyle = 'FULL' | 'SHORT' | 'NARROW';

/** OffsetIdPrinterParser patterns: minutes/seconds none, optional (lower case) or required. */
export interface OffsetPattern {
  readonly minutes: 'none' | 'optional' | 'required';
  readonly seconds: 'none' | 'optional' | 'required';
  readonly colon: boolean;
}

export type PrinterParser =
  | {
      readonly k: 'num';
      readonly field: FieldName;
      readonly min: number;
      readonly max: number;
      readonly sign: SignStyle;
      /** -1: fixed width (adjacent follower); >0: width reserved for adjacent followers. */
      subsequentWidth: number;
    }
  | {
      readonly k: 'reduced';
      readonly field: FieldName;
      readonly width: number;
      readonly base: number;
      subsequentWidth: number;
    }
  | {
      readonly k: 'frac';
      readonly min: number;
      readonly max: number;
      readonly point: boolean;
      subsequentWidth: number;
    }
  | { readonly k: 'text'; readonly field: FieldName; readonly style: TextStyle }
  | { readonly k: 'lit'; readonly text: string }
  | { readonly k: 'offset'; readonly pattern: OffsetPattern; readonly noOffset: string }
  | { readonly k: 'locOffset'; readonly style: TextStyle }
  | { readonly k: 'zoneId'; readonly offsetsOnly?: boolean }
  | { readonly k: 'zoneText'; readonly style: TextStyle }
  | { readonly k: 'pad'; readonly width: number; readonly pp: PrinterParser }
  | { readonly k: 'opt'; readonly items: PrinterParser[] };

const EXCEED_POINTS = [
  0, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  10_000_000_000,
];

// ---- text tables (Locale.ROOT, COMPAT provider) -------------------------------------------

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const QUARTERS_FULL = ['1st quarter', '2nd quarter', '3rd quarter', '4th quarter'];

export function textOf(field: FieldName, style: TextStyle, value: number): string | null {
  switch (field) {
    case 'MONTH_OF_YEAR': {
      const m = MONTHS[value - 1];
      if (!m) return null;
      return style === 'FULL' ? m : style === 'SHORT' ? m.slice(0, 3) : m[0]!;
    }
    case 'DAY_OF_WEEK': {
      const d = DAYS[value - 1];
      if (!d) return null;
      return style === 'FULL' ? d : style === 'SHORT' ? d.slice(0, 3) : d[0]!;
    }
    case 'AMPM_OF_DAY':
      return value === 0 ? 'AM' : value === 1 ? 'PM' : null;
    case 'ERA':
      if (value !== 0 && value !== 1) return null;
      if (style === 'FULL') return value === 1 ? 'Anno Domini' : 'Before Christ';
      if (style === 'SHORT') return value === 1 ? 'AD' : 'BC';
      return value === 1 ? 'A' : 'B';
    case 'QUARTER_OF_YEAR':
      if (value < 1 || value > 4) return null;
      return style === 'FULL'
        ? QUARTERS_FULL[value - 1]!
        : style === 'SHORT'
          ? 'Q' + value
          : String(value);
  }
  return null;
}

function textChoices(field: FieldName, style: TextStyle): Array<[string, number]> | null {
  const out: Array<[string, number]> = [];
  const range: Record<string, [number, number]> = {
    MONTH_OF_YEAR: [1, 12],
    DAY_OF_WEEK: [1, 7],
    AMPM_OF_DAY: [0, 1],
    ERA: [0, 1],
    QUARTER_OF_YEAR: [1, 4],
  };
  const r = range[field];
  if (!r) return null;
  for (let v = r[0]; v <= r[1]; v++) out.push([textOf(field, style, v)!, v]);
  // longest first so "May" does not shadow nothing and "Mon" vs "Monday" resolve greedily
  return out.sort((a, b) => b[0].length - a[0].length);
}

// ---- formatting ----------------------------------------------------------------------------

interface PrintCtx {
  readonly view: TemporalView;
  optional: number;
  readonly describe: () => string;
}

function getValue(ctx: PrintCtx, field: FieldName): number | null {
  const v = fieldValue(ctx.view, field);
  if (v === undefined) {
    if (ctx.optional > 0) return null;
    throw dateTimeException('Unsupported field: ' + FIELD_DISPLAY[field]);
  }
  return v;
}

function printNumber(
  pp: { field: FieldName; min: number; max: number; sign: SignStyle },
  value: number,
  out: string[],
): void {
  const str = String(Math.abs(value));
  if (str.length > pp.max) {
    throw dateTimeException(
      `Field ${FIELD_DISPLAY[pp.field]} cannot be printed as the value ${value} exceeds the maximum print width of ${pp.max}`,
    );
  }
  if (value >= 0) {
    if (pp.sign === 'EXCEEDS_PAD' && pp.min < 19 && value >= (EXCEED_POINTS[pp.min] ?? Infinity))
      out.push('+');
    else if (pp.sign === 'ALWAYS') out.push('+');
  } else if (pp.sign === 'NOT_NEGATIVE') {
    throw dateTimeException(
      `Field ${FIELD_DISPLAY[pp.field]} cannot be printed as the value ${value} cannot be negative according to the SignStyle`,
    );
  } else if (pp.sign !== 'NEVER') {
    out.push('-');
  }
  if (str.length < pp.min) out.push('0'.repeat(pp.min - str.length));
  out.push(str);
}

function printOffset(p: OffsetPattern, noOffset: string, total: number, out: string[]): void {
  const absH = Math.abs(Math.trunc(total / 3600) % 100);
  const absM = Math.abs(Math.trunc(total / 60) % 60);
  const absS = Math.abs(total % 60);
  const two = (n: number) => (n < 10 ? '0' + n : String(n));
  let s = (total < 0 ? '-' : '+') + two(absH);
  let outputSum = absH;
  const minutesShown =
    p.minutes === 'required' || (p.minutes === 'optional' && (absM > 0 || absS > 0));
  if (minutesShown) {
    s += (p.colon ? ':' : '') + two(absM);
    outputSum += absM;
    if (p.seconds === 'required' || (p.seconds === 'optional' && absS > 0)) {
      s += (p.colon ? ':' : '') + two(absS);
      outputSum += absS;
    }
  }
  out.push(outputSum === 0 ? noOffset : s);
}

function intlZoneName(
  locale: string,
  zone: string,
  millis: number,
  style: TextStyle,
): string | null {
  try {
    const parts = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      timeZoneName: style === 'FULL' ? 'long' : 'short',
    }).formatToParts(millis);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? null;
  } catch {
    return null;
  }
}

/**
 * Zone text ('z'): offsets print their id; regions use the ICU names. Java's COMPAT data has
 * abbreviations like "CET"/"EST": en-US has the American ones, en-GB the European ones.
 */
function zoneShortName(zone: Zone, millis: number | null, style: TextStyle): string {
  if (zone.fixedOffset !== null && zone.id !== 'UTC' && zone.id !== 'GMT' && zone.id !== 'UT')
    return zone.id;
  if (zone.fixedOffset !== null) return style === 'FULL' ? 'Coordinated Universal Time' : zone.id;
  const at = millis ?? Date.now();
  const us = intlZoneName('en-US', zone.id, at, style);
  if (us && (style === 'FULL' || !us.startsWith('GMT'))) return us;
  return intlZoneName('en-GB', zone.id, at, style) ?? us ?? zone.id;
}

function formatPP(pp: PrinterParser, ctx: PrintCtx, out: string[]): boolean {
  switch (pp.k) {
    case 'lit':
      out.push(pp.text);
      return true;
    case 'num': {
      const v = getValue(ctx, pp.field);
      if (v === null) return false;
      printNumber(pp, v, out);
      return true;
    }
    case 'reduced': {
      const v = getValue(ctx, pp.field);
      if (v === null) return false;
      // ReducedPrinterParser.getValue: min and max width are equal for 'yy'
      const reduced = Math.abs(v) % EXCEED_POINTS[pp.width]!;
      printNumber(
        { field: pp.field, min: pp.width, max: pp.width, sign: 'NOT_NEGATIVE' },
        reduced,
        out,
      );
      return true;
    }
    case 'frac': {
      const v = getValue(ctx, 'NANO_OF_SECOND');
      if (v === null) return false;
      let digits = String(v).padStart(9, '0').replace(/0+$/, '');
      if (digits.length === 0) {
        if (pp.min > 0) out.push((pp.point ? '.' : '') + '0'.repeat(pp.min));
        return true;
      }
      const scale = Math.min(Math.max(digits.length, pp.min), pp.max);
      digits = digits.length >= scale ? digits.slice(0, scale) : digits.padEnd(scale, '0');
      out.push((pp.point ? '.' : '') + digits);
      return true;
    }
    case 'text': {
      const v = getValue(ctx, pp.field);
      if (v === null) return false;
      const t = textOf(pp.field, pp.style, v);
      out.push(t ?? String(v));
      return true;
    }
    case 'offset': {
      const v = getValue(ctx, 'OFFSET_SECONDS');
      if (v === null) return false;
      printOffset(pp.pattern, pp.noOffset, v, out);
      return true;
    }
    case 'locOffset': {
      const v = getValue(ctx, 'OFFSET_SECONDS');
      if (v === null) return false;
      if (v === 0) {
        out.push('GMT');
        return true;
      }
      const absH = Math.abs(Math.trunc(v / 3600));
      const absM = Math.abs(Math.trunc(v / 60) % 60);
      const absS = Math.abs(v % 60);
      const two = (n: number) => (n < 10 ? '0' + n : String(n));
      let s = 'GMT' + (v < 0 ? '-' : '+');
      if (pp.style === 'FULL') {
        s += two(absH) + ':' + two(absM);
        if (absS) s += ':' + two(absS);
      } else {
        s += absH;
        if (absM || absS) s += ':' + two(absM) + (absS ? ':' + two(absS) : '');
      }
      out.push(s);
      return true;
    }
    case 'zoneId': {
      const z =
        ctx.view.zone ??
        (pp.offsetsOnly && ctx.view.offsetSeconds !== null
          ? zoneOf(offsetId(ctx.view.offsetSeconds))
          : null);
      if (!z) {
        if (ctx.optional > 0) return false;
        throw dateTimeException('Unable to extract ZoneId from temporal ' + ctx.describe());
      }
      out.push(z.id);
      return true;
    }
    case 'zoneText': {
      const z = ctx.view.zone;
      if (!z) {
        if (ctx.optional > 0) return false;
        throw dateTimeException('Unable to extract ZoneId from temporal ' + ctx.describe());
      }
      out.push(zoneShortName(z, ctx.view.epochMillis ?? null, pp.style));
      return true;
    }
    case 'pad': {
      const inner: string[] = [];
      if (!formatPP(pp.pp, ctx, inner)) return false;
      const s = inner.join('');
      if (s.length > pp.width) {
        throw dateTimeException(
          `Cannot print as output of ${s.length} characters exceeds pad width of ${pp.width}`,
        );
      }
      out.push(' '.repeat(pp.width - s.length) + s);
      return true;
    }
    case 'opt': {
      ctx.optional++;
      const mark = out.length;
      for (const item of pp.items) {
        if (!formatPP(item, ctx, out)) {
          out.length = mark;
          break;
        }
      }
      ctx.optional--;
      return true;
    }
  }
}

/** DateTimeFormatter.format over a temporal view. `describe` renders the temporal for errors. */
export function formatTemporal(
  pps: readonly PrinterParser[],
  view: TemporalView,
  describe: () => string,
): string {
  const ctx: PrintCtx = { view, optional: 0, describe };
  const out: string[] = [];
  for (const pp of pps) formatPP(pp, ctx, out);
  return out.join('');
}

// ---- parsing -------------------------------------------------------------------------------

export interface ParsedFields {
  fields: Map<FieldName, number>;
  zone: Zone | null;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

function setField(
  ctx: ParsedFields,
  f: FieldName,
  v: number,
  errorPos: number,
  successPos: number,
): number {
  const old = ctx.fields.get(f);
  if (old !== undefined && old !== v) return ~errorPos;
  ctx.fields.set(f, v);
  return successPos;
}

/** SignStyle.parse in strict mode. */
function signParse(style: SignStyle, positive: boolean): boolean {
  switch (style) {
    case 'NORMAL':
      return !positive; // strict
    case 'ALWAYS':
    case 'EXCEEDS_PAD':
      return true;
    default:
      return false; // NEVER, NOT_NEGATIVE: only lenient parsing accepts a sign
  }
}

function parseNumber(
  pp: Extract<PrinterParser, { k: 'num' }>,
  ctx: ParsedFields,
  text: string,
  position: number,
): number {
  const length = text.length;
  if (position === length) return ~position;
  const signCh = text[position];
  let negative = false;
  let positive = false;
  if (signCh === '+') {
    if (!signParse(pp.sign, true)) return ~position;
    positive = true;
    position++;
  } else if (signCh === '-') {
    if (!signParse(pp.sign, false)) return ~position;
    negative = true;
    position++;
  } else if (pp.sign === 'ALWAYS') {
    return ~position;
  }
  const effMin = pp.min;
  const minEnd = position + effMin;
  if (minEnd > length) return ~position;
  let effMax = pp.max + Math.max(pp.subsequentWidth, 0);
  let total = 0;
  let pos = position;
  for (let pass = 0; pass < 2; pass++) {
    const maxEnd = Math.min(pos + effMax, length);
    while (pos < maxEnd) {
      const c = text.charCodeAt(pos++);
      if (!isDigit(c)) {
        pos--;
        if (pos < minEnd) return ~position;
        break;
      }
      total = total * 10 + (c - 48);
    }
    if (pp.subsequentWidth > 0 && pass === 0) {
      const parseLen = pos - position;
      effMax = Math.max(effMin, parseLen - pp.subsequentWidth);
      pos = position;
      total = 0;
    } else break;
  }
  if (negative) {
    if (total === 0) return ~(position - 1);
    total = -total;
  } else if (pp.sign === 'EXCEEDS_PAD') {
    const parseLen = pos - position;
    if (positive) {
      if (parseLen <= pp.min) return ~(position - 1);
    } else if (parseLen > pp.min) return ~position;
  }
  if (!Number.isSafeInteger(total)) return ~position;
  return setField(ctx, pp.field, total, position, pos);
}

function parseReduced(
  pp: Extract<PrinterParser, { k: 'reduced' }>,
  ctx: ParsedFields,
  text: string,
  position: number,
): number {
  const end = position + pp.width;
  if (end > text.length) return ~position;
  let v = 0;
  for (let i = position; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return ~position;
    v = v * 10 + (c - 48);
  }
  const range = EXCEED_POINTS[pp.width]!;
  const lastPart = pp.base % range;
  const basePart = pp.base - lastPart;
  let value = pp.base > 0 ? basePart + v : basePart - v;
  if (value < pp.base) value += range;
  return setField(ctx, pp.field, value, position, end);
}

function parseFraction(
  pp: Extract<PrinterParser, { k: 'frac' }>,
  ctx: ParsedFields,
  text: string,
  position: number,
): number {
  const length = text.length;
  if (position === length) return pp.min > 0 ? ~position : position;
  if (pp.point) {
    if (text[position] !== '.') return pp.min > 0 ? ~position : position;
    position++;
  }
  const minEnd = position + pp.min;
  if (minEnd > length) return ~position;
  const maxEnd = Math.min(position + pp.max, length);
  let total = 0;
  let pos = position;
  while (pos < maxEnd) {
    const c = text.charCodeAt(pos);
    if (!isDigit(c)) {
      if (pos < minEnd) return ~position;
      break;
    }
    total = total * 10 + (c - 48);
    pos++;
  }
  const digits = pos - position;
  const nanos = digits === 0 ? 0 : total * 10 ** (9 - digits);
  return setField(ctx, 'NANO_OF_SECOND', nanos, position, pos);
}

function parseOffsetAt(
  p: OffsetPattern,
  noOffset: string,
  ctx: ParsedFields,
  text: string,
  position: number,
): number {
  const length = text.length;
  if (noOffset.length > 0 && text.startsWith(noOffset, position)) {
    return setField(ctx, 'OFFSET_SECONDS', 0, position, position + noOffset.length);
  }
  const sign = text[position];
  if (sign !== '+' && sign !== '-') return ~position;
  const neg = sign === '-' ? -1 : 1;
  let pos = position + 1;
  const two = (at: number): number =>
    at + 2 <= length && isDigit(text.charCodeAt(at)) && isDigit(text.charCodeAt(at + 1))
      ? (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48)
      : -1;
  const h = two(pos);
  if (h < 0 || h > 23) return ~position;
  pos += 2;
  let m = 0;
  let s = 0;
  const part = (req: 'none' | 'optional' | 'required'): number => {
    if (req === 'none') return -2;
    let at = pos;
    if (p.colon) {
      if (text[at] !== ':') return req === 'required' ? -1 : -2;
      at++;
    }
    const v = two(at);
    if (v < 0 || v > 59) return req === 'required' ? -1 : -2;
    pos = at + 2;
    return v;
  };
  const mv = part(p.minutes);
  if (mv === -1) return ~position;
  if (mv >= 0) {
    m = mv;
    const sv = part(p.seconds);
    if (sv === -1) return ~position;
    if (sv >= 0) s = sv;
  }
  return setField(ctx, 'OFFSET_SECONDS', neg * (h * 3600 + m * 60 + s), position, pos);
}

const ZONE_CHARS = /[A-Za-z0-9~/._+-]/;

function parseZoneId(
  ctx: ParsedFields,
  text: string,
  position: number,
  offsetsOnly: boolean,
): number {
  const length = text.length;
  if (position >= length) return ~position;
  const c = text[position]!;
  if (c === '+' || c === '-') {
    const tmp: ParsedFields = { fields: new Map(), zone: null };
    const r = parseOffsetAt(
      { minutes: 'required', seconds: 'optional', colon: true },
      'Z',
      tmp,
      text,
      position,
    );
    if (r < 0) return r;
    ctx.zone = zoneOf(offsetId(tmp.fields.get('OFFSET_SECONDS')!));
    return r;
  }
  if (c === 'Z' && (position + 1 >= length || !/[A-Za-z]/.test(text[position + 1]!))) {
    ctx.zone = zoneOf('Z');
    return position + 1;
  }
  if (offsetsOnly) return ~position;
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (text.startsWith(prefix, position)) {
      const after = position + prefix.length;
      const n = text[after];
      if (n === '+' || n === '-') {
        const tmp: ParsedFields = { fields: new Map(), zone: null };
        const r = parseOffsetAt(
          { minutes: 'optional', seconds: 'optional', colon: true },
          '',
          tmp,
          text,
          after,
        );
        if (r >= 0) {
          ctx.zone = zoneOf(prefix + offsetId(tmp.fields.get('OFFSET_SECONDS')!));
          return r;
        }
      }
      if (n === undefined || !/[A-Za-z/]/.test(n)) {
        ctx.zone = zoneOf(prefix);
        return after;
      }
    }
  }
  let end = position;
  while (end < length && ZONE_CHARS.test(text[end]!)) end++;
  for (let e = end; e > position + 1; e--) {
    try {
      const z = zoneOf(text.slice(position, e));
      if (z.fixedOffset === null) {
        ctx.zone = z;
        return e;
      }
    } catch {
      // try a shorter prefix, as Java's zone id prefix tree does
    }
  }
  return ~position;
}

function parsePP(pp: PrinterParser, ctx: ParsedFields, text: string, pos: number): number {
  switch (pp.k) {
    case 'lit':
      return text.startsWith(pp.text, pos) ? pos + pp.text.length : ~pos;
    case 'num':
      return parseNumber(pp, ctx, text, pos);
    case 'reduced':
      return parseReduced(pp, ctx, text, pos);
    case 'frac':
      return parseFraction(pp, ctx, text, pos);
    case 'text': {
      const choices = textChoices(pp.field, pp.style);
      if (choices) {
        for (const [t, v] of choices) {
          if (text.startsWith(t, pos)) return setField(ctx, pp.field, v, pos, pos + t.length);
        }
      }
      return ~pos;
    }
    case 'offset':
      return parseOffsetAt(pp.pattern, pp.noOffset, ctx, text, pos);
    case 'locOffset': {
      if (!text.startsWith('GMT', pos)) return ~pos;
      const after = pos + 3;
      const n = text[after];
      if (n !== '+' && n !== '-') return setField(ctx, 'OFFSET_SECONDS', 0, pos, after);
      const m = /^([+-])(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?/.exec(text.slice(after));
      if (!m) return ~after;
      const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
      return setField(ctx, 'OFFSET_SECONDS', m[1] === '-' ? -secs : secs, pos, after + m[0].length);
    }
    case 'zoneId':
      return parseZoneId(ctx, text, pos, pp.offsetsOnly === true);
    case 'zoneText':
      return parseZoneId(ctx, text, pos, false);
    case 'pad': {
      let p = pos;
      const end = Math.min(text.length, pos + pp.width);
      while (p < end && text[p] === ' ') p++;
      const r = parsePP(pp.pp, ctx, text.slice(0, end), p);
      if (r >= 0 && r !== end) return ~(pos + pp.width);
      return r;
    }
    case 'opt': {
      const saved: ParsedFields = { fields: new Map(ctx.fields), zone: ctx.zone };
      let p = pos;
      for (const item of pp.items) {
        p = parsePP(item, ctx, text, p);
        if (p < 0) {
          ctx.fields = saved.fields;
          ctx.zone = saved.zone;
          return pos;
        }
      }
      return p;
    }
  }
}

/** Abbreviates the text the way DateTimeFormatter's error messages do. */
export const abbreviate = (text: string): string =>
  text.length > 64 ? text.slice(0, 64) + '...' : text;

/** DateTimeParseException (a DateTimeException) with Java's messages. */
export const dateTimeParseException = (msg: string) => dateTimeException(msg);

/**
 * DateTimeFormatter.parseUnresolved + the full-text checks of parseResolved0: returns the parsed
 * fields or throws "Text '...' could not be parsed at index N" / "..., unparsed text found at index N".
 */
export function parseFields(pps: readonly PrinterParser[], text: string): ParsedFields {
  const ctx: ParsedFields = { fields: new Map(), zone: null };
  let pos = 0;
  for (const pp of pps) {
    pos = parsePP(pp, ctx, text, pos);
    if (pos < 0) {
      throw dateTimeParseException(
        `Text '${abbreviate(text)}' could not be parsed at index ${~pos}`,
      );
    }
  }
  if (pos < text.length) {
    throw dateTimeParseException(
      `Text '${abbreviate(text)}' could not be parsed, unparsed text found at index ${pos}`,
    );
  }
  return ctx;
}
