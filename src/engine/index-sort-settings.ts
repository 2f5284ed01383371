/**
 * `index.sort.field / order / mode / missing` (ES IndexSortConfig): parsed and validated as ES
 * does when an index is created — each value on its own, then the lists' sizes against the
 * fields, then (once the mapping is known) each field's doc values and type.
 */
import { illegalArgument } from '../common/errors.js';
import type { FieldMapping } from '../mapping/types.js';
import type { IndexSort } from '../search/index/index-sort.js';
import type { FlatSettings, SettingValue } from './index-settings.js';

export const INDEX_SORT_KEYS = [
  'index.sort.field',
  'index.sort.order',
  'index.sort.mode',
  'index.sort.missing',
] as const;

/** A list setting's values: a JSON array, or a comma-separated string (Settings.getAsList). */
function listOf(v: SettingValue | undefined | null): string[] | null {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v;
  return v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

function parseOrder(v: string): 'asc' | 'desc' {
  const l = v.toLowerCase();
  if (l === 'asc' || l === 'desc') return l;
  throw illegalArgument(`Illegal sort order:${v}`);
}

const MODES = ['MIN', 'MAX', 'SUM', 'AVG', 'MEDIAN', 'NONE'];

function parseMode(v: string): 'min' | 'max' {
  const u = v.toUpperCase();
  if (!MODES.includes(u)) throw illegalArgument(`Illegal sort mode: ${v}`);
  if (u !== 'MIN' && u !== 'MAX') {
    throw illegalArgument(`Illegal index sort mode:[${u}], must be one of [MAX, MIN]`);
  }
  return u === 'MIN' ? 'min' : 'max';
}

function parseMissing(v: string): '_first' | '_last' {
  if (v === '_last' || v === '_first') return v;
  throw illegalArgument(`Illegal missing value:[${v}], must be one of [_last, _first]`);
}

export interface IndexSortSpec {
  readonly field: string;
  readonly order: 'asc' | 'desc' | null;
  readonly mode: 'min' | 'max' | null;
  readonly missing: '_first' | '_last' | null;
}

const javaList = (xs: readonly string[]): string => `[${xs.join(', ')}]`;

/** The index sort the settings ask for ([] = none); throws ES's errors for bad values. */
export function indexSortSpecs(s: FlatSettings): IndexSortSpec[] {
  // values are checked key by key in settings (sorted key) order
  const missing = listOf(s['index.sort.missing'])?.map(parseMissing) ?? null;
  const modes = listOf(s['index.sort.mode'])?.map(parseMode) ?? null;
  const orders = listOf(s['index.sort.order'])?.map(parseOrder) ?? null;
  const fields = listOf(s['index.sort.field']) ?? [];
  const sizeCheck = (key: string, values: readonly string[] | null) => {
    if (values !== null && values.length !== fields.length) {
      throw illegalArgument(
        `index.sort.field:${javaList(fields)} ${key}:${javaList(
          key === 'index.sort.mode' ? values.map((m) => m.toUpperCase()) : values,
        )}, size mismatch`,
      );
    }
  };
  sizeCheck('index.sort.order', orders);
  sizeCheck('index.sort.mode', modes);
  sizeCheck('index.sort.missing', missing);
  return fields.map((field, i) => ({
    field,
    order: orders?.[i] ?? null,
    mode: modes?.[i] ?? null,
    missing: missing?.[i] ?? null,
  }));
}

/** The engine's index sort: descending defaults to the max value, missing values go last. */
export function indexSortOf(specs: readonly IndexSortSpec[]): IndexSort {
  return specs.map((s) => {
    const reverse = s.order === 'desc';
    return {
      field: s.field,
      reverse,
      mode: s.mode ?? (reverse ? 'max' : 'min'),
      missingFirst: s.missing === '_first',
    };
  });
}

/** Field types whose doc values sort as STRING, LONG, INT, DOUBLE or FLOAT. */
const SORTABLE = new Set([
  'keyword',
  'ip',
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'date',
  'boolean',
  'token_count',
]);

/**
 * IndexSortConfig.buildIndexSort against the mapping (run once the index's mapping is known):
 * every sort field must be mapped, have doc values and sort as a string or number.
 */
export function checkIndexSortFields(
  specs: readonly IndexSortSpec[],
  field: (path: string) => FieldMapping | undefined,
  hasNested: boolean,
): void {
  if (specs.length === 0) return;
  if (hasNested) throw illegalArgument('cannot have nested fields when index sort is activated');
  for (const s of specs) {
    let f = field(s.field);
    if (f?.type === 'alias' && f.aliasPath) f = field(f.aliasPath);
    if (!f) throw illegalArgument(`unknown index sort field:[${s.field}]`);
    if (f.type === 'geo_point') {
      throw illegalArgument(
        `can't sort on geo_point field without using specific sorting feature, like geo_distance`,
      );
    }
    const fielddata = f.type === 'text' ? f.fielddata === true : f.docValues;
    if (!fielddata || (!SORTABLE.has(f.type) && f.type !== 'text')) {
      throw illegalArgument(`docvalues not found for index sort field:[${s.field}]`);
    }
  }
}

/** Lucene's SortField type of a field's doc values (what `missing` is expressed in). */
function sortFieldType(type: string | undefined): 'INT' | 'LONG' | 'FLOAT' | 'DOUBLE' | 'STRING' {
  switch (type) {
    case 'integer':
    case 'short':
    case 'byte':
    case 'token_count':
      return 'INT';
    case 'long':
    case 'date':
    case 'boolean':
      return 'LONG';
    case 'float':
    case 'half_float':
      return 'FLOAT';
    case 'double':
    case 'scaled_float':
      return 'DOUBLE';
    default:
      return 'STRING';
  }
}

/**
 * The `sort` of a segment in `_segments` (IndicesSegmentResponse): field, selector, the missing
 * value Lucene substitutes (the type's extreme, or STRING_FIRST/LAST) and direction.
 */
export function segmentSortJson(
  sort: IndexSort,
  fieldType: (path: string) => string | undefined,
): Array<Record<string, unknown>> {
  return sort.map((s) => {
    const type = sortFieldType(fieldType(s.field));
    // missing first in ascending order, or last in descending order, is the smallest value
    const min = s.missingFirst !== s.reverse;
    let missing: string;
    switch (type) {
      case 'INT':
        missing = min ? '-2147483648' : '2147483647';
        break;
      case 'LONG':
        missing = min ? '-9223372036854775808' : '9223372036854775807';
        break;
      case 'FLOAT':
      case 'DOUBLE':
        missing = min ? '-Infinity' : 'Infinity';
        break;
      default:
        missing = min ? 'SortField.STRING_FIRST' : 'SortField.STRING_LAST';
    }
    return { field: s.field, mode: s.mode, missing, reverse: s.reverse };
  });
}
