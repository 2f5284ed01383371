/**
 * `_search_shards` (ES TransportClusterSearchShardsAction): the nodes, the alias filters of each
 * concrete index and, per shard a search would hit (routing and `preference` applied), every
 * assigned copy as the cluster's routing table shows it (started copies before initializing ones).
 */
import { EsError } from '../../common/errors.js';
import { shardForRouting } from '../../common/murmur3.js';
import { RawJson } from '../../common/json.js';
import { resolveExpressions } from '../../engine/alias-resolution.js';
import { indicesOptionsFrom, LENIENT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { JavaHashMap } from '../../dsl/query/java-hash-map.js';
import { parseQuery, renderQuery } from '../../dsl/query/index.js';
import type { NodeContext } from '../../node-context.js';
import { copiesOf, nodesJson } from '../cluster-state.js';
import { checkParams } from '../params.js';
import { boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

type Copy = Record<string, unknown>;

/** ES QueryBuilder JSON (`1.0` boosts kept) without the pretty printer's whitespace. */
function compactJson(pretty: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < pretty.length; i++) {
    const c = pretty[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += pretty[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n') out += c;
  }
  return out;
}

/**
 * ES IndexNameExpressionResolver.indexAliases (skipping the index's own name): the aliases of
 * `idx` among the resolved expressions, sorted, or none when every index was asked for.
 */
function indexAliases(idx: IndexService, resolved: ReadonlySet<string>, all: boolean): string[] {
  if (all) return [];
  return Object.keys(idx.meta.aliases)
    .filter((a) => resolved.has(a))
    .sort();
}

/**
 * ES buildAliasFilter: the filters of the index's aliases among the expressions, none when the
 * index itself was named or matched or one of those aliases has no filter; several are ORed.
 */
function aliasFilter(idx: IndexService, resolved: ReadonlySet<string>, all: boolean): unknown {
  if (all || resolved.has(idx.name)) return null;
  const filters: unknown[] = [];
  for (const a of Object.keys(idx.meta.aliases).sort()) {
    if (!resolved.has(a)) continue;
    const f = idx.meta.aliases[a]!.filter;
    if (f === undefined || f === null) return null;
    filters.push(f);
  }
  if (filters.length === 0) return null;
  const json = filters.length === 1 ? filters[0] : { bool: { should: filters } };
  return new RawJson(compactJson(renderQuery(parseQuery(json))));
}

/** The copies a search may use, by ES `preference` (random order kept deterministic here). */
function searchCopies(copies: Copy[], preference: string | undefined, local: string): Copy[] {
  const assigned = copies.filter((c) => c.node !== null && c.state !== 'UNASSIGNED');
  const active = assigned.filter((c) => c.state !== 'INITIALIZING');
  const initializing = assigned.filter((c) => c.state === 'INITIALIZING');
  const ordered = [...active, ...initializing];
  switch (preference) {
    case '_primary':
      return active.filter((c) => c.primary === true);
    case '_replica':
      return ordered.filter((c) => c.primary !== true);
    case '_primary_first':
      return [...active.filter((c) => c.primary === true), ...ordered.filter((c) => c.primary !== true)]; // prettier-ignore
    case '_replica_first':
      return [...ordered.filter((c) => c.primary !== true), ...active.filter((c) => c.primary === true)]; // prettier-ignore
    case '_only_local':
      return ordered.filter((c) => c.node === local);
    case '_local':
      return [...ordered.filter((c) => c.node === local), ...ordered.filter((c) => c.node !== local)]; // prettier-ignore
    default:
      return ordered;
  }
}

/** `_shards:0,2` (optionally `|` another preference): the shards it keeps, and the rest. */
function shardsPreference(preference: string | undefined): {
  shards: Set<number> | null;
  rest: string | undefined;
} {
  if (preference === undefined || !preference.startsWith('_shards:')) {
    return { shards: null, rest: preference };
  }
  const bar = preference.indexOf('|');
  const list = preference.slice('_shards:'.length, bar < 0 ? undefined : bar);
  const shards = new Set<number>();
  for (const s of list.split(',')) {
    const n = Number(s);
    if (!/^\d+$/.test(s)) {
      throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
    }
    shards.add(n);
  }
  return { shards, rest: bar < 0 ? undefined : preference.slice(bar + 1) };
}

export function registerSearchShardsRoutes(router: Router<Handler>, node: NodeContext): void {
  const handler: Handler = (req) => {
    checkParams(req, [
      'preference',
      'routing',
      'local',
      'ignore_unavailable',
      'allow_no_indices',
      'expand_wildcards',
    ]);
    boolParam(req, 'local', false);
    const expression = req.params.index ?? '_all';
    const exprs = expression.split(',').filter((e) => e.length > 0);
    const targets = node.indices
      .resolve(
        expression,
        indicesOptionsFrom(LENIENT_EXPAND_OPEN, (n) => param(req, n)),
      )
      .filter((i) => !i.closed);
    const routing = node.indices.searchRouting(expression, param(req, 'routing'));
    const { shards: onlyShards, rest: preference } = shardsPreference(param(req, 'preference'));
    const aliased = node.indices.all().map((i) => ({
      name: i.name,
      closed: i.closed,
      aliases: i.meta.aliases,
    }));
    const all =
      exprs.length === 0 || (exprs.length === 1 && (exprs[0] === '_all' || exprs[0] === '*'));
    const resolved = resolveExpressions(exprs, aliased, true);

    const indices = new JavaHashMap<Record<string, unknown>>();
    const groups: Array<{ index: string; shard: number; copies: Copy[] }> = [];
    const nodeIds = new JavaHashMap<true>();
    for (const idx of targets) {
      const aliases = indexAliases(idx, resolved, all);
      const filter = aliases.length > 0 ? aliasFilter(idx, resolved, all) : null;
      indices.set(idx.name, {
        ...(aliases.length > 0 ? { aliases } : {}),
        ...(filter !== null ? { filter } : {}),
      });
      const values = routing?.get(idx.name);
      const table = copiesOf(node, idx) ?? [];
      table.forEach((copies, shard) => {
        if (onlyShards && !onlyShards.has(shard)) return;
        if (values) {
          let hit = false;
          for (const r of values)
            if (shardForRouting(r, idx.numberOfShards, idx.routingNumShards) === shard) hit = true;
          if (!hit) return;
        }
        const picked = searchCopies(copies, preference, node.nodeId);
        for (const c of picked) nodeIds.set(String(c.node), true);
        groups.push({ index: idx.name, shard, copies: picked });
      });
    }
    // ES ShardId order: shard number, then index name
    groups.sort(
      (a, b) => a.shard - b.shard || (a.index < b.index ? -1 : a.index > b.index ? 1 : 0),
    );
    const known = nodesJson(node);
    const nodes: Record<string, unknown> = {};
    for (const id of nodeIds.keys()) if (known[id] !== undefined) nodes[id] = known[id];
    return {
      status: 200,
      body: {
        nodes,
        indices: Object.fromEntries(indices.keys().map((k) => [k, indices.get(k)!])),
        shards: groups.map((g) => g.copies),
      },
    };
  };
  router.add(['GET', 'POST'], '/_search_shards', handler);
  router.add(['GET', 'POST'], '/{index}/_search_shards', handler);
}
