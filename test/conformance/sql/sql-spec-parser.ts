/**
 * The `.sql-spec` format (ES SqlSpecTestCase / SpecBaseIntegrationTestCase.readScriptSpec): lines
 * are trimmed, blank lines and `//` comments skipped; a test name, then the query's lines (joined
 * with a space) up to the one ending in `;`. Names ending in `-Ignore` are skipped upstream.
 */
import { readFileSync } from 'node:fs';

export interface SqlSpecCase {
  readonly name: string;
  readonly query: string;
  readonly line: number;
  readonly ignored: boolean;
}

export function parseSqlSpec(text: string): SqlSpecCase[] {
  const out: SqlSpecCase[] = [];
  let name: string | null = null;
  let nameLine = 0;
  let query: string[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) return;
    if (name === null) {
      name = line;
      nameLine = i + 1;
      return;
    }
    query.push(line);
    if (line.endsWith(';')) {
      const q = query.join(' ');
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      const ignored = /-ignore$/i.test(name);
      out.push({
        name: n === 1 ? name : `${name}#${n}`,
        query: q.slice(0, -1),
        line: nameLine,
        ignored,
      });
      name = null;
      query = [];
    }
  });
  return out;
}

export const parseSqlSpecFile = (path: string): SqlSpecCase[] =>
  parseSqlSpec(readFileSync(path, 'utf8'));
