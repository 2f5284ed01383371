/**
 * ES IndexNameExpressionResolver's filtering-alias and search-routing rules
 * (IndexNameExpressionResolverTests: testFilteringAliases, testIndexAliases,
 * testResolveSearchRouting) over plain index metadata.
 */
import { describe, expect, it } from 'vitest';
import {
  aliasFilterFor,
  filteringAliases,
  resolveExpressions,
  resolveSearchRouting,
  type AliasedIndex,
} from '../../../src/engine/alias-resolution.js';
import type { AliasMeta } from '../../../src/engine/index-meta.js';

const f = (level: string) => ({ term: { level } });
const index = (name: string, aliases: Record<string, AliasMeta> = {}, closed = false) => ({
  name,
  closed,
  aliases,
});

const logs = index('logs', {
  errors: { filter: f('error') },
  warnings: { filter: f('warn') },
  everything: {},
  routed: { search_routing: '1,2', index_routing: '1' },
  routed_errors: { filter: f('error'), search_routing: '3' },
});
const metrics = index('metrics', { errors: { filter: f('fatal') }, everything: {} });
const old = index('logs-old', { errors: { filter: f('error') } }, true);
const ALL: AliasedIndex[] = [logs, metrics, old];

const resolved = (exprs: string[], preserve = true) =>
  [...resolveExpressions(exprs, ALL, preserve)].sort();
const filtering = (idx: AliasedIndex, exprs: string[]) =>
  filteringAliases(idx, resolveExpressions(exprs, ALL, true));

describe('resolveExpressions (lenient expand-open, date math first)', () => {
  it('no expression, _all or * alone: every open index', () => {
    for (const e of [[], ['_all'], ['*']]) expect(resolved(e)).toEqual(['logs', 'metrics']);
  });

  it('keeps index and alias names as written, and unknown names (lenient)', () => {
    expect(resolved(['errors', 'logs', 'nope'])).toEqual(['errors', 'logs', 'nope']);
  });

  it('wildcards keep matched aliases as aliases only when preserving them', () => {
    expect(resolved(['err*'])).toEqual(['errors']);
    expect(resolved(['err*'], false)).toEqual(['logs', 'metrics']);
    // closed indices are not expanded, aliases are kept whatever their indices' state
    expect(resolved(['logs*'])).toEqual(['logs']);
  });

  it('`-name` after a wildcard removes that name', () => {
    expect(resolved(['e*', '-everything'])).toEqual(['errors']);
    expect(resolved(['-errors', 'e*'])).toEqual(['-errors', 'errors', 'everything']);
  });

  it('resolves date math', () => {
    const now = Date.UTC(2024, 0, 2);
    const r = resolveExpressions(['<logs-{now/d}>'], ALL, true, now);
    expect([...r]).toEqual(['logs-2024.01.02']);
  });
});

describe('filteringAliases', () => {
  it('a filtered alias alone: its name', () => {
    expect(filtering(logs, ['errors'])).toEqual(['errors']);
    expect(filtering(metrics, ['errors'])).toEqual(['errors']);
  });

  it('the index itself among the expressions: no filter', () => {
    expect(filtering(logs, ['errors', 'logs'])).toBeNull();
    expect(filtering(logs, ['logs', 'errors'])).toBeNull();
    expect(filtering(logs, ['lo*', 'errors'])).toBeNull();
    expect(filtering(logs, ['*'])).toBeNull();
    expect(filtering(logs, ['_all'])).toBeNull();
    expect(filtering(logs, [])).toBeNull();
  });

  it('an alias without a filter among them: no filter', () => {
    expect(filtering(logs, ['errors', 'everything'])).toBeNull();
    expect(filtering(logs, ['errors', 'routed'])).toBeNull();
    expect(filtering(logs, ['e*'])).toBeNull();
  });

  it('several filtered aliases: all of them, sorted', () => {
    expect(filtering(logs, ['warnings', 'errors'])).toEqual(['errors', 'warnings']);
    expect(filtering(logs, ['err*', 'warn*'])).toEqual(['errors', 'warnings']);
    expect(filtering(logs, ['errors', 'routed_errors'])).toEqual(['errors', 'routed_errors']);
  });

  it('aliases of other indices and unknown names do not count', () => {
    expect(filtering(metrics, ['errors', 'warnings', 'nope'])).toEqual(['errors']);
    expect(filtering(logs, ['nope'])).toBeNull();
  });

  it('the filter: one alias as is, several as a bool should', () => {
    const set = resolveExpressions(['errors'], ALL, true);
    expect(aliasFilterFor(logs, set)).toEqual({ aliases: ['errors'], filter: f('error') });
    const two = resolveExpressions(['warnings', 'errors'], ALL, true);
    expect(aliasFilterFor(logs, two)).toEqual({
      aliases: ['errors', 'warnings'],
      filter: { bool: { should: [f('error'), f('warn')] } },
    });
    expect(aliasFilterFor(logs, resolveExpressions(['logs'], ALL, true))).toBeNull();
  });
});

describe('resolveSearchRouting', () => {
  const routing = (exprs: string[], param?: string) => {
    const r = resolveSearchRouting(exprs, ALL, param);
    return r === null ? null : Object.fromEntries([...r].map(([k, v]) => [k, [...v].sort()]));
  };

  it('no aliases with routing, no parameter: none', () => {
    expect(routing(['logs'])).toBeNull();
    expect(routing(['errors'])).toBeNull();
    expect(routing([])).toBeNull();
  });

  it('the parameter alone routes every index reached', () => {
    expect(routing(['logs'], '5')).toEqual({ logs: ['5'] });
    // an alias's closed indices too (ES getConcreteIndexAndAliasMetaDatas)
    expect(routing(['errors'], '5,6')).toEqual({
      logs: ['5', '6'],
      metrics: ['5', '6'],
      'logs-old': ['5', '6'],
    });
    expect(routing([], '5')).toEqual({ logs: ['5'], metrics: ['5'] });
  });

  it("an alias's search routing, narrowed by the parameter", () => {
    expect(routing(['routed'])).toEqual({ logs: ['1', '2'] });
    expect(routing(['routed'], '2,9')).toEqual({ logs: ['2'] });
    expect(routing(['routed', 'routed_errors'])).toEqual({ logs: ['1', '2', '3'] });
  });

  it('an empty intersection leaves the index unrouted (every shard), as in ES', () => {
    expect(routing(['routed'], '9')).toBeNull();
  });

  it('the index named, or an alias without routing: the parameter decides', () => {
    expect(routing(['routed', 'logs'])).toBeNull();
    expect(routing(['logs', 'routed'])).toBeNull();
    expect(routing(['routed', 'everything'])).toBeNull();
    expect(routing(['routed', 'logs'], '7')).toEqual({ logs: ['7'] });
    expect(routing(['everything', 'routed'], '1')).toEqual({ logs: ['1'], metrics: ['1'] });
  });

  it('a wildcard expands aliases to their indices: no alias routing', () => {
    expect(routing(['rout*'])).toBeNull();
  });
});
