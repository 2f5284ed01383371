/**
 * `_field_caps` over index metadata (ES 6.8 TransportFieldCapabilitiesIndexAction and the merge
 * of TransportFieldCapabilitiesAction / FieldCapabilities.Builder): each index reports the type,
 * searchability and aggregatability of the fields matching the requested names or patterns and
 * the objects above them; the merge groups them by field and type across indices.
 */
import type { FieldMapping, RootMapping } from '../mapping/index.js';
import type { IndexMappingView } from './field-mappings.js';
import { METADATA_FIELDS } from './field-mappings.js';
import { simpleMatch } from './index-names.js';

export interface FieldCap {
  readonly type: string;
  readonly searchable: boolean;
  readonly aggregatable: boolean;
}

/**
 * ES 6.8's metadata field types in a single-type index: MappedFieldType.isSearchable (indexed, or
 * always for _id, _index, _type) and isAggregatable (whether the type builds fielddata).
 */
const METADATA_CAPS: Readonly<Record<string, readonly [boolean, boolean]>> = {
  _ignored: [true, false],
  _uid: [false, true],
  _id: [true, true],
  _routing: [true, false],
  _index: [true, true],
  _source: [false, false],
  _type: [true, true],
  _all: [true, false],
  _version: [false, false],
  _parent: [false, true],
  _seq_no: [true, true],
  _field_names: [true, false],
};

/** ES MappedFieldType.typeName / isSearchable / isAggregatable of one mapped field. */
export function fieldCap(f: FieldMapping): FieldCap {
  switch (f.type) {
    case 'text':
      return { type: 'text', searchable: f.index, aggregatable: f.fielddata === true };
    case 'token_count':
      // a token_count field's type is ES's integer number type
      return { type: 'integer', searchable: f.index, aggregatable: f.docValues };
    case 'binary':
      return { type: 'binary', searchable: false, aggregatable: f.docValues };
    case 'integer_range':
    case 'long_range':
    case 'float_range':
    case 'double_range':
    case 'date_range':
    case 'ip_range':
      return { type: f.type, searchable: f.index, aggregatable: false };
    case 'geo_shape':
    case 'shape':
    case 'completion':
      return { type: f.type, searchable: true, aggregatable: false };
    default:
      return { type: f.type, searchable: f.index, aggregatable: f.docValues };
  }
}

/** ES MapperService.fullName: the field type behind a name (an alias gives its target's). */
function fieldTypeOf(root: RootMapping, name: string): { path: string; cap: FieldCap } | null {
  const meta = METADATA_CAPS[name];
  if (meta !== undefined) {
    return { path: name, cap: { type: name, searchable: meta[0], aggregatable: meta[1] } };
  }
  let f = root.fieldsByPath.get(name);
  if (f?.type === 'alias') f = root.fieldsByPath.get(f.aliasPath!);
  return f === undefined ? null : { path: f.path, cap: fieldCap(f) };
}

/** ES MapperService.simpleMatchToFullName: concrete, multi, alias and metadata field names. */
function matchFullNames(root: RootMapping, pattern: string): string[] {
  if (!pattern.includes('*')) return [pattern];
  const names = [...root.fieldsByPath.keys(), ...METADATA_FIELDS];
  return names.filter((n) => simpleMatch(pattern, n));
}

/** One index's answer: field name → capabilities, with the objects above each field. */
export function indexFieldCaps(
  root: RootMapping | null,
  fields: readonly string[],
): Map<string, FieldCap> {
  const out = new Map<string, FieldCap>();
  if (root === null) return out;
  const names = new Set<string>();
  for (const f of fields) for (const n of matchFullNames(root, f)) names.add(n);
  for (const name of names) {
    const ft = fieldTypeOf(root, name);
    if (ft === null) continue;
    out.set(name, ft.cap);
    // the objects and nested objects the field sits in, up to the first already reported
    for (let dot = ft.path.lastIndexOf('.'); dot > -1;) {
      const parent = ft.path.slice(0, dot);
      if (out.has(parent)) break;
      if (fieldTypeOf(root, parent) === null) {
        const obj = root.objectsByPath.get(parent);
        if (obj !== undefined) {
          const type = obj.type === 'nested' ? 'nested' : 'object';
          out.set(parent, { type, searchable: false, aggregatable: false });
        }
      }
      dot = parent.lastIndexOf('.');
    }
  }
  return out;
}

/** The merged answer for one field and type (FieldCapabilities as ES renders it). */
export interface MergedFieldCap {
  readonly type: string;
  readonly searchable: boolean;
  readonly aggregatable: boolean;
  /** Present only when the field has more than one type across indices. */
  readonly indices?: readonly string[];
  /** Present only when searchable in some of these indices and not in others. */
  readonly non_searchable_indices?: readonly string[];
  readonly non_aggregatable_indices?: readonly string[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** ES TransportFieldCapabilitiesAction.merge: field → type → merged capabilities. */
export function fieldCaps(
  indices: readonly IndexMappingView[],
  fields: readonly string[],
): Record<string, Record<string, MergedFieldCap>> {
  const perField = new Map<string, Map<string, Array<{ index: string; cap: FieldCap }>>>();
  for (const index of indices) {
    for (const [field, cap] of indexFieldCaps(index.mapping, fields)) {
      let types = perField.get(field);
      if (types === undefined) perField.set(field, (types = new Map()));
      let list = types.get(cap.type);
      if (list === undefined) types.set(cap.type, (list = []));
      list.push({ index: index.name, cap });
    }
  }
  const out: Record<string, Record<string, MergedFieldCap>> = {};
  for (const [field, types] of perField) {
    const multiTypes = types.size > 1;
    const merged: Record<string, MergedFieldCap> = {};
    for (const [type, list] of types) {
      list.sort((a, b) => byName(a.index, b.index));
      const searchable = list.every((e) => e.cap.searchable);
      const aggregatable = list.every((e) => e.cap.aggregatable);
      const m: {
        type: string;
        searchable: boolean;
        aggregatable: boolean;
        indices?: string[];
        non_searchable_indices?: string[];
        non_aggregatable_indices?: string[];
      } = { type, searchable, aggregatable };
      if (multiTypes) m.indices = list.map((e) => e.index);
      if (!searchable && list.some((e) => e.cap.searchable))
        m.non_searchable_indices = list.filter((e) => !e.cap.searchable).map((e) => e.index);
      if (!aggregatable && list.some((e) => e.cap.aggregatable))
        m.non_aggregatable_indices = list.filter((e) => !e.cap.aggregatable).map((e) => e.index);
      merged[type] = m;
    }
    out[field] = merged;
  }
  return out;
}
