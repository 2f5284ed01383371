/**
 * RootDef → RootMapping: assigns full paths, renders each field's JSON once, builds the path
 * lookups (fields, multi-fields, aliases, objects), resolves inherited `dynamic`, and precomputes
 * what the document parser needs per field (null_value substitutes, multi-field arrays) so that
 * parsing a document does no mapping work. ES: DocumentMapper / DocumentFieldMappers.
 */
import type { FieldMapping, FieldValue, ObjectMapping, RootMapping, Dynamic } from './types.js';
import type { Def, FieldDef, ObjectDef, RootDef } from './model.js';
import { DEFAULT_DYNAMIC_DATE_FORMATS } from './model.js';
import { fieldDefToJson } from './render.js';
import { parseNumberValue } from './number-values.js';
import { roundToHalfFloat } from './java-numbers.js';
import type { GeoPointValue } from './types.js';
import { parentIdFieldName } from './join.js';
import { percolatorQueryField } from './percolator.js';

/** A built field plus what document parsing needs. */
export interface FieldNode extends FieldMapping {
  readonly fields: ReadonlyMap<string, FieldNode>;
  /** Multi-fields as an array (iteration without Map iterators). */
  readonly multi: readonly FieldNode[];
  /** Value indexed for a JSON null (already coerced), undefined when none. */
  readonly nullFv: FieldValue | undefined;
  readonly def: FieldDef;
  /**
   * The keyword fields a join or percolator field indexes, by path. join: itself (the relation
   * name) and its `<join>#<parent>` join keys; percolator: `<field>.query_builder_field`, the
   * query's JSON as a doc value.
   */
  readonly hiddenFields?: ReadonlyMap<string, FieldNode>;
}

export interface ObjectNode extends ObjectMapping {
  readonly properties: ReadonlyMap<string, FieldNode | ObjectNode>;
  /** `dynamic` after inheritance (ES DocumentParser.dynamicOrDefault). */
  readonly effDynamic: Dynamic;
  readonly nested: boolean;
  /** Always true: the object is part of the mapping (document-created objects are not). */
  readonly existing: true;
  readonly def: ObjectDef;
}

export interface RootNode extends RootMapping {
  readonly properties: ReadonlyMap<string, FieldNode | ObjectNode>;
  readonly fieldsByPath: ReadonlyMap<string, FieldNode>;
  readonly objectsByPath: ReadonlyMap<string, ObjectNode>;
  readonly effDynamic: Dynamic;
  readonly def: RootDef;
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);

/** The substitute for JSON null, coerced once (ES parses numeric null_values at mapping time). */
function nullFieldValue(f: FieldDef): FieldValue | undefined {
  const v = f.core.nullValue;
  if (v === undefined || v === null) return undefined;
  switch (f.core.type) {
    case 'float':
      return Math.fround(v as number);
    case 'half_float':
      return roundToHalfFloat(Math.fround(v as number));
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
      return parseNumberValue(f.core.type, v, true);
    case 'geo_point':
      return { lat: (v as GeoPointValue).lat, lon: (v as GeoPointValue).lon };
    case 'date':
      return undefined; // ES parses a date null_value per document (errors surface then)
    default:
      return v as FieldValue;
  }
}

export function buildField(def: FieldDef, parentPath: string, parentField?: string): FieldNode {
  const path = join(parentPath, def.name);
  const fields = new Map<string, FieldNode>();
  for (const [name, mf] of def.fields) fields.set(name, buildField(mf, path, path));
  const c = def.core;
  // a fixed property order keeps every FieldNode on one hidden class (monomorphic hot path)
  const node: FieldNode = {
    kind: 'field',
    type: c.type,
    path,
    name: def.name,
    index: c.index,
    docValues: c.docValues,
    store: c.store,
    indexOptions: c.indexOptions,
    norms: c.norms,
    boost: c.boost,
    analyzer: c.analyzer,
    searchAnalyzer: c.searchAnalyzer,
    searchQuoteAnalyzer: c.searchQuoteAnalyzer,
    positionIncrementGap: c.positionIncrementGap,
    fielddata: c.fielddata,
    normalizer: c.normalizer,
    ignoreAbove: c.ignoreAbove,
    splitQueriesOnWhitespace: c.splitQueriesOnWhitespace,
    nullValue: c.nullValue,
    coerce: c.coerce,
    ignoreMalformed: c.ignoreMalformed,
    format: c.format,
    locale: c.locale,
    scalingFactor: c.scalingFactor,
    aliasPath: c.aliasPath,
    copyTo: c.copyTo,
    fields,
    json: fieldDefToJson(def),
    termVector: c.termVector,
    similarity: c.similarity,
    eagerGlobalOrdinals: c.eagerGlobalOrdinals,
    fielddataFrequencyFilter: c.fielddataFrequencyFilter,
    indexPrefixes: c.indexPrefixes,
    indexPhrases: c.indexPhrases,
    enablePositionIncrements: c.enablePositionIncrements,
    ignoreZValue: c.ignoreZValue,
    geoShape: c.geoShape,
    completion: c.completion,
    parentField,
    explicit: c.explicit,
    keywordFamily: c.keywordFamily,
    constantValue: c.constantValue,
    meta: c.meta,
    relations: c.relations,
    multi: [...fields.values()],
    nullFv: nullFieldValue(def),
    def,
  };
  if (c.type === 'join') return { ...node, hiddenFields: joinKeywordFields(node) };
  if (c.type === 'percolator') {
    const qf = keywordNode(percolatorQueryField(path), false, false);
    return { ...node, hiddenFields: new Map([[qf.path, qf]]) };
  }
  return node;
}

/** A hidden keyword field with doc values, at `path`. */
function keywordNode(path: string, index: boolean, eagerGlobalOrdinals: boolean): FieldNode {
  const def: FieldDef = {
    kind: 'field',
    name: path,
    core: {
      type: 'keyword',
      index,
      docValues: true,
      store: false,
      indexOptions: 'docs',
      norms: false,
      boost: 1,
      copyTo: [],
      eagerGlobalOrdinals,
    },
    fields: new Map(),
  };
  return buildField(def, '');
}

/** A join field's keyword twin and join-key fields (ES ParentIdFieldMapper). */
function joinKeywordFields(join: FieldNode): Map<string, FieldNode> {
  const keyword = (name: string) => keywordNode(name, true, join.eagerGlobalOrdinals === true);
  const out = new Map<string, FieldNode>([[join.path, keyword(join.path)]]);
  for (const r of join.relations ?? []) {
    const name = parentIdFieldName(join.path, r.parent);
    out.set(name, keyword(name));
  }
  return out;
}

interface Lookups {
  fields: Map<string, FieldNode>;
  objects: Map<string, ObjectNode>;
}

function addField(f: FieldNode, lk: Lookups): void {
  lk.fields.set(f.path, f);
  for (const mf of f.multi) addField(mf, lk);
  // the join keys are fields of their own (queries and docvalue_fields name them)
  for (const [path, jf] of f.hiddenFields ?? []) if (path !== f.path) lk.fields.set(path, jf);
}

function buildObject(
  def: ObjectDef,
  parentPath: string,
  inherited: Dynamic,
  lk: Lookups,
): ObjectNode {
  const path = join(parentPath, def.name);
  const effDynamic = def.dynamic ?? inherited;
  const properties = buildProperties(def, path, effDynamic, lk);
  const node: ObjectNode = {
    kind: 'object',
    type: def.type,
    path,
    name: def.name,
    dynamic: def.dynamic,
    enabled: def.enabled,
    includeInParent: def.type === 'nested' ? def.includeInParent : undefined,
    includeInRoot: def.type === 'nested' ? def.includeInRoot : undefined,
    includeInAll: def.includeInAll,
    properties,
    effDynamic,
    nested: def.type === 'nested',
    existing: true,
    def,
  };
  lk.objects.set(path, node);
  return node;
}

function buildProperties(
  def: ObjectDef,
  path: string,
  effDynamic: Dynamic,
  lk: Lookups,
): Map<string, FieldNode | ObjectNode> {
  const out = new Map<string, FieldNode | ObjectNode>();
  for (const [name, child] of def.properties) {
    out.set(name, buildDef(child, path, effDynamic, lk));
  }
  return out;
}

function buildDef(
  d: Def,
  parentPath: string,
  inherited: Dynamic,
  lk: Lookups,
): FieldNode | ObjectNode {
  if (d.kind === 'object') return buildObject(d, parentPath, inherited, lk);
  const f = buildField(d, parentPath);
  addField(f, lk);
  return f;
}

export function buildRoot(def: RootDef): RootNode {
  const lk: Lookups = { fields: new Map(), objects: new Map() };
  const effDynamic: Dynamic = def.dynamic ?? true;
  const properties = buildProperties(def, '', effDynamic, lk);
  const root: RootNode = {
    kind: 'object',
    type: 'object',
    path: '',
    name: def.typeName,
    dynamic: effDynamic,
    enabled: def.enabled,
    includeInParent: undefined,
    includeInRoot: undefined,
    includeInAll: def.includeInAll,
    properties,
    typeName: def.typeName,
    dateDetection: def.dateDetection.value,
    numericDetection: def.numericDetection.value,
    dynamicDateFormats: def.dynamicDateFormats.explicit
      ? def.dynamicDateFormats.value
      : DEFAULT_DYNAMIC_DATE_FORMATS,
    dynamicTemplates: def.dynamicTemplates.value,
    source: {
      enabled: def.source?.enabled ?? true,
      includes: def.source?.includes ?? [],
      excludes: def.source?.excludes ?? [],
    },
    routingRequired: def.routing?.required ?? false,
    meta: def.meta,
    fieldNamesEnabled: def.fieldNames?.enabled ?? true,
    allEnabled: def.all?.enabled,
    explicit: {
      dynamic: def.dynamic !== undefined,
      dateDetection: def.dateDetection.explicit,
      numericDetection: def.numericDetection.explicit,
      dynamicDateFormats: def.dynamicDateFormats.explicit,
      dynamicTemplates: def.dynamicTemplates.explicit,
      source: def.source !== undefined,
      routing: def.routing !== undefined,
      fieldNames: def.fieldNames !== undefined,
      all: def.all !== undefined,
    },
    fieldsByPath: lk.fields,
    objectsByPath: lk.objects,
    effDynamic,
    def,
  };
  return root;
}

/** The RootDef behind a RootMapping produced by this module. */
export function rootDefOf(root: RootMapping): RootDef {
  const def = (root as Partial<RootNode>).def;
  if (def === undefined || def.typeName !== root.typeName) {
    throw new TypeError(
      'RootMapping was not produced by the mapping module; re-parse it from JSON',
    );
  }
  return def;
}

export const asRootNode = (root: RootMapping): RootNode => {
  rootDefOf(root);
  return root as RootNode;
};
