/** Date processors: date (parse into an ISO timestamp) and date_index_name (route by date). */
import { EsError, illegalArgument } from '../../common/errors.js';
import { dateFormatter, timeZone, UTC, type TimeZone } from '../../common/dates/index.js';
import { readList, readOptionalList, readOptionalString, readString } from '../config.js';
import { getField, setField, type IngestDocument } from '../document.js';
import { compileTemplate, type Template } from '../template.js';
import { leaf, type ProcessorFactory } from './common.js';
import { javaString } from './fields.js';

type DateParser = (text: string, zone: TimeZone, locale: string | undefined) => number;

/** ES DateFormat: ISO8601, UNIX, UNIX_MS, TAI64N, or a Joda (or `8`-prefixed java) pattern. */
function dateParser(format: string): DateParser {
  switch (format) {
    case 'ISO8601':
      return (t, z) => dateFormatter('date_optional_time').parse(t, z);
    case 'UNIX':
      return (t) => {
        const n = Number(t);
        if (t.trim() === '' || !Number.isFinite(n)) throw illegalArgument(`For input string: "${t}"`); // prettier-ignore
        return Math.trunc(n * 1000);
      };
    case 'UNIX_MS':
      return (t) => {
        if (!/^-?\d+$/.test(t)) throw illegalArgument(`For input string: "${t}"`);
        return Number(t);
      };
    case 'TAI64N':
      return (t) => {
        const s = t.startsWith('@') ? t.slice(1) : t;
        const base = 0x4000000000000000n + 10n;
        const secs = BigInt('0x' + s.slice(0, 16)) - base;
        const nanos = parseInt(s.slice(16, 24), 16);
        return Number(secs) * 1000 + Math.floor(nanos / 1e6);
      };
    default:
      return (t, z, locale) => dateFormatter(format, 'joda', locale).parse(t, z);
  }
}

function zoneOf(t: Template | null, doc: IngestDocument): TimeZone {
  if (t === null) return UTC;
  return timeZone(t(doc));
}

function parseWith(
  parsers: DateParser[],
  value: string,
  zone: TimeZone,
  locale: string | undefined,
): number {
  let last: unknown = null;
  for (const p of parsers) {
    try {
      return p(value, zone, locale);
    } catch (e) {
      last = e;
    }
  }
  throw illegalArgument(
    `unable to parse date [${value}]`,
    last instanceof EsError ? last : undefined,
  );
}

/** ISODateTimeFormat.dateTime in the zone: `2010-06-12T00:00:00.000+02:00`, `Z` for UTC. */
export function isoDateTime(millis: number, zone: TimeZone): string {
  return dateFormatter('date_time').format(millis, zone);
}

const date: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const target = readString(c, 'target_field', '@timestamp');
  const tz = readOptionalString(c, 'timezone');
  const loc = readOptionalString(c, 'locale');
  const formats = readList(c, 'formats').map(String);
  const zoneT = tz === null ? null : compileTemplate(tz);
  const localeT = loc === null ? null : compileTemplate(loc);
  const parsers = formats.map(dateParser);
  return leaf(c, (doc) => {
    const v = getField(doc, field);
    const text = v === null ? 'null' : javaString(v);
    const zone = zoneOf(zoneT, doc);
    const locale = localeT ? localeT(doc) : undefined;
    const millis = parseWith(parsers, text, zone, locale);
    setField(doc, target, isoDateTime(millis, zone));
  });
};

const ROUNDINGS = new Set(['y', 'M', 'w', 'd', 'h', 'm', 's']);

const dateIndexName: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const prefix = compileTemplate(readString(c, 'index_name_prefix', ''));
  const roundingT = compileTemplate(readString(c, 'date_rounding'));
  const format = compileTemplate(readString(c, 'index_name_format', 'yyyy-MM-dd'));
  const tz = readOptionalString(c, 'timezone');
  const loc = readOptionalString(c, 'locale');
  const formats = (readOptionalList(c, 'date_formats') ?? ["yyyy-MM-dd'T'HH:mm:ss.SSSZ"]).map(String); // prettier-ignore
  const zoneT = tz === null ? null : compileTemplate(tz);
  const localeT = loc === null ? null : compileTemplate(loc);
  const parsers = formats.map(dateParser);
  return leaf(c, (doc) => {
    const v = getField(doc, field);
    const text = v === null ? 'null' : javaString(v);
    const zone = zoneOf(zoneT, doc);
    const locale = localeT ? localeT(doc) : undefined;
    const millis = parseWith(parsers, text, zone, locale);
    const rounding = roundingT(doc);
    if (!ROUNDINGS.has(rounding)) throw illegalArgument(`Unsupported rounding [${rounding}]`);
    // the date is printed in the index name format itself, so the date math re-reads it
    const fmt = format(doc);
    const printed = dateFormatter(fmt).format(millis, zone);
    const zoneName = tz === null ? 'UTC' : zoneT!(doc);
    setField(doc, '_index', `<${prefix(doc)}{${printed}||/${rounding}{${fmt}|${zoneName}}}>`);
  });
};

export const DATE_PROCESSORS: Record<string, ProcessorFactory> = {
  date,
  date_index_name: dateIndexName,
};
