/**
 * The `join` field of module parent-join (ES 6.8 ParentJoinFieldMapper): its `relations`
 * (parent → children, one parent per child), the hidden `<join>#<parent>` keyword fields that
 * hold the join key (a parent's own `_id`, a child's parent `_id`), and a document's join value.
 */
import type { FieldNode } from './build.js';
import { illegalArgument, illegalState, mapperParsing } from './errors.js';
import type { Draft, Node } from './field-draft.js';
import { nodeBooleanValue } from './node-values.js';
import { javaToString } from './java-numbers.js';
import type { FieldMapping, JoinRelation, RootMapping } from './types.js';
import type { ValueSink } from './value-sink.js';
import { textOf } from './value-sink.js';
import { tokenName } from './geo.js';

/** The keyword field holding the join key between `parent` and its children. */
export const parentIdFieldName = (join: string, parent: string): string => `${join}#${parent}`;

/** ParentJoinFieldMapper.TypeParser: `eager_global_ordinals` and `relations`. */
export function parseJoinParams(d: Draft, node: Node): void {
  d.core.eagerGlobalOrdinals = true;
  const relations: JoinRelation[] = [];
  for (const [prop, v] of [...node]) {
    if (prop === 'eager_global_ordinals') {
      d.core.eagerGlobalOrdinals = nodeBooleanValue(v, 'eager_global_ordinals');
    } else if (prop === 'relations') {
      if (v === null || typeof v !== 'object' || Array.isArray(v))
        throw mapperParsing(`[relations] should be a hash but was of type: ${tokenName(v)}`);
      for (const [parent, kids] of Object.entries(v as Record<string, unknown>)) {
        const list = Array.isArray(kids) ? kids.map(javaToString) : [javaToString(kids)];
        const children = [...new Set(list)];
        const at = relations.findIndex((r) => r.parent === parent);
        if (at >= 0) relations[at] = { parent, children };
        else relations.push({ parent, children });
      }
    } else continue;
    node.delete(prop);
  }
  checkRelations(d.name, relations);
  d.core.relations = relations;
}

/** ParentJoinFieldMapper.checkParentFields: a child has one parent. */
function checkRelations(name: string, relations: readonly JoinRelation[]): void {
  const seen = new Set<string>();
  const conflicts: string[] = [];
  for (const r of relations)
    for (const c of r.children) {
      if (seen.has(c)) conflicts.push(`[${c}] cannot have multiple parents`);
      seen.add(c);
    }
  if (conflicts.length > 0)
    throw illegalArgument(
      `invalid definition for join field [${name}]:\n[${conflicts.join(', ')}]`,
    );
}

/** ParentJoinFieldMapper.doMerge: relations may grow, never lose a parent or a child. */
export function mergeRelations(
  path: string,
  current: readonly JoinRelation[],
  update: readonly JoinRelation[],
): void {
  const conflicts: string[] = [];
  const parentOf = (child: string, rs: readonly JoinRelation[]) =>
    rs.find((r) => r.children.includes(child));
  for (const r of current)
    if (!update.some((u) => u.parent === r.parent))
      conflicts.push(`cannot remove parent [${r.parent}] in join field [${path}]`);
  for (const u of update) {
    const self = current.find((r) => r.parent === u.parent);
    if (!self) {
      if (parentOf(u.parent, current))
        conflicts.push(`cannot create parent [${u.parent}] from an existing child`);
      for (const c of u.children)
        if (current.some((r) => r.parent === c))
          conflicts.push(`cannot create child [${c}] from an existing parent`);
    } else {
      for (const c of self.children)
        if (!u.children.includes(c))
          conflicts.push(`cannot remove child [${c}] in join field [${path}]`);
    }
  }
  if (conflicts.length > 0)
    throw illegalState(`invalid update for join field [${path}]:\n[${conflicts.join(', ')}]`);
}

/** `relations` as GET _mapping renders it: a single child as a string. */
export function relationsJson(relations: readonly JoinRelation[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of relations) out[r.parent] = r.children.length === 1 ? r.children[0] : r.children;
  return out;
}

/** The index's join field (at most one per index), if its mapping has one. */
export function joinFieldOf(root: RootMapping | null | undefined): FieldMapping | undefined {
  if (!root) return undefined;
  for (const f of root.properties.values()) if (f.kind === 'field' && f.type === 'join') return f;
  return undefined;
}

/** The parent of a child relation name, undefined when `name` is no child. */
export function joinParentOf(f: FieldMapping, name: string): string | undefined {
  return f.relations?.find((r) => r.children.includes(name))?.parent;
}

/** The child names of a parent relation name, undefined when `name` is no parent. */
export function joinChildrenOf(f: FieldMapping, name: string): readonly string[] | undefined {
  return f.relations?.find((r) => r.parent === name)?.children;
}

/** The keyword fields a join field indexes besides itself, in relation order. */
export function joinKeyFields(f: FieldMapping): string[] {
  return (f.relations ?? []).map((r) => parentIdFieldName(f.path, r.parent));
}

/**
 * ParentJoinFieldMapper.parse: `"name"` or `{name, parent}`. A child needs its parent's id and a
 * routing; a parent indexes its own id under `<join>#<name>`, a child its parent's under
 * `<join>#<parent>`. The relation name is indexed as a keyword under the join field's path.
 */
export function parseJoinValue(f: FieldNode, v: unknown, sink: ValueSink): void {
  let name: string | null = null;
  let parent: string | null = null;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (typeof x === 'string') {
        if (k === 'name') name = x;
        else if (k === 'parent') parent = x;
        else throw illegalArgument(`unknown field name [${k}] in join field [${f.path}]`);
      } else if (typeof x === 'number') {
        if (k === 'parent') parent = textOf(x);
        else throw illegalArgument(`unknown field name [${k}] in join field [${f.path}]`);
      }
    }
  } else if (typeof v === 'string') name = v;
  else
    throw illegalState(
      `[${f.path}] expected START_OBJECT or VALUE_STRING but was: ${tokenName(v)}`,
    );
  if (name === null) throw illegalArgument(`null join name in field [${f.path}]`);
  const parentOf = joinParentOf(f, name);
  const isParent = joinChildrenOf(f, name) !== undefined;
  if (parentOf === undefined && !isParent)
    throw illegalArgument(`unknown join name [${name}] for field [${f.path}]`);
  const keys = f.hiddenFields!;
  if (parentOf !== undefined) {
    if (parent === null) throw illegalArgument(`[parent] is missing for join field [${f.path}]`);
    if (sink.routing === null || sink.routing === undefined)
      throw illegalArgument(`[routing] is missing for join field [${f.path}]`);
    sink.add(keys.get(parentIdFieldName(f.path, parentOf))!, parent);
  }
  if (isParent) sink.add(keys.get(parentIdFieldName(f.path, name))!, sink.id);
  sink.add(keys.get(f.path)!, name);
}
