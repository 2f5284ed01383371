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
        // ES reads the seconds from hex digits 1..16 and the nanoseconds from 16..24
        const s = t.startsWith('@') ? t.slice(1) : t;
        if (!/^[0-9a-fA-F]{24}$/.test(s)) throw illegalArgument(`For input string: "${s}"`);
        const base = parseInt(s.slice(1, 16), 16);
        const rest = parseInt(s.slice(16, 24), 16);
        return base * 1000 - 10000 + Math.floor(rest / 1e6);
      };
    default:
      return yearDefaulted(format);
  }
}

/** Pattern letters outside quotes. */
function patternLetters(pattern: string): string {
  return pattern.replace(/'[^']*'/g, '').replace(/[^A-Za-z]/g, '');
}

/**
 * ES's date processor fills a missing year with the current one (Joda `withYear`, and the java
 * fallback for `8` patterns without a year or week-based year): the text is parsed with the
 * current year in front of it.
 */
function yearDefaulted(format: string): DateParser {
  const java = format.startsWith('8');
  const body = java ? format.slice(1) : format;
  const named = /^[a-z_]+$/.test(body);
  const letters = patternLetters(body);
  if (named || /[yYuxwe]/.test(letters.replace(/[^yYuxwe]/g, '')))
    return (t, z, locale) => dateFormatter(format, 'joda', locale).parse(t, z);
  const withYear = `${java ? '8uuuu' : 'yyyy'} ${body}`;
  return (t, z, locale) => {
    const year = new Date().getUTCFullYear();
    return dateFormatter(withYear, 'joda', locale).parse(`${year} ${t}`, z);
  };
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

/**
 * What both date processors read from a document: the field's date, parsed with the configured
 * formats, in the configured (templated) zone and locale.
 */
function fieldDateReader(
  c: Parameters<ProcessorFactory>[0],
  field: string,
  formats: string[],
): {
  zoneTemplate: Template | null;
  read(doc: IngestDocument): { millis: number; zone: TimeZone };
} {
  const tz = readOptionalString(c, 'timezone');
  const loc = readOptionalString(c, 'locale');
  const zoneT = tz === null ? null : compileTemplate(tz);
  const localeT = loc === null ? null : compileTemplate(loc);
  const parsers = formats.map(dateParser);
  return {
    zoneTemplate: zoneT,
    read(doc) {
      const v = getField(doc, field);
      const text = v === null ? 'null' : javaString(v);
      const zone = zoneOf(zoneT, doc);
      const locale = localeT ? localeT(doc) : undefined;
      return { millis: parseWith(parsers, text, zone, locale), zone };
    },
  };
}

const date: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const target = readString(c, 'target_field', '@timestamp');
  const dates = fieldDateReader(c, field, readList(c, 'formats').map(String));
  return leaf(c, (doc) => {
    const { millis, zone } = dates.read(doc);
    setField(doc, target, isoDateTime(millis, zone));
  });
};

const ROUNDINGS = new Set(['y', 'M', 'w', 'd', 'h', 'm', 's']);

const dateIndexName: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const prefix = compileTemplate(readString(c, 'index_name_prefix', ''));
  const roundingT = compileTemplate(readString(c, 'date_rounding'));
  const format = compileTemplate(readString(c, 'index_name_format', 'yyyy-MM-dd'));
  const formats = (readOptionalList(c, 'date_formats') ?? ["yyyy-MM-dd'T'HH:mm:ss.SSSZ"]).map(String); // prettier-ignore
  const dates = fieldDateReader(c, field, formats);
  return leaf(c, (doc) => {
    const { millis, zone } = dates.read(doc);
    const rounding = roundingT(doc);
    if (!ROUNDINGS.has(rounding)) throw illegalArgument(`Unsupported rounding [${rounding}]`);
    // the date is printed in the index name format itself, so the date math re-reads it
    const fmt = format(doc);
    const printed = dateFormatter(fmt).format(millis, zone);
    const zoneName = dates.zoneTemplate === null ? 'UTC' : dates.zoneTemplate(doc);
    setField(doc, '_index', `<${prefix(doc)}{${printed}||/${rounding}{${fmt}|${zoneName}}}>`);
  });
};

export const DATE_PROCESSORS: Record<string, ProcessorFactory> = {
  date,
  date_index_name: dateIndexName,
};
