/**
 * The queries SQL lowers to (ES ql `querydsl.query`: TermQuery, RangeQuery, BoolQuery, NotQuery,
 * ...) and their rendering as ES 7.10's QueryBuilders print themselves (`toXContent` with every
 * default: `"boost": 1.0`, `adjust_pure_negative`, match/query_string options), so
 * `_sql/translate` output reads like Elasticsearch's.
 */
import type { BoundScript } from './script.js';
import { isoDateTimeWithMillis } from '../../functions/datetime/iso.js';
import { DateTimeValue } from '../../functions/values.js';

/** XContent of a term value: datetimes as ES prints a ZonedDateTime (strict_date_optional_time). */
const termValue = (v: unknown): Json =>
  v instanceof DateTimeValue ? isoDateTimeWithMillis(v) : (v as Json);

export type Query =
  | { readonly kind: 'term'; readonly field: string; readonly value: unknown }
  | { readonly kind: 'terms'; readonly field: string; readonly values: readonly unknown[] }
  | {
      readonly kind: 'range';
      readonly field: string;
      readonly from: unknown;
      readonly includeLower: boolean;
      readonly to: unknown;
      readonly includeUpper: boolean;
      readonly format: string | null;
      readonly timeZone: string | null;
    }
  | { readonly kind: 'bool'; readonly and: boolean; readonly left: Query; readonly right: Query }
  | { readonly kind: 'not'; readonly child: Query }
  | { readonly kind: 'exists'; readonly field: string }
  | { readonly kind: 'wildcard'; readonly field: string; readonly value: string }
  | { readonly kind: 'regexp'; readonly field: string; readonly value: string }
  | { readonly kind: 'prefix'; readonly field: string; readonly value: string }
  | {
      readonly kind: 'match';
      readonly field: string;
      readonly text: string;
      readonly options: ReadonlyMap<string, string>;
    }
  | {
      readonly kind: 'multi_match' | 'query_string';
      readonly query: string;
      readonly fields: ReadonlyMap<string, number>;
      readonly options: ReadonlyMap<string, string>;
    }
  | { readonly kind: 'script'; readonly script: BoundScript }
  | {
      readonly kind: 'nested';
      readonly path: string;
      readonly child: Query;
      /** Fields read from the matching nested documents (ES NestedQuery.fields): inner hits. */
      readonly fields: readonly NestedField[];
    }
  | { readonly kind: 'match_all' }
  | {
      readonly kind: 'geo_distance';
      readonly field: string;
      /** Metres. */
      readonly distance: number;
      readonly lat: number;
      readonly lon: number;
    };

/** A nested field a query's inner hits return (from doc values with a format, or `_source`). */
export interface NestedField {
  readonly name: string;
  readonly docValue: boolean;
  readonly format: string | null;
}

type FullTextQuery = {
  readonly query: string;
  readonly fields: ReadonlyMap<string, number>;
  readonly options: ReadonlyMap<string, string>;
};

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Java's Float.toString for boosts written as `f^1.0`. */
const floatText = (x: number): string => (Number.isInteger(x) ? `${x}.0` : String(x));

export const scriptJson = (s: BoundScript): { [k: string]: Json } => ({
  source: s.source,
  lang: 'painless',
  params: s.params as { [k: string]: Json },
});

const javaBool = (s: string | undefined, dflt: boolean): boolean =>
  s === undefined ? dflt : s === 'true';

function matchBody(q: Extract<Query, { kind: 'match' }>): { [k: string]: Json } {
  const o = q.options;
  const body: { [k: string]: Json } = {
    query: q.text,
    operator: (o.get('operator') ?? 'OR').toUpperCase(),
  };
  if (o.has('analyzer')) body.analyzer = o.get('analyzer')!;
  if (o.has('fuzziness')) body.fuzziness = o.get('fuzziness')!;
  body.prefix_length = Number(o.get('prefix_length') ?? 0);
  body.max_expansions = Number(o.get('max_expansions') ?? 50);
  if (o.has('minimum_should_match')) body.minimum_should_match = o.get('minimum_should_match')!;
  if (o.has('fuzzy_rewrite')) body.fuzzy_rewrite = o.get('fuzzy_rewrite')!;
  body.fuzzy_transpositions = javaBool(o.get('fuzzy_transpositions'), true);
  body.lenient = javaBool(o.get('lenient'), false);
  body.zero_terms_query = 'NONE';
  if (o.has('cutoff_frequency')) body.cutoff_frequency = Number(o.get('cutoff_frequency'));
  body.auto_generate_synonyms_phrase_query = javaBool(
    o.get('auto_generate_synonyms_phrase_query'),
    true,
  );
  body.boost = 1.0;
  return body;
}

function multiMatchBody(q: FullTextQuery): { [k: string]: Json } {
  const o = q.options;
  const body: { [k: string]: Json } = {
    query: q.query,
    fields: [...q.fields].map(([f, b]) => `${f}^${floatText(b)}`),
    type: (o.get('type') ?? 'best_fields').toLowerCase(),
    operator: (o.get('operator') ?? 'OR').toUpperCase(),
  };
  if (o.has('analyzer')) body.analyzer = o.get('analyzer')!;
  body.slop = Number(o.get('slop') ?? 0);
  if (o.has('fuzziness')) body.fuzziness = o.get('fuzziness')!;
  body.prefix_length = Number(o.get('prefix_length') ?? 0);
  body.max_expansions = Number(o.get('max_expansions') ?? 50);
  if (o.has('minimum_should_match')) body.minimum_should_match = o.get('minimum_should_match')!;
  if (o.has('fuzzy_rewrite')) body.fuzzy_rewrite = o.get('fuzzy_rewrite')!;
  if (o.has('tie_breaker')) body.tie_breaker = Number(o.get('tie_breaker'));
  if (o.has('lenient')) body.lenient = javaBool(o.get('lenient'), false);
  if (o.has('cutoff_frequency')) body.cutoff_frequency = Number(o.get('cutoff_frequency'));
  body.zero_terms_query = 'NONE';
  body.auto_generate_synonyms_phrase_query = javaBool(
    o.get('auto_generate_synonyms_phrase_query'),
    true,
  );
  body.fuzzy_transpositions = javaBool(o.get('fuzzy_transpositions'), true);
  body.boost = 1.0;
  return body;
}

function queryStringBody(q: FullTextQuery): { [k: string]: Json } {
  const o = q.options;
  const body: { [k: string]: Json } = { query: q.query };
  if (o.has('default_field')) body.default_field = o.get('default_field')!;
  body.fields = [...q.fields].map(([f, b]) => `${f}^${floatText(b)}`);
  body.type = (o.get('type') ?? 'best_fields').toLowerCase();
  if (o.has('tie_breaker')) body.tie_breaker = Number(o.get('tie_breaker'));
  body.default_operator = (o.get('default_operator') ?? 'or').toLowerCase();
  if (o.has('analyzer')) body.analyzer = o.get('analyzer')!;
  if (o.has('quote_analyzer')) body.quote_analyzer = o.get('quote_analyzer')!;
  body.max_determinized_states = Number(o.get('max_determinized_states') ?? 10000);
  if (o.has('allow_leading_wildcard'))
    body.allow_leading_wildcard = javaBool(o.get('allow_leading_wildcard'), true);
  body.enable_position_increments = javaBool(o.get('enable_position_increments'), true);
  body.fuzziness = o.get('fuzziness') ?? 'AUTO';
  body.fuzzy_prefix_length = Number(o.get('fuzzy_prefix_length') ?? 0);
  body.fuzzy_max_expansions = Number(o.get('fuzzy_max_expansions') ?? 50);
  if (o.has('fuzzy_rewrite')) body.fuzzy_rewrite = o.get('fuzzy_rewrite')!;
  body.phrase_slop = Number(o.get('phrase_slop') ?? 0);
  if (o.has('analyze_wildcard')) body.analyze_wildcard = javaBool(o.get('analyze_wildcard'), false);
  if (o.has('rewrite')) body.rewrite = o.get('rewrite')!;
  if (o.has('minimum_should_match')) body.minimum_should_match = o.get('minimum_should_match')!;
  if (o.has('quote_field_suffix')) body.quote_field_suffix = o.get('quote_field_suffix')!;
  if (o.has('lenient')) body.lenient = javaBool(o.get('lenient'), false);
  if (o.has('time_zone')) body.time_zone = o.get('time_zone')!;
  body.escape = javaBool(o.get('escape'), false);
  body.auto_generate_synonyms_phrase_query = javaBool(
    o.get('auto_generate_synonyms_phrase_query'),
    true,
  );
  body.fuzzy_transpositions = javaBool(o.get('fuzzy_transpositions'), true);
  body.boost = 1.0;
  return body;
}

/** The query as ES 7.10 renders its QueryBuilder. */
/** ES NestedQuery's inner hits size (MAX_INNER_HITS). */
const MAX_INNER_HITS = 99;

/** The query as ES prints it; inner hits are named `<path>_<n>` in order (ES: a global counter). */
export function queryJson(q: Query): { [k: string]: Json } {
  return render(q, { next: 0 });
}

function innerHitsJson(q: Extract<Query, { kind: 'nested' }>, st: { next: number }): Json {
  const dv = q.fields.filter((f) => f.docValue);
  const src = q.fields.filter((f) => !f.docValue).map((f) => f.name);
  const out: { [k: string]: Json } = {
    name: `${q.path}_${st.next++}`,
    ignore_unmapped: false,
    from: 0,
    size: MAX_INNER_HITS,
    version: false,
    seq_no_primary_term: false,
    explain: false,
    track_scores: false,
  };
  if (src.length === 0) {
    out._source = false;
    out.stored_fields = '_none_';
  } else out._source = { includes: src, excludes: [] };
  if (dv.length > 0) {
    out.docvalue_fields = dv.map((f): Json =>
      f.format !== null ? { field: f.name, format: f.format } : { field: f.name },
    );
  }
  return out;
}

function render(q: Query, st: { next: number }): { [k: string]: Json } {
  switch (q.kind) {
    case 'term':
      return { term: { [q.field]: { value: termValue(q.value), boost: 1.0 } } };
    case 'terms':
      return { terms: { [q.field]: q.values.map(termValue), boost: 1.0 } };
    case 'range': {
      const body: { [k: string]: Json } = {
        from: q.from as Json,
        to: q.to as Json,
        include_lower: q.includeLower,
        include_upper: q.includeUpper,
      };
      if (q.timeZone !== null) body.time_zone = q.timeZone;
      if (q.format !== null) body.format = q.format;
      body.boost = 1.0;
      return { range: { [q.field]: body } };
    }
    case 'bool':
      return {
        bool: {
          [q.and ? 'must' : 'should']: [render(q.left, st), render(q.right, st)],
          adjust_pure_negative: true,
          boost: 1.0,
        },
      };
    case 'not':
      return { bool: { must_not: [render(q.child, st)], adjust_pure_negative: true, boost: 1.0 } };
    case 'exists':
      return { exists: { field: q.field, boost: 1.0 } };
    case 'wildcard':
      return { wildcard: { [q.field]: { wildcard: q.value, boost: 1.0 } } };
    case 'regexp':
      return {
        regexp: {
          [q.field]: {
            value: q.value,
            flags_value: 65535,
            max_determinized_states: 10000,
            boost: 1.0,
          },
        },
      };
    case 'prefix':
      return { prefix: { [q.field]: { value: q.value, boost: 1.0 } } };
    case 'geo_distance':
      // ES GeoDistanceQueryBuilder.doXContent: [lon, lat], the distance a double in metres
      return {
        geo_distance: {
          [q.field]: [q.lon, q.lat],
          distance: q.distance,
          distance_type: 'arc',
          validation_method: 'STRICT',
          ignore_unmapped: false,
          boost: 1.0,
        },
      };
    case 'match':
      return { match: { [q.field]: matchBody(q) } };
    case 'multi_match':
      return { multi_match: multiMatchBody(q) };
    case 'query_string':
      return { query_string: queryStringBody(q) };
    case 'script':
      return { script: { script: scriptJson(q.script), boost: 1.0 } };
    case 'nested':
      return {
        nested: {
          query: render(q.child, st),
          path: q.path,
          ignore_unmapped: false,
          score_mode: 'none',
          boost: 1.0,
          ...(q.fields.length > 0 ? { inner_hits: innerHitsJson(q, st) } : {}),
        },
      };
    case 'match_all':
      return { match_all: { boost: 1.0 } };
  }
}

/** ES ExpressionTranslators.and/or: a missing side yields the other one. */
export function combine(and: boolean, left: Query | null, right: Query | null): Query | null {
  if (left === null) return right;
  if (right === null) return left;
  return { kind: 'bool', and, left, right };
}

/** ES Query.containsNestedField. */
function containsNestedField(q: Query, path: string, name: string): boolean {
  switch (q.kind) {
    case 'bool':
      return containsNestedField(q.left, path, name) || containsNestedField(q.right, path, name);
    case 'not':
      return containsNestedField(q.child, path, name);
    case 'nested':
      return (
        (q.path === path && q.fields.some((f) => f.name === name)) ||
        containsNestedField(q.child, path, name)
      );
    default:
      return false;
  }
}

/** ES Query.addNestedField: every nested query of the path asks for the field (same object when none). */
function addNestedField(q: Query, path: string, f: NestedField): Query {
  switch (q.kind) {
    case 'bool': {
      const left = addNestedField(q.left, path, f);
      const right = addNestedField(q.right, path, f);
      return left === q.left && right === q.right ? q : { ...q, left, right };
    }
    case 'not': {
      const child = addNestedField(q.child, path, f);
      return child === q.child ? q : { ...q, child };
    }
    case 'nested': {
      if (q.path !== path) {
        const child = addNestedField(q.child, path, f);
        return child === q.child ? q : { ...q, child };
      }
      if (q.fields.some((x) => x.name === f.name)) return q;
      return { ...q, fields: [...q.fields, f] };
    }
    default:
      return q;
  }
}

/**
 * ES QueryContainer.rewriteToContainNestedField: the query's nested queries of the path return the
 * field; without one, a match_all nested query is added (ANDed) just to fetch it.
 */
export function withNestedField(q: Query | null, path: string, f: NestedField): Query {
  const fetchOnly: Query = { kind: 'nested', path, child: { kind: 'match_all' }, fields: [f] };
  if (q === null) return fetchOnly;
  if (containsNestedField(q, path, f.name)) return q;
  const rewritten = addNestedField(q, path, f);
  if (rewritten !== q) return rewritten;
  return { kind: 'bool', and: true, left: q, right: fetchOnly };
}

/**
 * ES Query.enrichNestedSort: the filter of a sort on a nested field is the inner query of the
 * first nested query of its path (children first, left to right).
 */
export function nestedSortFilter(q: Query | null, path: string): Query | null {
  if (q === null) return null;
  switch (q.kind) {
    case 'bool':
      return nestedSortFilter(q.left, path) ?? nestedSortFilter(q.right, path);
    case 'not':
      return nestedSortFilter(q.child, path);
    case 'nested':
      return nestedSortFilter(q.child, path) ?? (q.path === path ? q.child : null);
    default:
      return null;
  }
}
