/**
 * FROM clause analysis (ES Analyzer ResolveTable, CTESubstitution, SubQueryAlias handling): an index
 * pattern becomes an `EsRelation` whose output is every field flattened in mapping order, each
 * qualified by the index name or its alias; a CTE or sub-select becomes its analyzed plan
 * re-qualified by its alias; an unknown index becomes an `UnresolvedRelation` ("Unknown index [x]").
 */
import type * as A from '../ast/nodes.js';
import { qualifiedIndex } from '../ast/nodes.js';
import type { Attribute, FieldAttr, Src } from '../expression/nodes.js';
import type { LogicalPlan } from '../plan/logical.js';
import { planOutput, transformPlanUp } from '../plan/logical.js';
import { mapPlanExpressions } from '../plan/logical.js';
import { transformUp } from '../expression/nodes.js';
import { flattenFields, type EsField, type EsIndex } from './es-index.js';

/** Resolves index patterns to their merged mapping (ES IndexResolver). */
export interface Catalog {
  /** null when nothing matches the pattern. */
  resolveIndex(pattern: string, includeFrozen: boolean): EsIndex | null;
}

export const tableSrc = (t: { loc: A.Loc }, text: string): Src => ({
  text,
  line: t.loc.line,
  column: t.loc.column,
});

/** What a relation's output takes from each flattened field: the same for every statement. */
interface FlatField {
  readonly field: EsField;
  readonly nestedParent: string | null;
  readonly parentName: string | null;
  readonly parentIsObject: boolean;
}

/**
 * Flattened fields per merged mapping: the catalog hands out the same `fields` while the mapping
 * stands, so a statement only mints its attributes instead of re-walking the whole mapping.
 */
const flatFieldsOf = new WeakMap<readonly EsField[], readonly FlatField[]>();

function flatFields(fields: readonly EsField[]): readonly FlatField[] {
  let flat = flatFieldsOf.get(fields);
  if (flat !== undefined) return flat;
  const byName = new Map<string, EsField>();
  const all = flattenFields(fields);
  for (const f of all) byName.set(f.name, f);
  flat = all.map((f) => {
    const dot = f.name.lastIndexOf('.');
    const parent = dot > 0 ? (byName.get(f.name.slice(0, dot)) ?? null) : null;
    return {
      field: f,
      nestedParent: nestedParentOf(f.name, byName),
      parentName: parent !== null ? parent.name : null,
      parentIsObject:
        parent !== null && (parent.dataType === 'OBJECT' || parent.dataType === 'NESTED'),
    };
  });
  flatFieldsOf.set(fields, flat);
  return flat;
}

/** ES EsRelation.flatten: every field, parents before children, each a FieldAttribute. */
export function relationOutput(
  index: EsIndex,
  qualifier: string,
  src: Src,
  newId: () => number,
): FieldAttr[] {
  return flatFields(index.fields).map((f) => ({
    kind: 'Field',
    id: newId(),
    name: f.field.name,
    qualifier,
    field: f.field,
    nestedParent: f.nestedParent,
    parentName: f.parentName,
    parentIsObject: f.parentIsObject,
    dataType: f.field.dataType,
    src,
  }));
}

function nestedParentOf(path: string, byName: Map<string, EsField>): string | null {
  let best: string | null = null;
  let i = path.indexOf('.');
  while (i > 0) {
    const head = path.slice(0, i);
    if (byName.get(head)?.dataType === 'NESTED') best = head;
    i = path.indexOf('.', i + 1);
  }
  return best;
}

/** Re-qualifies a sub-plan's field attributes (ES SubQueryAlias.output). */
export function requalify(plan: LogicalPlan, qualifier: string): LogicalPlan {
  const rename = (p: LogicalPlan): LogicalPlan => {
    const q =
      p.kind === 'EsRelation' ? { ...p, output: p.output.map((f) => ({ ...f, qualifier })) } : p;
    return mapPlanExpressions(q, (e) =>
      transformUp(e, (x) => (x.kind === 'Field' ? { ...x, qualifier } : x)),
    );
  };
  return transformPlanUp(plan, rename);
}

export { primitiveAttributes } from '../expression/attributes.js';
export { qualifiedIndex, planOutput };
