/**
 * Tab completion for the shell (pure): the word under the cursor, whether a table name is expected
 * there (after FROM, JOIN, DESCRIBE, SHOW COLUMNS IN), the tables a statement names, and the
 * candidates that start with the word. Keywords and functions follow the case of what was typed.
 */

export const SQL_KEYWORDS: readonly string[] = [
  'ALL', 'AND', 'AS', 'ASC', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CATALOG', 'COLUMNS', 'CONVERT',
  'DESC', 'DESCRIBE', 'DISTINCT', 'ELSE', 'END', 'ESCAPE', 'EXISTS', 'EXPLAIN', 'EXTRACT',
  'FALSE', 'FIRST', 'FORMAT', 'FROM', 'FULL', 'FUNCTIONS', 'GROUP', 'HAVING', 'IN', 'INNER',
  'INTERVAL', 'IS', 'JOIN', 'LAST', 'LEFT', 'LIKE', 'LIMIT', 'MATCH', 'NOT', 'NULL', 'NULLS',
  'ON', 'OR', 'ORDER', 'OUTER', 'PIVOT', 'QUERY', 'RIGHT', 'RLIKE', 'SCHEMAS', 'SELECT', 'SHOW',
  'SYS', 'TABLE', 'TABLES', 'THEN', 'TRUE', 'TYPES', 'USING', 'WHEN', 'WHERE', 'WITH',
]; // prettier-ignore

/** The identifier being typed at the end of `line` (letters, digits, `_`, `.`, `@`, `-`). */
export function currentWord(line: string): string {
  const m = /[A-Za-z0-9_.@*-]*$/.exec(line);
  let w = m ? m[0] : '';
  // a leading `-` or `*` is an operator, not part of a name
  w = w.replace(/^[-*]+/, '');
  return w;
}

/** Whether the word being typed follows a keyword that takes a table name. */
export function expectsTable(before: string): boolean {
  return /(?:\bFROM|\bJOIN|\bDESCRIBE|\bDESC|\bCOLUMNS\s+IN|\bTABLES\s+LIKE)\s+[^\s,]*$/i.test(
    before,
  );
}

/** The tables of `known` that `statement` names (as whole words, case-insensitively). */
export function tablesIn(statement: string, known: readonly string[]): string[] {
  const words = new Set(
    (statement.match(/[A-Za-z0-9_.@*-]+|"[^"]+"/g) ?? []).map((w) =>
      w.replace(/^"|"$/g, '').toLowerCase(),
    ),
  );
  return known.filter((t) => words.has(t.toLowerCase()));
}

const sameCase = (word: string, candidate: string): string =>
  word !== '' && word === word.toLowerCase() && /[a-z]/.test(word)
    ? candidate.toLowerCase()
    : candidate;

export interface Candidates {
  readonly keywords: readonly string[];
  readonly functions: readonly string[];
  readonly tables: readonly string[];
  readonly columns: readonly string[];
}

/**
 * The completions of `word`: tables only where a table is expected; elsewhere columns, then
 * functions, keywords and tables. Deduplicated, sorted within each group.
 */
export function completions(word: string, c: Candidates, tableExpected: boolean): string[] {
  const w = word.toLowerCase();
  const pick = (xs: readonly string[], fold: boolean) =>
    xs
      .filter((x) => x.toLowerCase().startsWith(w))
      .map((x) => (fold ? sameCase(word, x) : x))
      .sort();
  const out = tableExpected
    ? pick(c.tables, false)
    : [
        ...pick(c.columns, false),
        ...pick(c.functions, true),
        ...pick(c.keywords, true),
        ...pick(c.tables, false),
      ];
  return [...new Set(out)];
}
