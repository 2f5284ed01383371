/**
 * The committed pass list (`test/conformance/rest-pass-list.txt`): one test id per line, sorted,
 * no duplicates. Updating it from a run adds what passes now; an entry disappears only if its test
 * ran and did not pass, or no longer exists — and the CLI refuses that without `--allow-shrink`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function readPassList(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** Code-unit order, so the file is stable whatever the locale. */
export function sortIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function writePassList(path: string, ids: Iterable<string>): void {
  const sorted = sortIds(ids);
  writeFileSync(path, sorted.length > 0 ? sorted.join('\n') + '\n' : '');
}

export interface PassListUpdate {
  next: string[];
  added: string[];
  removed: string[];
}

/**
 * `ran`: ids of the tests this run executed (or skipped); `passed`: those that passed;
 * `existing`: every test id there is. Entries outside the run are kept as they are.
 */
export function computePassListUpdate(
  current: readonly string[],
  ran: ReadonlySet<string>,
  passed: ReadonlySet<string>,
  existing: ReadonlySet<string>,
): PassListUpdate {
  const cur = new Set(current);
  const removed = sortIds(
    current.filter((id) => !existing.has(id) || (ran.has(id) && !passed.has(id))),
  );
  const gone = new Set(removed);
  const added = sortIds([...passed].filter((id) => !cur.has(id)));
  const next = sortIds([...current.filter((id) => !gone.has(id)), ...added]);
  return { next, added, removed };
}

/** Problems with the file's own shape: unsorted lines and duplicates. */
export function passListProblems(lines: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const id = lines[i]!;
    if (seen.has(id)) problems.push(`duplicate entry: ${id}`);
    seen.add(id);
    if (i > 0 && lines[i - 1]! > id)
      problems.push(`not sorted: "${id}" comes after "${lines[i - 1]}"`);
  }
  return problems;
}

/**
 * The pass list covers every tree of the suite (`test/`, `modules/<name>/`, `x-pack/`): ids of the
 * core tree stand as they are (`bulk/10_basic.yml/...`), the others carry their tree in front
 * (`modules/reindex/reindex/10_basic.yml/...`). No core folder is named `modules` or `x-pack`.
 */
export const CORE_TREE = 'test';

export function treePrefix(tree: string): string {
  return tree === CORE_TREE ? '' : `${tree}/`;
}

/** The tree of a pass-list id and the id within that tree. */
export function splitTreeId(id: string): { tree: string; id: string } {
  const m = /^(modules\/[^/]+|x-pack)\/(.*)$/.exec(id);
  return m ? { tree: m[1]!, id: m[2]! } : { tree: CORE_TREE, id };
}

/** Pass-list ids grouped by tree, each group holding the ids within its tree. */
export function idsByTree(ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const full of ids) {
    const { tree, id } = splitTreeId(full);
    let list = out.get(tree);
    if (!list) out.set(tree, (list = []));
    list.push(id);
  }
  return out;
}

/**
 * Updates the entries of one tree from a run of that tree (ids within the tree); the other
 * trees' entries are kept as they are.
 */
export function computeTreePassListUpdate(
  current: readonly string[],
  tree: string,
  ran: ReadonlySet<string>,
  passed: ReadonlySet<string>,
  existing: ReadonlySet<string>,
): PassListUpdate {
  const prefix = treePrefix(tree);
  const mine = current.filter((id) => splitTreeId(id).tree === tree);
  const others = current.filter((id) => splitTreeId(id).tree !== tree);
  const local = computePassListUpdate(
    mine.map((id) => id.slice(prefix.length)),
    ran,
    passed,
    existing,
  );
  const full = (ids: string[]) => ids.map((id) => prefix + id);
  return {
    next: sortIds([...others, ...full(local.next)]),
    added: full(local.added),
    removed: full(local.removed),
  };
}
