/** The CLI's statement splitter and command classification (src/repl/split.ts, commands.ts). */
import { describe, expect, it } from 'vitest';
import { hasStatementText, splitStatements } from '../../src/repl/split.js';
import { parseCommand, parseFetchSize } from '../../src/repl/commands.js';

describe('splitStatements', () => {
  it('ends statements at semicolons and keeps the unfinished rest', () => {
    const r = splitStatements('SELECT 1; SELECT\n 2;SELECT 3');
    expect(r.statements).toEqual(['SELECT 1', 'SELECT\n 2']);
    expect(r.rest).toBe('SELECT 3');
    expect(r.open).toBe(true);
  });

  it('ignores semicolons inside strings, quoted identifiers and comments', () => {
    const text =
      "SELECT 'a;b', 'it''s;', \"c;d\", `e;f` FROM t -- no; split\n WHERE x /* ; /* nested; */ ; */ = 1;";
    const r = splitStatements(text);
    expect(r.statements).toHaveLength(1);
    expect(r.statements[0]).toBe(text.slice(0, -1).trim());
    expect(r.rest).toBe('');
    expect(r.open).toBe(false);
  });

  it('drops empty and comment-only statements', () => {
    expect(splitStatements(' ; -- c\n ; /* x */ ;SELECT 1;').statements).toEqual(['SELECT 1']);
  });

  it('reports an open quote or statement as unfinished, comments alone as not', () => {
    expect(hasStatementText("SELECT 'abc;")).toBe(true);
    expect(splitStatements("SELECT 'abc;").statements).toEqual([]);
    expect(hasStatementText('  -- just a comment\n')).toBe(false);
    expect(hasStatementText('/* open comment ; ')).toBe(false);
    expect(hasStatementText('')).toBe(false);
  });
});

describe('parseCommand', () => {
  it('recognises the client commands like the ES CLI (case-insensitive)', () => {
    expect(parseCommand('EXIT')).toEqual({ kind: 'exit' });
    expect(parseCommand('quit')).toEqual({ kind: 'exit' });
    expect(parseCommand('Help')).toEqual({ kind: 'help' });
    expect(parseCommand('info')).toEqual({ kind: 'info' });
    expect(parseCommand('fetch size = 10')).toEqual({ kind: 'fetchSize', value: '10' });
    expect(parseCommand('FETCH_SIZE=7')).toEqual({ kind: 'fetchSize', value: '7' });
    expect(parseCommand('fetch separator = "-- page --"')).toEqual({
      kind: 'fetchSeparator',
      value: '-- page --',
    });
    expect(parseCommand("fetch_separator='~'")).toEqual({ kind: 'fetchSeparator', value: '~' });
    expect(parseCommand('lenient = TRUE')).toEqual({ kind: 'lenient', value: 'TRUE' });
  });

  it('sends everything else to the server', () => {
    expect(parseCommand('SELECT info FROM t')).toEqual({ kind: 'sql', text: 'SELECT info FROM t' });
    expect(parseCommand('fetch separator = unquoted')).toEqual({
      kind: 'sql',
      text: 'fetch separator = unquoted',
    });
  });

  it('parses fetch sizes as Java ints', () => {
    expect(parseFetchSize('25')).toBe(25);
    expect(parseFetchSize('-3')).toBe(-3);
    expect(parseFetchSize('1.5')).toBeNull();
    expect(parseFetchSize('abc')).toBeNull();
    expect(parseFetchSize('99999999999')).toBeNull();
  });
});
