import { describe, expect, it } from 'vitest';
import {
  computePassListUpdate,
  computeTreePassListUpdate,
  idsByTree,
  passListProblems,
  sortIds,
  splitTreeId,
} from './pass-list.js';
import { parseSelector, parseSkipList, selectorMatches } from './selection.js';
import { checkWarnings, escapeAndEncode, warningFailure, warningValue } from './warnings.js';

describe('selectors', () => {
  it('name a folder, a file (.yml optional) or a test whose name may hold slashes', () => {
    expect(parseSelector('index')).toEqual({ folder: 'index' });
    expect(parseSelector('search/10_source_filtering')).toEqual({
      folder: 'search',
      file: '10_source_filtering.yml',
    });
    expect(parseSelector('bulk/10_basic.yml/Array of objects')).toEqual({
      folder: 'bulk',
      file: '10_basic.yml',
      name: 'Array of objects',
    });
    expect(
      parseSelector('indices.get_mapping/70_legacy_multi_type.yml/Get /{index}/_mapping'),
    ).toEqual({
      folder: 'indices.get_mapping',
      file: '70_legacy_multi_type.yml',
      name: 'Get /{index}/_mapping',
    });
  });

  it('match exactly, not by prefix', () => {
    const s = parseSelector('search');
    expect(selectorMatches(s, 'search', 'a.yml', 'x')).toBe(true);
    expect(selectorMatches(s, 'search.aggregation', 'a.yml', 'x')).toBe(false);
    const t = parseSelector('bulk/10_basic/Array of objects');
    expect(selectorMatches(t, 'bulk', '10_basic.yml', 'Array of objects')).toBe(true);
    expect(selectorMatches(t, 'bulk', '10_basic.yml', 'Array of objects 2')).toBe(false);
  });

  it('skip list lines need a reason', () => {
    const list = parseSkipList(
      '# comment\n\nupdate_by_query  # needs painless\nsearch/30_limits.yml/x # too slow\n',
    );
    expect(list.map((e) => [e.text, e.reason])).toEqual([
      ['update_by_query', 'needs painless'],
      ['search/30_limits.yml/x', 'too slow'],
    ]);
    expect(() => parseSkipList('bulk\n')).toThrow(/reason is required/);
  });
});

describe('pass list updates', () => {
  const existing = new Set(['a/1.yml/x', 'a/1.yml/y', 'b/2.yml/z', 'c/3.yml/w']);

  it('adds new passes and keeps entries of tests that did not run', () => {
    const u = computePassListUpdate(
      ['c/3.yml/w'],
      new Set(['a/1.yml/x', 'a/1.yml/y']),
      new Set(['a/1.yml/y']),
      existing,
    );
    expect(u).toEqual({ next: ['a/1.yml/y', 'c/3.yml/w'], added: ['a/1.yml/y'], removed: [] });
  });

  it('removes entries that ran and failed, or no longer exist', () => {
    const u = computePassListUpdate(
      ['a/1.yml/x', 'gone/1.yml/q', 'b/2.yml/z'],
      new Set(['a/1.yml/x']),
      new Set(),
      existing,
    );
    expect(u.removed).toEqual(['a/1.yml/x', 'gone/1.yml/q']);
    expect(u.next).toEqual(['b/2.yml/z']);
  });

  it('sorts by code unit and reports unsorted or duplicate lines', () => {
    expect(sortIds(['b', 'B', 'a', 'a'])).toEqual(['B', 'a', 'b']);
    expect(passListProblems(['a', 'c', 'b', 'b'])).toEqual([
      'not sorted: "b" comes after "c"',
      'duplicate entry: b',
    ]);
  });
});

describe('warning headers', () => {
  const header = (v: string, date = true): string =>
    `299 Elasticsearch-6.8.13-be13c69 "${escapeAndEncode(v)}"` +
    (date ? ' "Sat, 25 Aug 2018 12:00:00 GMT"' : '');

  it('escape quotes and backslashes, percent-encode % and control characters', () => {
    expect(escapeAndEncode('say "hi" \\ 100%')).toBe('say \\"hi\\" \\\\ 100%25');
    expect(escapeAndEncode('a\nb')).toBe('a%0Ab');
    expect(warningValue(header('[x] is deprecated'))).toBe('[x] is deprecated');
    expect(warningValue(header('x', false))).toBe('x');
    expect(warningValue('199 agent "x"')).toBeNull();
  });

  it('every expected warning must arrive; others fail only in strict mode', () => {
    const got = [header('[a] is deprecated'), header('[b] is deprecated')];
    expect(
      warningFailure(checkWarnings(got, ['[a] is deprecated', '[b] is deprecated'], [], true)),
    ).toBeNull();
    expect(warningFailure(checkWarnings(got, ['[a] is deprecated'], [], true))).toMatch(
      /got unexpected warning header/,
    );
    expect(warningFailure(checkWarnings(got, ['[a] is deprecated'], [], false))).toBeNull();
    expect(
      warningFailure(checkWarnings(got, ['[a] is deprecated'], ['[b] is deprecated'], true)),
    ).toBeNull();
    expect(warningFailure(checkWarnings([], ['[a] is deprecated'], [], true))).toMatch(
      /did not get expected warning header \[\[a\] is deprecated\]/,
    );
    expect(warningFailure(checkWarnings(['garbage'], [], [], false))).toMatch(/unmatched/);
  });

  it('always allows the 6.x default-shards and [types removal] warnings', () => {
    const got = [
      header(
        'the default number of shards will change from [5] to [1] in 7.0.0; if you wish to continue using the default of [5] shards, you must manage this on the create index request or with an index template',
      ),
      header('[types removal] Specifying types in search requests is deprecated.'),
    ];
    expect(warningFailure(checkWarnings(got, [], [], true))).toBeNull();
  });
});

describe('pass list trees', () => {
  it('reads the tree of an id', () => {
    expect(splitTreeId('bulk/10_basic.yml/x')).toEqual({ tree: 'test', id: 'bulk/10_basic.yml/x' });
    expect(splitTreeId('modules/reindex/reindex/10_basic.yml/x')).toEqual({
      tree: 'modules/reindex',
      id: 'reindex/10_basic.yml/x',
    });
    expect(splitTreeId('x-pack/sql/sql.yml/x')).toEqual({ tree: 'x-pack', id: 'sql/sql.yml/x' });
  });

  it('updates one tree and keeps the others', () => {
    const current = ['a/1.yml/t', 'modules/m/f/1.yml/old', 'x-pack/sql/1.yml/s'];
    const u = computeTreePassListUpdate(
      current,
      'modules/m',
      new Set(['f/1.yml/old', 'f/1.yml/new']),
      new Set(['f/1.yml/new']),
      new Set(['f/1.yml/old', 'f/1.yml/new']),
    );
    expect(u.added).toEqual(['modules/m/f/1.yml/new']);
    expect(u.removed).toEqual(['modules/m/f/1.yml/old']);
    expect(u.next).toEqual(['a/1.yml/t', 'modules/m/f/1.yml/new', 'x-pack/sql/1.yml/s']);
    expect([...idsByTree(u.next).keys()].sort()).toEqual(['modules/m', 'test', 'x-pack']);
  });
});
