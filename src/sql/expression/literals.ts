/**
 * AST literal values to runtime values: the parser keeps dates as ISO text, longs as bigint and
 * intervals as plain records; the engine works on src/functions runtime values (DateTimeValue,
 * IntervalYearMonth...). Also ES's type-name mapping from the AST's lower-case names.
 */
import type { DataTypeName } from '../../functions/data-types.js';
import {
  parseIsoDateOnly,
  parseIsoDateTime,
  parseIsoOffsetTime,
  parseIsoTimeOnly,
} from '../../functions/datetime/iso.js';
import { IntervalDayTime, IntervalYearMonth } from '../../functions/values.js';
import type { DataTypeName as AstTypeName, LiteralValue } from '../ast/nodes.js';

/** The runtime type name of an AST type name (`interval_day` -> INTERVAL_DAY). */
export const typeOfAst = (t: AstTypeName): DataTypeName => t.toUpperCase() as DataTypeName;

/** The runtime value of an AST literal. */
export function runtimeValue(value: LiteralValue, type: AstTypeName): unknown {
  if (value === null) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'object') {
    const t = typeOfAst(type);
    return value.kind === 'YearMonth'
      ? new IntervalYearMonth(value.years, value.months, t)
      : IntervalDayTime.ofMillis(value.millis, t);
  }
  if (typeof value === 'string') {
    switch (type) {
      case 'datetime':
        return parseIsoDateTime(value);
      case 'date':
        return parseIsoDateOnly(value);
      case 'time':
        try {
          return parseIsoOffsetTime(value);
        } catch {
          return parseIsoTimeOnly(value);
        }
    }
  }
  return value;
}
