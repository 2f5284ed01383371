/**
 * The scan a bulk-by-scroll task (delete/update by query) works through: every match of its
 * search, in `_doc` order, over the shards' refreshed snapshots, each with what the task's
 * compare-and-write needs (ES ScrollableHitSource.Hit: index, type, id, routing, version,
 * seq_no, primary term, source). A lone node scans all its shards; a node of a cluster scans
 * the shards whose primaries it holds for the coordinating node (src/cluster/by-query).
 */
import type { IndexService } from '../../engine/index-service.js';
import type { AliasFilters } from './alias-filter.js';
import { executeSearch, type ExecuteOptions, type ParsedSearch } from './execute.js';
import type { SearchRequest } from './request.js';
import type { SortValue } from '../../search/collect/sort.js';
import { termsLookupOnce, type LookupOutcome } from '../query/terms-lookup-once.js';

export interface ScanHit {
  readonly index: string;
  readonly shard: number;
  readonly type: string;
  readonly id: string;
  readonly routing: string | null;
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
  /** The hit's sort values when the search sorts on more than `_doc` (cluster scans merge by them). */
  readonly sort?: readonly SortValue[];
  /**
   * The document's source as the scan saw it; null when it changed or went since (the task's
   * compare-and-write then fails with the engine's conflict).
   */
  readSource(): Buffer | null;
}

/** A shard failure of the scan, as the executor renders it in `_shards.failures`. */
export type ScanFailure = Record<string, unknown>;

export interface ScanResult {
  readonly hits: ScanHit[];
  readonly failures: ScanFailure[];
}

/** What a scan reads: the request's search over the shards `shardFilter` keeps. */
export interface ScanJob {
  readonly targets: IndexService[];
  readonly search: SearchRequest;
  readonly parsed: ParsedSearch;
  readonly shardFilter?: ExecuteOptions['shardFilter'];
  readonly aliasFilters?: AliasFilters;
  /** Whether the task reads the hits' sources (update by query); a delete needs none. */
  readonly sources?: boolean;
  /**
   * The search's terms lookups, read beforehand by the coordinating node (by lookupKey): the
   * shards use these, never a read of their own node's copy of the lookup document.
   */
  readonly lookups?: ReadonlyArray<readonly [string, LookupOutcome]>;
}

/** Where scans run: this node's shards, or each shard's primary in a cluster. */
export interface MatchScanner {
  scan(job: ScanJob): Promise<ScanResult>;
}

/** What the node lends a scan on its own shards. */
export type ScanEnvironment = Pick<
  ExecuteOptions,
  'limits' | 'nodeId' | 'termsLookup' | 'scriptMethods'
>;

/** Scans this node's shards of the job. */
export function scanShards(job: ScanJob, env: ScanEnvironment): ScanResult {
  let termsLookup = env.termsLookup;
  if (job.lookups) {
    const once = termsLookupOnce((index, type, id) => {
      throw new Error(`terms lookup [${index}/${type}/${id}] was not read beforehand`);
    });
    for (const [k, o] of job.lookups) once.prime(k, o);
    termsLookup = once.lookup;
  }
  const out = executeSearch(job.targets, job.search, job.parsed, {
    ...env,
    ...(termsLookup ? { termsLookup } : {}),
    searchType: 'query_then_fetch',
    typedKeys: false,
    now: Date.now(),
    keepAllHits: true,
    ...(job.shardFilter ? { shardFilter: job.shardFilter } : {}),
    ...(job.aliasFilters && job.aliasFilters.size > 0 ? { aliasFilters: job.aliasFilters } : {}),
  });
  const shards = out.body._shards as { failures?: ScanFailure[] };
  if (shards.failures?.length) return { hits: [], failures: shards.failures };
  const sorted = (job.search.sort ?? []).some((s) => s.field !== '_doc');
  const hits = (out.allHits ?? []).map((h): ScanHit => {
    const seg = h.segment.segment;
    const { idx, shard } = h.target;
    const id = seg.ids[h.doc]!;
    const seqNo = seg.seqNos[h.doc]!;
    return {
      index: idx.name,
      shard: shard.id,
      type: idx.typeName ?? '_doc',
      id,
      routing: seg.routing.get(h.doc) ?? null,
      version: seg.versions[h.doc]!,
      seqNo,
      primaryTerm: shard.primaryTerm,
      ...(sorted && h.sort ? { sort: h.sort } : {}),
      // read when the task reaches the hit's batch: the snapshot keeps no sources
      readSource() {
        const rec = shard.read(id);
        return rec && rec.seqNo === seqNo ? rec.source : null;
      },
    };
  });
  return { hits, failures: [] };
}

/** A scanner over this node's own shards. */
export function localScanner(env: () => ScanEnvironment): MatchScanner {
  return { scan: async (job) => scanShards(job, env()) };
}
