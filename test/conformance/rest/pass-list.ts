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
