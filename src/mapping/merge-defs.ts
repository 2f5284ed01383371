/**
 * Structural merge of mapping definitions as ES ObjectMapper/FieldMapper/RootObjectMapper.merge do
 * (PUT _mapping, dynamic updates, duplicate names in one mapping): objects merge recursively,
 * fields take the update's parameters (except coerce/ignore_malformed/ignore_z_value unless given)
 * and keep multi-fields not repeated. Conflicts throw ES's illegal_argument_exception wording;
 * parameter-compatibility checks (analyzer, index, …) are in validate.ts.
 */
import { mergeRelations } from './join.js';
import type { Def, FieldDef, ObjectDef, RootDef } from './model.js';
import { RANGE_TYPES, NUMBER_TYPES } from './model.js';
import type { FieldCore } from './model.js';
import { illegalArgument, mapperException } from './errors.js';

/** The Java mapper class a field type is implemented by (merge compares classes). */
function mapperClass(f: FieldDef): string {
  if (f.core.keywordFamily !== undefined) return f.core.keywordFamily;
  const t = f.core.type;
  if (NUMBER_TYPES.has(t)) return 'number';
  if (RANGE_TYPES.has(t)) return 'range';
  if (t === 'geo_shape') return f.core.geoShape?.legacy ? 'legacy_geo_shape' : 'geo_shape';
  return t;
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);

/** Merges `update` into `existing` (both named `name` under `parentPath`). */
export function mergeDef(existing: Def, update: Def, parentPath: string): Def {
  const path = join(parentPath, existing.name);
  if (existing.kind === 'object') {
    if (update.kind !== 'object') {
      throw illegalArgument(
        `Can't merge a non object mapping [${join(parentPath, update.name)}] with an object mapping [${path}]`,
      );
    }
    return mergeObject(existing, update, path, path);
  }
  if (existing.core.type === 'alias') {
    if (update.kind !== 'field' || update.core.type !== 'alias') {
      throw illegalArgument(
        `Cannot merge a field alias mapping [${path}] with a mapping that is not for a field alias.`,
      );
    }
    return update;
  }
  return mergeField(existing, update, path);
}

function mergeField(existing: FieldDef, update: Def, path: string): FieldDef {
  if (update.kind !== 'field' || mapperClass(existing) !== mapperClass(update)) {
    const merged =
      update.kind === 'object'
        ? 'ObjectMapper'
        : update.core.type === 'alias'
          ? 'FieldAliasMapper'
          : update.core.type;
    throw illegalArgument(
      `mapper [${path}] of different type, current_type [${existing.core.keywordFamily ?? existing.core.type}], merged_type [${update.kind === 'field' ? (update.core.keywordFamily ?? merged) : merged}]`,
    );
  }
  checkConstantValue(existing, update, path);
  if (existing.core.type === 'text') checkTextSubfields(existing, update, path);
  if (existing.core.type === 'join')
    mergeRelations(path, existing.core.relations ?? [], update.core.relations ?? []);
  const fields = new Map(existing.fields);
  for (const [name, mf] of update.fields) {
    const cur = fields.get(name);
    fields.set(name, cur ? mergeField(cur, mf, `${path}.${name}`) : mf);
  }
  return {
    kind: 'field',
    name: existing.name,
    core: mergeCore(existing.core, update.core),
    fields,
  };
}

/** ES 7.10 constant_keyword: `value` may be set once (from unset), never changed. */
function checkConstantValue(existing: FieldDef, update: FieldDef, path: string): void {
  const a = existing.core.constantValue;
  const b = update.core.constantValue;
  if (existing.core.keywordFamily !== 'constant_keyword' || a === undefined || a === b) return;
  throw illegalArgument(
    `Mapper for [${path}] conflicts with existing mapping:\n[Cannot update parameter [value] from [${a}] to [${b ?? 'null'}]]`,
  );
}

/** ES TextFieldMapper.doMerge: index_prefixes / index_phrases cannot be added or removed. */
function checkTextSubfields(existing: FieldDef, update: FieldDef, path: string): void {
  const a = existing.core.indexPrefixes;
  const b = update.core.indexPrefixes;
  if ((a === undefined) !== (b === undefined)) {
    const show = (p: typeof a) => (p ? `prefixChars=${p.minChars}:${p.maxChars}` : 'null');
    throw illegalArgument(
      `mapper [${path}] has different index_prefix settings, current [${show(a)}], merged [${show(b)}]`,
    );
  }
  if (
    a === undefined &&
    (existing.core.indexPhrases ?? false) !== (update.core.indexPhrases ?? false)
  ) {
    throw illegalArgument(
      `mapper [${path}] has different index_phrases settings, current [${existing.core.indexPhrases ?? false}], merged [${update.core.indexPhrases ?? false}]`,
    );
  }
}

/** The update's parameters win, except the ones ES only takes when given explicitly. */
function mergeCore(existing: FieldCore, update: FieldCore): FieldCore {
  const ex = existing.explicit;
  const up = update.explicit;
  const keep: Partial<Record<'coerce' | 'ignoreMalformed' | 'ignoreZValue', unknown>> = {};
  const explicit = new Set(up ?? []);
  const carry = (
    param: 'coerce' | 'ignore_malformed' | 'ignore_z_value',
    key: 'coerce' | 'ignoreMalformed' | 'ignoreZValue',
  ) => {
    if (!(up?.has(param) ?? false) && existing[key] !== undefined) {
      keep[key] = existing[key];
      if (ex?.has(param)) explicit.add(param);
    }
  };
  carry('coerce', 'coerce');
  carry('ignore_malformed', 'ignoreMalformed');
  carry('ignore_z_value', 'ignoreZValue');
  const out: Record<string, unknown> = { ...update, ...keep };
  if (explicit.size > 0) out.explicit = explicit;
  else delete out.explicit;
  return out as unknown as FieldCore;
}

/** `path`: the object's full path ('' for the root); `fullName`: ES fullPath() (type name for the root). */
function mergeObject(
  existing: ObjectDef,
  update: ObjectDef,
  path: string,
  fullName: string,
): ObjectDef {
  if (existing.type === 'nested' && update.type !== 'nested') {
    throw illegalArgument(`object mapping [${path}] can't be changed from nested to non-nested`);
  }
  if (existing.type !== 'nested' && update.type === 'nested') {
    throw illegalArgument(`object mapping [${path}] can't be changed from non-nested to nested`);
  }
  const props = new Map(existing.properties);
  for (const [name, child] of update.properties) {
    const cur = props.get(name);
    if (cur?.kind === 'object' && child.kind === 'object' && cur.enabled !== child.enabled) {
      throw mapperException(
        `Can't update attribute for type [${fullName}.${name}.enabled] in index mapping`,
      );
    }
    props.set(name, cur ? mergeDef(cur, child, path) : child);
  }
  const out: { -readonly [K in keyof ObjectDef]: ObjectDef[K] } = {
    ...existing,
    properties: props,
  };
  // ES ObjectMapper.doMerge: include_in_all is replaced, dynamic only when given
  if (update.includeInAll === undefined) delete out.includeInAll;
  else out.includeInAll = update.includeInAll;
  if (update.dynamic !== undefined) out.dynamic = update.dynamic;
  return out;
}

/**
 * ES Mapping.merge: root objects merge, explicit root settings replace, metadata fields merge
 * (`_source` settings cannot change), `_meta` is replaced when given.
 */
export function mergeRoots(current: RootDef, update: RootDef): RootDef {
  const obj = mergeObject(current, { ...update, name: current.name }, '', current.typeName);
  const out: { -readonly [K in keyof RootDef]: RootDef[K] } = { ...current, ...obj };
  if (update.dateDetection.explicit) out.dateDetection = update.dateDetection;
  if (update.numericDetection.explicit) out.numericDetection = update.numericDetection;
  if (update.dynamicDateFormats.explicit) out.dynamicDateFormats = update.dynamicDateFormats;
  if (update.dynamicTemplates.explicit) out.dynamicTemplates = update.dynamicTemplates;
  if (update.source) {
    const cur = current.source ?? { enabled: true };
    const conflicts: string[] = [];
    if (cur.enabled !== update.source.enabled)
      conflicts.push('Cannot update enabled setting for [_source]');
    if (!sameList(cur.includes, update.source.includes))
      conflicts.push('Cannot update includes setting for [_source]');
    if (!sameList(cur.excludes, update.source.excludes))
      conflicts.push('Cannot update excludes setting for [_source]');
    if (conflicts.length > 0) {
      throw illegalArgument(`Can't merge because of conflicts: [${conflicts.join(', ')}]`);
    }
  }
  if (update.all && current.all && update.all.enabled !== current.all.enabled) {
    throw illegalArgument(
      `mapper [_all] enabled is ${current.all.enabled} now encountering ${update.all.enabled}`,
    );
  }
  // _routing never changes once the type exists (RoutingFieldMapper.doMerge does nothing)
  if (update.fieldNames) out.fieldNames = update.fieldNames;
  if (update.all && !current.all) out.all = update.all;
  if (update.meta !== undefined) out.meta = update.meta;
  return out;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
