/**
 * Whole-mapping checks ES MapperService.internalMerge runs after a merge: field-type
 * compatibility with the current mapping (FieldTypeLookup / MappedFieldType.checkCompatibility),
 * field aliases, copy_to targets and nested scopes (MapperMergeValidator), and the
 * index.mapping.{total_fields,depth,nested_fields}.limit settings.
 */
import type { MappingContext } from './context.js';
import { DEFAULT_LIMITS } from './context.js';
import type { FieldNode, RootNode } from './build.js';
import type { TermVector } from './types.js';
import { illegalArgument } from './errors.js';
import { javaCompare } from './dynamic-templates.js';

const TV: Record<TermVector, [boolean, boolean, boolean, boolean]> = {
  no: [false, false, false, false],
  yes: [true, false, false, false],
  with_offsets: [true, true, false, false],
  with_positions: [true, false, true, false],
  with_positions_offsets: [true, true, true, false],
  with_positions_payloads: [true, false, true, true],
  with_positions_offsets_payloads: [true, true, true, true],
};

const isDefaultAnalyzer = (a: string | undefined) => a === undefined || a === 'default';

/** ES MappedFieldType.checkCompatibility (+ the type-specific overrides), non-strict. */
function conflicts(a: FieldNode, b: FieldNode): string[] {
  const out: string[] = [];
  const m = `mapper [${a.path}]`;
  if (a.index !== b.index) out.push(`${m} has different [index] values`);
  if (a.store !== b.store) out.push(`${m} has different [store] values`);
  if (a.docValues !== b.docValues) out.push(`${m} has different [doc_values] values`);
  if (!a.norms && b.norms)
    out.push(`${m} has different [norms] values, cannot change from disable to enabled`);
  const ta = TV[a.termVector ?? 'no'];
  const tb = TV[b.termVector ?? 'no'];
  const tvNames = [
    'store_term_vector',
    'store_term_vector_offsets',
    'store_term_vector_positions',
    'store_term_vector_payloads',
  ];
  for (let i = 0; i < 4; i++)
    if (ta[i] !== tb[i]) out.push(`${m} has different [${tvNames[i]}] values`);
  if (a.type === 'text' || a.type === 'completion') {
    const aa = a.analyzer;
    const ba = b.analyzer;
    if (isDefaultAnalyzer(aa) ? !isDefaultAnalyzer(ba) : isDefaultAnalyzer(ba) || aa !== ba) {
      out.push(`${m} has different [analyzer]`);
    }
  }
  if (a.similarity !== b.similarity) out.push(`${m} has different [similarity]`);
  if (a.type === 'text') {
    const pa = a.indexPrefixes;
    const pb = b.indexPrefixes;
    if (pa?.minChars !== pb?.minChars || pa?.maxChars !== pb?.maxChars) {
      if (!pa)
        out.push(
          `${m} has different [index_prefixes] settings, cannot change from disabled to enabled`,
        );
      else if (!pb)
        out.push(
          `${m} has different [index_prefixes] settings, cannot change from enabled to disabled`,
        );
      else out.push(`${m} has different [index_prefixes] settings`);
    }
    if ((a.indexPhrases ?? false) !== (b.indexPhrases ?? false))
      out.push(`${m} has different [index_phrases] settings`);
  }
  if (a.type === 'keyword' && a.normalizer !== b.normalizer)
    out.push(`${m} has different [normalizer]`);
  if (a.type === 'date') {
    if (a.format !== b.format) out.push(`${m} has different [format] values`);
    if ((a.locale ?? '') !== (b.locale ?? '')) out.push(`${m} has different [locale] values`);
  }
  if (a.type === 'completion') {
    const ca = a.completion!;
    const cb = b.completion!;
    if (ca.preservePositionIncrements !== cb.preservePositionIncrements) {
      out.push(`${m} has different [preserve_position_increments] values`);
    }
    if (ca.preserveSeparators !== cb.preserveSeparators)
      out.push(`${m} has different [preserve_separators] values`);
    if (JSON.stringify(ca.contexts) !== JSON.stringify(cb.contexts)) {
      out.push(`${m} has different [context_mappings] values`);
    }
  }
  if (a.type === 'scaled_float' && a.scalingFactor !== b.scalingFactor) {
    out.push(`${m} has different [scaling_factor] values`);
  }
  return out;
}

const parentOf = (p: string): string | undefined => {
  const i = p.lastIndexOf('.');
  return i < 0 ? undefined : p.slice(0, i);
};

/** ES MapperMergeValidator.getNestedScope. */
function nestedScope(path: string, root: RootNode): string | undefined {
  for (let p = parentOf(path); p !== undefined; p = parentOf(p)) {
    if (root.objectsByPath.get(p)?.type === 'nested') return p;
  }
  return undefined;
}

/** The metadata field mappers every 6.8 mapping has (ES DocumentMapper.Builder). */
const METADATA_MAPPERS = new Set([
  '_all', '_field_names', '_id', '_ignored', '_index', '_parent', '_routing', '_seq_no', '_source',
  '_type', '_uid', '_version',
]); // prettier-ignore

export function validateMerged(old: RootNode | null, merged: RootNode, ctx: MappingContext): void {
  // MapperMergeValidator.checkFieldUniqueness: metadata mappers count as fields of the mapping
  for (const [name, d] of merged.properties) {
    if (!METADATA_MAPPERS.has(name)) continue;
    if (d.kind === 'object') {
      throw illegalArgument(
        `Field [${name}] is defined both as an object and a field in [${merged.typeName}]`,
      );
    }
    throw illegalArgument(`Field [${name}] is defined twice in [${merged.typeName}]`);
  }
  // parent-join registers metadata field _parent_join once per join field
  let joins = 0;
  for (const d of merged.properties.values()) if (d.kind === 'field' && d.type === 'join') joins++;
  if (joins > 1)
    throw illegalArgument(`Field [_parent_join] is defined twice in [${merged.typeName}]`);
  const fields = [...merged.fieldsByPath.values()].sort((x, y) => javaCompare(x.path, y.path));
  const concrete = fields.filter((f) => f.type !== 'alias');
  const aliases = fields.filter((f) => f.type === 'alias');
  const oldAliases = new Set(
    old ? [...old.fieldsByPath.values()].filter((f) => f.type === 'alias').map((f) => f.path) : [],
  );
  // FieldTypeLookup.validateField
  if (old) {
    for (const f of concrete) {
      const prev = old.fieldsByPath.get(f.path);
      if (prev === undefined) continue;
      if (prev.type === 'alias') {
        throw illegalArgument(
          `The name for field [${f.path}] has already been used to define a field alias.`,
        );
      }
      if (prev.def === f.def) continue;
      if (prev.type !== f.type) {
        throw illegalArgument(
          `mapper [${f.path}] cannot be changed from type [${prev.type}] to [${f.type}]`,
        );
      }
      const c = conflicts(prev, f);
      if (c.length > 0) {
        throw illegalArgument(
          `Mapper for [${f.path}] conflicts with existing mapping in other types:\n[${c.join(', ')}]`,
        );
      }
    }
  }
  // FieldTypeLookup.validateAlias
  const concreteNames = new Set(concrete.map((f) => f.path));
  const knownAliases = new Set(oldAliases);
  for (const a of aliases) {
    const path = a.aliasPath!;
    const pre = `Invalid [path] value [${path}] for field alias [${a.path}]`;
    if (concreteNames.has(a.path)) {
      throw illegalArgument(
        `The name for field alias [${a.path}] has already been used to define a concrete field.`,
      );
    }
    if (path === a.path) throw illegalArgument(`${pre}: an alias cannot refer to itself.`);
    if (knownAliases.has(path))
      throw illegalArgument(`${pre}: an alias cannot refer to another alias.`);
    if (!concreteNames.has(path)) {
      throw illegalArgument(`${pre}: an alias must refer to an existing field in the mappings.`);
    }
    knownAliases.add(a.path);
  }
  // MapperMergeValidator.validateCopyTo
  for (const f of concrete) {
    if (f.copyTo.length === 0) continue;
    const sourceParent = parentOf(f.path);
    if (sourceParent !== undefined && merged.fieldsByPath.has(sourceParent)) {
      throw illegalArgument(`[copy_to] may not be used to copy from a multi-field: [${f.path}]`);
    }
    const sourceScope = nestedScope(f.path, merged);
    for (const target of f.copyTo) {
      const tp = parentOf(target);
      if (tp !== undefined && merged.fieldsByPath.has(tp)) {
        throw illegalArgument(`[copy_to] may not be used to copy to a multi-field: [${target}]`);
      }
      if (merged.objectsByPath.has(target)) {
        throw illegalArgument(`Cannot copy to field [${target}] since it is mapped as an object`);
      }
      const targetScope = nestedScope(target, merged);
      const ok =
        sourceScope === undefined || targetScope === undefined
          ? targetScope === undefined
          : sourceScope === targetScope || sourceScope.startsWith(targetScope + '.');
      if (!ok) {
        throw illegalArgument(
          `Illegal combination of [copy_to] and [nested] mappings: [copy_to] may only copy data to the current nested document or any of its parents, however one [copy_to] directive is trying to copy data from nested object [${sourceScope ?? 'null'}] to [${targetScope ?? 'null'}]`,
        );
      }
    }
  }
  // MapperMergeValidator.validateFieldAliasTargets
  for (const a of aliases) {
    const aliasScope = nestedScope(a.path, merged);
    const pathScope = nestedScope(a.aliasPath!, merged);
    if (aliasScope !== pathScope) {
      throw illegalArgument(
        `Invalid [path] value [${a.aliasPath}] for field alias [${a.path}]: an alias must have the same nested scope as its target. ` +
          (aliasScope === undefined
            ? 'The alias is not nested'
            : `The alias's nested scope is [${aliasScope}]`) +
          ', but ' +
          (pathScope === undefined
            ? 'the target is not nested.'
            : `the target's nested scope is [${pathScope}].`),
      );
    }
  }
  checkLimits(merged, ctx);
}

/** ES MapperService.checkTotalFieldsLimit / checkNestedFieldsLimit / checkDepthLimit. */
function checkLimits(root: RootNode, ctx: MappingContext): void {
  const total = ctx.limits?.totalFields ?? DEFAULT_LIMITS.totalFields;
  let count = root.objectsByPath.size;
  for (const f of root.fieldsByPath.values()) {
    count++;
    if (f.indexPrefixes) count++; // the hidden `._index_prefix` field mapper
    if (f.indexPhrases) count++; // and `._index_phrase`
  }
  if (count > total) {
    throw illegalArgument(
      `Limit of total fields [${total}] in index [${ctx.indexName}] has been exceeded`,
    );
  }
  const nestedLimit = ctx.limits?.nestedFields ?? DEFAULT_LIMITS.nestedFields;
  let nested = 0;
  for (const o of root.objectsByPath.values()) if (o.type === 'nested') nested++;
  if (nested > nestedLimit) {
    throw illegalArgument(
      `Limit of nested fields [${nestedLimit}] in index [${ctx.indexName}] has been exceeded`,
    );
  }
  const depth = ctx.limits?.depth ?? DEFAULT_LIMITS.depth;
  for (const path of root.objectsByPath.keys()) {
    let dots = 0;
    for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 46) dots++;
    if (dots + 2 > depth) {
      throw illegalArgument(
        `Limit of mapping depth [${depth}] in index [${ctx.indexName}] has been exceeded due to object field [${path}]`,
      );
    }
  }
}
