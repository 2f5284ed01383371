/**
 * The script helpers SQL's generated scripts call, as the search executor runs them: date doc
 * values reach scripts as the executor's date objects (6.8's JodaCompatibleZonedDateTime), which
 * InternalSqlScriptUtils methods read as datetimes — ES's asDateTime accepts them the same way.
 */
import { DateTimeValue } from '../../functions/values.js';
import * as arith from '../../functions/arithmetic.js';
import { isoDateTimeWithMillis } from '../../functions/datetime/iso.js';
import { FIRST_DOC_VALUE } from '../../dsl/script/field-decision.js';
import { ScriptDouble } from '../../dsl/script/script-double.js';
import { ScriptGeoPoint } from '../../dsl/script/source-doc-values.js';
import { geoPoint } from '../../functions/geo.js';

// integral Double params (`24.0`): methods receive the number; arithmetic runs as DOUBLE
export { ScriptDouble };

const TYPED_ARITH: Record<string, (l: unknown, r: unknown, t: 'DOUBLE') => unknown> = {
  add: arith.add,
  sub: arith.sub,
  mul: arith.mul,
  div: arith.div,
  mod: arith.mod,
};

type Methods = Record<string, (...a: unknown[]) => unknown>;

interface JavaDate {
  toEpochMilli(): number;
}

const isJavaDate = (v: unknown): v is JavaDate =>
  typeof v === 'object' &&
  v !== null &&
  !(v instanceof DateTimeValue) &&
  typeof (v as { toEpochMilli?: unknown }).toEpochMilli === 'function';

// geo_point doc values reach SQL functions as its geo values (ES GeoShape over the GeoPoint)
const adapt = (v: unknown): unknown =>
  v instanceof ScriptDouble
    ? v.value
    : isJavaDate(v)
      ? new DateTimeValue(v.toEpochMilli())
      : v instanceof ScriptGeoPoint
        ? geoPoint(v.lon, v.lat)
        : v;

interface DocValuesView {
  size(): number;
  get(i: number): unknown;
}

const isDocValues = (v: unknown): v is DocValuesView =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { size?: unknown }).size === 'function' &&
  typeof (v as { get?: unknown }).get === 'function';

/** ES InternalQlScriptUtils.docValue: the first value of the field's doc values, or null. */
const firstValue = (v: unknown): unknown => {
  if (isDocValues(v)) return v.size() === 0 ? null : adapt(v.get(0));
  return adapt(v);
};

/** docValue giving the first value or null, marked so aggregations may decide on the column. */
function firstValueOf(fn: (...a: unknown[]) => unknown): (...a: unknown[]) => unknown {
  const f = (...a: unknown[]) => firstValue(fn(...a));
  return Object.assign(f, { [FIRST_DOC_VALUE]: true });
}

/**
 * A datetime a script returns: aggregations and sorts read script values as numbers (ES reads a
 * ZonedDateTime's epoch millis), so it also converts to its millis.
 */
class ScriptDateTime extends DateTimeValue {
  override valueOf(): number {
    return this.millis;
  }
  /** As a term (cardinality over a script): ZonedDateTime.toString, one per instant. */
  override toString(): string {
    return isoDateTimeWithMillis(this);
  }
}

const result = (v: unknown): unknown =>
  v instanceof DateTimeValue && !(v instanceof ScriptDateTime)
    ? new ScriptDateTime(v.millis, v.nanos, v.zone)
    : v;

const cache = new WeakMap<Methods, Methods>();

/** The node's script methods with date doc values turned into SQL datetimes. */
export function sqlScriptMethods(methods: Methods): Methods {
  let out = cache.get(methods);
  if (out) return out;
  out = {};
  for (const [name, fn] of Object.entries(methods)) {
    const typed = TYPED_ARITH[name.slice(name.lastIndexOf('.') + 1)];
    out[name] = name.endsWith('.docValue')
      ? firstValueOf(fn)
      : name.endsWith('.asDateTime')
        ? // an empty bucket's metric reaches bucket scripts as NaN; Java's longValue() makes it 0
          (...a) => result(fn(...a.map((x) => (Number.isNaN(x) ? 0 : adapt(x)))))
        : typed
          ? (...a) => {
              // ES Arithmetics: a Double operand makes the operation a double one
              if (
                a.some((x) => x instanceof ScriptDouble) &&
                a.every((x) => x instanceof ScriptDouble || typeof x === 'number')
              ) {
                return typed(adapt(a[0]), adapt(a[1]), 'DOUBLE');
              }
              return result(fn(...a.map(adapt)));
            }
          : (...a) => result(fn(...a.map(adapt)));
  }
  cache.set(methods, out);
  return out;
}
