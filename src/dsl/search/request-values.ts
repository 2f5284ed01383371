/**
 * Value parsers shared by the search request and its parts (inner hits, top hits): token names
 * for ES parse errors, ints and booleans, `_source` filters (FetchSourceContext), sort specs
 * (SortBuilder) and docvalue_fields entries (FieldAndFormat).
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import type { SourceFilter } from '../../common/source-filter.js';
import { javaParseDouble, javaToInt, jsonNumberText } from '../query/java.js';
import { parseScriptSort, type ScriptSortSpec } from './script-sort.js';

export interface SortSpec {
  field: string; // '_score', '_doc' or a field path
  order: 'asc' | 'desc' | null;
  missing: string | number | null;
  mode: 'min' | 'max' | 'sum' | 'avg' | 'median' | null;
  unmappedType: string | null;
  nestedPath: string | null;
  /** `nested.filter` as given (a query, parsed where the sort runs). */
  nestedFilter?: unknown;
  numericType: string | null;
  /** `_script` sorts (field `_script`). */
  script?: ScriptSortSpec;
}

export function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  switch (typeof v) {
    case 'object':
      return 'START_OBJECT';
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
  }
  return 'VALUE_EMBEDDED_OBJECT';
}

export const unknownKey = (key: string, v: unknown) =>
  parsingException(`Unknown key for a ${tokenName(v)} in [${key}].`);

export function intValue(key: string, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : (v as number);
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw new EsError('x_content_parse_exception', `[${key}] failed to parse field [${key}]`, 400);
  }
  return Math.trunc(n);
}

/**
 * SearchSourceBuilder reads from, size and terminate_after with `parser.intValue()`
 * (AbstractXContentParser, coercing): a string through Double.parseDouble with the int range
 * check (so "NaN" is 0), a number through Jackson's getIntValue, which refuses what an int
 * cannot hold.
 */
export function sourceIntValue(key: string, v: unknown): number {
  if (typeof v === 'string') {
    const d = javaParseDouble(v);
    if (d < -2147483648 || d > 2147483647)
      throw illegalArgument(`Value [${v}] is out of range for an integer`);
    return javaToInt(d);
  }
  if (typeof v === 'number') {
    if (v < -2147483648 || v > 2147483647) {
      // a long token says no more; a BigInteger or a double also gives the range
      const long = Number.isInteger(v) && Math.abs(v) <= 2 ** 63;
      throw new EsError('json_parse_exception', `Numeric value (${jsonNumberText(v)}) out of range of int${long ? '' : ' (-2147483648 - 2147483647)'}`, 400); // prettier-ignore
    }
    return Math.trunc(v) || 0;
  }
  return intValue(key, v);
}

export function boolValue(key: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new EsError(
    'x_content_parse_exception',
    `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`,
    400,
  );
}

/** FetchSourceContext.fromXContent: true/false, "field", ["a","b"], {includes, excludes}. */
export function parseSourceSpec(v: unknown): SourceFilter | null {
  if (v === false) return null;
  if (v === true) return { includes: [], excludes: [] };
  if (typeof v === 'string') return { includes: v.split(',').map((s) => s.trim()), excludes: [] };
  if (Array.isArray(v)) return { includes: v.map(String), excludes: [] };
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const list = (x: unknown, name: string) => {
      if (x === undefined || x === null) return [];
      if (typeof x === 'string') return [x];
      if (Array.isArray(x)) return x.map(String);
      throw parsingException(`Unknown key for a ${tokenName(x)} in [${name}].`);
    };
    for (const k of Object.keys(o)) {
      if (!['includes', 'include', 'excludes', 'exclude'].includes(k)) {
        throw parsingException(`Unknown key for a ${tokenName(o[k])} in [${k}].`);
      }
    }
    return {
      includes: list(o.includes ?? o.include, 'includes'),
      excludes: list(o.excludes ?? o.exclude, 'excludes'),
    };
  }
  throw parsingException(
    `Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [${tokenName(v)}]`,
  );
}

/** SortBuilder.fromXContent: "f", {"f": "desc"}, {"f": {"order": …}}, arrays of those. */
export function parseSort(v: unknown): SortSpec[] {
  const items = Array.isArray(v) ? v : [v];
  const out: SortSpec[] = [];
  for (const it of items) {
    if (typeof it === 'string') {
      out.push(sortSpec(it, null));
      continue;
    }
    if (!it || typeof it !== 'object')
      throw parsingException(
        `malformed sort format, within the sort array, an object, or an actual string are allowed`,
      );
    for (const [field, spec] of Object.entries(it as Record<string, unknown>)) {
      if (field === '_geo_distance') {
        throw illegalArgument(`sort type [${field}] is not supported`);
      }
      if (field === '_script') {
        const script = parseScriptSort(spec);
        out.push({ ...sortSpec(field, script.order), mode: script.mode, script });
        continue;
      }
      if (typeof spec === 'string') {
        out.push(sortSpec(field, orderOf(spec)));
        continue;
      }
      if (!spec || typeof spec !== 'object')
        throw parsingException(`[${field}] failed to parse field [order]`);
      const o = spec as Record<string, unknown>;
      const s = sortSpec(field, o.order === undefined ? null : orderOf(String(o.order)));
      for (const [k, x] of Object.entries(o)) {
        switch (k) {
          case 'order':
            break;
          case 'missing':
            s.missing = x as string | number;
            break;
          case 'mode':
            if (!['min', 'max', 'sum', 'avg', 'median'].includes(String(x))) {
              throw illegalArgument(`Unknown SortMode [${String(x)}]`);
            }
            s.mode = String(x) as SortSpec['mode'];
            break;
          case 'unmapped_type':
            s.unmappedType = String(x);
            break;
          case 'nested_path':
            s.nestedPath = String(x);
            break;
          case 'nested': {
            const n = (x ?? {}) as Record<string, unknown>;
            s.nestedPath = String(n.path ?? '');
            if (n.filter !== undefined && n.filter !== null) s.nestedFilter = n.filter;
            break;
          }
          case 'numeric_type':
            s.numericType = String(x);
            break;
          default:
            throw parsingException(`[field_sort] unknown field [${k}], parser not found`);
        }
      }
      out.push(s);
    }
  }
  return out;
}

function orderOf(s: string): 'asc' | 'desc' {
  const v = s.toLowerCase();
  if (v === 'asc' || v === 'desc') return v;
  throw illegalArgument(`Unknown SortOrder [${s}]`);
}

function sortSpec(field: string, order: 'asc' | 'desc' | null): SortSpec {
  return {
    field,
    order,
    missing: null,
    mode: null,
    unmappedType: null,
    nestedPath: null,
    numericType: null,
  };
}

/** URI `sort=field:desc,other` parameter. */
export function parseSortParam(s: string): SortSpec[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x)
    .map((x) => {
      const i = x.lastIndexOf(':');
      if (i > 0) return sortSpec(x.slice(0, i), orderOf(x.slice(i + 1)));
      return sortSpec(x, null);
    });
}

export interface DocvalueFieldSpec {
  field: string;
  format: string | null;
}

/** `docvalue_fields` entries: "field" or {field, format} (DocValueFieldsContext.FieldAndFormat). */
export function parseDocvalueFields(v: unknown): DocvalueFieldSpec[] {
  if (!Array.isArray(v)) throw unknownKey('docvalue_fields', v);
  return v.map((x) => {
    if (typeof x === 'string') return { field: x, format: null };
    if (!x || typeof x !== 'object' || Array.isArray(x))
      throw parsingException(`Expected [VALUE_STRING] or [START_OBJECT] but got ${tokenName(x)}`);
    const o = x as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (k !== 'field' && k !== 'format')
        throw new EsError(
          'x_content_parse_exception',
          `[field_and_format] unknown field [${k}], parser not found`,
          400,
        );
    return { field: String(o.field), format: o.format === undefined ? null : String(o.format) };
  });
}

/** `stored_fields`: a name or a list of names (StoredFieldsContext.fromXContent). */
export function parseStoredFields(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.map(String);
  throw parsingException(
    `Expected [VALUE_STRING] or [START_ARRAY] in [stored_fields] but found [${tokenName(v)}]`,
  );
}
