/**
 * The shell's pure parts: history entries and the bounded file, Ctrl-R search steps, completion
 * candidates and context, pager steps, and the command line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addEntry,
  historyEntry,
  historyPath,
  loadHistory,
  saveEntry,
} from '../../../src/repl/history.js';
import {
  renderSearch,
  searchStep,
  startSearch,
  type SearchState,
} from '../../../src/repl/reverse-search.js';
import {
  completions,
  currentWord,
  expectsTable,
  SQL_KEYWORDS,
  tablesIn,
} from '../../../src/repl/completion.js';
import { needsPaging, pagerStep, startPager } from '../../../src/repl/pager.js';
import { parseSqlArgs } from '../../../src/repl/main.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-shell-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('history', () => {
  it('joins a statement’s lines into one entry and keeps the list bounded, newest first', () => {
    expect(historyEntry(['SELECT a', '  FROM t', '', 'WHERE b;'])).toBe('SELECT a FROM t WHERE b;');
    // a line comment would swallow the lines joined after it: it becomes a block comment
    expect(historyEntry(["SELECT '--x' AS s -- the */ label", 'FROM t;'])).toBe(
      "SELECT '--x' AS s /* the * / label */ FROM t;",
    );
    const h: string[] = [];
    for (let i = 0; i < 5; i++) addEntry(h, `q${i}`, 3);
    addEntry(h, 'q4', 3);
    expect(h).toEqual(['q4', 'q3', 'q2']);
  });

  it('reads and appends the file, rewriting it when it grows past twice the limit', () => {
    const f = join(dir, 'h');
    expect(loadHistory(f)).toEqual([]);
    for (let i = 0; i < 7; i++) saveEntry(f, `s${i};`, 3);
    expect(readFileSync(f, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(6);
    expect(loadHistory(f, 3)).toEqual(['s6;', 's5;', 's4;']);
    writeFileSync(f, 'a;\n\nb;\n');
    expect(loadHistory(f)).toEqual(['b;', 'a;']);
    expect(historyPath({ QUARRY_SQL_HISTORY: '/x/y' })).toBe('/x/y');
    expect(historyPath({})).toMatch(/\.quarry_sql_history$/);
  });
});

describe('reverse search', () => {
  const history = ['SELECT 3 FROM c;', 'SELECT 2 FROM b;', 'SHOW TABLES;', 'SELECT 1 FROM a;'];
  const type = (s: SearchState, text: string) => {
    for (const ch of text) {
      const r = searchStep(s, history, { kind: 'char', text: ch });
      if (r.kind !== 'searching') throw new Error('left the search');
      s = r.state;
    }
    return s;
  };

  it('finds the newest match, older ones on Ctrl-R, and accepts, leaves or cancels', () => {
    let s = type(startSearch('draft'), 'FROM');
    expect(renderSearch(s, history)).toBe("(reverse-i-search)`FROM': SELECT 3 FROM c;");
    const older = searchStep(s, history, { kind: 'older' });
    if (older.kind !== 'searching') throw new Error('left');
    s = older.state;
    expect(s.index).toBe(1);
    expect(searchStep(s, history, { kind: 'accept' })).toEqual({
      kind: 'accept',
      line: 'SELECT 2 FROM b;',
    });
    expect(searchStep(s, history, { kind: 'leave' })).toEqual({
      kind: 'leave',
      line: 'SELECT 2 FROM b;',
    });
    expect(searchStep(s, history, { kind: 'cancel' })).toEqual({ kind: 'cancel', line: 'draft' });
  });

  it('says when nothing matches and recovers on backspace', () => {
    let s = type(startSearch(''), 'TABLEX');
    expect(renderSearch(s, history)).toBe("(failed reverse-i-search)`TABLEX': ");
    const r = searchStep(s, history, { kind: 'backspace' });
    if (r.kind !== 'searching') throw new Error('left');
    s = r.state;
    expect(renderSearch(s, history)).toBe("(reverse-i-search)`TABLE': SHOW TABLES;");
  });
});

describe('completion', () => {
  const c = { keywords: SQL_KEYWORDS, functions: ['ABS', 'AVG'], tables: ['people', 'logs'], columns: ['age', 'name'] }; // prettier-ignore

  it('takes the word under the cursor and knows where a table goes', () => {
    expect(currentWord('SELECT a.b')).toBe('a.b');
    expect(currentWord('SELECT x -ag')).toBe('ag');
    expect(expectsTable('SELECT * FROM pe')).toBe(true);
    expect(expectsTable('SELECT * FROM people WHERE a')).toBe(false);
    expect(expectsTable('describe ')).toBe(true);
    expect(tablesIn('SELECT * FROM "people" JOIN x', c.tables)).toEqual(['people']);
  });

  it('offers columns, functions, keywords and tables, in the case typed', () => {
    expect(completions('a', c, false)).toEqual(['age', 'abs', 'avg', 'all', 'and', 'as', 'asc']);
    expect(completions('A', c, false)).toEqual(['age', 'ABS', 'AVG', 'ALL', 'AND', 'AS', 'ASC']);
    expect(completions('pe', c, true)).toEqual(['people']);
    expect(completions('na', c, true)).toEqual([]);
  });
});

describe('pager', () => {
  it('pages a screen less one line at a time, a line on Enter, and stops at the end or on q', () => {
    const text = Array.from({ length: 10 }, (_, i) => `r${i}`).join('\n') + '\n';
    expect(needsPaging(text, 11)).toBe(false);
    expect(needsPaging(text, 10)).toBe(true);
    const p = startPager(text, 5);
    expect(p.show).toEqual(['r0', 'r1', 'r2', 'r3']);
    const a = pagerStep(p.state, 'line');
    expect(a.show).toEqual(['r4']);
    const b = pagerStep(a.state, 'page');
    expect(b).toMatchObject({ show: ['r5', 'r6', 'r7', 'r8'], done: false });
    expect(pagerStep(b.state, 'page')).toMatchObject({ show: ['r9'], done: true });
    expect(pagerStep(b.state, 'quit')).toMatchObject({ show: [], done: true });
  });
});

describe('quarry-sql arguments', () => {
  it('takes a url, -u and --format', () => {
    expect(parseSqlArgs([])).toEqual({ url: 'http://localhost:9200', user: null, format: 'txt', help: false }); // prettier-ignore
    expect(parseSqlArgs(['-u', 'bob', '--format=csv', 'h:1'])).toEqual({ url: 'h:1', user: 'bob', format: 'csv', help: false }); // prettier-ignore
    expect(() => parseSqlArgs(['--format', 'xml'])).toThrow('unknown format [xml]');
    expect(() => parseSqlArgs(['a', 'b'])).toThrow('unexpected arguments');
    expect(() => parseSqlArgs(['-u'])).toThrow('missing value for -u');
  });
});
