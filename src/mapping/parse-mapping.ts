/**
 * Mapping JSON → RootDef as ES DocumentMapperParser / RootObjectMapper.TypeParser /
 * ObjectMapper.TypeParser do: `properties` (dotted names become intermediate objects, duplicate
 * names merge), object and nested parameters, root settings (date/numeric detection, dynamic date
 * formats, dynamic templates), metadata fields (_source, _routing, _all, _field_names, _meta) and
 * the "unsupported parameters" checks.
 */
import type { Dynamic, DynamicTemplate } from './types.js';
import type { MappingContext } from './context.js';
import type { Def, FieldDef, ObjectDef, RootDef } from './model.js';
import { DEFAULT_DYNAMIC_DATE_FORMATS } from './model.js';
import { illegalArgument, mapperParsing, parseException } from './errors.js';
import { fieldBooleanValue, nodeBooleanValue } from './node-values.js';
import { javaToString } from './java-numbers.js';
import { isFieldType, isMap, parseFieldDef, validateDateFormat } from './parse-field.js';
import type { Node, ParserCtx } from './parse-field.js';
import { isKeywordFamily, parseKeywordFamilyDef } from './parse-keyword-family.js';
import { checkNoRemaining, checkNoRemainingWith } from './parse-util.js';
import { parseDynamicTemplate } from './dynamic-templates.js';
import { mergeDef } from './merge-defs.js';
import { javaSplit } from './ip.js';
import { METADATA, classCast, parseMetadataField } from './parse-metadata.js';
import { EsError } from '../common/errors.js';

export function parserCtx(ctx: MappingContext, lenient = false): ParserCtx {
  return { ctx, withinMultiField: false, lenient, parseMultiField: parseMultiFieldDef };
}

function parseMultiFieldDef(name: string, node: Node, pc: ParserCtx): FieldDef {
  const type = javaToString(node.get('type'));
  if (!isFieldType(type))
    throw mapperParsing(`no handler for type [${type}] declared on field [${name}]`);
  if (type === 'join')
    throw illegalArgument(
      `join field [${name}] cannot be added inside an object or in a multi-field`,
    );
  return checkName(parseFieldDef(name, type, node, pc));
}

function checkName<T extends Def>(d: T): T {
  if (d.name.length === 0) throw illegalArgument('name cannot be empty string');
  return d;
}

/** Parses a mapping of `type` for a field named `name` (ES Mapper.TypeParser dispatch). */
export function parseTypedDef(
  name: string,
  type: string,
  node: Node,
  pc: ParserCtx,
  parentPath = '',
): Def {
  if (type === 'object' || type === 'nested') {
    return checkName(parseObjectDef(name, type, node, pc, join(parentPath, name)));
  }
  if (isKeywordFamily(type)) return checkName(parseKeywordFamilyDef(name, type, node, pc));
  if (!isFieldType(type))
    throw mapperParsing(`No handler for type [${type}] declared on field [${name}]`);
  if (type === 'join' && parentPath !== '')
    throw illegalArgument(
      `join field [${join(parentPath, name)}] cannot be added inside an object or in a multi-field`,
    );
  return checkName(parseFieldDef(name, type, node, pc));
}

/** ES ObjectMapper.TypeParser.parse (the caller checks what is left in `node`). */
function parseObjectDef(
  name: string,
  type: 'object' | 'nested',
  node: Node,
  pc: ParserCtx,
  path: string,
): ObjectDef {
  let includeInParent = false;
  let includeInRoot = false;
  if (node.has('include_in_parent')) {
    includeInParent = fieldBooleanValue(name, 'include_in_parent', node.get('include_in_parent'));
    node.delete('include_in_parent');
  }
  if (node.has('include_in_root')) {
    includeInRoot = fieldBooleanValue(name, 'include_in_root', node.get('include_in_root'));
    node.delete('include_in_root');
  }
  const o: ObjectProps = { enabled: true, properties: new Map() };
  for (const [k, v] of [...node]) if (parseObjectProperty(name, k, v, o, pc, path)) node.delete(k);
  const def: { -readonly [K in keyof ObjectDef]: ObjectDef[K] } = {
    kind: 'object',
    name,
    type,
    enabled: o.enabled,
    includeInParent: type === 'nested' && includeInParent,
    includeInRoot: type === 'nested' && includeInRoot,
    properties: o.properties,
  };
  if (o.dynamic !== undefined) def.dynamic = o.dynamic;
  if (o.includeInAll !== undefined) def.includeInAll = o.includeInAll;
  return def;
}

interface ObjectProps {
  dynamic?: Dynamic;
  enabled: boolean;
  includeInAll?: boolean;
  properties: Map<string, Def>;
}

/** ES ObjectMapper.TypeParser.parseObjectOrDocumentTypeProperties. */
function parseObjectProperty(
  name: string,
  k: string,
  v: unknown,
  o: ObjectProps,
  pc: ParserCtx,
  path: string,
): boolean {
  switch (k) {
    case 'dynamic': {
      const s = javaToString(v);
      o.dynamic = s.toLowerCase() === 'strict' ? 'strict' : fieldBooleanValue(name, 'dynamic', v);
      return true;
    }
    case 'enabled':
      o.enabled = fieldBooleanValue(name, 'enabled', v);
      return true;
    case 'properties':
      if (Array.isArray(v) && v.length === 0) return true;
      if (!isMap(v)) throw parseException('properties must be a map type');
      parseProperties(v, o.properties, pc, path);
      return true;
    case 'include_in_all':
      o.includeInAll = fieldBooleanValue(name, 'include_in_all', v);
      return true;
    default:
      return false;
  }
}

/** ES ObjectMapper.TypeParser.parseProperties. */
function parseProperties(
  propsNode: Record<string, unknown>,
  out: Map<string, Def>,
  pc: ParserCtx,
  path: string,
): void {
  for (const [fieldName, value] of Object.entries(propsNode)) {
    if (isMap(value)) {
      const node: Node = new Map(Object.entries(value));
      const typeNode = node.get('type');
      let type: string;
      if (typeNode !== undefined && typeNode !== null) type = javaToString(typeNode);
      else if (node.get('properties') !== undefined && node.get('properties') !== null)
        type = 'object';
      else if (node.size === 1 && node.get('enabled') !== undefined && node.get('enabled') !== null)
        type = 'object';
      else throw mapperParsing(`No type specified for field [${fieldName}]`);
      if (type !== 'object' && type !== 'nested' && !isFieldType(type) && !isKeywordFamily(type)) {
        throw mapperParsing(`No handler for type [${type}] declared on field [${fieldName}]`);
      }
      const parts = javaSplit(fieldName, '.');
      if (parts.length === 0) {
        throw new EsError(
          'array_index_out_of_bounds_exception',
          'Index -1 out of bounds for length 0',
          500,
        );
      }
      const leafParent = parts.slice(0, -1).reduce((p, part) => join(p, part), path);
      let def = parseTypedDef(parts[parts.length - 1]!, type, node, pc, leafParent);
      for (let i = parts.length - 2; i >= 0; i--) def = intermediateObject(parts[i]!, def);
      node.delete('type');
      if (!pc.lenient) checkNoRemaining(fieldName, node);
      addDef(out, def, path);
    } else if (Array.isArray(value) && value.length === 0) {
      continue;
    } else {
      throw mapperParsing(
        `Expected map for property [fields] on field [${fieldName}] but got a class java.lang.String`,
      );
    }
  }
}

/** An object holding `child`, created for a dotted field name. */
export function intermediateObject(name: string, child: Def): ObjectDef {
  return checkName({
    kind: 'object',
    name,
    type: 'object',
    enabled: true,
    includeInParent: false,
    includeInRoot: false,
    properties: new Map([[child.name, child]]),
  });
}

/** ES ObjectMapper.Builder.build: a second mapper with the same simple name merges into the first. */
function addDef(out: Map<string, Def>, def: Def, parentPath: string): void {
  const existing = out.get(def.name);
  out.set(def.name, existing ? mergeDef(existing, def, parentPath) : def);
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);

/**
 * Parses one type's mapping body (`{properties: …, dynamic: …, _source: …}`) as ES
 * DocumentMapperParser.parse does. A body wrapped in the type name (`{"_doc": {…}}`) is unwrapped.
 */
export function parseRootDef(typeName: string, json: unknown, ctx: MappingContext): RootDef {
  if (!isMap(json))
    throw mapperParsing('Failed to parse mapping: the mapping definition must be an object');
  let body: Record<string, unknown> = json;
  const first = Object.keys(json)[0];
  if (first !== undefined && first === typeName) {
    const inner = json[first];
    if (!isMap(inner))
      throw mapperParsing(
        `Failed to parse mapping [${typeName}]: expected an object under the type name`,
      );
    body = inner;
  }
  const pc = parserCtx(ctx);
  const node: Node = new Map(Object.entries(body));
  const o: ObjectProps = { enabled: true, properties: new Map() };
  let dateDetection = { value: true, explicit: false };
  let numericDetection = { value: false, explicit: false };
  let dynamicDateFormats: { value: readonly string[]; explicit: boolean } = {
    value: DEFAULT_DYNAMIC_DATE_FORMATS,
    explicit: false,
  };
  let dynamicTemplates: { value: readonly DynamicTemplate[]; explicit: boolean } = {
    value: [],
    explicit: false,
  };
  for (const [k, v] of [...node]) {
    if (parseObjectProperty(typeName, k, v, o, pc, '')) {
      node.delete(k);
      continue;
    }
    switch (k) {
      case 'date_formats':
      case 'dynamic_date_formats':
        dynamicDateFormats = { value: parseDynamicDateFormats(v, pc), explicit: true };
        break;
      case 'dynamic_templates':
        dynamicTemplates = { value: parseTemplates(v), explicit: true };
        break;
      case 'date_detection':
        dateDetection = { value: nodeBooleanValue(v, 'date_detection'), explicit: true };
        break;
      case 'numeric_detection':
        numericDetection = { value: nodeBooleanValue(v, 'numeric_detection'), explicit: true };
        break;
      default:
        continue;
    }
    node.delete(k);
  }
  fixRedundantIncludes(o.properties, true);
  // ES builds the root object mapper here; its constructor rejects an empty name
  if (typeName.length === 0) throw illegalArgument('name cannot be empty string');
  const root: { -readonly [K in keyof RootDef]: RootDef[K] } = {
    kind: 'object',
    name: typeName,
    type: 'object',
    enabled: o.enabled,
    includeInParent: false,
    includeInRoot: false,
    properties: o.properties,
    typeName,
    dateDetection,
    numericDetection,
    dynamicDateFormats,
    dynamicTemplates,
  };
  if (o.dynamic !== undefined) root.dynamic = o.dynamic;
  if (o.includeInAll !== undefined) root.includeInAll = o.includeInAll;
  for (const [k, v] of [...node]) {
    if (!METADATA.has(k)) continue;
    node.delete(k);
    if (!isMap(v)) throw illegalArgument('[_parent] must be an object containing [type]');
    const m: Node = new Map(Object.entries(v));
    parseMetadataField(k, m, root, pc);
    m.delete('type');
    checkNoRemaining(k, m);
  }
  if (node.has('_meta')) {
    const meta = node.get('_meta');
    node.delete('_meta');
    if (meta !== null) {
      if (!isMap(meta)) throw classCast(meta, 'java.util.Map');
      root.meta = meta;
    }
  }
  checkNoRemainingWith('Root mapping definition has unsupported parameters: ', node);
  return root;
}

/** ES RootObjectMapper.TypeParser.processField for dynamic_date_formats. */
function parseDynamicDateFormats(v: unknown, pc: ParserCtx): string[] {
  const one = (f: unknown): string => {
    if (typeof f !== 'string')
      throw illegalArgument(`Invalid format: [${javaToString(f)}]: expected string value`);
    validateDateFormat(pc, f);
    return f;
  };
  if (Array.isArray(v)) {
    return v.map((f) => {
      if (javaToString(f).startsWith('epoch_')) {
        throw mapperParsing(`Epoch [${javaToString(f)}] is not supported as dynamic date format`);
      }
      return one(f);
    });
  }
  if (javaToString(v) === 'none') return [];
  return [one(v)];
}

function parseTemplates(v: unknown): DynamicTemplate[] {
  if (!Array.isArray(v)) throw classCast(v, 'java.util.List');
  return v.map((t) => {
    if (!isMap(t)) throw classCast(t, 'java.util.Map');
    const entries = Object.entries(t);
    if (entries.length !== 1) throw mapperParsing('A dynamic template must be defined with a name');
    const [name, conf] = entries[0]!;
    if (!isMap(conf)) throw classCast(conf, 'java.util.Map');
    return parseDynamicTemplate(name, conf);
  });
}

/**
 * ES RootObjectMapper.Builder.fixRedundantIncludes: include_in_root is dropped when the parent
 * chain already includes the nested object into the root.
 */
function fixRedundantIncludes(props: Map<string, Def>, parentIncluded: boolean): void {
  for (const [name, d] of props) {
    if (d.kind !== 'object') continue;
    const nested = d.type === 'nested';
    const viaParent = parentIncluded && nested && d.includeInParent;
    const inRoot = nested && d.includeInRoot;
    let cur = d;
    if (viaParent && inRoot) {
      cur = { ...d, includeInRoot: false };
      props.set(name, cur);
    }
    fixRedundantIncludes(cur.properties as Map<string, Def>, viaParent || inRoot);
  }
}

/** Parses the mapping a dynamic template yields for a new field (unsupported params ignored). */
export function parseTemplateDef(
  name: string,
  type: string,
  mapping: Record<string, unknown>,
  ctx: MappingContext,
): Def {
  const node: Node = new Map(Object.entries(mapping));
  if (type !== 'object' && type !== 'nested' && !isFieldType(type) && !isKeywordFamily(type)) {
    throw mapperParsing(`failed to find type parsed [${type}] for [${name}]`);
  }
  return parseTypedDef(name, type, node, parserCtx(ctx, true));
}
