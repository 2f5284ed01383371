/**
 * Compares an actual SQL result against a parsed csv-spec table the way the upstream runner does
 * (CsvSpecTestCase -> JdbcAssert.assertResultSets(expected, actual, log, lenientDataType=false,
 * lenientFloatingNumbers=true)): column count, names and JDBC type codes (the ES JDBC driver's
 * EsType mapping, with csvjdbc's view of the expected side), then cell values per expected type —
 * doubles/floats within 1.0, intervals as ES text. Timestamps are stricter than csvjdbc, which
 * reads them to the second and drops any offset (so upstream mutes cases with millis, ES issue
 * 54947): here the millis and an offset count, and a DATE is the calendar day in its own zone.
 */
import {
  dataTypeFromName,
  dataTypeFromTypeName,
  type DataTypeName,
} from '../../../src/functions/data-types.js';
import { javaDoubleToString, javaToString } from '../../../src/functions/java-text.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  TimeValue,
} from '../../../src/functions/values.js';
import { offsetAt } from '../../../src/functions/datetime/zones.js';
import type { ExpectedTable } from './csv-spec-parser.js';

export interface ActualResult {
  /** `type` is an ES SQL type name as `/_sql` reports it ("integer", "datetime", "interval_day"). */
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: string }>;
  readonly rows: ReadonlyArray<ReadonlyArray<unknown>>;
}

export interface CompareOptions {
  /** JdbcAssert's lenientFloatingNumbers: doubles/floats equal within 1.0 (true for csv-spec). */
  readonly lenientFloatingNumbers?: boolean;
  /**
   * JdbcAssert's lenientDataType (JdbcDocCsvSpecIT passes true): integral types compare as
   * BIGINT and floating ones as REAL, so an untyped `10` header matches a `long` COUNT.
   */
  readonly lenientDataType?: boolean;
}

export interface CompareResult {
  readonly ok: boolean;
  /** The first difference, worded like JdbcAssert's assertion message, or null. */
  readonly diff: string | null;
}

// java.sql.Types
const T = {
  BIT: -7,
  TINYINT: -6,
  SMALLINT: 5,
  INTEGER: 4,
  BIGINT: -5,
  FLOAT: 6,
  REAL: 7,
  DOUBLE: 8,
  DECIMAL: 3,
  VARCHAR: 12,
  BOOLEAN: 16,
  DATE: 91,
  TIME: 92,
  TIMESTAMP: 93,
  VARBINARY: -3,
  STRUCT: 2002,
  NULL: 0,
  OTHER: 1111,
  CLOB: 2005,
} as const;

const TYPE_NAMES: Record<number, string> = {
  [-7]: 'BIT',
  [-6]: 'TINYINT',
  5: 'SMALLINT',
  4: 'INTEGER',
  [-5]: 'BIGINT',
  6: 'FLOAT',
  7: 'REAL',
  8: 'DOUBLE',
  3: 'DECIMAL',
  12: 'VARCHAR',
  16: 'BOOLEAN',
  91: 'DATE',
  92: 'TIME',
  93: 'TIMESTAMP',
  [-3]: 'VARBINARY',
  2002: 'STRUCT',
  0: 'NULL',
  1111: 'OTHER',
  2005: 'CLOB',
  114: 'GEO_POINT',
};

const INTERVAL_CODES: Partial<Record<DataTypeName, number>> = {
  INTERVAL_YEAR: 101,
  INTERVAL_MONTH: 102,
  INTERVAL_DAY: 103,
  INTERVAL_HOUR: 104,
  INTERVAL_MINUTE: 105,
  INTERVAL_SECOND: 106,
  INTERVAL_YEAR_TO_MONTH: 107,
  INTERVAL_DAY_TO_HOUR: 108,
  INTERVAL_DAY_TO_MINUTE: 109,
  INTERVAL_DAY_TO_SECOND: 110,
  INTERVAL_HOUR_TO_MINUTE: 111,
  INTERVAL_HOUR_TO_SECOND: 112,
  INTERVAL_MINUTE_TO_SECOND: 113,
};
for (const [k, v] of Object.entries(INTERVAL_CODES)) TYPE_NAMES[v!] = k;

/** The ES JDBC driver's EsType -> java.sql.Types code (differs from the server's sqlType). */
export function jdbcTypeOfEsType(t: DataTypeName): number {
  switch (t) {
    case 'NULL':
      return T.NULL;
    case 'UNSUPPORTED':
      return T.OTHER;
    case 'BOOLEAN':
      return T.BOOLEAN;
    case 'BYTE':
      return T.TINYINT;
    case 'SHORT':
      return T.SMALLINT;
    case 'INTEGER':
      return T.INTEGER;
    case 'LONG':
      return T.BIGINT;
    case 'DOUBLE':
      return T.DOUBLE;
    case 'FLOAT':
      return T.REAL;
    case 'HALF_FLOAT':
    case 'SCALED_FLOAT':
      return T.FLOAT;
    case 'KEYWORD':
    case 'TEXT':
    case 'CONSTANT_KEYWORD':
    case 'IP':
      return T.VARCHAR;
    case 'OBJECT':
    case 'NESTED':
      return T.STRUCT;
    case 'BINARY':
      return T.VARBINARY;
    case 'DATE':
      return T.DATE;
    case 'TIME':
      return T.TIME;
    case 'DATETIME':
      return T.TIMESTAMP;
    case 'GEO_POINT':
    case 'GEO_SHAPE':
    case 'SHAPE':
      return 114;
  }
  return INTERVAL_CODES[t] ?? T.OTHER;
}

/** csvjdbc type names -> java.sql.Types. */
function jdbcTypeOfCsvType(name: string): number {
  switch (name.toLowerCase()) {
    case 'string':
      return T.VARCHAR;
    case 'boolean':
      return T.BOOLEAN;
    case 'byte':
      return T.TINYINT;
    case 'short':
      return T.SMALLINT;
    case 'int':
    case 'integer':
      return T.INTEGER;
    case 'long':
      return T.BIGINT;
    case 'float':
      return T.FLOAT;
    case 'double':
      return T.DOUBLE;
    case 'bigdecimal':
      return T.DECIMAL;
    case 'date':
      return T.DATE;
    case 'time':
      return T.TIME;
    case 'timestamp':
      return T.TIMESTAMP;
    case 'asciistream':
      return T.CLOB;
  }
  return T.VARCHAR;
}

// ---- csvjdbc value parsing ---------------------------------------------------------------------

const TIMESTAMP_RE =
  /^([0-9]{4})-([0-9]?[0-9])-([0-9]?[0-9])[ T]([0-9]?[0-9]):([0-9]?[0-9]):([0-9]?[0-9])(?:\.([0-9]+))?(?:[ ]?(Z|[+-][0-9]{2}:?[0-9]{2}))?.*$/s;
const DATE_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2}).*$/s;
const TIME_RE = /^(\d+):(\d+):(\d+)\.(\d+)(Z|[+-]\d{2}(?::?\d{2})?)/;

/**
 * Epoch day of a date as java.sql.Timestamp / GregorianCalendar read it: Julian calendar before
 * 1582-10-15 (so the spec's `0999-12-27` is the instant of proleptic 1000-01-01).
 */
function javaEpochDay(y: number, mo: number, d: number): number {
  if (y > 1582 || (y === 1582 && (mo > 10 || (mo === 10 && d >= 15)))) {
    const t = new Date(Date.UTC(2000, mo - 1, d));
    t.setUTCFullYear(y);
    return Math.floor(t.getTime() / 86_400_000);
  }
  const a = Math.floor((14 - mo) / 12);
  const yy = y + 4800 - a;
  const mm = mo + 12 * a - 3;
  const jdn = d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
  return jdn - 2440588;
}

/** csvjdbc's timestamp pattern, read to the millisecond and with its offset (UTC when none). */
function parseCsvTimestamp(s: string): number | null {
  const m = TIMESTAMP_RE.exec(s);
  if (!m) return null;
  const day = javaEpochDay(+m[1]!, +m[2]!, +m[3]!);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const off = m[8] === undefined || m[8] === 'Z' ? 0 : offsetMillis(m[8]);
  return day * 86_400_000 + ((+m[4]! * 60 + +m[5]!) * 60 + +m[6]!) * 1000 + millis - off;
}

/** `+03:00` / `-0330` as milliseconds east of UTC. */
function offsetMillis(s: string): number {
  const d = s.replace(':', '');
  return (d[0] === '-' ? -1 : 1) * (Number(d.slice(1, 3)) * 60 + Number(d.slice(3, 5))) * 60_000;
}

/** csvjdbc's default date parsing (format YYYY-MM-DD, trailing text ignored): days since epoch. */
function parseCsvDate(s: string): number | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  return javaEpochDay(+m[1]!, +m[2]!, +m[3]!);
}

/** SimpleDateFormat("HH:mm:ss.SSSX"): millis of day in UTC ("S" counts milliseconds). */
function parseCsvTime(s: string): number | null {
  const m = TIME_RE.exec(s.trim());
  if (!m) return null;
  let off = 0;
  if (m[5] !== 'Z') {
    const d = m[5]!.replace(':', '');
    off =
      (d[0] === '-' ? -1 : 1) * (Number(d.slice(1, 3)) * 60 + Number(d.slice(3, 5) || 0)) * 60_000;
  }
  const ms = ((+m[1]! * 60 + +m[2]!) * 60 + +m[3]!) * 1000 + Number(m[4]!) - off;
  return ((ms % 86_400_000) + 86_400_000) % 86_400_000;
}

const javaInt = (s: string, min: number, max: number): number | null => {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const v = Number(s);
  return v >= min && v <= max ? v : null;
};

/** csvjdbc's inference from the first data row (CsvReader.inferColumnTypes). */
export function inferCsvType(value: string): string {
  if (value.toLowerCase() === 'true' || value.toLowerCase() === 'false') return 'boolean';
  // csvjdbc compares value with "" + parseInt(value); a failed parse gives null, so "null" is an Int
  if (value === 'null') return 'integer';
  const i = javaInt(value, -2147483648, 2147483647);
  if (i !== null && String(i) === value) return 'integer';
  const l = javaInt(value, -9223372036854775808, 9223372036854775807);
  if (l !== null && /^-?[1-9]\d*$|^0$/.test(value)) return 'long';
  const d = Number(value);
  if (value.trim() !== '' && !Number.isNaN(d) && javaDoubleToString(d) === value) return 'double';
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value)) return 'bigdecimal'; // BigDecimal.toString round trip
  if (parseCsvTimestamp(value) !== null) return 'timestamp';
  if (parseCsvDate(value) !== null) return 'date';
  if (parseCsvTime(value) !== null) return 'time';
  return 'string';
}

/** csvjdbc StringConverter.convert: the expected cell as a Java-ish value (null when unparsable). */
function convertCell(type: string, s: string): unknown {
  switch (type) {
    case 'string':
      return s;
    case 'boolean':
      return s === '1' ? true : s === '0' ? false : s.toLowerCase() === 'true';
    case 'byte':
      return s.length ? javaInt(s, -128, 127) : null;
    case 'short':
      return s.length ? javaInt(s, -32768, 32767) : null;
    case 'int':
    case 'integer':
      return s.length ? javaInt(s, -2147483648, 2147483647) : null;
    case 'long':
      return s.length ? javaInt(s, -9223372036854775808, 9223372036854775807) : null;
    case 'float':
    case 'double':
    case 'bigdecimal': {
      const t = s.replace(',', '.');
      if (!t.length) return null;
      const v = Number(t.replace(/[fFdD]$/, ''));
      return Number.isNaN(v) && !/NaN/.test(t) ? null : v;
    }
    case 'date':
      return s.length ? parseCsvDate(s) : null;
    case 'time':
      return s.length ? parseCsvTime(s) : null;
    case 'timestamp':
      return s.length ? parseCsvTimestamp(s) : null;
  }
  return s;
}

// ---- actual values through the JDBC lens --------------------------------------------------------

function actualMillis(v: unknown): number | null {
  if (v instanceof DateTimeValue) return v.millis;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** A datetime's wall-clock millis in its own zone (its calendar day is the DATE it stands for). */
function actualLocalMillis(v: unknown): number | null {
  if (v instanceof DateTimeValue) return v.millis + offsetAt(v.zone, v.millis) * 1000;
  return actualMillis(v);
}

function actualTimeOfDayMillis(v: unknown): number | null {
  if (v instanceof TimeValue) {
    const ms = Math.floor(v.nanoOfDay / 1e6) - v.offsetSeconds * 1000;
    return ((ms % 86_400_000) + 86_400_000) % 86_400_000;
  }
  if (typeof v === 'string')
    return parseCsvTime(v.includes('.') ? v : v.replace(/(\d\d:\d\d:\d\d)/, '$1.000'));
  const m = actualMillis(v);
  return m === null ? null : ((m % 86_400_000) + 86_400_000) % 86_400_000;
}

const show = (v: unknown): string =>
  v === null || v === undefined ? 'null' : typeof v === 'string' ? v : javaToString(v);

const esTypeOf = (name: string): DataTypeName =>
  dataTypeFromTypeName(name) ?? dataTypeFromName(name) ?? 'UNSUPPORTED';

/** JdbcAssert.typeOf with lenientDataType. */
function widenType(t: number): number {
  if (t === T.TINYINT || t === T.SMALLINT || t === T.INTEGER || t === T.BIGINT) return T.BIGINT;
  if (t === T.FLOAT || t === T.REAL || t === T.DOUBLE) return T.REAL;
  return t;
}

/** JdbcAssert.assertResultSets for a csv-spec expectation. */
export function compareResult(
  expected: ExpectedTable,
  actual: ActualResult,
  opts: CompareOptions = {},
): CompareResult {
  const lenientFloats = opts.lenientFloatingNumbers ?? true;
  const fail = (diff: string): CompareResult => ({ ok: false, diff });
  const expCols = expected.columns;
  const actCols = actual.columns;

  // ---- metadata
  if (expCols.length !== actCols.length) {
    return fail(
      `Different number of columns returned (expected ${expCols.length} but was ${actCols.length}); ` +
        `expected:<[${expCols.map((c) => c.name).join(', ')}]> but was:<[${actCols.map((c) => c.name).join(', ')}]>`,
    );
  }
  const firstRow = expected.rows[0];
  const expTypes = expCols.map(
    (c, i) => c.type ?? (firstRow ? inferCsvType(firstRow[i] ?? '') : 'string'),
  );
  for (let i = 0; i < expCols.length; i++) {
    const en = expCols[i]!.name;
    const an = actCols[i]!.name;
    if (en !== an) {
      const prev = i > 0 ? [expCols[i - 1]!.name + ',', actCols[i - 1]!.name + ','] : ['', ''];
      return fail(
        `Different column name [${i + 1}]; expected:<${prev[0]}${en}> but was:<${prev[1]}${an}>`,
      );
    }
    let expectedType = jdbcTypeOfCsvType(expTypes[i]!);
    let actualType = jdbcTypeOfEsType(esTypeOf(actCols[i]!.type));
    if (expectedType === T.FLOAT) expectedType = T.REAL; // csv has no REAL
    if (expectedType === T.VARCHAR && actualType >= 101 && actualType <= 113)
      expectedType = actualType;
    if (actualType === T.NULL) expectedType = T.NULL;
    if (expectedType === T.OTHER && actualType === 114) actualType = T.OTHER;
    if (opts.lenientDataType) {
      expectedType = widenType(expectedType);
      actualType = widenType(actualType);
    }
    if (expectedType !== actualType) {
      return fail(
        `Different column type for column [${en}] (${TYPE_NAMES[expectedType] ?? expectedType} != ${TYPE_NAMES[actualType] ?? actualType})`,
      );
    }
  }

  // ---- data
  const rows = expected.rows;
  for (let r = 0; r < rows.length; r++) {
    const act = actual.rows[r];
    if (!act) return fail(`Expected more data but no more entries found after [${r}]`);
    for (let c = 0; c < expCols.length; c++) {
      const type = expTypes[c]!;
      const cell = rows[r]![c] ?? '';
      const expectedValue = convertCell(type, cell);
      const actualValue = act[c] ?? null;
      const msg = `Different result for column [${expCols[c]!.name}], entry [${r + 1}]`;
      const jdbcType = jdbcTypeOfCsvType(type);
      const differs = (e: unknown, a: unknown) =>
        fail(`${msg} expected:<${show(e)}> but was:<${show(a)}>`);
      if (expectedValue === null || actualValue === null) {
        if (expectedValue !== null && String(expectedValue).toLowerCase() === 'null') {
          if (actualValue !== null) return differs(null, actualValue);
        } else if (expectedValue !== actualValue) {
          return differs(expectedValue === null ? cell : expectedValue, actualValue);
        }
        continue;
      }
      switch (jdbcType) {
        case T.TIMESTAMP: {
          const a = actualMillis(actualValue);
          if (a !== expectedValue) return differs(cell, actualValue);
          break;
        }
        case T.DATE: {
          const a = actualLocalMillis(actualValue);
          if (a === null || Math.floor(a / 86_400_000) !== expectedValue)
            return differs(cell, actualValue);
          break;
        }
        case T.DOUBLE:
        case T.FLOAT: {
          const e = expectedValue as number;
          const a = actualValue as number;
          const same =
            Object.is(e, a) ||
            (Number.isNaN(e) && Number.isNaN(a)) ||
            Math.abs(e - a) <= (lenientFloats ? 1 : 0);
          if (typeof a !== 'number' || !same) return differs(cell, actualValue);
          break;
        }
        case T.TIME: {
          if (actualTimeOfDayMillis(actualValue) !== expectedValue)
            return differs(cell, actualValue);
          break;
        }
        default: {
          if (
            jdbcType === T.VARCHAR &&
            (actualValue instanceof IntervalDayTime || actualValue instanceof IntervalYearMonth)
          ) {
            if (javaToString(actualValue) !== expectedValue)
              return differs(cell, javaToString(actualValue));
          } else if (jdbcType === T.VARCHAR) {
            if (typeof actualValue !== 'string' || actualValue !== expectedValue)
              return differs(cell, actualValue);
          } else if (expectedValue !== actualValue) {
            return differs(cell, actualValue);
          }
        }
      }
    }
  }
  if (actual.rows.length > rows.length) {
    return fail(
      `Elasticsearch still has data after [${rows.length}] entries:\n${actual.rows[rows.length]!.map(show).join(',')}`,
    );
  }
  return { ok: true, diff: null };
}
