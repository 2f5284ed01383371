import { describe, expect, it } from 'vitest';
import {
  getAliasesResponse,
  missingAliases,
  type IndexAliasesView,
} from '../../../src/engine/alias-listing.js';

const indices: IndexAliasesView[] = [
  { name: 'a', aliases: { al: {}, bl: { filter: { term: { x: 1 } }, index_routing: '1' } } },
  { name: 'b', aliases: { al: { is_write_index: true } } },
  { name: 'c', aliases: {} },
];

describe('getAliasesResponse', () => {
  it('lists every index without names, only alias holders with names', () => {
    expect(getAliasesResponse(indices, undefined)).toEqual({
      status: 200,
      body: {
        a: { aliases: { al: {}, bl: { filter: { term: { x: 1 } }, index_routing: '1' } } },
        b: { aliases: { al: { is_write_index: true } } },
        c: { aliases: {} },
      },
    });
    expect(getAliasesResponse(indices, ['_all']).body).not.toHaveProperty('c');
    expect(getAliasesResponse(indices, ['b*'])).toEqual({
      status: 200,
      body: { a: { aliases: { bl: { filter: { term: { x: 1 } }, index_routing: '1' } } } },
    });
  });
  it('answers 404 with what it found when a plain name is missing', () => {
    expect(getAliasesResponse(indices, ['al', 'zz', 'yy'])).toEqual({
      status: 404,
      body: {
        error: 'aliases [yy,zz] missing',
        status: 404,
        a: { aliases: { al: {} } },
        b: { aliases: { al: { is_write_index: true } } },
      },
    });
    expect(getAliasesResponse(indices, ['nope']).body).toEqual({
      error: 'alias [nope] missing',
      status: 404,
    });
    expect(getAliasesResponse(indices, ['nope*'])).toEqual({ status: 200, body: {} });
  });
});

describe('missingAliases', () => {
  it('skips patterns, _all and names excluded by a later -pattern', () => {
    const none = new Set<string>();
    expect(missingAliases(['x', 'y*', '-x'], none)).toEqual([]);
    expect(missingAliases(['x', '-x'], none)).toEqual(['-x', 'x']);
    expect(missingAliases(['_all', 'b', 'a'], new Set(['b']))).toEqual(['a']);
  });
});
