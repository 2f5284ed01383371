/**
 * DateTimeFormatter.parseUnresolved in strict, case-sensitive mode: each printer-parser consumes
 * text and records fields, failures return the complemented error index, optional sections roll
 * back; the whole-text checks give java.time's "could not be parsed at index N" messages.
 */
import type { FieldName } from './fields.js';
import {
  EXCEED_POINTS,
  textChoices,
  type OffsetPattern,
  type PrinterParser,
  type SignStyle,
} from './printer-parser.js';
import { dateTimeException, offsetId, zoneOf, type Zone } from './zones.js';
import { parseJavaDigits } from '../../common/dates/java-digits.js';

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
const parsedDigits = { value: 0, start: 0 };

function parseNumber(
  pp: Extract<PrinterParser, { k: 'num' }>,
  ctx: ParsedFields,
  text: string,
  position: number,
): number {
  const end = parseJavaDigits(text, position, pp, parsedDigits);
  if (end < 0) return end;
  return setField(ctx, pp.field, parsedDigits.value, parsedDigits.start, end);
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
