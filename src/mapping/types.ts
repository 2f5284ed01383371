/**
 * Mapping model shared by the document parser, the indexer, the query layer and SQL.
 * A mapping is parsed once from Elasticsearch 6.8 mapping JSON into these plain objects; field
 * lookups by full dotted path (including multi-fields such as `title.keyword`) are O(1).
 */

export type FieldType =
  | 'text'
  | 'keyword'
  | 'long'
  | 'integer'
  | 'short'
  | 'byte'
  | 'double'
  | 'float'
  | 'half_float'
  | 'scaled_float'
  | 'date'
  | 'boolean'
  | 'ip'
  | 'binary'
  | 'geo_point'
  | 'geo_shape'
  | 'shape'
  | 'token_count'
  | 'alias'
  | 'integer_range'
  | 'long_range'
  | 'float_range'
  | 'double_range'
  | 'date_range'
  | 'ip_range'
  | 'completion'
  | 'join'
  | 'percolator';

export type ObjectType = 'object' | 'nested';

/** ES 7.10 x-pack types of the keyword family, mapped here as keywords (see parse-keyword-family.ts). */
export type KeywordFamily = 'constant_keyword' | 'wildcard';

export type Dynamic = true | false | 'strict';

/** A leaf field (or a multi-field under it). `path` is the full dotted name used in queries. */
export interface FieldMapping {
  readonly kind: 'field';
  readonly type: FieldType;
  /** Full dotted path, e.g. `user.name` or `title.keyword`. */
  readonly path: string;
  /** Leaf name, e.g. `keyword`. */
  readonly name: string;
  /** Searchable (inverted index / points). ES `index`. */
  readonly index: boolean;
  /** Columnar doc values for sorting and aggregations. ES `doc_values`. */
  readonly docValues: boolean;
  readonly store: boolean;
  /** text: `freqs`/`positions`/`offsets`/`docs`; keyword: `docs` by default. */
  readonly indexOptions: 'docs' | 'freqs' | 'positions' | 'offsets';
  readonly norms: boolean;
  readonly boost: number;
  /**
   * text: analyzer names, always set; `default` means the index's default analyzer (standard
   * unless the index configures one). token_count: its counting analyzer. completion: its
   * analyzers (default `simple`).
   */
  readonly analyzer?: string;
  readonly searchAnalyzer?: string;
  readonly searchQuoteAnalyzer?: string;
  readonly positionIncrementGap?: number;
  readonly fielddata?: boolean;
  /** keyword only. */
  readonly normalizer?: string;
  readonly ignoreAbove?: number;
  readonly splitQueriesOnWhitespace?: boolean;
  /**
   * The value indexed for a JSON `null`, as GET _mapping renders it: number (numbers,
   * token_count), string (keyword; date: the unparsed text), boolean, canonical ip string,
   * {lat, lon} (geo_point).
   */
  readonly nullValue?: unknown;
  /** numbers, scaled_float, ranges, geo_shape: resolved (index.mapping.coerce default true). */
  readonly coerce?: boolean;
  /** numbers, scaled_float, date, ip, geo_point, geo_shape: resolved (default false). */
  readonly ignoreMalformed?: boolean;
  /** date, date_range: ES date format string, always set (default `strict_date_optional_time||epoch_millis`). */
  readonly format?: string;
  /** date, date_range: locale as Java renders it (`en_US`); absent = ROOT. */
  readonly locale?: string;
  /** scaled_float. */
  readonly scalingFactor?: number;
  /** alias: target path. */
  readonly aliasPath?: string;
  /** `copy_to` targets (full paths). token_count keeps its counting analyzer in `analyzer`. */
  readonly copyTo: readonly string[];
  /** Multi-fields (ES `fields`), keyed by leaf name. */
  readonly fields: ReadonlyMap<string, FieldMapping>;
  /** The parameters as Elasticsearch renders them in GET _mapping (ES key order, defaults omitted). */
  readonly json: Record<string, unknown>;

  // ---- Less common parameters (all optional; absent = Elasticsearch default). ----
  /** `term_vector` (`no` when absent). */
  readonly termVector?: TermVector;
  /** `similarity` (absent = index default, BM25). */
  readonly similarity?: string;
  readonly eagerGlobalOrdinals?: boolean;
  /** text: `fielddata_frequency_filter`. */
  readonly fielddataFrequencyFilter?: {
    readonly min: number;
    readonly max: number;
    readonly minSegmentSize: number;
  };
  /** text: `index_prefixes`. */
  readonly indexPrefixes?: { readonly minChars: number; readonly maxChars: number };
  readonly indexPhrases?: boolean;
  /** token_count: `enable_position_increments` (default true). */
  readonly enablePositionIncrements?: boolean;
  /** geo_point / geo_shape: `ignore_z_value` (default true). */
  readonly ignoreZValue?: boolean;
  /** geo_shape: `orientation` and the legacy prefix-tree parameters, normalized. */
  readonly geoShape?: GeoShapeParams;
  /** completion: suggester settings (analyzer/searchAnalyzer hold its analyzers, default simple). */
  readonly completion?: CompletionParams;
  /** join: parent → children relations, in definition order (module parent-join). */
  readonly relations?: readonly JoinRelation[];
  /** Set on multi-fields (`title.keyword`): the full path of the field they belong to. */
  readonly parentField?: string;
  /** Parameters whose value ES tracks as "explicit" (rendered only when set): coerce, ignore_malformed, ignore_z_value. */
  readonly explicit?: ReadonlySet<'coerce' | 'ignore_malformed' | 'ignore_z_value'>;
  /** A keyword declared as `constant_keyword` or `wildcard` (ES 7.10): the type GET _mapping shows. */
  readonly keywordFamily?: KeywordFamily;
  /** constant_keyword: the value every document of the index has (unset until one is indexed). */
  readonly constantValue?: string;
  /** constant_keyword / wildcard: the field's `meta`. */
  readonly meta?: Readonly<Record<string, string>>;
}

/** One `relations` entry of a join field: a parent name and its child names. */
export interface JoinRelation {
  readonly parent: string;
  readonly children: readonly string[];
}

export type TermVector =
  | 'no'
  | 'yes'
  | 'with_offsets'
  | 'with_positions'
  | 'with_positions_offsets'
  | 'with_positions_payloads'
  | 'with_positions_offsets_payloads';

export interface CompletionParams {
  readonly preserveSeparators: boolean;
  readonly preservePositionIncrements: boolean;
  readonly maxInputLength: number;
  /** `contexts` as given (category/geo context mappings), rendered back unchanged. */
  readonly contexts?: readonly unknown[];
  /** The same context mappings, read (ES ContextMappings); their order gives each a type id. */
  readonly contextDefs?: readonly CompletionContextDef[];
}

/** One context mapping of a completion field: values from the document or a `path` field. */
export type CompletionContextDef =
  | { readonly kind: 'category'; readonly name: string; readonly path?: string }
  | {
      readonly kind: 'geo';
      readonly name: string;
      readonly path?: string;
      /** Geohash length contexts are filed under. */
      readonly precision: number;
    };

export interface GeoShapeParams {
  /** `right` (default, also ccw/counterclockwise) or `left` (cw/clockwise). */
  readonly orientation: 'right' | 'left';
  /** Present when any legacy prefix-tree parameter was given (ES LegacyGeoShapeFieldMapper). */
  readonly legacy?: {
    readonly tree: string;
    readonly treeLevels?: number;
    readonly precisionMeters?: number;
    readonly strategy: string;
    readonly distanceErrorPct?: number;
    readonly pointsOnly?: boolean;
  };
}

export interface ObjectMapping {
  readonly kind: 'object';
  readonly type: ObjectType;
  readonly path: string;
  readonly name: string;
  /** undefined = inherit from the parent. */
  readonly dynamic?: Dynamic;
  readonly enabled: boolean;
  /** nested only. */
  readonly includeInParent?: boolean;
  readonly includeInRoot?: boolean;
  /** Legacy `include_in_all` on objects (accepted and rendered by 6.8). */
  readonly includeInAll?: boolean;
  readonly properties: ReadonlyMap<string, FieldMapping | ObjectMapping>;
}

export interface DynamicTemplate {
  readonly name: string;
  readonly match?: string;
  readonly unmatch?: string;
  readonly pathMatch?: string;
  readonly pathUnmatch?: string;
  readonly matchMappingType?: string;
  readonly matchPattern?: 'simple' | 'regex';
  readonly mapping: Record<string, unknown>;
}

/** The mapping of an index's single type (ES 6.8: one type per index). */
export interface RootMapping extends ObjectMapping {
  readonly typeName: string;
  readonly dynamic: Dynamic;
  readonly dateDetection: boolean;
  readonly numericDetection: boolean;
  readonly dynamicDateFormats: readonly string[];
  readonly dynamicTemplates: readonly DynamicTemplate[];
  readonly source: {
    readonly enabled: boolean;
    readonly includes: readonly string[];
    readonly excludes: readonly string[];
  };
  readonly routingRequired: boolean;
  readonly meta?: Record<string, unknown>;
  /** `_field_names.enabled` (default true). */
  readonly fieldNamesEnabled: boolean;
  /** `_all.enabled` when given (6.x: only `false` is accepted). */
  readonly allEnabled?: boolean;
  /**
   * Which root-level settings were given explicitly. ES renders only those and, when merging an
   * update, only explicit ones replace the current value.
   */
  readonly explicit: RootExplicit;
  /** Every leaf field and multi-field by full path (aliases included). */
  readonly fieldsByPath: ReadonlyMap<string, FieldMapping>;
  /** Every object/nested mapping by full path. */
  readonly objectsByPath: ReadonlyMap<string, ObjectMapping>;
}

/**
 * One indexed value produced by parsing a document against a mapping. Values are already coerced
 * to the field's type:
 *   text, keyword (after ignore_above; normalizer NOT applied), binary → string
 *   long, integer, short, byte, double, float, half_float (rounded to half precision),
 *   scaled_float (value as given, the indexer scales), token_count → number
 *   date → epoch milliseconds (number)
 *   boolean → boolean
 *   ip → canonical string form (IPv4 dotted, IPv6 compressed)
 *   geo_point → {lat, lon}
 *   integer_range … ip_range → {gte, lte} (inclusive bounds)
 *   completion → {input, weight, contexts?}
 *   geo_shape → no value (the shape is kept in `_source` only)
 */
export type FieldValue = string | number | boolean | GeoPointValue | RangeValue | CompletionValue;

/** One completion suggestion input (truncated to max_input_length) with its weight. */
export interface CompletionValue {
  input: string;
  weight: number;
  /** Context values by context name, when the mapping defines contexts. */
  contexts?: Record<string, string[]>;
}

export interface GeoPointValue {
  lat: number;
  lon: number;
}

/**
 * A range field value with both bounds inclusive (ES RangeFieldMapper normalizes `gt`/`lt` to the
 * next/previous representable value). Numbers for integer/long/float/double/date ranges (dates in
 * epoch ms), canonical address strings for ip_range.
 */
export interface RangeValue {
  gte: number | string;
  lte: number | string;
}

export interface RootExplicit {
  readonly dynamic: boolean;
  readonly dateDetection: boolean;
  readonly numericDetection: boolean;
  readonly dynamicDateFormats: boolean;
  readonly dynamicTemplates: boolean;
  readonly source: boolean;
  readonly routing: boolean;
  readonly fieldNames: boolean;
  readonly all: boolean;
}

export interface ParsedValue {
  readonly field: FieldMapping;
  readonly value: FieldValue;
}

export interface ParsedDocument {
  /** One entry per value, in document order; multi-fields and copy_to targets included. */
  readonly values: ParsedValue[];
  /** Paths of fields and objects the document holds (for `exists` on objects and `_field_names`). */
  readonly fieldNames: ReadonlySet<string>;
  /** Fields present without an indexed value (geo_shape): they still count for `_field_names`. */
  readonly present: readonly string[];
  /** Set when the document introduced new fields under dynamic mapping: the merged new mapping. */
  readonly dynamicUpdate: RootMapping | null;
  /** Fields whose value was malformed and skipped because of `ignore_malformed` (ES `_ignored`). */
  readonly ignored: readonly string[];
  /**
   * Nested documents (for `nested` fields), each with its own values, in document order. A nested
   * document's own nested children are in its `nested` (a tree, not ES's flat Lucene block).
   */
  readonly nested: readonly { readonly path: string; readonly doc: ParsedDocument }[];
}
