/**
 * What lowering needs to know about the target index (ES QueryShardContext): mappings, analyzers,
 * settings, `now`, and hooks for terms lookups, scripts and deprecation warnings. Plus the
 * per-lowering state (filter context, nested scope, named queries).
 */
import type { FieldMapping, ObjectMapping } from '../../../mapping/types.js';
import type { Analyzer } from '../../../search/analysis/index.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { Query } from '../../../search/query/query.js';
import type { ScriptSpec } from '../nodes.js';

/** A compiled script for one use (ES FilterScript / SearchScript). */
export interface CompiledScript {
  /** Per segment: the script's value for a doc (`_score` is the sub query score, 0 in filters). */
  forSegment(seg: LiveSegment): (doc: number, score: number) => unknown;
}

export interface IndexQueryContext {
  index: string;
  indexUuid: string;
  /** Mapping lookup by full path, including multi-fields and field aliases. */
  field(path: string): FieldMapping | undefined;
  /** Field names matching a simple pattern (`*`, `user.*`): leaves, multi-fields and aliases. */
  expandFields(pattern: string): string[];
  /** search_analyzer / search_quote_analyzer / analyzer / index default of a text field. */
  searchAnalyzer(field: FieldMapping, quoted: boolean): Analyzer;
  /** The `analyzer` request parameter (index analyzers and built-ins). */
  analyzer(name: string): Analyzer | undefined;
  /** Keyword normalizer (identity without one). */
  normalize(field: FieldMapping, value: string): string;
  /** Fixed per request: date math `now`. */
  now: number;
  /** indices.query.bool.max_clause_count (1024) → too_many_clauses. */
  maxClauseCount: number;
  /** index.query.default_field (['*']). */
  defaultFields: string[];
  /** index.max_terms_count (65536). */
  maxTermsCount: number;
  /** index.max_regex_length (1000). */
  maxRegexLength: number;
  /** Source values at `path` of a document, null when it does not exist (terms lookup). */
  termsLookup?(
    index: string,
    type: string,
    id: string,
    path: string,
    routing: string | null,
  ): unknown[] | null;
  scriptMethods?: Record<string, (...a: unknown[]) => unknown>;

  // ---- optional extras (defaults in parentheses) ----
  /** Object or nested mapping by path (exists on objects, nested queries). */
  objectMapping?(path: string): ObjectMapping | undefined;
  /** The index's mapping type name (`_doc`), for `_type` and `ids` types. */
  typeName?: string;
  /** The index's join field (module parent-join), if its mapping has one. */
  joinField?: FieldMapping;
  /** The documents of a `percolate` query parsed with the index's mapping, as one segment. */
  percolateSegment?(docs: readonly Readonly<Record<string, unknown>>[]): LiveSegment;
  /** Whether the mapping has nested fields (`type` queries then exclude nested docs). */
  hasNested?: boolean;
  /** `_field_names` enabled (true). */
  fieldNamesEnabled?: boolean;
  /** indices.query.query_string.allowLeadingWildcard (true). */
  allowLeadingWildcard?: boolean;
  /** indices.query.query_string.analyze_wildcard (false). */
  analyzeWildcard?: boolean;
  /** index.query.query_string.lenient (false). */
  queryStringLenient?: boolean;
  /** Deprecation warnings (ES DeprecationLogger), e.g. terms over max_terms_count. */
  deprecation?(message: string): void;
  /** Compiles a script for `script` queries (filter) and `script_score` (score). */
  compileScript?(script: ScriptSpec, use: 'filter' | 'score'): CompiledScript;
  /** A segment's geo_point values of a field per doc (geo queries; segments keep none). */
  geoPoints?(
    seg: LiveSegment,
    field: string,
  ): (doc: number) => readonly { readonly lat: number; readonly lon: number }[];
}

/** Lowering state: ES QueryShardContext's isFilter, nested scope and named queries. */
export interface LowerState {
  readonly ctx: IndexQueryContext;
  /** Inside a filter / must_not clause, constant_score, filter functions. */
  readonly filter: boolean;
  /** Nested path scope (`nested` queries). */
  readonly nestedPath: string | null;
  /** `_name` → query (ES context.addNamedQuery). */
  readonly named: Map<string, Query>;
}

export const inFilter = (st: LowerState): LowerState => (st.filter ? st : { ...st, filter: true });

export const notFilter = (st: LowerState): LowerState =>
  st.filter ? { ...st, filter: false } : st;
