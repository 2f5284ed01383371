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
  | 'token_count'
  | 'alias'
  | 'integer_range'
  | 'long_range'
  | 'float_range'
  | 'double_range'
  | 'date_range'
  | 'ip_range';

export type ObjectType = 'object' | 'nested';

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
  /** text only: analyzer names (already defaulted: `default` index analyzer is `standard`). */
  readonly analyzer?: string;
  readonly searchAnalyzer?: string;
  readonly searchQuoteAnalyzer?: string;
  readonly positionIncrementGap?: number;
  readonly fielddata?: boolean;
  /** keyword only. */
  readonly normalizer?: string;
  readonly ignoreAbove?: number;
  readonly splitQueriesOnWhitespace?: boolean;
  /** numbers, dates, ip, boolean, keyword: the value indexed when the document has `null`. */
  readonly nullValue?: unknown;
  readonly coerce?: boolean;
  readonly ignoreMalformed?: boolean;
  /** date: ES date format string (default `strict_date_optional_time||epoch_millis`). */
  readonly format?: string;
  /** date: locale for parsing/formatting. */
  readonly locale?: string;
  /** scaled_float. */
  readonly scalingFactor?: number;
  /** alias: target path. */
  readonly aliasPath?: string;
  /** token_count: analyzer counting tokens. */
  readonly copyTo: readonly string[];
  /** Multi-fields (ES `fields`), keyed by leaf name. */
  readonly fields: ReadonlyMap<string, FieldMapping>;
  /** The parameters as Elasticsearch renders them in GET _mapping (user-given, in order). */
  readonly json: Record<string, unknown>;
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
 */
export type FieldValue = string | number | boolean | { lat: number; lon: number };

export interface ParsedValue {
  readonly field: FieldMapping;
  readonly value: FieldValue;
}

export interface ParsedDocument {
  /** One entry per value, in document order; multi-fields and copy_to targets included. */
  readonly values: ParsedValue[];
  /** Paths of fields and objects the document holds (for `exists` on objects and `_field_names`). */
  readonly fieldNames: ReadonlySet<string>;
  /** Set when the document introduced new fields under dynamic mapping: the merged new mapping. */
  readonly dynamicUpdate: RootMapping | null;
  /** Fields whose value was malformed and skipped because of `ignore_malformed` (ES `_ignored`). */
  readonly ignored: readonly string[];
  /** Nested documents (for `nested` fields), each with its own values, in order. */
  readonly nested: readonly { readonly path: string; readonly doc: ParsedDocument }[];
}
