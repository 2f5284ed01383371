/**
 * The shell's history file (`~/.quarry_sql_history`, or `$QUARRY_SQL_HISTORY`): one statement per
 * line, newest last, at most `limit` entries. A statement typed over several lines is kept as one
 * entry, its lines joined by a space, so Up recalls it whole. In memory the list is newest first,
 * as Node's readline keeps `history`.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const HISTORY_LIMIT = 1000;

export function historyPath(env: NodeJS.ProcessEnv): string {
  const p = env.QUARRY_SQL_HISTORY;
  return p !== undefined && p !== '' ? p : join(homedir(), '.quarry_sql_history');
}

/**
 * A `--` comment of a line as a block comment (outside quotes), so joining lines does not comment
 * out the lines after it.
 */
export function blockLineComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '-' && line[i + 1] === '-') {
      const text = line
        .slice(i + 2)
        .replace(/\*\//g, '* /')
        .trim();
      return `${line.slice(0, i)}/* ${text} */`;
    }
  }
  return line;
}

/** A statement's lines as one history entry (blank lines dropped, each line trimmed). */
export function historyEntry(lines: readonly string[]): string {
  const kept = lines.map((l) => l.trim()).filter((l) => l !== '');
  return kept.map((l, i) => (i < kept.length - 1 ? blockLineComment(l) : l)).join(' ');
}

/** Adds an entry to a newest-first list: a repeat of the newest is not added twice; bounded. */
export function addEntry(history: string[], entry: string, limit = HISTORY_LIMIT): void {
  if (entry === '' || history[0] === entry) return;
  history.unshift(entry);
  if (history.length > limit) history.length = limit;
}

/** The newest-first entries of the file (none when it is missing or unreadable). */
export function loadHistory(path: string, limit = HISTORY_LIMIT): string[] {
  try {
    if (!existsSync(path)) return [];
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return lines.slice(-limit).reverse();
  } catch {
    return [];
  }
}

/**
 * Appends one entry; when the file has grown past twice the limit it is rewritten with the newest
 * `limit` entries (appending keeps several shells' entries; the rewrite keeps it bounded).
 */
export function saveEntry(path: string, entry: string, limit = HISTORY_LIMIT): void {
  try {
    appendFileSync(path, entry.replace(/\n/g, ' ') + '\n', { mode: 0o600 });
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length > 2 * limit) {
      const tmp = `${path}.tmp`;
      writeFileSync(tmp, lines.slice(-limit).join('\n') + '\n', { mode: 0o600 });
      renameSync(tmp, path);
    }
  } catch {
    // history is a convenience: an unwritable file must not stop the shell
  }
}
