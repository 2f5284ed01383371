/**
 * Rows out of search responses (ES hit and bucket extractors: FieldHitExtractor, ScoreExtractor,
 * ComputingExtractor, CompositeKeyExtractor, MetricAggExtractor, TopHitsAggExtractor, the global
 * count): each column ref becomes a function of a hit or a bucket. Values are coerced to the
 * column's SQL type as ES does when reading `_source` (numbers sent as strings, dates from doc
 * values as epoch millis in the session zone); multi-valued fields fail unless lenient.
 */
import { RawJson } from '../../common/json.js';
import { isInteger, isRational, type DataTypeName } from '../../functions/data-types.js';
import { year } from '../../functions/datetime/extract.js';
import { parseIsoDateTime } from '../../functions/datetime/iso.js';
import { toZone, type Zone } from '../../functions/datetime/zones.js';
import { qlIllegalArgument, sqlIllegalArgument } from '../../functions/errors.js';
import { DateTimeValue } from '../../functions/values.js';
import { compile, type Compiled } from '../expression/evaluate.js';
import { exprKey } from '../expression/props.js';
import { mapChildren, type Expr } from '../expression/nodes.js';
import type { EvalContext } from '../functions/definition.js';
import type { ColumnRef } from '../translate/container.js';
import { geoValueOf, isGeoType, isLonLatArray } from './geo-values.js';

export interface ExtractContext {
  readonly cfg: EvalContext;
  /** field_multi_value_leniency. */
  readonly lenient: boolean;
}

export type Hit = Record<string, unknown>;
export type Bucket = Record<string, unknown>;

const isDateType = (t: DataTypeName) => t === 'DATE' || t === 'DATETIME' || t === 'TIME';

/** ES DateUtils.asDateTime(millis, zone) over what doc values / aggs return. */
export function asDateTime(v: unknown, zone: Zone): DateTimeValue | null {
  if (v === null || v === undefined) return null;
  if (v instanceof DateTimeValue) return v.withZone(zone);
  if (typeof v === 'number') return new DateTimeValue(Math.trunc(v), 0, zone);
  if (typeof v === 'string') {
    if (/^-?\d+$/.test(v)) return new DateTimeValue(Number(v), 0, zone);
    return parseIsoDateTime(v).withZone(zone);
  }
  throw sqlIllegalArgument('Invalid date encountered [{}]', [v]);
}

/** Coercion of a `_source`/doc value to the column type (ES NumberFieldMapper.NumberType.parse with coerce). */
export function coerce(v: unknown, type: DataTypeName, zone: Zone): unknown {
  if (v === null || v === undefined) return null;
  if (isDateType(type)) return asDateTime(v, zone);
  if (isInteger(type)) {
    const n =
      typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number(String(v).trim());
    return Number.isNaN(n) ? v : Math.trunc(n);
  }
  if (isRational(type)) {
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    if (Number.isNaN(n)) return v;
    return type === 'FLOAT' || type === 'HALF_FLOAT' ? Math.fround(n) : n;
  }
  if (type === 'BOOLEAN') {
    if (typeof v === 'boolean') return v;
    if (v === 'true') return true;
    if (v === 'false' || v === '') return false;
    return v;
  }
  if (type === 'KEYWORD' || type === 'TEXT' || type === 'IP' || type === 'CONSTANT_KEYWORD') {
    return typeof v === 'string' ? v : typeof v === 'object' ? v : String(v);
  }
  return v;
}

function unwrapMulti(name: string, v: unknown, lenient: boolean): unknown {
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return null;
  if (v.length === 1 || lenient) return unwrapMulti(name, v[0], lenient);
  throw qlIllegalArgument('Arrays (returned by [{}]) are not supported', [name]);
}

/** A field inside `_source`, following dotted paths through objects (ES extractFromSource). */
function fromSource(source: unknown, path: string, lenient: boolean): unknown {
  if (source === null || typeof source !== 'object') return undefined;
  if (Array.isArray(source)) {
    const vals = source.map((s) => fromSource(s, path, lenient)).filter((x) => x !== undefined);
    if (vals.length === 0) return undefined;
    return vals.length === 1 ? vals[0] : vals;
  }
  const o = source as Record<string, unknown>;
  if (path in o) return o[path];
  for (let i = path.indexOf('.'); i > 0; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (head in o) {
      const v = fromSource(o[head], path.slice(i + 1), lenient);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

function sourceOf(hit: Hit): unknown {
  let s = hit._source;
  if (s instanceof RawJson) {
    s = JSON.parse(s.text);
    hit._source = s;
  }
  return s;
}

/** Column extraction over search hits. */
export function hitExtractor(
  ref: ColumnRef,
  ctx: ExtractContext,
): (hit: Hit, inner?: Hit | null) => unknown {
  const zone = toZone(ctx.cfg.zone);
  switch (ref.kind) {
    case 'hit': {
      const { name, dataType } = ref;
      const path = ref.hitName;
      if (path !== undefined) {
        // a nested field: read from the row's inner hit (its _source is the nested object)
        const relative = name.slice(path.length + 1);
        return (_hit, inner) => {
          if (!inner) return null;
          const v = ref.docValue
            ? (inner.fields as Record<string, unknown[]> | undefined)?.[name]
            : fromSource(sourceOf(inner), relative, ctx.lenient);
          return coerce(unwrapMulti(name, v, ctx.lenient), dataType, zone);
        };
      }
      if (isGeoType(dataType)) {
        // a [lon, lat] array is one point; a shape's GeoJSON coordinates are not values either
        const unwrap = (v: unknown) =>
          dataType !== 'GEO_POINT' || isLonLatArray(v) ? v : unwrapMulti(name, v, ctx.lenient);
        if (ref.docValue) {
          return (hit) => {
            const fields = hit.fields as Record<string, unknown[]> | undefined;
            return geoValueOf(unwrapMulti(name, fields?.[name], ctx.lenient), dataType, name);
          };
        }
        return (hit) =>
          geoValueOf(unwrap(fromSource(sourceOf(hit), name, ctx.lenient)), dataType, name);
      }
      if (ref.docValue) {
        return (hit) => {
          const fields = hit.fields as Record<string, unknown[]> | undefined;
          const v = unwrapMulti(name, fields?.[name], ctx.lenient);
          return coerce(v, dataType, zone);
        };
      }
      return (hit) =>
        coerce(
          unwrapMulti(name, fromSource(sourceOf(hit), name, ctx.lenient), ctx.lenient),
          dataType,
          zone,
        );
    }
    case 'score':
      return (hit) => (typeof hit._score === 'number' ? hit._score : null);
    case 'constant': {
      const v = ref.value;
      return () => v;
    }
    case 'computed': {
      const leaves = new Map<string, (row: { hit: Hit; inner: Hit | null }) => unknown>();
      for (const [k, r] of ref.leaves) {
        const leaf = hitExtractor(r, ctx);
        leaves.set(k, (row) => leaf(row.hit, row.inner));
      }
      const fn = compileComputed(ref, ctx, leaves);
      return (hit, inner) => fn({ hit, inner: inner ?? null });
    }
    default:
      throw sqlIllegalArgument('Unexpected value reference {}', [ref.kind]);
  }
}

/** Metric aggregation values are Java doubles whatever the field's type (ES Internal*.value()). */
const doubleAtRuntime = (r: ColumnRef): boolean =>
  r.kind === 'metric' && r.property !== '_count' && !r.dateTime;

/**
 * Arithmetic over metric values runs as Java does on their runtime class (Arithmetics picks the
 * operation by operand class): `MIN(salary) / 100` divides a double, not an integer.
 */
function withRuntimeTypes(e: Expr, leaves: ReadonlyMap<string, ColumnRef>): Expr {
  const doubles = new Set<Expr>();
  const visit = (x: Expr): Expr => {
    const leaf = leaves.get(exprKey(x));
    if (leaf !== undefined) {
      if (doubleAtRuntime(leaf)) doubles.add(x);
      return x;
    }
    const y = mapChildren(x, visit);
    const kids =
      y.kind === 'Arith' ? [y.left, y.right] : y.kind === 'Neg' ? [y.child] : ([] as Expr[]);
    if (
      kids.some((k) => doubles.has(k)) &&
      (y.dataType === 'INTEGER' ||
        y.dataType === 'LONG' ||
        y.dataType === 'SHORT' ||
        y.dataType === 'BYTE')
    ) {
      const z = { ...y, dataType: 'DOUBLE' as const };
      doubles.add(z);
      return z;
    }
    if (kids.some((k) => doubles.has(k))) doubles.add(y);
    return y;
  };
  return visit(e);
}

function compileComputed(
  ref: Extract<ColumnRef, { kind: 'computed' }>,
  ctx: ExtractContext,
  leaves: Map<string, (row: never) => unknown>,
): Compiled {
  const expr = [...ref.leaves.values()].some(doubleAtRuntime)
    ? withRuntimeTypes(ref.expr, ref.leaves)
    : ref.expr;
  return compile(expr, ctx.cfg, (e) => {
    const leaf = leaves.get(exprKey(e));
    return leaf ? (row) => leaf(row as never) : null;
  });
}

/** The response-level inputs bucket extraction needs (ES ConstantExtractor of hits.total). */
export interface BucketScope {
  readonly totalHits: number;
}

function metricValue(
  agg: Record<string, unknown> | undefined,
  property: string | null,
  innerKey: number | null,
): unknown {
  if (agg === undefined) return null;
  if (property === null) return agg.value ?? null;
  if (property === '_count') return agg.doc_count ?? null;
  if ('doc_count' in agg) {
    // matrix_stats (the only metric with a doc_count): SQL asks for one field; no `fields`
    // means nothing was collected (ES MatrixStatsResults maps are empty → null)
    const fields = agg.fields as Record<string, unknown>[] | undefined;
    return fields && fields.length > 0 ? jsonDouble(fields[0]![property]) : null;
  }
  if (innerKey !== null) {
    const values = agg.values as Record<string, unknown> | undefined;
    if (!values) return null;
    // ES MetricInspectionHelper.hasValue: an empty t-digest (every percentile NaN) is null
    if (Object.values(values).every((v) => v === 'NaN')) return null;
    for (const [k, v] of Object.entries(values)) if (Number(k) === innerKey) return v;
    return null;
  }
  const count = Number(agg.count ?? 0);
  switch (property) {
    case 'variance_sampling':
    case 'std_deviation_sampling': {
      if (count === 0) return null;
      const sum = Number(agg.sum);
      const sq = Number(agg.sum_of_squares);
      let variance = (sq - (sum * sum) / count) / (count - 1);
      if (variance < 0) variance = 0;
      return property === 'variance_sampling' ? variance : Math.sqrt(variance);
    }
    default:
      return agg[property] ?? null;
  }
}

/** A double as ES renders it in JSON: NaN and the infinities are strings there. */
function jsonDouble(v: unknown): unknown {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v ?? null;
}

/** Column extraction over composite / implicit-group buckets. */
export function bucketExtractor(
  ref: ColumnRef,
  ctx: ExtractContext,
  scope: BucketScope,
): (b: Bucket) => unknown {
  const zone = toZone(ctx.cfg.zone);
  switch (ref.kind) {
    case 'group': {
      const { groupId, count } = ref;
      if (count) return (b) => b.doc_count ?? null;
      return (b) => {
        const v = (b.key as Record<string, unknown> | undefined)?.[groupId] ?? null;
        if (v === null) return null;
        if (ref.year) return year(asDateTime(v, zone), zone);
        if (ref.dateTime) return asDateTime(v, zone);
        return coerce(v, ref.dataType, zone);
      };
    }
    case 'metric':
      return (b) => {
        const v = metricValue(
          b[ref.aggId] as Record<string, unknown> | undefined,
          ref.property,
          ref.innerKey,
        );
        if (v === null || v === undefined) return null;
        // a SUM that saw no value is NULL (the executor counts its values beside it)
        const counted = b[`values_of_${ref.aggId}`] as { value?: unknown } | undefined;
        if (counted !== undefined && counted.value === 0) return null;
        if (ref.dateTime) return asDateTime(v, zone);
        return typeof v === 'string' && !Number.isNaN(Number(v)) ? Number(v) : v;
      };
    case 'topHits':
      return (b) => {
        const agg = b[ref.aggId] as { hits?: { hits?: Hit[] } } | undefined;
        const hit = agg?.hits?.hits?.[0];
        if (!hit) return null;
        const fields = hit.fields as Record<string, unknown[]> | undefined;
        const first = fields ? Object.values(fields)[0] : undefined;
        const v = Array.isArray(first) ? first[0] : first;
        return coerce(v, ref.dataType, zone);
      };
    case 'globalCount':
      return () => scope.totalHits;
    case 'constant': {
      const v = ref.value;
      return () => v;
    }
    case 'computed': {
      const leaves = new Map<string, (b: Bucket) => unknown>();
      for (const [k, r] of ref.leaves) leaves.set(k, bucketExtractor(r, ctx, scope));
      const fn = compileComputed(ref, ctx, leaves);
      return (b) => fn(b);
    }
    default:
      throw sqlIllegalArgument('Unexpected value reference {}', [ref.kind]);
  }
}

/** The nested path whose inner hits make the rows, or null (ES SearchHitRowSet). */
export function innerHitPath(refs: readonly ColumnRef[]): string | null {
  const paths = new Set<string>();
  const visit = (r: ColumnRef) => {
    if (r.kind === 'hit' && r.hitName !== undefined) paths.add(r.hitName);
    else if (r.kind === 'computed') r.leaves.forEach(visit);
  };
  refs.forEach(visit);
  if (paths.size > 1) {
    throw sqlIllegalArgument('Multi-nested docs not yet supported {}', [
      `[${[...paths].join(', ')}]`,
    ]);
  }
  return paths.size === 1 ? [...paths][0]! : null;
}

/**
 * ES SearchHitRowSet.getAllInnerHits: the inner hits of every `inner_hits` section named
 * `<path>_<n>`, a nested document once (by its offset), in source order.
 */
export function innerHitsOf(hit: Hit, path: string): Hit[] {
  const byOffset = new Map<number, Hit>();
  const sections = (hit.inner_hits ?? {}) as Record<string, { hits?: { hits?: Hit[] } }>;
  for (const [key, section] of Object.entries(sections)) {
    const end = key.lastIndexOf('_');
    if (end < 0 || key.slice(0, end) !== path) continue;
    for (const h of section.hits?.hits ?? []) {
      const offset = (h._nested as { offset?: number } | undefined)?.offset ?? 0;
      byOffset.set(offset, h);
    }
  }
  return [...byOffset.entries()].sort((a, b) => a[0] - b[0]).map(([, h]) => h);
}
