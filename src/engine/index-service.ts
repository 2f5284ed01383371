/**
 * One index: metadata, its single type's mapping, analysis, and its shards. Owns mapping updates
 * (explicit PUT _mapping and dynamic updates from documents) and persists metadata changes.
 */
import { EsError, illegalArgument } from '../common/errors.js';
import {
  mappingToJson,
  mergeMapping,
  parseMapping,
  type MappingContext,
} from '../mapping/index.js';
import type { RootMapping } from '../mapping/types.js';
import { AnalysisRegistry } from '../search/analysis/index.js';
import type { Store, DocsDb } from '../store/store.js';
import type { AliasMeta, IndexMeta } from './index-meta.js';
import { metaKey } from './index-meta.js';
import { getInt, getStr } from './index-settings.js';
import { Shard } from './shard.js';
import { parseTimeValueMs } from './time-value.js';
import { CountedShardIndex } from './counted-shard-index.js';
import type { ShardIndex } from '../search/index/shard-index.js';
import { clockMs, runScheduledRefresh } from './stats.js';
import { translogRetention, translogTrimmed } from './translog-retention.js';
import type { AnalysisResolver } from '../search/index/segment-builder.js';
import {
  decodeDoc,
  idFromKey,
  RECORD_HEADER_BYTES,
  seqNoOf,
  shardRange,
} from '../store/doc-record.js';
import { loadCommit, mergeOutput, writeCommit } from './segment-commits.js';
import type { ShardSnapshot } from '../search/index/live-segment.js';
import { lookupField, parseDocument } from '../mapping/index.js';
import { checkIndexSortFields, indexSortOf, indexSortSpecs } from './index-sort-settings.js';
import type { IndexSort } from '../search/index/index-sort.js';
import { dateFormatter } from '../common/dates/index.js';
import { formatByteSize } from '../common/units.js';

/** ES 6.8: `_doc` in a request path means "the index's type", whatever its name. */
export const SINGLE_MAPPING_NAME = '_doc';

export class IndexService {
  /** Set when the index could not be opened at start: it is red and serves nothing. */
  failed = false;
  /** Why it could not be opened (logged at start). */
  failure: string | null = null;
  private readonly settingsListeners: Array<() => void> = [];
  mapping: RootMapping | null;
  analysis: AnalysisRegistry;
  /** How this index analyzes and normalizes field values when it builds segments. */
  readonly analysisResolver: AnalysisResolver;
  readonly shards: Shard[];
  readonly docs: DocsDb;

  constructor(
    public meta: IndexMeta,
    private readonly store: Store,
  ) {
    const analysisIndex = { maxNgramDiff: getInt(meta.settings, 'index.max_ngram_diff', 1) };
    this.analysis = AnalysisRegistry.fromIndexSettings(analysisSettings(meta), analysisIndex);
    this.mapping = meta.mapping
      ? parseMapping(meta.mapping.type, meta.mapping.json, this.mappingContext())
      : null;
    this.docs = store.docs(meta.uuid);
    const gc = () =>
      parseTimeValueMs(getStr(this.meta.settings, 'index.gc_deletes', '60s'), 'index.gc_deletes');
    this.shards = Array.from(
      { length: this.numberOfShards },
      (_, i) => new Shard(i, meta.primaryTerm, this.docs, store, gc),
    );
    const resolver: AnalysisResolver = {
      indexAnalyzer: (f) =>
        (f.analyzer ? this.analysis.analyzer(f.analyzer) : undefined) ??
        this.analysis.defaultAnalyzer(),
      normalize: (f, v) => {
        if (!f.normalizer) return v;
        const n = this.analysis.normalizer(f.normalizer);
        return n ? n.normalize(v) : v;
      },
    };
    this.analysisResolver = resolver;
    const sort = storedIndexSort(meta);
    const workerAnalysis = buildWorkerAnalysis(analysisSettings(meta), analysisIndex);
    for (const sh of this.shards) {
      const si = new CountedShardIndex(resolver, sh.counters, sort, workerAnalysis);
      // a large merge goes from its build worker straight to the store (not this thread's heap)
      si.mergeOutput = () => mergeOutput(store, this.uuid, sh.id);
      sh.search = si;
    }
    this.onSettingsChanged(() => this.scheduleRefresh());
  }

  private refreshTimer: NodeJS.Timeout | null = null;

  /** index.refresh_interval in ms (-1 = no scheduled refresh). */
  get refreshIntervalMs(): number {
    return parseTimeValueMs(
      getStr(this.meta.settings, 'index.refresh_interval', '1s'),
      'index.refresh_interval',
    );
  }

  /** (Re)starts the periodic refresh (ES: the index's scheduled refresh task). */
  scheduleRefresh(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    if (this.failed) return;
    const ms = this.refreshIntervalMs;
    if (ms <= 0 || this.closed) return;
    this.refreshTimer = setInterval(() => runScheduledRefresh(() => this.scheduledRefresh()), ms);
    this.refreshTimer.unref();
  }

  refresh(): void {
    for (const s of this.shards) s.search?.refresh();
    this.maybeFlush();
  }

  /**
   * The periodic refresh: shards whose buffers a build worker takes publish their views when the
   * worker is done, so writes and searches go on meanwhile.
   */
  private scheduledRefresh(): void {
    for (const s of this.shards) {
      const search = s.search;
      if (!search) continue;
      if (search.refreshInBackground) search.refreshInBackground();
      else search.refresh();
    }
    this.maybeFlush();
  }

  private lastFlush = Date.now();
  private flushing: Promise<void> | null = null;

  /** Writes a commit point when enough has changed since the last one (ES flush policy). */
  private maybeFlush(): void {
    if (this.flushing) return;
    let ops = 0;
    for (const s of this.shards) ops += s.opsSinceFlush;
    if (ops === 0) return;
    if (ops >= 200_000 || Date.now() - this.lastFlush >= 30_000) void this.flush(true);
  }

  /** Refreshes and writes every shard's segments and live docs as a commit point. */
  flush(periodic = false): Promise<void> {
    // A red index's shards may hold a partial recovery: never commit that.
    if (this.failed) return Promise.resolve();
    if (this.flushing) return this.flushing;
    const run = async () => {
      // Each view holds every operation up to its sequence number and none after; then wait
      // until those documents are durable before the commit point may reference them.
      // A periodic flush lets a build worker build the view (writes go on meanwhile, into the
      // next buffer): the sequence number is the one when the buffer was handed over. Otherwise
      // the view is refreshed here, synchronously.
      const views = periodic
        ? await Promise.all(
            this.shards.map(
              (s) =>
                s.search?.refreshForCommit?.(() => ({ seq: s.maxSeqNo, ops: s.opsSinceFlush })) ??
                null,
            ),
          )
        : null;
      const points: Array<{ shard: number; snap: ShardSnapshot; seq: number }> = [];
      const retention = translogRetention(this.meta.settings);
      for (const [i, shard] of this.shards.entries()) {
        if (!shard.search) continue;
        const got = views?.[i] ?? null;
        if (got === null) shard.search.refresh();
        const ops = got === null ? shard.opsSinceFlush : got.at.ops;
        shard.opsSinceFlush -= ops;
        shard.counters.committed(translogTrimmed(retention, shard.counters.translogBytes));
        if (ops === 0 && this.store.getMeta(`commit:${this.uuid}:${shard.id}`)) continue;
        points.push(
          got === null
            ? { shard: shard.id, snap: shard.search.searcher(), seq: shard.maxSeqNo }
            : { shard: shard.id, snap: got.view, seq: got.at.seq },
        );
      }
      if (points.length === 0) return;
      await this.store.durable();
      await Promise.all(
        points.map((p) => writeCommit(this.store, this.uuid, p.shard, p.snap, p.seq)),
      );
      this.lastFlush = Date.now();
    };
    // ES counts every flush call of a shard, also one with nothing new to commit.
    const count = () => {
      for (const shard of this.shards) {
        if (!shard.search) continue;
        const c = shard.counters;
        c.flushTotal++;
        if (periodic) c.flushPeriodic++;
        c.flushTimeMs += clockMs() - started;
      }
    };
    const started = clockMs();
    this.flushing = run()
      .then(count)
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  stop(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  /**
   * Rebuilds every shard's search index from the store (documents in sequence-number order) and
   * restores the shards' max sequence numbers. Returns the number of live documents.
   */
  recover(): number {
    const ctx = this.mappingContext();
    let live = 0;
    for (const shard of this.shards) {
      const startMs = Date.now();
      const t0 = performance.now();
      const si = shard.search as ShardIndex;
      const commit = loadCommit(this.store, this.uuid, shard.id);
      const checkpoint = commit ? commit.maxSeqNo : -1;
      if (commit) si.restore(commit.segments);
      const ops: RecoveredOp[] = [];
      // A commit with its live count has the sequence-number log behind it: only the records
      // after its checkpoint are read. Otherwise (no commit, or one from an older version) every
      // record header is scanned once; the next commit is written in the new form.
      const logged = commit !== null && commit.liveDocs !== null;
      if (logged) {
        shard.maxSeqNo = Math.max(shard.maxSeqNo, checkpoint);
        for (const e of this.store.seqLogFrom(this.uuid, shard.id, checkpoint + 1)) {
          const raw = this.docs.get(e.key);
          // a logged record too short for its header is corrupt: the index fails (red), as the
          // full scan failed it, rather than dropping the write
          if (raw && raw.length < RECORD_HEADER_BYTES)
            throw new RangeError(`record [${idFromKey(e.key)}] of shard [${shard.id}] is truncated (${raw.length} bytes)`); // prettier-ignore
          // purged, or overwritten by a later op (itself in the log): not this entry's record
          if (!raw || seqNoOf(raw) !== e.seqNo) continue;
          if (e.seqNo > shard.maxSeqNo) shard.maxSeqNo = e.seqNo;
          ops.push(recoveredOp(e.key, raw));
        }
      } else {
        const { start, end } = shardRange(shard.id);
        for (const h of this.store.docHeaders(this.uuid, start, end)) {
          if (h.seqNo > shard.maxSeqNo) shard.maxSeqNo = h.seqNo;
          if (!h.tombstone) live++;
          // Only documents newer than the commit are read in full and replayed.
          if (h.seqNo <= checkpoint) continue;
          ops.push(recoveredOp(h.key, this.docs.get(h.key)!));
        }
      }
      ops.sort((a, b) => a.seqNo - b.seqNo);
      for (const d of ops) {
        if (d.source === null) {
          if (commit) si.delete(d.id);
          continue;
        }
        if (!this.mapping) break;
        const parsed = parseDocument(this.mapping, JSON.parse(d.source.toString('utf8')), ctx, d.id, d.routing); // prettier-ignore
        if (parsed.dynamicUpdate) this.applyDynamicUpdate(parsed.dynamicUpdate);
        si.add(d.id, parsed, d.seqNo, d.version, d.routing, commit !== null);
      }
      si.refresh();
      // the commit's segments plus the replayed ops are every live record of the shard
      if (logged) live += si.searcher().numDocs;
      // an old-form commit is rewritten at the next periodic flush, so the next start is fast
      shard.opsSinceFlush = commit && !logged ? Math.max(1, ops.length) : ops.length;
      shard.recovery = {
        type: 'EXISTING_STORE',
        startMs,
        // measured finely and rounded up: a recovery that ran took at least a millisecond
        stopMs: startMs + Math.max(1, Math.ceil(performance.now() - t0)),
        replayedOps: ops.length,
      };
    }
    return live;
  }

  /**
   * A stand-in for an index whose stored metadata could not be used (ES: an index whose
   * primaries failed to allocate): the shard count and identity that could be read, no mapping,
   * no analysis, marked failed. Health reports it red; searches and gets find no shard.
   */
  static unavailable(name: string, raw: unknown, store: Store, reason: string): IndexService {
    const svc = new IndexService(placeholderMeta(name, raw), store);
    svc.failed = true;
    svc.failure = reason;
    return svc;
  }

  get name(): string {
    return this.meta.name;
  }
  get uuid(): string {
    return this.meta.uuid;
  }
  get numberOfShards(): number {
    return getInt(this.meta.settings, 'index.number_of_shards', 5);
  }
  /**
   * ES IndexMetaData.getRoutingNumShards: what a document's routing hash is taken modulo before
   * it is scaled to the shards (6.x: the number of shards unless set; a resized index keeps its
   * source's, so each document's shard derives from its source shard).
   */
  get routingNumShards(): number {
    return getInt(this.meta.settings, 'index.number_of_routing_shards', this.numberOfShards);
  }
  get numberOfReplicas(): number {
    return getInt(this.meta.settings, 'index.number_of_replicas', 1);
  }
  get closed(): boolean {
    return this.meta.state === 'close';
  }
  /** `index.search.throttled` (set by freezing): searches skip the index by default. */
  get searchThrottled(): boolean {
    return getStr(this.meta.settings, 'index.search.throttled', 'false') === 'true';
  }
  /** `index.frozen` (x-pack FrozenEngine.INDEX_FROZEN). */
  get frozen(): boolean {
    return getStr(this.meta.settings, 'index.frozen', 'false') === 'true';
  }
  get typeName(): string | null {
    return this.mapping?.typeName ?? null;
  }
  get asyncDurability(): boolean {
    return (
      getStr(this.meta.settings, 'index.translog.durability', 'request').toLowerCase() === 'async'
    );
  }

  /** Built once per settings change: documents are parsed with it one by one. */
  private cachedMappingContext: { settings: object; ctx: MappingContext } | null = null;

  mappingContext(): MappingContext {
    const s = this.meta.settings;
    const c = this.cachedMappingContext;
    if (c !== null && c.settings === s) return c.ctx;
    const ctx = this.buildMappingContext();
    this.cachedMappingContext = { settings: s, ctx };
    return ctx;
  }

  private buildMappingContext(): MappingContext {
    const s = this.meta.settings;
    // Documents of an index mostly parse dates with one format: keep its formatter at hand.
    let lastFormat: string | undefined;
    let lastLocale: string | undefined;
    let lastFormatter: ReturnType<typeof dateFormatter> | undefined;
    return {
      indexName: this.meta.name,
      analyzerExists: (n) => this.analysis.analyzer(n) !== undefined,
      normalizerExists: (n) => this.analysis.normalizer(n) !== undefined,
      limits: {
        totalFields: getInt(s, 'index.mapping.total_fields.limit', 1000),
        depth: getInt(s, 'index.mapping.depth.limit', 20),
        nestedFields: getInt(s, 'index.mapping.nested_fields.limit', 50),
      },
      parseDate: (text, format, locale) => {
        if (lastFormatter === undefined || format !== lastFormat || locale !== lastLocale) {
          lastFormatter = dateFormatter(format, 'joda', locale);
          lastFormat = format;
          lastLocale = locale;
        }
        return lastFormatter.parse(text);
      },
      validateDateFormat: (format) => void dateFormatter(format),
      countTokens: (analyzer, text, enablePositionIncrements) => {
        const a = this.analysis.analyzer(analyzer) ?? this.analysis.defaultAnalyzer();
        let n = 0;
        let last = -1;
        a.analyze(text, (_t, pos) => {
          if (!enablePositionIncrements) n++;
          else if (pos !== last) n++;
          last = pos;
        });
        return enablePositionIncrements ? Math.max(n, 0) : n;
      },
      coerceDefault: getStr(s, 'index.mapping.coerce', 'true') !== 'false',
      ignoreMalformedDefault: getStr(s, 'index.mapping.ignore_malformed', 'false') === 'true',
    };
  }

  /** Resolves the type given in a request path: `_doc` means the existing type. */
  resolveType(type: string): string {
    if (type === SINGLE_MAPPING_NAME && this.mapping) return this.mapping.typeName;
    return type;
  }

  /** The type a write to `type` goes to; a second type is rejected as ES 6.8 does. */
  typeForWrite(type: string, docMeansExisting = true): string {
    const t = docMeansExisting ? this.resolveType(type) : type;
    if (this.mapping && this.mapping.typeName !== t) {
      throw illegalArgument(
        `Rejecting mapping update to [${this.name}] as the final mapping would have more than 1 type: [${this.mapping.typeName}, ${t}]`,
      );
    }
    return t;
  }

  /** Applies a mapping (PUT _mapping or a dynamic update) and persists it. */
  async updateMapping(type: string, update: RootMapping | unknown): Promise<void> {
    const ctx = this.mappingContext();
    const parsed = isRootMapping(update) ? update : parseMapping(type, update, ctx);
    const merged = mergeMapping(this.mapping, parsed, ctx);
    this.checkIndexSort(merged);
    this.mapping = merged;
    this.meta.mapping = { type: merged.typeName, json: mappingToJson(merged) };
    this.meta.version++;
    await this.persist();
  }

  /** The index sort's fields against a mapping (MapperService.checkIndexSortCompatibility too). */
  checkIndexSort(mapping: RootMapping): void {
    const specs = indexSortSpecs(this.meta.settings);
    if (specs.length === 0) return;
    checkIndexSortFields(
      specs,
      (p) => lookupField(mapping, p),
      [...mapping.objectsByPath.values()].some((o) => o.type === 'nested'),
    );
  }

  /** Synchronous in-memory application of a dynamic update; the caller persists it. */
  applyDynamicUpdate(update: RootMapping): void {
    this.mapping = update;
    this.meta.mapping = { type: update.typeName, json: mappingToJson(update) };
    this.meta.version++;
  }

  onSettingsChanged(fn: () => void): void {
    this.settingsListeners.push(fn);
  }

  settingsChanged(): void {
    this.cachedMappingContext = null;
    for (const fn of this.settingsListeners) fn();
  }

  persist(): Promise<boolean> {
    // What is stored for a red index is left as found, for inspection or repair.
    if (this.failed) return Promise.resolve(false);
    return this.store.putMeta(metaKey(this.meta.name), this.meta);
  }

  /** Bytes the index's documents take in the store (real LMDB page counts). */
  storeBytes(): number {
    const st = this.docs.getStats() as {
      pageSize?: number;
      treeBranchPageCount?: number;
      treeLeafPageCount?: number;
      overflowPages?: number;
    };
    const pages =
      (st.treeBranchPageCount ?? 0) + (st.treeLeafPageCount ?? 0) + (st.overflowPages ?? 0);
    return pages * (st.pageSize ?? 4096);
  }

  shard(n: number): Shard {
    return this.shards[n]!;
  }
}

/** The index sort of stored settings (validated when the index was created). */
function storedIndexSort(meta: IndexMeta): IndexSort | null {
  try {
    const specs = indexSortSpecs(meta.settings);
    return specs.length > 0 ? indexSortOf(specs) : null;
  } catch {
    return null;
  }
}

/** What can be trusted of a stored metadata record that failed to load. */
function placeholderMeta(name: string, raw: unknown): IndexMeta {
  const r = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const src = (r.settings !== null && typeof r.settings === 'object' ? r.settings : {}) as Record<
    string,
    unknown
  >;
  const int = (k: string, min: number, max: number, dflt: number): string => {
    const n = Number(src[k]);
    return String(Number.isInteger(n) && n >= min && n <= max ? n : dflt);
  };
  const uuid = typeof r.uuid === 'string' && r.uuid.length > 0 ? r.uuid : '_na_';
  const creationDate = typeof r.creationDate === 'number' ? r.creationDate : 0;
  return {
    name,
    uuid,
    creationDate,
    settings: {
      'index.number_of_shards': int('index.number_of_shards', 1, 1024, 5),
      'index.number_of_replicas': int('index.number_of_replicas', 0, 1024, 1),
      'index.uuid': uuid,
      'index.creation_date': String(creationDate),
      'index.provided_name': name,
    },
    mapping: null,
    aliases: readableAliases(r.aliases),
    state: 'open',
    primaryTerm: typeof r.primaryTerm === 'number' ? r.primaryTerm : 1,
    version: typeof r.version === 'number' ? r.version : 1,
  };
}

/** Aliases that still point at a red index, so requests through them get its red answers. */
function readableAliases(v: unknown): Record<string, AliasMeta> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Record<string, AliasMeta> = {};
  for (const [k, a] of Object.entries(v as Record<string, unknown>))
    if (a !== null && typeof a === 'object' && !Array.isArray(a)) out[k] = a as AliasMeta;
  return out;
}

/**
 * No-shard errors for a red index, worded as ES words them once its wait for an active copy is
 * over (ES: NoShardAvailableActionException from TransportSingleShardAction, and
 * UnavailableShardsException from TransportReplicationAction).
 */
export function noShardForGet(
  index: string,
  type: string,
  id: string,
  routing: string | null,
): EsError {
  return new EsError(
    'no_shard_available_action_exception',
    `No shard available for [get [${index}][${type}][${id}]: routing [${routing}]]`,
    503,
  );
}

export function primaryNotActive(index: string, shard: number, request: string): EsError {
  return new EsError(
    'unavailable_shards_exception',
    `[${index}][${shard}] primary shard is not active Timeout: [1m], request: [BulkShardRequest [[${index}][${shard}]] containing [${request}]]`,
    503,
  );
}

/** ES: IndexRequest.toString (the source re-serialised compactly, up to 2kb). */
export function indexRequestText(index: string, type: string, id: string, source: Buffer): string {
  let text = '_na_';
  if (source.length > 2048) {
    text = `n/a, actual length: [${formatByteSize(source.length)}], max length: ${formatByteSize(2048)}`;
  } else {
    try {
      text = JSON.stringify(JSON.parse(source.toString('utf8')));
    } catch {
      // ES prints _na_ when the source does not parse
    }
  }
  return `index {[${index}][${type}][${id}], source[${text}]}`;
}

/** ES: TransportInstanceSingleOperationAction.retry after its timeout (update). */
export function updateShardUnavailable(index: string, shard: number): EsError {
  return new EsError(
    'unavailable_shards_exception',
    `[${index}][${shard}] [1] shardIt, [0] active : Timeout waiting for [1m], request: indices:data/write/update`,
    503,
  );
}

function isRootMapping(v: unknown): v is RootMapping {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { kind?: string }).kind === 'object' &&
    'typeName' in v
  );
}

/** `index.analysis.*` flat settings back to the nested object AnalysisRegistry reads. */
/**
 * The analysis a build worker rebuilds for this index (JSON), or null when it cannot: script
 * token filters compile Painless, which only the main thread has registered.
 */
function buildWorkerAnalysis(settings: Record<string, unknown>, index: object): string | null {
  const json = JSON.stringify({ settings, index });
  return json.includes('"script"') ? null : json;
}

export function analysisSettings(meta: IndexMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta.settings)) {
    if (!k.startsWith('index.analysis.')) continue;
    const parts = k.slice('index.analysis.'.length).split('.');
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const p = parts[i]!;
      if (typeof node[p] !== 'object' || node[p] === null || Array.isArray(node[p])) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = v;
  }
  return out;
}

interface RecoveredOp {
  id: string;
  seqNo: number;
  version: number;
  routing: string | null;
  /** null for a tombstone */
  source: Buffer | null;
}

function recoveredOp(key: Buffer, raw: Buffer): RecoveredOp {
  const rec = decodeDoc(raw);
  return {
    id: idFromKey(key),
    seqNo: rec.seqNo,
    version: rec.version,
    routing: rec.routing,
    source: rec.tombstone ? null : Buffer.from(rec.source),
  };
}
