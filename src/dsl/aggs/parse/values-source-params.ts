/**
 * The value-source parameters shared by field-based aggregations (ES ValuesSourceParserHelper):
 * `field`, `script`, `missing`, `value_type`, `format` and `time_zone`, with ES's value_type
 * resolution and "incompatible value type" check.
 */
import { parsingException } from '../../../common/errors.js';
import { parseScriptSpec, type ScriptSpec } from '../../script/index.js';
import type { FieldDecl } from './object-parser.js';

/** ES ValueType names as rendered in messages (ValueType.description). */
export type ValueType =
  'string' | 'double' | 'long' | 'date' | 'ip' | 'boolean' | 'number' | 'numeric' | 'geo_point';

export interface ValuesSourceParams {
  field: string | null;
  script: ScriptSpec | null;
  /** The `missing` value as given (XContent objectText). */
  missing: unknown;
  valueType: ValueType | null;
  format: string | null;
  timeZone: string | number | null;
}

export function emptyValuesSource(): ValuesSourceParams {
  return {
    field: null,
    script: null,
    missing: null,
    valueType: null,
    format: null,
    timeZone: null,
  };
}

const DESCRIPTION: Record<ValueType, string> = {
  string: 'string',
  double: 'float|double',
  long: 'byte|short|integer|long',
  date: 'date',
  ip: 'ip',
  boolean: 'boolean',
  number: 'number',
  numeric: 'numeric',
  geo_point: 'geo_point',
};

/** ValueType.resolveForScript. */
export function resolveValueType(s: string): ValueType | null {
  switch (s) {
    case 'string':
      return 'string';
    case 'double':
    case 'float':
      return 'double';
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      return 'long';
    case 'date':
      return 'date';
    case 'ip':
      return 'ip';
    case 'boolean':
      return 'boolean';
  }
  return null;
}

export function isNumericValueType(t: ValueType): boolean {
  return (
    t === 'double' ||
    t === 'long' ||
    t === 'date' ||
    t === 'boolean' ||
    t === 'number' ||
    t === 'numeric'
  );
}

export interface ValuesSourceOptions {
  scriptable?: boolean;
  formattable?: boolean;
  timezoneAware?: boolean;
  /** Target type checked against value_type (ES targetValueType); null = any. */
  target?: 'numeric' | 'string' | 'geo_point' | null;
}

/** Field declarations for `p`, for use with parseObject. */
export function valuesSourceDecls(
  aggType: string,
  p: ValuesSourceParams,
  o: ValuesSourceOptions = {},
): FieldDecl[] {
  const decls: FieldDecl[] = [
    { names: ['field'], kind: 'string', set: (v) => (p.field = v as string) },
    { names: ['missing'], kind: 'value', set: (v) => (p.missing = v) },
    {
      names: ['value_type', 'valueType'],
      kind: 'string',
      set: (v) => {
        const t = resolveValueType(v as string);
        if (t === null) throw new Error(`no valueType [${String(v)}]`);
        const target = o.target ?? null;
        const ok =
          target === null ||
          (target === 'numeric' && isNumericValueType(t)) ||
          (target === 'string' && (t === 'string' || t === 'ip')) ||
          (target === 'geo_point' && t === 'geo_point');
        if (!ok) {
          throw parsingException(
            `Aggregation [${aggType}] was configured with an incompatible value type [${DESCRIPTION[t]}]. It can only work on value of type [${target}]`,
          );
        }
        p.valueType = t;
      },
    },
  ];
  if (o.formattable !== false)
    decls.push({ names: ['format'], kind: 'string', set: (v) => (p.format = v as string) });
  if (o.scriptable !== false) {
    decls.push({
      names: ['script'],
      kind: 'object_or_string',
      set: (v) => (p.script = parseScriptSpec(v)),
    });
  }
  if (o.timezoneAware) {
    // ES declares time_zone as LONG but parses a string id or a number of hours by token.
    decls.push({
      names: ['time_zone'],
      kind: 'value',
      set: (v) => {
        if (typeof v === 'number') p.timeZone = Math.trunc(v);
        else if (typeof v === 'string') p.timeZone = v;
        else throw parsingException(`[time_zone] must be a string or a number`);
      },
    });
  }
  return decls;
}
