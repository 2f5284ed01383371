/**
 * GET _mapping/field/{fields} over index metadata (ES 6.8 TransportGetFieldMappingsIndexAction,
 * GetFieldMappingsResponse, RestGetFieldMappingAction): which mappers of each index's type match
 * the requested field names or patterns, rendered as `{full_name, mapping}`.
 */
import { fieldMappingToJson, type RootMapping } from '../mapping/index.js';
import { simpleMatch } from './index-names.js';

/** One concrete index as these APIs see it: its name and its parsed mapping (null: none yet). */
export interface IndexMappingView {
  readonly name: string;
  readonly mapping: RootMapping | null;
}

export interface FieldMappingsRequest {
  /** Type patterns; empty means every type. */
  readonly types: readonly string[];
  /** Field names or `*` patterns. */
  readonly fields: readonly string[];
  readonly includeDefaults: boolean;
  /** ES probablySingleFieldRequest: one index, one type, one field (a missing field is kept). */
  readonly probablySingleField: boolean;
}

/** `{full_name, mapping}`, or null for the missing field of a probable single-field request. */
export type FieldMappingEntry = Readonly<Record<string, unknown>> | null;

/** index → type → field → entry. An index whose per-index request failed is absent. */
export type FieldMappingsResult = ReadonlyMap<
  string,
  ReadonlyMap<string, ReadonlyMap<string, FieldMappingEntry>>
>;

/** ES 6.8 IndicesModule's built-in metadata mappers, all present in every type. */
export const METADATA_FIELDS: readonly string[] = [
  '_ignored',
  '_uid',
  '_id',
  '_routing',
  '_index',
  '_source',
  '_type',
  '_all',
  '_version',
  '_parent',
  '_seq_no',
  '_field_names',
];

/** Every mapper name of a type (DocumentFieldMappers): fields, multi-fields, aliases, metadata. */
function mapperNames(root: RootMapping): string[] {
  return [...root.fieldsByPath.keys(), ...METADATA_FIELDS];
}

/**
 * The field mappings of one index, or null when the request names types and none matches (ES
 * TypeMissingException, which the transport action drops with the index).
 */
export function indexFieldMappings(
  index: IndexMappingView,
  req: FieldMappingsRequest,
): Map<string, Map<string, FieldMappingEntry>> | null {
  const root = index.mapping;
  const types = root === null ? [] : [root.typeName];
  const matching =
    req.types.length === 0 ? types : types.filter((t) => req.types.some((p) => simpleMatch(p, t)));
  if (req.types.length > 0 && matching.length === 0) return null;
  const out = new Map<string, Map<string, FieldMappingEntry>>();
  if (root === null || matching.length === 0) return out;
  const fields = new Map<string, FieldMappingEntry>();
  const add = (name: string) => {
    if (fields.has(name)) return;
    const entry = fieldMappingToJson(root, name, req.includeDefaults);
    if (entry !== null) fields.set(name, entry);
  };
  for (const field of req.fields) {
    if (field.includes('*')) {
      for (const name of mapperNames(root)) if (simpleMatch(field, name)) add(name);
    } else if (fieldMappingToJson(root, field) !== null) {
      add(field);
    } else if (req.probablySingleField) {
      fields.set(field, null);
    }
  }
  if (fields.size > 0) out.set(root.typeName, fields);
  return out;
}

/** ES TransportGetFieldMappingsAction: every index's answer, failed indices left out. */
export function getFieldMappings(
  indices: readonly IndexMappingView[],
  req: Omit<FieldMappingsRequest, 'probablySingleField'>,
): FieldMappingsResult {
  const probablySingleField =
    indices.length === 1 && req.types.length === 1 && req.fields.length === 1;
  const out = new Map<string, Map<string, Map<string, FieldMappingEntry>>>();
  for (const index of indices) {
    const r = indexFieldMappings(index, { ...req, probablySingleField });
    if (r !== null) out.set(index.name, r);
  }
  return out;
}

export interface FieldMappingsRendering {
  /** The request's own index, type and field lists (ES isPossibleSingleFieldRequest). */
  readonly requested: { indices: number; types: number; fields: number };
  readonly includeTypeName: boolean;
}

/**
 * RestGetFieldMappingAction's answer: `{}` when a possible single-field request found a missing
 * field, 404 when no index answered, otherwise index → mappings → [type →] field → entry.
 */
export function renderFieldMappings(
  result: FieldMappingsResult,
  opts: FieldMappingsRendering,
): { status: number; body: Record<string, unknown> } {
  const { indices, types, fields } = opts.requested;
  if (indices === 1 && types === 1 && fields === 1 && result.size === 1) {
    for (const byType of result.values())
      for (const byField of byType.values())
        for (const e of byField.values()) if (e === null) return { status: 200, body: {} };
  }
  const body: Record<string, unknown> = {};
  for (const [index, byType] of result) {
    const mappings: Record<string, unknown> = {};
    for (const [type, byField] of byType) {
      if (opts.includeTypeName) mappings[type] = fieldsJson(byField);
      else if (type !== '_default_') Object.assign(mappings, fieldsJson(byField));
    }
    body[index] = { mappings };
  }
  return { status: result.size === 0 && fields > 0 ? 404 : 200, body };
}

function fieldsJson(byField: ReadonlyMap<string, FieldMappingEntry>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, e] of byField) out[name] = e ?? { full_name: '', mapping: {} };
  return out;
}
