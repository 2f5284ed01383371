/**
 * The mapping operations the index service calls: parse a type's mapping, merge an update into
 * the current mapping (PUT _mapping, index creation), and render it back (GET _mapping, get field
 * mapping). Mirrors ES MapperService.internalMerge: parse → merge → validate → limits.
 */
import { EsError } from '../common/errors.js';
import type { FieldMapping, RootMapping } from './types.js';
import type { MappingContext } from './context.js';
import type { RootDef } from './model.js';
import type { RootNode } from './build.js';
import { buildRoot, asRootNode, rootDefOf } from './build.js';
import { parseRootDef } from './parse-mapping.js';
import { mergeRoots } from './merge-defs.js';
import { validateMerged } from './validate.js';
import { fieldDefToJson, metadataFieldToJson, rootDefToJson } from './render.js';
import { chain, illegalArgument, mapperParsing } from './errors.js';
import { isMap } from './parse-field.js';
import { javaHashSetOrder } from './java-collections.js';
import { mergeJsonDefaults } from './json-defaults.js';

/**
 * Parses the body of one type's mapping (`{properties: …, dynamic: …, _source: …}`) into a
 * RootMapping. Errors are ES's, unwrapped (as PUT _mapping reports them).
 */
export function parseMapping(typeName: string, json: unknown, ctx: MappingContext): RootMapping {
  return buildRoot(parseRootDef(typeName, json, ctx));
}

/** ES MapperService.validateTypeName. */
export function validateTypeName(type: string): void {
  const invalid = (reason: string) => new EsError('invalid_type_name_exception', reason, 400);
  if (type.length === 0) throw invalid('mapping type name is empty');
  if (type.length > 255) {
    throw invalid(
      `mapping type name [${type}] is too long; limit is length 255 but was [${type.length}]`,
    );
  }
  if (type.charAt(0) === '_' && type !== '_doc') {
    throw invalid(`mapping type name [${type}] can't start with '_' unless it is called [_doc]`);
  }
  if (type.includes('#')) throw invalid(`mapping type name [${type}] should not include '#' in it`);
  if (type.includes(',')) throw invalid(`mapping type name [${type}] should not include ',' in it`);
  if (type.charAt(0) === '.')
    throw illegalArgument(`mapping type name [${type}] must not start with a '.'`);
}

function moreThanOneType(ctx: MappingContext, types: string[]): EsError {
  return illegalArgument(
    `Rejecting mapping update to [${ctx.indexName}] as the final mapping would have more than 1 type: [${javaHashSetOrder(types).join(', ')}]`,
  );
}

/**
 * Merges an update into the current mapping as PUT _mapping does, with ES's conflict errors and
 * the index.mapping.* limits. `current` null: the update becomes the mapping (validated).
 */
export function mergeMapping(
  current: RootMapping | null,
  update: RootMapping,
  ctx: MappingContext,
): RootMapping {
  const upd = rootDefOf(update);
  if (current === null) {
    validateTypeName(upd.typeName);
    validateMerged(null, update as RootNode, ctx);
    return update;
  }
  const cur = rootDefOf(current);
  if (cur.typeName !== upd.typeName) throw moreThanOneType(ctx, [cur.typeName, upd.typeName]);
  validateTypeName(upd.typeName);
  const merged = buildRoot(mergeRoots(cur, upd));
  validateMerged(asRootNode(current), merged, ctx);
  return merged;
}

/** ES MapperService.merge for index creation: "Failed to parse mapping [t]: …" wrapping. */
function parseWrapped(type: string, json: unknown, ctx: MappingContext): RootDef {
  try {
    return parseRootDef(type, json, ctx);
  } catch (e) {
    const err = e instanceof EsError ? e : new EsError('exception', String(e), 500);
    throw chain(
      'mapper_parsing_exception',
      `Failed to parse mapping [${type}]: ${err.reason}`,
      err,
    );
  }
}

/**
 * Builds the mapping of a new index from the create-index body's `mappings` (`{<type>: {…}}`):
 * one type per index, `_default_` applied to the type (and otherwise ignored), limits checked.
 * Returns null when no type is defined.
 */
export function parseIndexMappings(mappingsJson: unknown, ctx: MappingContext): RootMapping | null {
  if (mappingsJson === undefined || mappingsJson === null) return null;
  if (!isMap(mappingsJson)) {
    throw mapperParsing(
      `Failed to parse mapping: expected an object of mappings by type but got [${String(mappingsJson)}]`,
    );
  }
  const defaults = mappingsJson._default_;
  if (defaults !== undefined) parseWrapped('_default_', defaults, ctx);
  const types = Object.keys(mappingsJson).filter((t) => t !== '_default_');
  const defs: RootDef[] = [];
  for (const type of types) {
    let body = mappingsJson[type];
    if (isMap(defaults) && isMap(body))
      body = mergeJsonDefaults(body, unwrapType('_default_', defaults));
    defs.push(parseWrapped(type, body, ctx));
  }
  if (defs.length > 1) throw moreThanOneType(ctx, types);
  const def = defs[0];
  if (def === undefined) return null;
  validateTypeName(def.typeName);
  const root = buildRoot(def);
  validateMerged(null, root, ctx);
  return root;
}

function unwrapType(type: string, json: Record<string, unknown>): Record<string, unknown> {
  const first = Object.keys(json)[0];
  const inner = first === type ? json[first] : undefined;
  return isMap(inner) ? inner : json;
}

/** GET /<index>/_mapping: the value under the type name. */
export function mappingToJson(root: RootMapping): Record<string, unknown> {
  return rootDefToJson(rootDefOf(root));
}

/**
 * GET _mapping/field/<path> for one concrete path (field, multi-field, alias or metadata field):
 * `{full_name, mapping: {<leaf>: {…}}}`; null when there is no such field.
 */
export function fieldMappingToJson(
  root: RootMapping,
  path: string,
  includeDefaults = false,
): Record<string, unknown> | null {
  const node = asRootNode(root);
  const f = node.fieldsByPath.get(path);
  if (f !== undefined) {
    return { full_name: f.path, mapping: { [f.name]: fieldDefToJson(f.def, includeDefaults) } };
  }
  const meta = metadataFieldToJson(node.def, path, includeDefaults);
  if (meta === null) return null;
  // ES metadata mappers write nothing at all when every parameter is a default (no `{}` either)
  return { full_name: path, mapping: Object.keys(meta).length === 0 ? {} : { [path]: meta } };
}

/** A field by path (multi-fields included); aliases resolve to their target. */
export function lookupField(root: RootMapping, path: string): FieldMapping | undefined {
  const f = root.fieldsByPath.get(path);
  if (f === undefined || f.type !== 'alias') return f;
  return root.fieldsByPath.get(f.aliasPath!);
}

/**
 * Expands a field pattern (`*` wildcards, ES Regex.simpleMatch) to the matching field paths
 * (concrete fields, multi-fields and aliases, as ES MapperService.simpleMatchToFullName does), in
 * mapping order. A pattern without `*` returns itself when it names a field.
 */
export function expandFieldPattern(root: RootMapping, pattern: string): string[] {
  if (!pattern.includes('*')) return root.fieldsByPath.has(pattern) ? [pattern] : [];
  const out: string[] = [];
  for (const path of root.fieldsByPath.keys()) if (wildcardMatch(pattern, path)) out.push(path);
  return out;
}

function wildcardMatch(pattern: string, s: string): boolean {
  // iterative glob with backtracking on the last `*`
  let p = 0;
  let i = 0;
  let star = -1;
  let mark = 0;
  while (i < s.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === s[i]) {
      p++;
      i++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = i;
    } else if (star >= 0) {
      p = star + 1;
      i = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
