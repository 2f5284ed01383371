/**
 * DateTimeFormatter.format over a TemporalView: java.time's printing rules for each printer-parser
 * (sign styles, fraction truncation, offset patterns, localized offsets, zone ids and names) and
 * its "Unsupported field" / print-width errors; optional sections print only when complete.
 */
import { FIELD_DISPLAY, fieldValue, type FieldName, type TemporalView } from './fields.js';
import {
  EXCEED_POINTS,
  textOf,
  type OffsetPattern,
  type PrinterParser,
  type SignStyle,
  type TextStyle,
} from './printer-parser.js';
import { dateTimeException, offsetId, zoneOf, type Zone } from './zones.js';

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
