/**
 * A document's `_source` through the mapping, following ES 6.8 DocumentParser step by step:
 * dotted keys, arrays (flattened unless the field takes arrays), objects and nested documents,
 * null values, copy_to, dynamic mapping (templates, strict/false) and the dynamic mapping update,
 * which is merged and validated like a PUT _mapping. Existing mappings are looked up with
 * precomputed maps; no mapping work is done for documents that add no fields.
 */
import { EsError } from '../common/errors.js';
import type { FieldValue, ParsedDocument, ParsedValue, RootMapping } from './types.js';
import type { MappingContext } from './context.js';
import { DEFAULT_LIMITS } from './context.js';
import type { Def, ObjectDef } from './model.js';
import type { FieldNode, RootNode } from './build.js';
import { asRootNode, buildField } from './build.js';
import { illegalArgument, illegalState, mapperParsing } from './errors.js';
import { tokenName } from './geo.js';
import { parseFieldValue } from './field-values.js';
import type { ValueSink } from './field-values.js';
import { dynamicDefForValue, dynamicObjectDef, templateDef } from './dynamic.js';
import type { DynamicCtx } from './dynamic.js';
import { dynamicMappingUpdate } from './dynamic-update.js';
import { withPathContexts } from './completion-contexts.js';
import type { DynamicEntry } from './dynamic-update.js';
import { getMapper, isField, splitAndValidatePath, strict } from './document-paths.js';
import type { Mapper, ObjectScope } from './document-paths.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** ES MapperService.META_FIELDS: names a document may not use at the top level. */
const META_FIELDS = new Set([
  '_all', '_id', '_ignored', '_index', '_parent', '_routing', '_size', '_timestamp', '_ttl', '_type', '_uid',
]); // prettier-ignore

/** Errors that ES raises when merging the mapping update, after parsing: not wrapped. */
const MERGE_ERRORS = new WeakSet<EsError>();

const EMPTY: readonly never[] = Object.freeze([]);

class Doc implements ParsedDocument {
  values: ParsedValue[] = [];
  nested: { path: string; doc: ParsedDocument }[] = EMPTY as never[];
  ignored: string[] = EMPTY as never[];
  dynamicUpdate: RootMapping | null = null;
  /** Fields present without an indexed value (geo_shape): they still count for `_field_names`. */
  present: string[] = EMPTY as never[];
  private names: Set<string> | undefined;
  constructor(
    readonly prefix: string,
    readonly parent: Doc | null,
  ) {}

  get fieldNames(): ReadonlySet<string> {
    if (this.names === undefined) {
      const s = new Set<string>();
      const add = (p: string) => {
        if (s.has(p)) return;
        for (let i = p.indexOf('.'); i >= 0; i = p.indexOf('.', i + 1)) s.add(p.slice(0, i));
        s.add(p);
      };
      for (const v of this.values) add(v.field.path);
      for (const p of this.present) add(p);
      this.names = s;
    }
    return this.names;
  }
}

class DocumentParser implements ValueSink {
  readonly root: RootNode;
  readonly rootScope: ObjectScope;
  readonly rootDoc: Doc;
  doc: Doc;
  dynamicMappers: DynamicEntry[] | undefined;
  private dc: DynamicCtx | undefined;
  private withinCopyTo = false;

  constructor(
    root: RootNode,
    readonly ctx: MappingContext,
    readonly id: string,
    readonly routing?: string | null,
  ) {
    this.root = root;
    this.rootScope = {
      path: '',
      name: root.typeName,
      nested: false,
      enabled: root.enabled,
      dynamic: root.explicit.dynamic ? root.dynamic : undefined,
      effDynamic: root.effDynamic,
      includeInParent: false,
      includeInRoot: false,
      properties: root.properties,
      existing: true,
    };
    this.rootDoc = new Doc('', null);
    this.doc = this.rootDoc;
  }

  add(field: FieldNode, value: FieldValue): void {
    this.doc.values.push({ field, value });
  }

  markPresent(path: string): void {
    const d = this.doc;
    if (d.present.length === 0) d.present = [];
    d.present.push(path);
  }

  ignore(path: string): void {
    const d = this.rootDoc;
    if (d.ignored.length === 0) d.ignored = [];
    d.ignored.push(path);
  }

  private get dynamicCtx(): DynamicCtx {
    return (this.dc ??= { root: this.root.def, ctx: this.ctx });
  }

  private addDynamic(path: string, def: Def): void {
    (this.dynamicMappers ??= []).push({ path, def });
  }

  /** A leaf value; a constant_keyword only checks it (or sets it: the mapping update). */
  fieldValue(f: FieldNode, v: unknown): void {
    if (f.keywordFamily === 'constant_keyword') this.constantValue(f, v);
    else parseFieldValue(f, v, this);
  }

  /** ES 7.10 ConstantKeywordFieldMapper.parseCreateField. */
  private constantValue(f: FieldNode, v: unknown): void {
    if (v === null || v === undefined) {
      throw illegalArgument(`[constant_keyword] field [${f.path}] doesn't accept [null] values`);
    }
    if (typeof v === 'object') {
      throw illegalState(`Can't get text on a ${tokenName(v)} at 1:1`);
    }
    const text = String(v);
    if (f.constantValue === undefined) {
      this.addDynamic(f.path, { ...f.def, core: { ...f.def.core, constantValue: text } });
    } else if (f.constantValue !== text) {
      throw illegalArgument(
        `[constant_keyword] field [${f.path}] only accepts values that are equal to the value defined in the mappings [${f.constantValue}], but got [${text}]`,
      );
    }
  }

  // ---- objects ----

  parseObjectOrNested(m: ObjectScope, v: unknown, key: string): void {
    if (!m.enabled || v === null) return;
    if (typeof v !== 'object') {
      throw mapperParsing(
        `object mapping for [${m.path === '' ? m.name : m.path}] tried to parse field [${key}] as object, but found a concrete value`,
      );
    }
    if (!m.nested) {
      this.innerParseObject(m, v as Record<string, unknown>);
      return;
    }
    const parentDoc = this.doc;
    const nestedDoc = new Doc(m.path + '.', parentDoc);
    if (parentDoc.nested.length === 0) parentDoc.nested = [];
    parentDoc.nested.push({ path: m.path, doc: nestedDoc });
    this.doc = nestedDoc;
    try {
      this.innerParseObject(m, v as Record<string, unknown>);
    } finally {
      this.doc = parentDoc;
    }
    // ES DocumentParser.nested: copy the nested document's fields into parent / root
    if (m.includeInParent === true) parentDoc.values.push(...nestedDoc.values);
    if (m.includeInRoot === true && (m.includeInParent !== true || parentDoc !== this.rootDoc)) {
      this.rootDoc.values.push(...nestedDoc.values);
    }
  }

  innerParseObject(m: ObjectScope, obj: Record<string, unknown>): void {
    // for-in, not Object.keys: the same keys in the same order without a list of them per object
    for (const key in obj) {
      if (!hasOwn.call(obj, key)) continue;
      if (key.charCodeAt(0) === 95 && m.path === '' && META_FIELDS.has(key)) {
        throw mapperParsing(
          `Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`,
        );
      }
      const v = obj[key];
      if (v === null) this.parseNullValue(m, key);
      else if (typeof v === 'object') {
        if (Array.isArray(v)) this.parseArray(m, key, v);
        else this.parseObject(m, key, v);
      } else this.parseValue(m, key, v);
    }
  }

  private parseObjectOrField(m: Mapper, v: unknown, key: string): void {
    if (isField(m)) {
      if (m.type === 'alias') throw illegalArgument(`Cannot write to a field alias [${m.path}].`);
      this.fieldValue(m, v);
      if (m.copyTo.length > 0 && !this.withinCopyTo) this.parseCopyFields(m.copyTo, v);
    } else {
      this.parseObjectOrNested(m, v, key);
    }
  }

  private parseObject(parent: ObjectScope, key: string, v: object): void {
    const paths = splitAndValidatePath(key);
    const m = getMapper(parent, key, paths);
    if (m !== undefined) {
      this.parseObjectOrField(m, v, key);
      return;
    }
    const name = paths[paths.length - 1]!;
    const dynParent = this.dynamicParent(paths, parent);
    const dynamic = dynParent.effDynamic;
    if (dynamic === 'strict') throw strict(parent, name);
    if (dynamic === true) {
      const path = join(dynParent.path, name);
      this.checkDynamicDepth(path);
      const def = dynamicObjectDef(this.dynamicCtx, path, name);
      this.addDynamic(path, def);
      this.parseObjectOrField(this.scopeOf(def, dynParent), v, key);
    }
    // dynamic: false → the object is skipped
  }

  /**
   * Stops a runaway dynamic object chain before it exhausts the stack. Mappings already stop at
   * index.mapping.depth.limit, so an object `depth + total_fields` levels deep adds more than
   * total_fields new object fields: ES's merge (which checks the total first) rejects that
   * document with this error, so raising it early changes nothing but the recursion depth.
   */
  private checkDynamicDepth(path: string): void {
    const limits = this.ctx.limits;
    const total = limits?.totalFields ?? DEFAULT_LIMITS.totalFields;
    const bound = (limits?.depth ?? DEFAULT_LIMITS.depth) + total;
    if (path.length < 2 * bound) return; // each level takes at least a name and a dot
    let levels = 1;
    for (let i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) levels++;
    if (levels > bound) {
      const e = illegalArgument(
        `Limit of total fields [${total}] in index [${this.ctx.indexName}] has been exceeded`,
      );
      MERGE_ERRORS.add(e);
      throw e;
    }
  }

  private parseArray(parent: ObjectScope, key: string, arr: unknown[]): void {
    const t = this.arrayTarget(parent, key, arr);
    if (t !== null) this.parseNonDynamicArray(t.scope, t.key, arr);
  }

  /** Where parseArray sends the elements of `arr`; null when a mapper took the whole array. */
  private arrayTarget(
    parent: ObjectScope,
    key: string,
    arr: unknown[],
  ): { scope: ObjectScope; key: string } | null {
    const paths = splitAndValidatePath(key);
    const m = getMapper(parent, key, paths);
    if (m !== undefined) {
      // ES ArrayValueMapperParser: these mappers take the whole array
      if (isField(m) && (m.type === 'geo_point' || m.type === 'completion')) {
        this.parseObjectOrField(m, arr, key);
        return null;
      }
      return { scope: parent, key };
    }
    const name = paths[paths.length - 1]!;
    const dynParent = this.dynamicParent(paths, parent);
    const dynamic = dynParent.effDynamic;
    if (dynamic === 'strict') throw strict(dynParent, name);
    if (dynamic === true) {
      const path = join(dynParent.path, name);
      // an `object` template may map the whole array (geo_point takes [lon, lat], completion a list)
      const def = templateDef(this.dynamicCtx, path, name, 'object');
      if (
        def !== undefined &&
        def.kind === 'field' &&
        (def.core.type === 'geo_point' || def.core.type === 'completion')
      ) {
        this.addDynamic(path, def);
        this.parseObjectOrField(buildField(def, dynParent.path), arr, name);
        return null;
      }
    }
    return { scope: dynParent, key: name };
  }

  /** Arrays within arrays are walked with a stack: a document may nest them thousands deep. */
  private parseNonDynamicArray(m: ObjectScope, key: string, arr: unknown[]): void {
    const stack: { scope: ObjectScope; key: string; arr: unknown[]; i: number }[] = [
      { scope: m, key, arr, i: 0 },
    ];
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      if (f.i >= f.arr.length) {
        stack.pop();
        continue;
      }
      const v = f.arr[f.i++];
      if (v === null || v === undefined) this.parseNullValue(f.scope, f.key);
      else if (typeof v === 'object') {
        if (Array.isArray(v)) {
          const t = this.arrayTarget(f.scope, f.key, v);
          if (t !== null) stack.push({ scope: t.scope, key: t.key, arr: v, i: 0 });
        } else this.parseObject(f.scope, f.key, v);
      } else this.parseValue(f.scope, f.key, v);
    }
  }

  private parseValue(parent: ObjectScope, key: string, v: unknown): void {
    // hot path: a plain key naming a mapped leaf field
    if (key.length > 0 && key.indexOf('.') < 0) {
      const f = parent.properties.get(key);
      if (f !== undefined && f.kind === 'field' && f.type !== 'alias') {
        this.fieldValue(f, v);
        if (f.copyTo.length > 0 && !this.withinCopyTo) this.parseCopyFields(f.copyTo, v);
        return;
      }
    }
    const paths = splitAndValidatePath(key);
    const m = getMapper(parent, key, paths);
    if (m !== undefined) {
      this.parseObjectOrField(m, v, key);
      return;
    }
    const name = paths[paths.length - 1]!;
    this.parseDynamicValue(this.dynamicParent(paths, parent), name, v);
  }

  private parseNullValue(parent: ObjectScope, key: string): void {
    const m = getMapper(parent, key, splitAndValidatePath(key));
    if (m !== undefined) this.parseObjectOrField(m, null, key);
    else if (parent.dynamic === 'strict') throw strict(parent, key);
  }

  private parseDynamicValue(parent: ObjectScope, name: string, v: unknown): void {
    const dynamic = parent.effDynamic;
    if (dynamic === 'strict') throw strict(parent, name);
    if (dynamic === false) return;
    const path = join(parent.path, name);
    let def: Def | undefined;
    if (v === null || typeof v === 'object') {
      // only reachable through copy_to of a null/structured value (ES: the token is not a value)
      def = templateDef(this.dynamicCtx, path, name, 'string');
      if (def === undefined) {
        throw illegalState(
          `Can't handle serializing a dynamic type with content token [${tokenName(v)}] and field name [${name}]`,
        );
      }
    } else def = dynamicDefForValue(this.dynamicCtx, path, name, v);
    this.addDynamic(path, def);
    const mapper = def.kind === 'field' ? buildField(def, parent.path) : this.scopeOf(def, parent);
    this.parseObjectOrField(mapper, v, name);
  }

  /** ES DocumentParser.getDynamicParentMapper: walks (creating) the objects of a dotted name. */
  private dynamicParent(paths: string[], current: ObjectScope): ObjectScope {
    let parent = current;
    for (let i = 0; i < paths.length - 1; i++) {
      const part = paths[i]!;
      const path = join(parent.path, part);
      const field = this.root.fieldsByPath.get(path);
      if (field !== undefined) {
        throw mapperParsing(
          `Could not dynamically add mapping for field [${paths.join('.')}]. Existing mapping for [${path}] must be of type object but found [${field.type}].`,
        );
      }
      const existing = this.root.objectsByPath.get(path);
      let next: ObjectScope;
      if (existing !== undefined) {
        next = existing;
      } else {
        const dynamic = parent.effDynamic;
        if (dynamic === 'strict') throw strict(parent, part);
        if (dynamic === false) return parent;
        const def = dynamicObjectDef(this.dynamicCtx, path, part);
        if (def.kind === 'object' && def.type === 'nested') {
          throw mapperParsing(
            `It is forbidden to create dynamic nested objects ([${path}]) through \`copy_to\` or dots in field names`,
          );
        }
        this.addDynamic(path, def);
        if (def.kind !== 'object') {
          throw mapperParsing(
            `Could not dynamically add mapping for field [${paths.join('.')}]. Existing mapping for [${path}] must be of type object but found [${def.core.type}].`,
          );
        }
        next = this.objectScope(def, parent);
      }
      parent = next;
    }
    return parent;
  }

  /** The mapper for a definition created by this document. */
  private scopeOf(def: Def, parent: ObjectScope): Mapper {
    return def.kind === 'field' ? buildField(def, parent.path) : this.objectScope(def, parent);
  }

  private objectScope(def: ObjectDef, parent: ObjectScope): ObjectScope {
    return {
      path: join(parent.path, def.name),
      name: def.name,
      nested: def.type === 'nested',
      enabled: def.enabled,
      dynamic: def.dynamic,
      // ES dynamicOrDefault: a parent created by this document counts as dynamic: true
      effDynamic: def.dynamic ?? (parent.existing ? parent.effDynamic : true),
      includeInParent: def.includeInParent,
      includeInRoot: def.includeInRoot,
      properties: new Map(),
      existing: false,
    };
  }

  // ---- copy_to (ES DocumentParser.parseCopyFields / parseCopy) ----

  private parseCopyFields(targets: readonly string[], v: unknown): void {
    this.withinCopyTo = true;
    const current = this.doc;
    try {
      for (const target of targets) {
        let targetDoc: Doc = current;
        for (let d: Doc | null = current; d !== null; d = d.parent) {
          if (target.startsWith(d.prefix)) {
            targetDoc = d;
            break;
          }
        }
        this.doc = targetDoc;
        const f = this.root.fieldsByPath.get(target);
        if (f !== undefined) {
          if (f.type === 'alias')
            throw illegalArgument(`Cannot copy to a field alias [${f.path}].`);
          this.fieldValue(f, v);
        } else {
          const paths = splitAndValidatePath(target);
          const parent = this.dynamicParent(paths, this.rootScope);
          this.parseDynamicValue(parent, paths[paths.length - 1]!, v);
        }
        this.doc = current;
      }
    } finally {
      this.doc = current;
      this.withinCopyTo = false;
    }
  }
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);

/**
 * Parses a document `_source` against the mapping (see types.ts for the value forms). `id` is used
 * in error messages ("… in document with id '1'").
 */
export function parseDocument(
  rootMapping: RootMapping,
  source: unknown,
  ctx: MappingContext,
  id: string | null = null,
  routing?: string | null,
): ParsedDocument {
  const root = asRootNode(rootMapping);
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    throw mapperParsing('Malformed content, must start with an object');
  }
  const p = new DocumentParser(root, ctx, id ?? 'null', routing);
  try {
    if (root.enabled) p.innerParseObject(p.rootScope, source as Record<string, unknown>);
  } catch (e) {
    throw wrap(e);
  }
  let effective = root;
  if (p.dynamicMappers !== undefined) {
    effective = dynamicMappingUpdate(root, p.dynamicMappers, ctx);
    p.rootDoc.dynamicUpdate = effective;
  }
  addConstants(p, effective);
  addPathContexts(p.rootDoc);
  return p.rootDoc;
}

/** Completion contexts read from `path` fields, per Lucene document (nested ones included). */
function addPathContexts(doc: Doc): void {
  const values = withPathContexts(doc.values);
  if (values) doc.values = values;
  const nested = doc.nested;
  for (let i = 0; i < nested.length; i++) addPathContexts(nested[i]!.doc as Doc);
}

const CONSTANTS = new WeakMap<RootNode, readonly FieldNode[]>();

/** The constant_keyword fields with a value, outside nested objects. */
function constantFields(root: RootNode): readonly FieldNode[] {
  let list = CONSTANTS.get(root);
  if (list === undefined) {
    list = [...root.fieldsByPath.values()].filter(
      (f) =>
        f.keywordFamily === 'constant_keyword' &&
        f.constantValue !== undefined &&
        ![...root.objectsByPath.values()].some((o) => o.nested && f.path.startsWith(`${o.path}.`)),
    );
    CONSTANTS.set(root, list);
  }
  return list;
}

/**
 * Every document of the index has a constant_keyword's value. Queries answer from the mapping
 * (dsl/query/lower/constant-keyword.ts); for doc values (sorts, aggregations, docvalue_fields)
 * the value is indexed with each document once the mapping has it, so documents indexed before
 * it was set show none there.
 */
function addConstants(p: DocumentParser, root: RootNode): void {
  const fields = constantFields(root);
  for (let i = 0; i < fields.length; i++) parseFieldValue(fields[i]!, fields[i]!.constantValue, p);
}

/** ES DocumentParser.wrapInMapperParsingException. */
function wrap(e: unknown): EsError {
  if (e instanceof EsError) {
    if (MERGE_ERRORS.has(e)) return e;
    if (e.type === 'mapper_parsing_exception' || e.type === 'strict_dynamic_mapping_exception')
      return e;
    return mapperParsing('failed to parse', e);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return mapperParsing('failed to parse', new EsError('exception', msg, 500));
}
