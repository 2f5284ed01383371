import { describe, expect, it } from 'vitest';
import { aliasRows } from '../../../src/cat/aliases.js';
import { templateRows } from '../../../src/cat/templates.js';
import { findAliases } from '../../../src/engine/alias-listing.js';
import type { IndexAliasesView } from '../../../src/engine/alias-listing.js';
import type { IndexTemplate } from '../../../src/engine/templates.js';

const indices: IndexAliasesView[] = [
  {
    name: 'logs',
    aliases: {
      zeta: {},
      alpha: { filter: { term: { a: 1 } }, index_routing: 'ir', search_routing: 'sr1,sr2' },
    },
  },
  { name: 'metrics', aliases: { alpha2: { index_routing: '' } } },
  { name: 'bare', aliases: {} },
];

describe('findAliases', () => {
  it('lists every alias by index, sorted by name, without alias-less indices', () => {
    expect(findAliases(indices, []).map((f) => [f.index, f.aliases.map(([a]) => a)])).toEqual([
      ['logs', ['alpha', 'zeta']],
      ['metrics', ['alpha2']],
    ]);
    expect(findAliases(indices, ['_all', 'x'])).toHaveLength(2);
  });
  it('matches names and patterns', () => {
    expect(findAliases(indices, ['alpha*']).map((f) => f.index)).toEqual(['logs', 'metrics']);
    expect(findAliases(indices, ['zeta'])).toEqual([{ index: 'logs', aliases: [['zeta', {}]] }]);
    expect(findAliases(indices, ['none'])).toEqual([]);
  });
});

describe('cat rows', () => {
  it('renders alias rows with * for a filter and - for no routing', () => {
    expect(aliasRows(findAliases(indices, []))).toEqual([
      ['alpha', 'logs', '*', 'ir', 'sr1,sr2'],
      ['zeta', 'logs', '-', '-', '-'],
      ['alpha2', 'metrics', '-', '-', '-'],
    ]);
  });
  it('renders template rows filtered by a name pattern', () => {
    const t = (name: string, patterns: string[], order: number, version?: number) =>
      ({
        name,
        order,
        indexPatterns: patterns,
        settings: {},
        mappings: {},
        aliases: {},
        ...(version !== undefined ? { version } : {}),
      }) as IndexTemplate;
    const all = [t('test', ['t*', 'te*'], 0, 1), t('other', ['o*'], 2)];
    expect(templateRows(all, undefined)).toEqual([
      ['test', '[t*, te*]', 0, 1],
      ['other', '[o*]', 2, null],
    ]);
    expect(templateRows(all, 'te*')).toEqual([['test', '[t*, te*]', 0, 1]]);
  });
});
