/**
 * What SQL sees of an index (ES ql `EsIndex` / `EsField` built by `IndexResolver` from field
 * capabilities): a tree of fields with their SQL types, sorted by name (ES keeps a TreeMap),
 * multi-fields as children of their field, `exact` information for text fields (their keyword
 * sub-field), unsupported types and fields whose mapping conflicts across indices.
 */
import { fromEsType } from '../types/es-mapping.js';
import type { DataTypeName } from '../../functions/data-types.js';
import type { FieldMapping, ObjectMapping, RootMapping } from '../../mapping/types.js';

/** ES `EsField.Exact`: whether an exact (not analyzed) variant of the field exists. */
export interface Exact {
  readonly hasExact: boolean;
  /** The field to use for exact matching (the keyword sub-field of a text field). */
  readonly exactName: string | null;
  readonly errorMsg: string | null;
}

export interface EsField {
  /** Full dotted path (`first_name.keyword`). */
  readonly name: string;
  /** Last path segment. */
  readonly leaf: string;
  readonly dataType: DataTypeName;
  /** The mapping type (`text`, `date`, `long`...), for unsupported-type messages. */
  readonly esType: string;
  /** Has doc values (ES field caps `aggregatable`). */
  readonly aggregatable: boolean;
  readonly isAlias: boolean;
  /** Sub-fields (multi-fields) or object properties, sorted by leaf name. */
  readonly properties: readonly EsField[];
  readonly exact: Exact;
  /** ES UnsupportedEsField.getInherited: the unsupported ancestor this field inherits from. */
  readonly unsupportedInherited: string | null;
  /** ES InvalidMappedField: the conflict message, or null. */
  readonly invalid: string | null;
}

export interface EsIndex {
  /** The index pattern as written (ES names the merged index after it). */
  readonly name: string;
  /** Top-level fields, sorted. */
  readonly fields: readonly EsField[];
  /** The concrete indices behind the pattern. */
  readonly concreteIndices: readonly string[];
}

/** One concrete index's mapping, as the catalog hands it over. */
export interface IndexMappingInfo {
  readonly name: string;
  readonly mapping: RootMapping | null;
}

const byLeaf = (a: { leaf: string }, b: { leaf: string }) =>
  a.leaf < b.leaf ? -1 : a.leaf > b.leaf ? 1 : 0;

const EXACT_SELF: Exact = { hasExact: true, exactName: null, errorMsg: null };

function textExact(name: string, subs: readonly EsField[]): Exact {
  let found: EsField | null = null;
  for (const p of subs) {
    if ((p.dataType === 'KEYWORD' || p.dataType === 'CONSTANT_KEYWORD') && p.exact.hasExact) {
      if (found !== null) {
        return {
          hasExact: false,
          exactName: null,
          errorMsg: `Multiple exact keyword candidates available for [${name}]; specify which one to use`,
        };
      }
      found = p;
    }
  }
  if (found === null) {
    return {
      hasExact: false,
      exactName: null,
      errorMsg: `No keyword/multi-field defined exact matches for [${name}]; define one or use MATCH/QUERY instead`,
    };
  }
  return { hasExact: true, exactName: found.name, errorMsg: null };
}

/** The SQL type of a mapping type (ES DataTypeRegistry.fromEs; token_count is an integer). */
function sqlTypeOf(esType: string): DataTypeName {
  if (esType === 'object') return 'OBJECT';
  if (esType === 'nested') return 'NESTED';
  return fromEsType(esType);
}

interface Built {
  field: EsField;
}

function buildLeaf(
  f: FieldMapping,
  root: RootMapping,
  inherited: string | null,
  aliasTarget?: FieldMapping,
): EsField {
  const target = aliasTarget ?? f;
  const esType = target.type;
  const dataType: DataTypeName = inherited !== null ? 'UNSUPPORTED' : sqlTypeOf(esType);
  const unsupportedHere = dataType === 'UNSUPPORTED';
  const childInherited = inherited ?? (unsupportedHere ? f.path : null);
  const subs = [...f.fields.values()]
    .map((sub) => buildLeaf(sub, root, childInherited))
    .sort(byLeaf);
  const aggregatable =
    dataType === 'TEXT'
      ? target.fielddata === true
      : target.docValues && dataType !== 'UNSUPPORTED';
  return {
    name: f.path,
    leaf: f.name,
    dataType,
    esType,
    aggregatable,
    isAlias: aliasTarget !== undefined,
    properties: subs,
    exact: dataType === 'TEXT' ? textExact(f.path, subs) : EXACT_SELF,
    unsupportedInherited: inherited,
    invalid: null,
  };
}

function buildObject(o: ObjectMapping, root: RootMapping): EsField {
  return {
    name: o.path,
    leaf: o.name,
    dataType: o.type === 'nested' ? 'NESTED' : 'OBJECT',
    esType: o.type,
    aggregatable: false,
    isAlias: false,
    properties: buildProps(o.properties, root),
    exact: EXACT_SELF,
    unsupportedInherited: null,
    invalid: null,
  };
}

function buildProps(
  props: ReadonlyMap<string, FieldMapping | ObjectMapping>,
  root: RootMapping,
): EsField[] {
  const out: Built[] = [];
  for (const p of props.values()) {
    if (p.kind === 'object') out.push({ field: buildObject(p, root) });
    else if (p.type === 'alias') {
      const target = p.aliasPath ? root.fieldsByPath.get(p.aliasPath) : undefined;
      if (target) out.push({ field: buildLeaf(p, root, null, target) });
    } else out.push({ field: buildLeaf(p, root, null) });
  }
  return out.map((b) => b.field).sort(byLeaf);
}

/** The fields of one concrete index. */
export function fieldsOfMapping(mapping: RootMapping | null): EsField[] {
  return mapping ? buildProps(mapping.properties, mapping) : [];
}

/**
 * ES IndexResolver.mergedMappings: one EsIndex over every concrete index of a pattern. A field
 * mapped with different types becomes invalid ("mapped as [2] incompatible types: [keyword] in
 * [a], [long] in [b]"); a field aggregatable in some indices only is invalid as well.
 */
export function mergeIndices(pattern: string, indices: readonly IndexMappingInfo[]): EsIndex {
  const perIndex = indices.map((i) => ({ name: i.name, fields: fieldsOfMapping(i.mapping) }));
  return {
    name: pattern,
    fields: mergeLevel(perIndex),
    concreteIndices: indices.map((i) => i.name),
  };
}

function mergeLevel(
  perIndex: ReadonlyArray<{ name: string; fields: readonly EsField[] }>,
): EsField[] {
  const byName = new Map<string, Array<{ index: string; field: EsField }>>();
  for (const idx of perIndex) {
    for (const f of idx.fields) {
      let list = byName.get(f.leaf);
      if (!list) byName.set(f.leaf, (list = []));
      list.push({ index: idx.name, field: f });
    }
  }
  const out: EsField[] = [];
  for (const list of byName.values()) out.push(mergeField(list));
  return out.sort(byLeaf);
}

function mergeField(list: ReadonlyArray<{ index: string; field: EsField }>): EsField {
  const first = list[0]!.field;
  if (list.length === 1) return first;
  const types = new Map<string, string[]>();
  for (const { index, field } of list) {
    const key = field.esType;
    let l = types.get(key);
    if (!l) types.set(key, (l = []));
    l.push(index);
  }
  const children = mergeLevel(list.map((x) => ({ name: x.index, fields: x.field.properties })));
  let invalid: string | null = null;
  const compatibleKeywords = types.has('keyword') && types.has('constant_keyword');
  if (types.size > (compatibleKeywords ? 2 : 1)) {
    const parts = [...types.entries()].map(([t, idx]) => `[${t}] in [${idx.join(', ')}]`);
    invalid = `mapped as [${types.size}] incompatible types: ${parts.join(', ')}`;
  } else {
    const agg = list.filter((x) => x.field.aggregatable).map((x) => x.index);
    if (agg.length > 0 && agg.length < list.length) {
      const non = list.filter((x) => !x.field.aggregatable).map((x) => x.index);
      invalid = `mapped as aggregatable except in [${non.join(', ')}]`;
    }
  }
  const base = compatibleKeywords
    ? (list.find((x) => x.field.esType === 'keyword')?.field ?? first)
    : first;
  return {
    ...base,
    properties: children,
    exact: base.dataType === 'TEXT' ? textExact(base.name, children) : base.exact,
    invalid,
  };
}

/** Depth-first (parents first) list of all fields, the order EsRelation's output uses. */
export function flattenFields(fields: readonly EsField[]): EsField[] {
  const out: EsField[] = [];
  const visit = (list: readonly EsField[]) => {
    for (const f of list) {
      out.push(f);
      if (f.properties.length > 0) visit(f.properties);
    }
  };
  visit(fields);
  return out;
}
