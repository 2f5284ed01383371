/**
 * WHERE conditions to Query DSL (ES QueryTranslator + ql ExpressionTranslators): comparisons on a
 * field become term/range queries (exact keyword sub-fields for equality, date literals formatted
 * `strict_date_time` with the session zone), IN terms, LIKE/RLIKE wildcard/regexp, IS [NOT] NULL
 * exists, MATCH/QUERY their full-text queries, boolean logic bool queries; anything computed over a
 * field runs as a null-safe script query. HAVING conditions become `bucket_selector` scripts.
 */
import { isoDateTimeWithMillis } from '../../functions/datetime/iso.js';
import { likeToLuceneWildcard } from '../../functions/like.js';
import { convert } from '../../functions/convert.js';
import { compare } from '../../functions/comparison.js';
import { DateTimeValue, TimeValue } from '../../functions/values.js';
import { qlIllegalArgument } from '../../functions/errors.js';
import { isGeoValue } from '../../functions/geo.js';
import type { Expr, FieldAttr } from '../expression/nodes.js';
import { exprName, isFoldable, isNullExpr } from '../expression/props.js';
import { fold } from '../expression/evaluate.js';
import { asScript, nullSafeFilter, type ScriptContext, type ScriptTemplate } from './script.js';
import { bindScript } from './script.js';
import { combine, type Query } from './query-dsl.js';

const DATE_FORMAT = 'strict_date_time';
const TIME_FORMAT = 'strict_hour_minute_second_millis';

const exactName = (f: FieldAttr): string => f.field.exact.exactName ?? f.name;

/** ScriptQuery: the condition's script made null-safe. */
function scriptQuery(e: Expr, ctx: ScriptContext): Query {
  return { kind: 'script', script: bindScript(nullSafeFilter(asScript(e, ctx))) };
}

/** ES ExpressionTranslator.wrapIfNested. */
function wrapIfNested(q: Query, field: Expr): Query {
  if (field.kind === 'Field' && field.nestedParent !== null) {
    return { kind: 'nested', path: field.nestedParent, child: q, fields: [] };
  }
  return q;
}

/** SqlTranslatorHandler.wrapFunctionQuery: a query on a field, or the whole expression as a script. */
function onField(e: Expr, field: Expr, ctx: ScriptContext, q: () => Query): Query {
  return field.kind === 'Field' ? wrapIfNested(q(), field) : scriptQuery(e, ctx);
}

/** A constant as range/term bound: dates and times formatted the way ES sends them. */
function boundValue(v: unknown): { value: unknown; format: string | null } {
  if (v instanceof DateTimeValue) return { value: isoDateTimeWithMillis(v), format: DATE_FORMAT };
  if (v instanceof TimeValue) {
    const ms = Math.floor(v.nanoOfDay / 1e6);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const text = `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
    return { value: text, format: TIME_FORMAT };
  }
  return { value: v, format: null };
}

export function toQuery(e: Expr, ctx: ScriptContext): Query {
  switch (e.kind) {
    case 'And':
    case 'Or':
      return combine(e.kind === 'And', toQuery(e.left, ctx), toQuery(e.right, ctx))!;
    case 'Not': {
      const inner = toQuery(e.child, ctx);
      const q: Query =
        inner.kind === 'script' ? scriptQuery(e, ctx) : { kind: 'not', child: inner };
      return wrapIfNested(q, e.child);
    }
    case 'Cmp':
      return comparisonQuery(e, ctx);
    case 'Range':
      return onField(e, e.value, ctx, () => {
        const f = e.value as FieldAttr;
        const lo = boundValue(fold(e.lower, ctx.cfg));
        const hi = boundValue(fold(e.upper, ctx.cfg));
        return {
          kind: 'range',
          field: f.name,
          from: lo.value,
          includeLower: e.includeLower,
          to: hi.value,
          includeUpper: e.includeUpper,
          format: lo.format ?? hi.format,
          timeZone: f.dataType === 'DATETIME' ? ctx.zoneId : null,
        };
      });
    case 'In':
      return onField(e, e.value, ctx, () => {
        const f = e.value as FieldAttr;
        const list = e.list.filter((x) => !isNullExpr(x));
        const dt = list[0]?.dataType ?? f.dataType;
        const values: unknown[] = [];
        for (const x of list) {
          const val = convert(fold(x, ctx.cfg), dt, x.dataType);
          // a LinkedHashSet: equal values once (datetimes by instant)
          if (!values.some((y) => y === val || (y !== null && compare(y, val) === 0)))
            values.push(val);
        }
        return { kind: 'terms', field: exactName(f), values };
      });
    case 'IsNull':
      return onField(e, e.child, ctx, () => {
        const exists: Query = { kind: 'exists', field: (e.child as FieldAttr).name };
        return e.negated ? exists : { kind: 'not', child: exists };
      });
    case 'Like':
      return e.child.kind === 'Field'
        ? wrapIfNested(
            {
              kind: 'wildcard',
              field: exactName(e.child),
              value: likeToLuceneWildcard(e.pattern, e.escape),
            },
            e.child,
          )
        : scriptQuery(e, ctx);
    case 'RLike':
      return e.child.kind === 'Field'
        ? wrapIfNested({ kind: 'regexp', field: exactName(e.child), value: e.pattern }, e.child)
        : scriptQuery(e, ctx);
    case 'FullText':
      if (e.predicate === 'match') {
        return { kind: 'match', field: e.field!.name, text: e.query, options: e.options };
      }
      return { kind: e.predicate, query: e.query, fields: e.fields, options: e.options };
    case 'Fn': {
      // ql ExpressionTranslators.Scalars.doKnownTranslate: STARTS_WITH on a field is a prefix query
      if (e.def.name === 'STARTS_WITH' && e.args[0]!.kind === 'Field' && isFoldable(e.args[1]!)) {
        const pattern = fold(e.args[1]!, ctx.cfg);
        if (typeof pattern === 'string') {
          return { kind: 'prefix', field: exactName(e.args[0] as FieldAttr), value: pattern };
        }
      }
      return scriptQuery(e, ctx);
    }
    default:
      return scriptQuery(e, ctx);
  }
}

/**
 * ES QueryTranslator's geo optimisation: `ST_Distance(field, <constant point>) < | <= <number>`
 * is a geo_distance query on the field (nested-wrapped as the field needs), not a script.
 */
function geoDistanceQuery(bc: Extract<Expr, { kind: 'Cmp' }>, ctx: ScriptContext): Query | null {
  if (bc.op !== '<' && bc.op !== '<=') return null;
  const d = bc.left;
  if (d.kind !== 'Fn' || d.def.name !== 'ST_DISTANCE') return null;
  const [field, center] = d.args as [Expr, Expr];
  if (field.kind !== 'Field' || !isFoldable(center)) return null;
  const distance = fold(bc.right, ctx.cfg);
  if (typeof distance !== 'number') return null;
  const shape = fold(center, ctx.cfg);
  if (!isGeoValue(shape) || shape.geometry.type !== 'POINT' || !shape.geometry.point) return null;
  const { x, y } = shape.geometry.point;
  return wrapIfNested({ kind: 'geo_distance', field: field.name, distance, lat: y, lon: x }, field);
}

/** ES BinaryComparisons.checkBinaryComparison + translate. */
function comparisonQuery(bc: Extract<Expr, { kind: 'Cmp' }>, ctx: ScriptContext): Query {
  if (!isFoldable(bc.right)) {
    throw qlIllegalArgument(
      'Line {}:{}: Comparisons against fields are not (currently) supported; offender [{}] in [{}]',
      [bc.right.src.line, bc.right.src.column, exprName(bc.right), bc.op],
    );
  }
  const geo = geoDistanceQuery(bc, ctx);
  if (geo) return geo;
  return onField(bc, bc.left, ctx, () => {
    const f = bc.left as FieldAttr;
    const raw = fold(bc.right, ctx.cfg);
    const { value, format } = boundValue(raw);
    const timeZone = f.dataType === 'DATETIME' ? ctx.zoneId : null;
    const range = (from: unknown, il: boolean, to: unknown, iu: boolean): Query => ({
      kind: 'range',
      field: f.name,
      from,
      includeLower: il,
      to,
      includeUpper: iu,
      format,
      timeZone,
    });
    switch (bc.op) {
      case '>':
        return range(value, false, null, false);
      case '>=':
        return range(value, true, null, false);
      case '<':
        return range(null, false, value, false);
      case '<=':
        return range(null, false, value, true);
      default: {
        const q: Query =
          format !== null
            ? {
                ...(range(value, true, value, true) as Query & { kind: 'range' }),
                field: exactName(f),
              }
            : { kind: 'term', field: exactName(f), value };
        return bc.op === '!=' ? { kind: 'not', child: q } : q;
      }
    }
  });
}

/** ES AggFilter: a HAVING condition as a bucket_selector script (null-safe). */
export interface AggFilter {
  readonly name: string;
  readonly script: ScriptTemplate;
}

export function toAggFilter(e: Expr, ctx: ScriptContext, name: (e: Expr) => string): AggFilter {
  if (e.kind === 'And' || e.kind === 'Or') {
    const l = toAggFilter(e.left, ctx, name);
    const r = toAggFilter(e.right, ctx, name);
    const method = e.kind === 'And' ? 'and' : 'or';
    return {
      name: `having.${l.name}_${e.kind === 'And' ? '&' : '|'}_${r.name}`,
      script: nullSafeFilter({
        template: `InternalQlScriptUtils.${method}(${l.script.template},${r.script.template})`,
        params: [...l.script.params, ...r.script.params],
        outputType: 'BOOLEAN',
      }),
    };
  }
  return { name: `having.${name(e)}`, script: nullSafeFilter(asScript(e, ctx)) };
}
