/**
 * Expressions as the Painless scripts ES SQL 7.10 generates (ql `ScriptTemplate`, `Params`,
 * `Scripts.formatTemplate` and every function's `asScript`): calls into InternalSqlScriptUtils /
 * InternalQlScriptUtils with constants, field names and aggregate references passed as `params`
 * (`params.v0`, `params.a0`), with ES's exact argument spacing per function family. Aggregate
 * references become a `bucket_selector`'s `buckets_path`.
 */
import { javaDurationToString, javaPeriodToString } from '../../functions/java-text.js';
import { isoDateTimeWithMillis } from '../../functions/datetime/iso.js';
import { javaOffsetTimeToString } from '../../functions/java-text.js';
import { likeToJavaPattern } from '../../functions/like.js';
import { convert } from '../../functions/convert.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  TimeValue,
} from '../../functions/values.js';
import { isGeoValue, toWkt } from '../../functions/geo.js';
import { DATA_TYPES, type DataTypeName } from '../../functions/data-types.js';
import { STRING_FUNCTIONS } from '../functions/defs/string.js';
import type { Agg, Expr, FieldAttr, InnerAgg } from '../expression/nodes.js';
import { isFoldable } from '../expression/props.js';
import { fold } from '../expression/evaluate.js';
import type { EvalContext } from '../functions/definition.js';
import { sqlIllegalArgument } from '../../functions/errors.js';

/** A script parameter: a constant, or a reference to an aggregation (by bucket path). */
export type Param =
  /** `double`: an integral value of a floating-point type (Java passes it as a Double). */
  | { readonly kind: 'var'; readonly value: unknown; readonly double?: boolean }
  | { readonly kind: 'agg'; readonly agg: Agg | InnerAgg };

/** `template` holds `\u0000` where a parameter name goes (ES's `%s`). */
export interface ScriptTemplate {
  readonly template: string;
  readonly params: readonly Param[];
  readonly outputType: DataTypeName;
}

const P = '\u0000';
const SQL = 'InternalSqlScriptUtils';
const QL = 'InternalQlScriptUtils';

export interface ScriptContext {
  readonly cfg: EvalContext;
  /** The session zone id as ES prints it (`Z`, `Europe/Berlin`). */
  readonly zoneId: string;
}

const STRING_DEFS = new Set(STRING_FUNCTIONS.map((d) => d.name));

const FLOATING = new Set<DataTypeName>(['DOUBLE', 'FLOAT', 'HALF_FLOAT', 'SCALED_FLOAT']);

const v = (value: unknown, outputType: DataTypeName): ScriptTemplate => ({
  template: `params.${P}`,
  params: [
    typeof value === 'number' && Number.isInteger(value) && FLOATING.has(outputType)
      ? { kind: 'var', value, double: true }
      : { kind: 'var', value },
  ],
  outputType,
});

/**
 * The params of bound scripts that hold integral Doubles (`24.0`), by params object: JSON (and
 * JS numbers) cannot tell 24.0 from 24, but Java's arithmetic can, so execution reads this.
 */
const DOUBLE_PARAMS = new WeakMap<object, ReadonlySet<string>>();

/** Names of the params in `params` (a bound script's) that are integral Doubles. */
export const doubleParamNames = (params: object): ReadonlySet<string> | undefined =>
  DOUBLE_PARAMS.get(params);

/** ES ScriptTemplate over sub-templates joined into one call. */
function call(
  target: string,
  args: readonly ScriptTemplate[],
  outputType: DataTypeName,
  sep = ',',
): ScriptTemplate {
  return {
    template: `${target}(${args.map((a) => a.template).join(sep)})`,
    params: args.flatMap((a) => a.params),
    outputType,
  };
}

/** ES DateUtils.toString of a datetime constant (ISO with millis). */
function dateTimeText(d: DateTimeValue): string {
  return isoDateTimeWithMillis(d);
}

/** ScalarFunction.scriptWithFoldable. */
function foldableScript(value: unknown, type: DataTypeName): ScriptTemplate {
  if (value instanceof DateTimeValue) {
    return call(`${SQL}.asDateTime`, [v(dateTimeText(value), type)], type);
  }
  if (value instanceof IntervalYearMonth) {
    return call(
      `${SQL}.intervalYearMonth`,
      [v(javaPeriodToString(value), type), v(value.type, type)],
      type,
    );
  }
  if (value instanceof IntervalDayTime) {
    return call(
      `${SQL}.intervalDayTime`,
      [v(javaDurationToString(value), type), v(value.type, type)],
      type,
    );
  }
  if (value instanceof TimeValue) {
    return call(`${SQL}.asTime`, [v(javaOffsetTimeToString(value), type)], type);
  }
  if (isGeoValue(value)) return call(`${SQL}.stWktToSql`, [v(toWkt(value.geometry), type)], type);
  return v(value, type);
}

function fieldScript(f: FieldAttr, exact: boolean): ScriptTemplate {
  const name = exact ? (f.field.exact.exactName ?? f.name) : f.name;
  return {
    template: `${QL}.docValue(doc,params.${P})`,
    params: [{ kind: 'var', value: name }],
    outputType: f.dataType,
  };
}

const isDateType = (t: DataTypeName) => t === 'DATE' || t === 'DATETIME';

function aggScript(a: Agg | InnerAgg): ScriptTemplate {
  const ref: ScriptTemplate = {
    template: `params.${P}`,
    params: [{ kind: 'agg', agg: a }],
    outputType: a.dataType,
  };
  return isDateType(a.dataType) ? call(`${SQL}.asDateTime`, [ref], a.dataType) : ref;
}

/** Scripts.nullSafeFilter. */
export function nullSafeFilter(s: ScriptTemplate): ScriptTemplate {
  return call(`${QL}.nullSafeFilter`, [s], 'BOOLEAN');
}

/** Scripts.nullSafeSort. */
export function nullSafeSort(s: ScriptTemplate): ScriptTemplate {
  const numeric = DATA_TYPES[s.outputType].isInteger || DATA_TYPES[s.outputType].isRational;
  return call(`${QL}.${numeric ? 'nullSafeSortNumeric' : 'nullSafeSortString'}`, [s], s.outputType);
}

const CMP_METHODS = {
  '=': 'eq',
  '<=>': 'nulleq',
  '!=': 'neq',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
} as const;
const ARITH_METHODS = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod' } as const;

/** ES Expression.asScript: the script computing `e` (argument context `exact` for strings). */
export function asScript(e: Expr, ctx: ScriptContext, exact = false): ScriptTemplate {
  if (isFoldable(e)) return foldableScript(fold(e, ctx.cfg), e.dataType);
  const s = (x: Expr, ex = false) => asScript(x, ctx, ex);
  switch (e.kind) {
    case 'Field':
      return fieldScript(e, exact);
    case 'Alias':
      return s(e.child, exact);
    case 'Agg':
    case 'InnerAgg':
      return aggScript(e);
    case 'Cast':
      return {
        template: `${SQL}.cast(${s(e.child).template},params.${P})`,
        params: [...s(e.child).params, { kind: 'var', value: e.dataType }],
        outputType: e.dataType,
      };
    case 'Arith':
      return call(`${SQL}.${ARITH_METHODS[e.op]}`, [s(e.left), s(e.right)], e.dataType);
    case 'Neg':
      return call(`${QL}.neg`, [s(e.child)], e.dataType);
    case 'Cmp':
      return call(`${QL}.${CMP_METHODS[e.op]}`, [s(e.left), s(e.right)], 'BOOLEAN');
    case 'And':
      return call(`${QL}.and`, [s(e.left), s(e.right)], 'BOOLEAN');
    case 'Or':
      return call(`${QL}.or`, [s(e.left), s(e.right)], 'BOOLEAN');
    case 'Not':
      return call(`${QL}.not`, [s(e.child)], 'BOOLEAN');
    case 'IsNull':
      return call(`${QL}.${e.negated ? 'isNotNull' : 'isNull'}`, [s(e.child)], 'BOOLEAN');
    case 'In': {
      const seen: unknown[] = [];
      for (const item of e.list) {
        const val = convert(fold(item, ctx.cfg), e.value.dataType, item.dataType);
        if (!seen.some((x) => x === val)) seen.push(val);
      }
      return call(`${QL}.in`, [s(e.value), v(seen, 'UNSUPPORTED')], 'BOOLEAN', ', ');
    }
    case 'Range': {
      const value = s(e.value);
      const lo = call(
        `${QL}.${e.includeLower ? 'gte' : 'gt'}`,
        [value, s(e.lower)],
        'BOOLEAN',
        ', ',
      );
      const hi = call(
        `${QL}.${e.includeUpper ? 'lte' : 'lt'}`,
        [value, s(e.upper)],
        'BOOLEAN',
        ', ',
      );
      return call(`${QL}.and`, [lo, hi], 'BOOLEAN', ', ');
    }
    case 'Like':
      return call(
        `${SQL}.regex`,
        [s(e.child), v(likeToJavaPattern(e.pattern, e.escape), 'KEYWORD')],
        'BOOLEAN',
      );
    case 'RLike':
      return call(`${SQL}.regex`, [s(e.child), v(e.pattern, 'KEYWORD')], 'BOOLEAN');
    case 'Fn':
      return functionScript(e, ctx);
    default:
      throw sqlIllegalArgument('Cannot generate a script for [{}]', [e.src.text]);
  }
}

function functionScript(e: Extract<Expr, { kind: 'Fn' }>, ctx: ScriptContext): ScriptTemplate {
  const def = e.def;
  const exact = STRING_DEFS.has(def.name);
  const arg = (x: Expr) => asScript(x, ctx, exact);
  const zone = v(ctx.zoneId, 'KEYWORD');
  if (def.name === 'CASE' || def.name === 'IIF') return caseScript(e, ctx);
  if (def.name === 'NULLIF') return call(`${SQL}.nullif`, e.args.map(arg), e.dataType);
  const info = def.script;
  if (!info) throw sqlIllegalArgument('Cannot generate a script for [{}]', [e.src.text]);
  if (info.inline) return { template: info.inline, params: [], outputType: e.dataType };
  const target = `${info.prefix === 'ql' ? QL : SQL}.${info.method}`;
  if (info.list) {
    const args = e.args.map(arg);
    return {
      template: `${target}([${args.map((a) => a.template).join(',')}])`,
      params: args.flatMap((a) => a.params),
      outputType: e.dataType,
    };
  }
  if (info.chrono) {
    // DateTimeFunction: dateTimeChrono(value, zone, field), ", " separated
    return call(target, [arg(e.args[0]!), zone, v(info.chrono, 'KEYWORD')], e.dataType, ', ');
  }
  if (info.zone && e.args.length === 1) {
    // NamedDateTimeFunction / NonIsoDateTimeFunction / Quarter: method(value, zone)
    return call(target, [arg(e.args[0]!), zone], e.dataType, ', ');
  }
  if (info.zone) return call(target, [...e.args.map(arg), zone], e.dataType);
  if (info.extra) {
    // STARTS_WITH(input, pattern, caseSensitive)
    const extras = info.extra.map((x) => v(x, 'BOOLEAN'));
    return call(target, [...e.args.map(arg), ...extras], e.dataType, ', ');
  }
  const args = e.args.map(arg);
  // BinaryOptionalNumericFunction (ROUND, TRUNCATE): a missing scale is passed as null
  if ((def.name === 'ROUND' || def.name === 'TRUNCATE') && args.length === 1) {
    args.push(v(null, 'NULL'));
  }
  return call(target, args, e.dataType);
}

/** ES Case.asScript (also IIF): a Painless `?:` chain, conditions made null-safe. */
function caseScript(e: Extract<Expr, { kind: 'Fn' }>, ctx: ScriptContext): ScriptTemplate {
  const args = [...e.args];
  if (e.def.name === 'IIF' && args.length === 2)
    args.push({ kind: 'Literal', value: null, dataType: 'NULL', src: e.src });
  const parts: string[] = [];
  const params: Param[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = asScript(args[i]!, ctx);
    if (i < args.length - 1) {
      if (i % 2 === 0) parts.push(nullSafeFilter(t).template + ' ? ');
      else parts.push(t.template + ' : ');
    } else parts.push(t.template);
    params.push(...t.params);
  }
  return { template: parts.join(''), params, outputType: e.dataType };
}

/** ES ScriptTemplate.toPainless: the script with bound names, `params` and `buckets_path`. */
export interface BoundScript {
  readonly source: string;
  readonly params: Record<string, unknown>;
  readonly bucketsPath: Record<string, string>;
}

/** Binds parameter names (v0.., a0..) in order; `aggPath` names each referenced aggregation. */
export function bindScript(
  s: ScriptTemplate,
  aggPath: (a: Agg | InnerAgg) => string = () => {
    throw sqlIllegalArgument('Aggregate references are not allowed here');
  },
): BoundScript {
  let vars = 0;
  let aggs = 0;
  let i = 0;
  const params: Record<string, unknown> = {};
  const doubles = new Set<string>();
  const bucketsPath: Record<string, string> = {};
  const source = s.template.replace(/\u0000/g, () => {
    const p = s.params[i++]!;
    if (p.kind === 'var') {
      const name = `v${vars++}`;
      params[name] = p.value;
      if (p.double) doubles.add(name);
      return name;
    }
    const name = `a${aggs++}`;
    bucketsPath[name] = aggPath(p.agg);
    return name;
  });
  if (doubles.size > 0) DOUBLE_PARAMS.set(params, doubles);
  return { source, params, bucketsPath };
}
