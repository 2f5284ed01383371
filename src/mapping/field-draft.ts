/**
 * The mutable state of one field mapping being parsed (ES FieldMapper.Builder plus the type's
 * builder) and its resolution into an immutable FieldDef with the type's defaults
 * (ES Builder.build / setupFieldType).
 */
import type { FieldType, TermVector } from './types.js';
import type { MappingContext } from './context.js';
import type { FieldCore, FieldDef, IndexOptions } from './model.js';
import { DEFAULT_DATE_FORMAT, NUMBER_TYPES, RANGE_TYPES, TYPE_DEFAULTS } from './model.js';
import { mapperParsing } from './errors.js';
import { fieldBooleanValue } from './node-values.js';

export type Node = Map<string, unknown>;

export interface ParserCtx {
  readonly ctx: MappingContext;
  readonly withinMultiField: boolean;
  /** Dynamic-template mappings: ES does not check them for unsupported parameters. */
  readonly lenient: boolean;
  /** Parses a nested field mapping (multi-fields); supplied by parse-mapping.ts. */
  readonly parseMultiField: (name: string, node: Node, pc: ParserCtx) => FieldDef;
}

export type IndexOpt = IndexOptions | 'none';
export const OPT_RANK: Record<IndexOpt, number> = {
  none: 0,
  docs: 1,
  freqs: 2,
  positions: 3,
  offsets: 4,
};

/** Mutable builder state (ES FieldMapper.Builder + the type's builder). */
export interface Draft {
  type: FieldType;
  name: string;
  opts: IndexOpt;
  defaultOpts: IndexOpt;
  store: boolean;
  docValues?: boolean;
  boost: number;
  omitNorms?: boolean;
  tv: { vectors: boolean; positions: boolean; offsets: boolean; payloads: boolean };
  similarity?: string;
  eagerGlobalOrdinals: boolean;
  copyTo: string[];
  multi: Map<string, FieldDef>;
  core: Partial<Record<keyof FieldCore, unknown>>;
  explicit: Set<'coerce' | 'ignore_malformed' | 'ignore_z_value'>;
}

export function newDraft(type: FieldType, name: string): Draft {
  const d = TYPE_DEFAULTS[type];
  const opts: IndexOpt = d.index ? d.indexOptions : 'none';
  return {
    type,
    name,
    opts,
    defaultOpts: opts,
    store: false,
    boost: 1,
    tv: { vectors: false, positions: false, offsets: false, payloads: false },
    eagerGlobalOrdinals: false,
    copyTo: [],
    multi: new Map(),
    core: {},
    explicit: new Set(),
  };
}

export const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function isFieldType(t: string): t is FieldType {
  return t in TYPE_DEFAULTS;
}

/** ES FieldMapper.termVectorOptionsToString. */
export function termVectorString(tv: Draft['tv']): TermVector {
  if (!tv.vectors) return 'no';
  if (!tv.offsets && !tv.positions) return 'yes';
  if (tv.offsets && !tv.positions) return 'with_offsets';
  let s = 'with';
  if (tv.positions) s += '_positions';
  if (tv.offsets) s += '_offsets';
  if (tv.payloads) s += '_payloads';
  return s as TermVector;
}

export function nullValueNotNull(v: unknown): void {
  if (v === null) throw mapperParsing('Property [null_value] cannot be null.');
}

export function explicitBool(
  d: Draft,
  key: 'coerce' | 'ignore_malformed' | 'ignore_z_value',
  v: unknown,
): boolean {
  d.explicit.add(key);
  return fieldBooleanValue(d.name, key, v);
}

/** Resolves defaults into the immutable definition (ES Builder.build/setupFieldType). */
export function finishDraft(d: Draft, ctx: MappingContext): FieldDef {
  const t = TYPE_DEFAULTS[d.type];
  const c = d.core;
  const core: Record<string, unknown> = {
    type: d.type,
    index: d.opts !== 'none',
    docValues: d.docValues ?? t.docValues,
    store: d.store,
    indexOptions: d.opts === 'none' ? t.indexOptions : d.opts,
    norms: d.omitNorms === undefined ? t.norms : !d.omitNorms,
    boost: d.boost,
    copyTo: d.copyTo,
  };
  const tv = termVectorString(d.tv);
  if (tv !== 'no') core.termVector = tv;
  if (d.similarity !== undefined) core.similarity = d.similarity;
  if (d.eagerGlobalOrdinals) core.eagerGlobalOrdinals = true;
  for (const [k, v] of Object.entries(c)) if (v !== undefined) core[k] = v;
  // defaults ES resolves from index settings or type defaults
  if (NUMBER_TYPES.has(d.type) || d.type === 'scaled_float' || RANGE_TYPES.has(d.type)) {
    core.coerce ??= ctx.coerceDefault ?? true;
  }
  if (
    NUMBER_TYPES.has(d.type) ||
    d.type === 'scaled_float' ||
    d.type === 'date' ||
    d.type === 'ip' ||
    d.type === 'geo_point'
  ) {
    core.ignoreMalformed ??= ctx.ignoreMalformedDefault ?? false;
  }
  if (d.type === 'geo_point') core.ignoreZValue ??= true;
  if (d.type === 'geo_shape' || d.type === 'shape') {
    core.coerce ??= false;
    core.ignoreMalformed ??= false;
    core.ignoreZValue ??= true;
  }
  if (d.type === 'date' || d.type === 'date_range') core.format ??= DEFAULT_DATE_FORMAT;
  if (d.type === 'token_count') core.enablePositionIncrements ??= true;
  if (d.explicit.size > 0) core.explicit = new Set(d.explicit);
  return { kind: 'field', name: d.name, core: core as unknown as FieldCore, fields: d.multi };
}
