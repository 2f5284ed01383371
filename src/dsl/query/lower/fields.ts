/**
 * Field resolution (ES QueryShardContext.fieldMapper): mapped fields by path with aliases
 * resolved, and the metadata fields (`_id`, `_index`, `_type`, `_routing`, ...). Also the shared
 * `failIfNotIndexed` check and query_shard_exception construction.
 */
import { EsError, queryShardException } from '../../../common/errors.js';
import type { FieldMapping } from '../../../mapping/types.js';
import { illegalArgument } from '../errors.js';
import type { IndexQueryContext, LowerState } from './context.js';

export type MetaName =
  | '_id'
  | '_uid'
  | '_index'
  | '_type'
  | '_routing'
  | '_field_names'
  | '_seq_no'
  | '_version'
  | '_source'
  | '_ignored'
  | '_all';

const META: ReadonlySet<string> = new Set<MetaName>([
  '_id',
  '_uid',
  '_index',
  '_type',
  '_routing',
  '_field_names',
  '_seq_no',
  '_version',
  '_source',
  '_ignored',
  '_all',
]);

export interface MappedField {
  /** The indexed field name (an alias resolves to its target). */
  readonly name: string;
  /** ES MappedFieldType.typeName(). */
  readonly typeName: string;
  readonly mapping: FieldMapping | null;
  readonly meta: MetaName | null;
}

/** ES `context.fieldMapper(name)`: null for unmapped fields (objects included). */
export function fieldMapper(ctx: IndexQueryContext, name: string): MappedField | null {
  if (META.has(name)) {
    return { name, typeName: name, mapping: null, meta: name as MetaName };
  }
  let f = ctx.field(name);
  if (f && f.type === 'alias') f = f.aliasPath ? ctx.field(f.aliasPath) : undefined;
  if (!f) return null;
  return { name: f.path, typeName: f.type, mapping: f, meta: null };
}

/** QueryShardException bound to the index. */
export function shardError(st: LowerState, reason: string, causedBy?: EsError): EsError {
  const e = queryShardException(reason, st.ctx.index, st.ctx.indexUuid);
  if (!causedBy) return e;
  return new EsError(e.type, e.reason, e.status, { meta: e.meta, causedBy });
}

/** MappedFieldType.failIfNotIndexed. */
export function failIfNotIndexed(f: MappedField): void {
  if (f.mapping && !f.mapping.index) {
    throw illegalArgument(`Cannot search on field [${f.name}] since it is not indexed.`);
  }
}

export const isNumberType = (t: string): boolean =>
  t === 'long' ||
  t === 'integer' ||
  t === 'short' ||
  t === 'byte' ||
  t === 'double' ||
  t === 'float' ||
  t === 'half_float' ||
  t === 'scaled_float' ||
  t === 'token_count';

export const isRangeType = (t: string): boolean => t.endsWith('_range');

/** ES StringFieldType (text and keyword) — the types prefix/wildcard/regexp/fuzzy accept. */
export const isStringType = (f: MappedField): boolean =>
  f.mapping !== null && (f.mapping.type === 'text' || f.mapping.type === 'keyword');
