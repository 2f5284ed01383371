/**
 * Bucket orders (ES BucketOrder / InternalOrder): `_key`, `_count` (and deprecated `_term` /
 * `_time`), sub-aggregation paths, and compound orders with the key-ascending tie-breaker ES adds.
 * Comparators exist for shard-side bucket ordinals and for reduced buckets.
 */
import { EsError, parsingException } from '../../../common/errors.js';
import { isObj, tokenOf } from '../parse/object-parser.js';
import { parseAggPath, type PathElement } from './agg-path.js';
import { addWarning } from './bucket-consumer.js';

export interface OrderElement {
  readonly kind: 'key' | 'count' | 'agg';
  readonly asc: boolean;
  /** Sub-aggregation path for `agg` orders. */
  readonly path?: string;
  readonly elements?: readonly PathElement[];
}

/** A list of order elements (a single element is a plain order, more make a compound order). */
export type BucketOrder = readonly OrderElement[];

export const KEY_ASC: OrderElement = { kind: 'key', asc: true };
export const KEY_DESC: OrderElement = { kind: 'key', asc: false };
export const COUNT_DESC: OrderElement = { kind: 'count', asc: false };
export const COUNT_ASC: OrderElement = { kind: 'count', asc: true };

/** InternalOrder.Parser.parseOrderParam for one `{key: dir}` object. */
function parseOne(json: unknown, warnings: string[] | undefined): OrderElement {
  if (!isObj(json)) throw parsingException(`Unexpected token [${tokenOf(json)}] for [order]`);
  let key: string | null = null;
  let asc = false;
  for (const [k, v] of Object.entries(json)) {
    key = k;
    if (typeof v !== 'string')
      throw parsingException(`Unexpected token [${tokenOf(v)}] for [order]`);
    if (v.toLowerCase() === 'asc') asc = true;
    else if (v.toLowerCase() === 'desc') asc = false;
    else throw parsingException(`Unknown order direction [${v}]`);
  }
  if (key === null) throw parsingException('Must specify at least one field for [order]');
  if (key === '_term' || key === '_time') {
    addWarning(warnings, `Deprecated aggregation order key [${key}] used, replaced by [_key]`);
  }
  switch (key) {
    case '_term':
    case '_time':
    case '_key':
      return asc ? KEY_ASC : KEY_DESC;
    case '_count':
      return asc ? COUNT_ASC : COUNT_DESC;
    default:
      return { kind: 'agg', asc, path: key, elements: parseAggPath(key) };
  }
}

/**
 * Parses `order` (an object or an array of objects) and adds ES's tie-breaker: any order that is
 * not a key order gets `_key: asc` appended (TermsAggregationBuilder.order / BucketOrder.compound).
 */
export function parseOrder(json: unknown, warnings: string[] | undefined): BucketOrder {
  const list = Array.isArray(json)
    ? json.map((j) => parseOne(j, warnings))
    : [parseOne(json, warnings)];
  // TermsAggregationBuilder.order(List): `orders.get(0)` of an empty list
  if (list.length === 0)
    throw new EsError('index_out_of_bounds_exception', 'Index 0 out of bounds for length 0', 500);
  if (list.length === 1 && list[0]!.kind === 'key') return list;
  const last = list[list.length - 1]!;
  return last.kind === 'key' ? list : [...list, KEY_ASC];
}

/** The default of terms: `_count: desc` with the `_key: asc` tie-breaker. */
export const DEFAULT_TERMS_ORDER: BucketOrder = [COUNT_DESC, KEY_ASC];

export const isKeyOrder = (o: BucketOrder) => o[0]!.kind === 'key';
export const isKeyAsc = (o: BucketOrder) => o[0]!.kind === 'key' && o[0]!.asc;
export const isKeyDesc = (o: BucketOrder) => o[0]!.kind === 'key' && !o[0]!.asc;
export const isCountDesc = (o: BucketOrder) => o[0]!.kind === 'count' && !o[0]!.asc;

/** ES Comparators.compareDiscardNaN: NaN sorts last in both directions. */
export function compareDiscardNaN(a: number, b: number, asc: boolean): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  const c = a < b ? -1 : a > b ? 1 : 0;
  return asc ? c : -c;
}

/** Builds a comparator from per-element accessors. */
export function compileComparator<B>(
  order: BucketOrder,
  keyCompare: (a: B, b: B) => number,
  count: (b: B) => number,
  aggValue: (b: B, e: OrderElement) => number,
): (a: B, b: B) => number {
  const parts = order.map((e): ((a: B, b: B) => number) => {
    switch (e.kind) {
      case 'key':
        return e.asc ? keyCompare : (a, b) => keyCompare(b, a);
      case 'count':
        return e.asc ? (a, b) => count(a) - count(b) : (a, b) => count(b) - count(a);
      case 'agg':
        return (a, b) => compareDiscardNaN(aggValue(a, e), aggValue(b, e), e.asc);
    }
  });
  if (parts.length === 1) return parts[0]!;
  return (a, b) => {
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i]!(a, b);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/** JSON form of an order as ES renders it in errors/debugging. */
export function orderToString(o: BucketOrder): string {
  const one = (e: OrderElement) =>
    `{"${e.kind === 'agg' ? e.path : e.kind === 'key' ? '_key' : '_count'}":"${e.asc ? 'asc' : 'desc'}"}`;
  return o.length === 1 ? one(o[0]!) : `[${o.map(one).join(',')}]`;
}
