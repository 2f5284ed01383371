/**
 * resolveIndices: a lone index name is looked up directly (the planner and execution resolve a
 * statement's pattern several times); the answer is the lenient resolution's, frozen
 * (search-throttled) indices included only when asked for, everything else through it.
 */
import { describe, expect, it } from 'vitest';
import { resolveIndices, type SqlNode } from '../../../../src/sql/execute/search.js';
import type { IndexService } from '../../../../src/engine/index-service.js';

const index = (name: string, searchThrottled = false) =>
  ({ name, searchThrottled, closed: false }) as unknown as IndexService;

function nodeOf(indices: IndexService[]): { node: SqlNode; resolved: string[] } {
  const resolved: string[] = [];
  const byName = new Map(indices.map((i) => [i.name, i]));
  const node = {
    indices: {
      get: (n: string) => byName.get(n),
      resolve: (e: string) => {
        resolved.push(e);
        return e === 'alias' ? [indices[0]!] : [];
      },
      all: () => indices,
      aliasFilters: () => new Map(),
    },
  } as unknown as SqlNode;
  return { node, resolved };
}

describe('resolveIndices', () => {
  const logs = index('logs');
  const frozen = index('cold', true);

  it('takes an index named as it is without resolving the expression', () => {
    const { node, resolved } = nodeOf([logs, frozen]);
    expect(resolveIndices(node, 'logs')).toEqual([logs]);
    expect(resolved).toEqual([]);
  });

  it('leaves frozen indices out unless they are asked for', () => {
    const { node } = nodeOf([logs, frozen]);
    expect(resolveIndices(node, 'cold')).toEqual([]);
    expect(resolveIndices(node, 'cold', true)).toEqual([frozen]);
  });

  it('resolves aliases, lists, wildcards and unknown names as expressions', () => {
    const { node, resolved } = nodeOf([logs, frozen]);
    expect(resolveIndices(node, 'alias')).toEqual([logs]);
    for (const e of ['logs,cold', 'lo*', '-logs', '_all', '<logs-{now/d}>', 'nope'])
      resolveIndices(node, e);
    expect(resolved).toEqual(['alias', 'logs,cold', 'lo*', '-logs', '_all', '<logs-{now/d}>', 'nope']); // prettier-ignore
  });
});
