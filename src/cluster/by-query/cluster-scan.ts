/**
 * The scan of a delete/update-by-query task in a cluster: each shard is read on the node of its
 * started primary — the copy the task's compare-and-writes go to, so the seq_no and primary term
 * a hit carries are the ones the write is checked against — this node's shards directly, the
 * others with one `indices:data/read/scan[shards]` request per node. The hits come back in the
 * lone node's order (index, then shard, then `_doc`); a shard whose node cannot answer, or that
 * has no started primary, is a search failure of the task, as a failed scroll shard is in ES.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { AliasFilters } from '../../dsl/search/alias-filter.js';
import {
  scanShards,
  type MatchScanner,
  type ScanEnvironment,
  type ScanFailure,
  type ScanHit,
  type ScanJob,
  type ScanResult,
} from '../../dsl/search/scan.js';
import { parseSearch } from '../../dsl/search/execute.js';
import { termsLookupsIn } from '../../dsl/query/terms-lookup-once.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import type { ClusterState } from '../state.js';
import { resolveSort } from '../../dsl/search/sort-keys.js';
import { compareSortValues, type SortKey, type SortValue } from '../../search/collect/sort.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import { decodeLookups, encodeLookups, pack, unpack, type WireLookup } from '../search/wire.js';

export const SCAN_ACTION = 'indices:data/read/scan[shards]';

interface ShardRef {
  readonly index: string;
  readonly shard: number;
}

interface WireScan {
  readonly sreq: SearchRequest;
  readonly shards: readonly ShardRef[];
  readonly aliasFilters: readonly (readonly [string, unknown])[];
  readonly sources: boolean;
  readonly lookups?: readonly (readonly [string, WireLookup])[];
}

/** [index, shard, type, id, routing, version, seqNo, primaryTerm, sort values] */
type WireHit = [string, number, string, string, string | null, number, number, number, (readonly SortValue[])?]; // prettier-ignore

interface WireScanReply {
  readonly hits: WireHit[];
  /** By hit: its source (null: changed since the scan, or not asked for). */
  readonly sources: (Buffer | null)[] | null;
  readonly failures: ScanFailure[];
}

export interface ClusterScanDeps {
  state(): ClusterState;
  readonly localNodeId: string;
  readonly transport: Transport;
  peerOf(nodeId: string): TransportPeer;
  /** The open index of that name on this node. */
  index(name: string): IndexService | undefined;
  /** What this node lends its own scans (limits, scripts, terms lookups). */
  env(): ScanEnvironment;
  readonly requestTimeoutMs?: number;
}

const key = (index: string, shard: number) => `${index}\u0000${shard}`;

function shardFailure(ref: ShardRef, nodeId: string | null, e: unknown): ScanFailure {
  return {
    shard: ref.shard,
    index: ref.index,
    node: nodeId,
    reason: toEsError(e).toInner(),
  };
}

/** Runs the scan of the shards named on this node (both sides use it). */
function scanHere(deps: ClusterScanDeps, job: ScanJob, refs: readonly ShardRef[]): ScanResult {
  const wanted = new Set(refs.map((r) => key(r.index, r.shard)));
  const names = new Set(refs.map((r) => r.index));
  return scanShards(
    {
      ...job,
      targets: job.targets.filter((i) => names.has(i.name)),
      shardFilter: (idx, shard) => wanted.has(key(idx.name, shard)),
    },
    deps.env(),
  );
}

function toWire(r: ScanResult, sources: boolean): WireScanReply {
  return {
    hits: r.hits.map((h): WireHit => {
      const w: WireHit = [h.index, h.shard, h.type, h.id, h.routing, h.version, h.seqNo, h.primaryTerm]; // prettier-ignore
      if (h.sort) w.push(h.sort);
      return w;
    }),
    sources: sources ? r.hits.map((h) => h.readSource()) : null,
    failures: r.failures,
  };
}

function fromWire(r: WireScanReply): ScanResult {
  const hits = r.hits.map(
    ([index, shard, type, id, routing, version, seqNo, primaryTerm, sort], i): ScanHit => {
      const src = r.sources?.[i] ?? null;
      const buf = src === null ? null : Buffer.from(src.buffer, src.byteOffset, src.byteLength);
      const h = { index, shard, type, id, routing, version, seqNo, primaryTerm, readSource: () => buf }; // prettier-ignore
      return sort ? { ...h, sort } : h;
    },
  );
  return { hits, failures: r.failures };
}

/** The keys a sorted scan's hits compare by (null: `_doc` order), resolved on this node's copy of the first index's mapping, as the search coordinator does. */
function sortKeysOf(job: ScanJob, deps: ClusterScanDeps): SortKey[] | null {
  const specs = job.search.sort ?? [];
  if (!specs.some((s) => s.field !== '_doc') || job.targets.length === 0) return null;
  return resolveSort(specs, job.targets[0]!, [], deps.env().scriptMethods);
}

/**
 * The nodes' hits in the lone node's order: by sort values when sorted (ES's merge), then by
 * shard in the job's order, then in each shard's own order (each node returns its hits so).
 */
export function mergeScanHits(
  results: readonly ScanResult[],
  refs: readonly ShardRef[],
  keys: SortKey[] | null,
): ScanHit[] {
  const order = new Map(refs.map((r, i) => [key(r.index, r.shard), i]));
  return results
    .flatMap((r) => r.hits)
    .map((h, i) => ({ h, i, shard: order.get(key(h.index, h.shard))! }))
    .sort(
      (a, b) =>
        (keys ? compareSortValues(keys, a.h.sort as SortValue[], b.h.sort as SortValue[]) : 0) ||
        a.shard - b.shard ||
        a.i - b.i,
    )
    .map((x) => x.h);
}

export function clusterScanner(deps: ClusterScanDeps): MatchScanner {
  deps.transport.registerHandler(SCAN_ACTION, async (rq) => {
    const w = unpack<WireScan>(rq.attachment);
    const targets: IndexService[] = [];
    for (const name of new Set(w.shards.map((s) => s.index))) {
      const idx = deps.index(name);
      if (!idx) throw new EsError('index_not_found_exception', `no such index [${name}]`, 404, { meta: { index: name } }); // prettier-ignore
      targets.push(idx);
    }
    const aliasFilters: AliasFilters = new Map(
      w.aliasFilters.flatMap(([name, f]) => {
        const idx = deps.index(name);
        return idx ? [[idx, f] as const] : [];
      }),
    ) as AliasFilters;
    const job: ScanJob = {
      targets,
      search: w.sreq,
      parsed: parseSearch(w.sreq),
      aliasFilters,
      sources: w.sources,
      ...(w.lookups ? { lookups: decodeLookups(w.lookups) } : {}),
    };
    return { body: {}, attachment: pack(toWire(scanHere(deps, job, w.shards), w.sources)) };
  });

  return {
    async scan(job) {
      const state = deps.state();
      // every shard of the job, in the lone node's order, with the node of its started primary
      const refs: Array<ShardRef & { node: string | null }> = [];
      for (const idx of job.targets) {
        for (let shard = 0; shard < idx.numberOfShards; shard++) {
          if (job.shardFilter && !job.shardFilter(idx, shard)) continue;
          const copies = state.routing.get(idx.name)?.shards[shard] ?? [];
          const primary = copies.find(
            (c) => c.primary && (c.state === 'STARTED' || c.state === 'RELOCATING'),
          );
          refs.push({ index: idx.name, shard, node: primary?.nodeId ?? null });
        }
      }
      const byNode = new Map<string, ShardRef[]>();
      const failures: ScanFailure[] = [];
      for (const r of refs) {
        if (r.node === null) {
          failures.push(
            shardFailure(r, null, new EsError('no_shard_available_action_exception', `[${r.index}][${r.shard}] no started primary to scan`, 503)), // prettier-ignore
          );
          continue;
        }
        const list = byNode.get(r.node);
        if (list) list.push(r);
        else byNode.set(r.node, [r]);
      }
      // a lookup document read on another node could be missing there: never match nothing silently
      const { query, postFilter } = job.parsed;
      if (!job.lookups && termsLookupsIn([query, postFilter]).length > 0)
        throw new EsError('illegal_state_exception', 'the terms lookups of a scan must be read before it', 500); // prettier-ignore
      const sources = job.sources === true;
      const aliasFilters = [...(job.aliasFilters ?? new Map())].map(
        ([idx, f]) => [(idx as IndexService).name, f] as const,
      );
      const results = await Promise.all(
        [...byNode].map(async ([nodeId, list]): Promise<ScanResult> => {
          if (nodeId === deps.localNodeId) return scanHere(deps, job, list);
          try {
            const wire: WireScan = { sreq: job.search, shards: list, aliasFilters, sources, ...(job.lookups ? { lookups: encodeLookups(job.lookups) } : {}) }; // prettier-ignore
            const out = await deps.transport.send(
              deps.peerOf(nodeId),
              SCAN_ACTION,
              {},
              {
                timeoutMs: deps.requestTimeoutMs ?? 120_000,
                attachment: pack(wire),
              },
            );
            return fromWire(unpack<WireScanReply>(out.attachment));
          } catch (e) {
            return { hits: [], failures: list.map((r) => shardFailure(r, nodeId, e)) };
          }
        }),
      );
      for (const r of results) failures.push(...r.failures);
      if (failures.length) return { hits: [], failures };
      return { hits: mergeScanHits(results, refs, sortKeysOf(job, deps)), failures: [] };
    },
  };
}
