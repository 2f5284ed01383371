/**
 * Path-free mapping definitions: what parsing produces and merging combines (ES Mapper.Builder
 * trees). `build.ts` turns a RootDef into the public RootMapping (full paths, lookups, rendered
 * JSON, precomputed document-parsing data).
 */
import type { Dynamic, FieldMapping, FieldType, DynamicTemplate, ObjectType } from './types.js';

/** Every FieldMapping property that does not depend on where the field sits. */
export type FieldCore = Omit<
  FieldMapping,
  'kind' | 'path' | 'name' | 'fields' | 'json' | 'parentField'
>;

export interface FieldDef {
  readonly kind: 'field';
  readonly name: string;
  readonly core: FieldCore;
  /** Multi-fields by leaf name, in definition order. */
  readonly fields: ReadonlyMap<string, FieldDef>;
}

export interface ObjectDef {
  readonly kind: 'object';
  readonly name: string;
  readonly type: ObjectType;
  /** undefined: inherit. */
  readonly dynamic?: Dynamic;
  readonly enabled: boolean;
  readonly includeInParent: boolean;
  readonly includeInRoot: boolean;
  readonly includeInAll?: boolean;
  readonly properties: ReadonlyMap<string, Def>;
}

export type Def = FieldDef | ObjectDef;

/** A root-level setting that is rendered and merged only when given (ES `Explicit<T>`). */
export interface Explicit<T> {
  readonly value: T;
  readonly explicit: boolean;
}

export interface RootDef extends ObjectDef {
  readonly typeName: string;
  readonly dateDetection: Explicit<boolean>;
  readonly numericDetection: Explicit<boolean>;
  readonly dynamicDateFormats: Explicit<readonly string[]>;
  readonly dynamicTemplates: Explicit<readonly DynamicTemplate[]>;
  /** Metadata fields; undefined when the mapping did not mention them. */
  readonly source?: {
    enabled: boolean;
    includes?: readonly string[];
    excludes?: readonly string[];
  };
  readonly routing?: { required: boolean };
  readonly fieldNames?: { enabled: boolean };
  readonly all?: { enabled: boolean };
  readonly meta?: Record<string, unknown>;
}

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
/** ES RootObjectMapper.Defaults.DYNAMIC_DATE_TIME_FORMATTERS (their patterns). */
export const DEFAULT_DYNAMIC_DATE_FORMATS: readonly string[] = [
  DEFAULT_DATE_FORMAT,
  'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis',
];

export type IndexOptions = 'docs' | 'freqs' | 'positions' | 'offsets';

/** Per-type defaults of the Lucene field type (ES `Defaults.FIELD_TYPE` of each mapper). */
export interface TypeDefaults {
  readonly index: boolean;
  readonly docValues: boolean;
  readonly norms: boolean;
  readonly indexOptions: IndexOptions;
}

const NUMERIC_DEFAULTS: TypeDefaults = {
  index: true,
  docValues: true,
  norms: false,
  indexOptions: 'positions',
};

export const TYPE_DEFAULTS: Readonly<Record<FieldType, TypeDefaults>> = {
  text: { index: true, docValues: false, norms: true, indexOptions: 'positions' },
  keyword: { index: true, docValues: true, norms: false, indexOptions: 'docs' },
  long: NUMERIC_DEFAULTS,
  integer: NUMERIC_DEFAULTS,
  short: NUMERIC_DEFAULTS,
  byte: NUMERIC_DEFAULTS,
  double: NUMERIC_DEFAULTS,
  float: NUMERIC_DEFAULTS,
  half_float: NUMERIC_DEFAULTS,
  scaled_float: NUMERIC_DEFAULTS,
  token_count: NUMERIC_DEFAULTS,
  date: NUMERIC_DEFAULTS,
  boolean: { index: true, docValues: true, norms: false, indexOptions: 'docs' },
  ip: { index: true, docValues: true, norms: true, indexOptions: 'positions' },
  binary: { index: false, docValues: false, norms: true, indexOptions: 'positions' },
  geo_point: { index: true, docValues: true, norms: true, indexOptions: 'positions' },
  geo_shape: { index: true, docValues: false, norms: true, indexOptions: 'positions' },
  shape: { index: true, docValues: false, norms: true, indexOptions: 'positions' },
  alias: { index: false, docValues: false, norms: false, indexOptions: 'docs' },
  integer_range: NUMERIC_DEFAULTS,
  long_range: NUMERIC_DEFAULTS,
  float_range: NUMERIC_DEFAULTS,
  double_range: NUMERIC_DEFAULTS,
  date_range: NUMERIC_DEFAULTS,
  ip_range: NUMERIC_DEFAULTS,
  completion: { index: true, docValues: false, norms: true, indexOptions: 'positions' },
  join: { index: true, docValues: true, norms: false, indexOptions: 'docs' },
  percolator: { index: false, docValues: false, norms: false, indexOptions: 'docs' },
};

export const NUMBER_TYPES: ReadonlySet<FieldType> = new Set([
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
]);

export const RANGE_TYPES: ReadonlySet<FieldType> = new Set([
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range',
  'ip_range',
  'completion',
  'join',
  'percolator',
]);

/** The type names the 6.8 distribution registers (server + mapper-extras), besides objects. */
export const KNOWN_TYPES: ReadonlySet<string> = new Set<FieldType>([
  'text',
  'keyword',
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
  'ip',
  'binary',
  'geo_point',
  'geo_shape',
  // x-pack spatial's cartesian shape (7.x), needed by the SQL geo data sets
  'shape',
  'token_count',
  'alias',
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range',
  'ip_range',
  'completion',
]);
