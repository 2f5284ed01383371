/**
 * The mapping update a document's new fields produce (ES DocumentParser.createDynamicUpdate): the
 * new mappers sorted by name and merged into one tree — repeated names merge with ES's conflict
 * checks, so `[1, "x"]` fails as in ES — then merged into the current mapping and validated like a
 * PUT _mapping (MapperService.merge, limits included).
 */
import type { MappingContext } from './context.js';
import type { Def, ObjectDef, RootDef } from './model.js';
import type { RootNode } from './build.js';
import { buildRoot } from './build.js';
import { mergeDef, mergeRoots } from './merge-defs.js';
import { validateMerged } from './validate.js';
import { javaCompare } from './dynamic-templates.js';

/** A mapper created while parsing a document, with its full path. */
export interface DynamicEntry {
  readonly path: string;
  readonly def: Def;
}

export function dynamicMappingUpdate(
  root: RootNode,
  list: readonly DynamicEntry[],
  ctx: MappingContext,
): RootNode {
  const sorted = list
    .map((e, i) => ({ e, i }))
    .sort((a, b) => javaCompare(a.e.path, b.e.path) || a.i - b.i)
    .map((x) => x.e);
  const top = new Map<string, Def>();
  let previous: DynamicEntry | undefined;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i]!;
    if (previous !== undefined && e.path === previous.path) {
      // ES merges repeated mappers the other way round, only to detect conflicts
      mergeDef(e.def, previous.def, parentPath(e.path));
      continue;
    }
    if (i > 0) previous = e;
    insertUpdate(root, top, e);
  }
  const current = root.def;
  const update: RootDef = {
    ...current,
    properties: top,
    dateDetection: { value: true, explicit: false },
    numericDetection: { value: false, explicit: false },
    dynamicDateFormats: { value: current.dynamicDateFormats.value, explicit: false },
    dynamicTemplates: { value: [], explicit: false },
    source: undefined,
    routing: undefined,
    fieldNames: undefined,
    all: undefined,
    meta: undefined,
  };
  const merged = buildRoot(mergeRoots(current, update));
  validateMerged(root, merged, ctx);
  return merged;
}

/** Puts a dynamic mapper at its path inside an update tree of existing/new objects. */
function insertUpdate(root: RootNode, top: Map<string, Def>, e: DynamicEntry): void {
  const parts = e.path.split('.');
  let props = top;
  let path = '';
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    path = join(path, part);
    let o = props.get(part);
    if (o === undefined) {
      const existing = root.objectsByPath.get(path);
      const base: ObjectDef = existing ? existing.def : dynamicObjectShell(part);
      o = { ...base, properties: new Map() };
      props.set(part, o);
    }
    if (o.kind !== 'object') return; // a conflicting field is reported by the merge below
    props = o.properties as Map<string, Def>;
  }
  const name = parts[parts.length - 1]!;
  const cur = props.get(name);
  props.set(name, cur === undefined ? e.def : mergeDef(cur, e.def, parentPath(e.path)));
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);

function dynamicObjectShell(name: string): ObjectDef {
  return {
    kind: 'object',
    name,
    type: 'object',
    enabled: true,
    includeInParent: false,
    includeInRoot: false,
    properties: new Map(),
  };
}

const parentPath = (p: string) => {
  const i = p.lastIndexOf('.');
  return i < 0 ? '' : p.slice(0, i);
};
