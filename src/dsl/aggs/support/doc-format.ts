/**
 * ES DocValueFormat: how keys and values are rendered (`key_as_string`, `value_as_string`) and how
 * user-given bounds (`missing`, range `from`/`to`, `after`, include/exclude) are parsed back:
 * RAW, BOOLEAN, IP, DateTime (a date format in a time zone) and Decimal (a DecimalFormat pattern).
 * Also the field-type → format resolution of MappedFieldType.docValueFormat.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import type { FieldMapping } from '../../../mapping/types.js';
import { ipToSortable, parseIp, sortableToIp } from '../../../search/index/field-values.js';
import { DecimalFormat } from './decimal-format.js';
import {
  DEFAULT_DATE_FORMAT,
  dateFormatter,
  parseDateMath,
  timeZone,
  UTC,
  type DateFormatter,
  type TimeZone,
} from './dates.js';

export interface DocFormat {
  readonly kind: 'raw' | 'boolean' | 'ip' | 'date' | 'decimal';
  /** Renders a numeric value (RAW gives the number itself). */
  format(v: number): string | number | boolean;
  /** Renders an indexed term (keyword: itself; ip: the address). */
  formatTerm(term: string): string;
  /** Parses a user value to a double (DocValueFormat.parseDouble). */
  parseDouble(s: string, roundUp: boolean, now: () => number): number;
  /** Parses a user value to an indexed term (DocValueFormat.parseBytesRef). */
  parseTerm(s: string): string;
  /** What rebuilds the format on another node (shard results cross the transport). */
  readonly wire: DocFormatWire;
}
// Formats are frozen: immutable, so copies of results share them (RAW is compared by identity).

/** A DocFormat as data: its kind and, for dates and decimals, the pattern (and zone). */
export type DocFormatWire =
  | { readonly kind: 'raw' | 'boolean' | 'ip' }
  | { readonly kind: 'date'; readonly pattern: string; readonly zone: string }
  | { readonly kind: 'decimal'; readonly pattern: string };

export const RAW: DocFormat = Object.freeze<DocFormat>({
  kind: 'raw',
  wire: { kind: 'raw' },
  format: (v) => v,
  formatTerm: (t) => t,
  parseDouble: (s) => {
    const v = Number(s.trim());
    if (s.trim() === '' || Number.isNaN(v)) {
      throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
    }
    return v;
  },
  parseTerm: (s) => s,
});

export const BOOLEAN_FORMAT: DocFormat = Object.freeze<DocFormat>({
  kind: 'boolean',
  wire: { kind: 'boolean' },
  format: (v) => v !== 0,
  formatTerm: (t) => t,
  parseDouble: (s) => {
    if (s === 'false') return 0;
    if (s === 'true') return 1;
    throw illegalArgument(`Cannot parse boolean [${s}], expected either [true] or [false]`);
  },
  parseTerm: (s) => s,
});

export const IP_FORMAT: DocFormat = Object.freeze<DocFormat>({
  kind: 'ip',
  wire: { kind: 'ip' },
  format: (v) => String(v),
  formatTerm: (t) => sortableToIp(t),
  parseDouble: () => {
    throw illegalArgument('ip values cannot be parsed as numbers');
  },
  parseTerm: (s) => {
    if (!parseIp(s)) throw illegalArgument(`'${s}' is not an IP string literal.`);
    return ipToSortable(s);
  },
});

export function dateFormat(formatter: DateFormatter, zone: TimeZone): DocFormat {
  return Object.freeze<DocFormat>({
    kind: 'date',
    wire: { kind: 'date', pattern: formatter.pattern, zone: zone.id },
    format: (v) => formatter.format(Math.trunc(v), zone),
    formatTerm: (t) => t,
    parseDouble: (s, roundUp, now) => parseDateMath(s, now, roundUp, zone, formatter),
    parseTerm: (s) => s,
  });
}

export function decimalFormat(pattern: string): DocFormat {
  const df = new DecimalFormat(pattern);
  return Object.freeze<DocFormat>({
    kind: 'decimal',
    wire: { kind: 'decimal', pattern },
    format: (v) => df.format(v),
    formatTerm: (t) => t,
    parseDouble: (s) => df.parse(s),
    parseTerm: (s) => s,
  });
}

export const DEFAULT_DATE_DOC_FORMAT = dateFormat(dateFormatter(DEFAULT_DATE_FORMAT), UTC);

/** MappedFieldType.docValueFormat(format, timeZone) for a mapped field. */
export function fieldDocFormat(
  field: FieldMapping,
  format: string | null,
  zone: TimeZone | null,
): DocFormat {
  switch (field.type) {
    case 'date':
    case 'date_range':
      return dateFormat(dateFormatter(format ?? field.format ?? DEFAULT_DATE_FORMAT), zone ?? UTC);
    case 'boolean':
      noCustom(field, format, zone);
      return BOOLEAN_FORMAT;
    case 'ip':
      noCustom(field, format, zone);
      return IP_FORMAT;
    case 'keyword':
    case 'join':
    case 'text':
    case 'binary':
      noCustom(field, format, zone);
      return RAW;
    default:
      if (zone !== null && zone !== UTC) {
        throw illegalArgument(
          `Field [${field.path}] of type [${field.type}] does not support custom time zones`,
        );
      }
      return format === null ? RAW : decimalFormat(format);
  }
}

function noCustom(field: FieldMapping, format: string | null, zone: TimeZone | null): void {
  if (format !== null) {
    throw illegalArgument(
      `Field [${field.path}] of type [${field.type}] does not support custom formats`,
    );
  }
  if (zone !== null && zone !== UTC) {
    throw illegalArgument(
      `Field [${field.path}] of type [${field.type}] does not support custom time zones`,
    );
  }
}

/** ValuesSourceConfig.resolveFormat for unmapped fields and scripts (from value_type). */
export function valueTypeFormat(
  valueType: string | null,
  format: string | null,
  zone: TimeZone | null,
): DocFormat {
  switch (valueType) {
    case 'date':
      return dateFormat(dateFormatter(format ?? DEFAULT_DATE_FORMAT), zone ?? UTC);
    case 'boolean':
      return BOOLEAN_FORMAT;
    case 'ip':
      return IP_FORMAT;
    case 'long':
    case 'double':
    case 'number':
    case 'numeric':
      return format !== null ? decimalFormat(format) : RAW;
    default:
      return RAW;
  }
}

/** `key_as_string`-style rendering: string form of format(v) (Java toString of the result). */
export function formatToString(fmt: DocFormat, v: number): string {
  const r = fmt.format(v);
  return typeof r === 'string' ? r : String(r);
}

/** The format a DocFormatWire describes (the inverse of `format.wire`). */
export function docFormatFromWire(w: DocFormatWire): DocFormat {
  switch (w.kind) {
    case 'raw':
      return RAW;
    case 'boolean':
      return BOOLEAN_FORMAT;
    case 'ip':
      return IP_FORMAT;
    case 'date':
      return dateFormat(dateFormatter(w.pattern), w.zone === UTC.id ? UTC : timeZone(w.zone));
    case 'decimal':
      return decimalFormat(w.pattern);
  }
}
