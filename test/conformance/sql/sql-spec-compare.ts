/**
 * Comparing a Quarry result with H2's as ES JdbcAssert.assertResultSets does for `.sql-spec`:
 * the same column count, compatible column types, the same number of rows, values in order (nulls
 * equal only to nulls, timestamps by instant, doubles within upstream's delta of 1), plus the
 * H2 2.x oracle adjustments listed in h2/ADJUSTMENTS.md.
 */
import { DATA_TYPES, type DataTypeName } from '../../../src/functions/data-types.js';
import { DateTimeValue, TimeValue } from '../../../src/functions/values.js';
import { isGeoValue, parseWkt, toWkt, type Geometry } from '../../../src/functions/geo.js';
import { jdbcTypeOfEsType } from './csv-spec-compare.js';
import type { H2Column } from './sql-spec-h2.js';

export interface QuarryResult {
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: string }>;
  readonly rows: readonly unknown[][];
}

/**
 * java.sql.Types families. Adjustment 2: H2 2.x types aggregates differently from the 1.4 upstream
 * used (SUM(INT) is BIGINT, AVG of an integer DOUBLE or NUMERIC, CHARACTER VARYING for every
 * string), so types are compared by family, as JdbcAssert's lenient mode widens them.
 */
function family(jdbc: number): string {
  switch (jdbc) {
    case -6:
    case 5:
    case 4:
    case -5:
      return 'integer';
    case 6:
    case 7:
    case 8:
    case 2:
    case 3:
      return 'rational';
    case 12:
    case 1:
    case -1:
    case -9:
    case -15:
    case -16:
    case 2005:
      return 'string';
    case 93:
    case 2014:
      return 'timestamp';
    case 92:
    case 2013:
      return 'time';
    case 91:
      return 'date';
    case 16:
    case -7:
      return 'boolean';
    case 0:
      return 'null';
    case 1111:
      return 'other';
  }
  return `other:${jdbc}`;
}

const esType = (name: string): DataTypeName | null =>
  name in DATA_TYPES
    ? (name as DataTypeName)
    : ((Object.keys(DATA_TYPES) as DataTypeName[]).find(
        (k) => DATA_TYPES[k].typeName === name.toLowerCase(),
      ) ?? null);

/** A plain column name or alias: H2 2.x renders expressions in its own normal form (adjustment 1). */
const isPlainName = (n: string) => /^[A-Za-z_@][A-Za-z0-9_.@]*$/.test(n);

function quarryNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
}

function h2Number(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return null;
}

const sameDouble = (a: number, b: number) =>
  (Number.isNaN(a) && Number.isNaN(b)) || a === b || Math.abs(a - b) <= 1;

function cellDiff(col: H2Column, expected: unknown, actual: unknown): string | null {
  if (expected === null || actual === null || actual === undefined) {
    return expected === null && (actual === null || actual === undefined)
      ? null
      : `expected ${JSON.stringify(expected)} but was ${show(actual)}`;
  }
  const fam = family(col.jdbc);
  const bad = () => `expected ${JSON.stringify(expected)} but was ${show(actual)}`;
  switch (fam) {
    case 'timestamp':
    case 'date': {
      const ms = actual instanceof DateTimeValue ? actual.millis : quarryNumber(actual);
      return ms === expected ? null : bad();
    }
    case 'time': {
      const ms =
        actual instanceof TimeValue
          ? Math.floor(actual.nanoOfDay / 1e6) - actual.offsetSeconds * 1000
          : null;
      return ms !== null && ((ms % 86_400_000) + 86_400_000) % 86_400_000 === expected
        ? null
        : bad();
    }
    case 'rational': {
      const e = h2Number(expected);
      const a = quarryNumber(actual);
      return e !== null && a !== null && sameDouble(e, a) ? null : bad();
    }
    case 'integer': {
      const a = quarryNumber(actual);
      return a !== null && a === expected ? null : bad();
    }
    case 'boolean':
      return actual === expected ? null : bad();
    case 'other':
      return sameGeometry(expected, actual) ? null : bad();
    default:
      return String(actual) === String(expected) ? null : bad();
  }
}

/** A WKT text (H2's geometry, a Quarry string) or a Quarry geo value as a geometry. */
function geometryOf(v: unknown): Geometry | null {
  if (isGeoValue(v)) return v.geometry;
  if (typeof v !== 'string') return null;
  try {
    return parseWkt(v).geometry;
  } catch {
    return null;
  }
}

/**
 * JdbcAssert for OTHER columns: H2's geometry text read with ES's WKT parser, then a point
 * within 1e-6 on x and y (geo_point doc values are long-encoded), anything else equal as
 * libs/geo geometries are (same type, same coordinates in the same order).
 */
function sameGeometry(expected: unknown, actual: unknown): boolean {
  const e = geometryOf(expected);
  const a = geometryOf(actual);
  if (e === null || a === null) return String(expected) === String(actual);
  if (a.type === 'POINT') {
    if (e.type !== 'POINT') return false;
    if (e.point === null || a.point === null) return e.point === a.point;
    return Math.abs(e.point.x - a.point.x) <= 1e-6 && Math.abs(e.point.y - a.point.y) <= 1e-6;
  }
  return JSON.stringify(e) === JSON.stringify(a);
}

function show(v: unknown): string {
  if (isGeoValue(v)) return `${toWkt(v.geometry)} (geo)`;
  if (v instanceof DateTimeValue) return `${new Date(v.millis).toISOString()} (${v.millis})`;
  if (typeof v === 'bigint') return v.toString();
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Null when the result sets match, else the first difference. */
export function compareWithH2(
  expected: { columns: H2Column[]; rows: unknown[][] },
  actual: QuarryResult,
): string | null {
  const ec = expected.columns;
  const ac = actual.columns;
  if (ec.length !== ac.length) {
    return `different number of columns: expected ${JSON.stringify(ec.map((c) => c.name))} but was ${JSON.stringify(ac.map((c) => c.name))}`;
  }
  for (let i = 0; i < ec.length; i++) {
    const e = ec[i]!;
    const a = ac[i]!;
    if (isPlainName(e.name) && e.name !== a.name) {
      return `different column name [${i + 1}]: expected ${e.name} but was ${a.name}`;
    }
    const t = esType(a.type);
    // JdbcAssert: H2 types GEOMETRY as OTHER and so counts ES's geometry JDBC type (114, shared
    // by GEO_POINT, GEO_SHAPE and SHAPE, whose lookup by number names a GEO_ type)
    const af =
      t === null
        ? `other:${a.type}`
        : jdbcTypeOfEsType(t) === 114 && e.jdbc === 1111
          ? 'other'
          : family(jdbcTypeOfEsType(t));
    const ef = family(e.jdbc);
    // H2 types an untyped NULL column as anything; Quarry's NULL type stays comparable to it
    if (ef !== af && af !== 'null') {
      return `different column type for [${e.name}]: expected ${e.type} but was ${a.type}`;
    }
  }
  const n = Math.min(expected.rows.length, actual.rows.length);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < ec.length; i++) {
      const d = cellDiff(ec[i]!, expected.rows[r]![i] ?? null, actual.rows[r]![i] ?? null);
      if (d !== null) return `different result for column [${ec[i]!.name}], entry [${r + 1}]: ${d}`;
    }
  }
  if (expected.rows.length !== actual.rows.length) {
    return `expected ${expected.rows.length} rows but was ${actual.rows.length}`;
  }
  return null;
}
