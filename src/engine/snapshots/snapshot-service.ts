/**
 * Taking and restoring snapshots of a lone node's indices in an `fs` repository (ES 6.8
 * SnapshotsService and RestoreService, without the cluster-state machinery: a snapshot completes
 * before its request answers). A shard is read from the store once everything written before the
 * request is durable; a restore recreates each index as recorded and writes its documents
 * through the node's write path, so they are searchable and durable as any indexed document.
 */
import { randomBytes } from 'node:crypto';
import { EsError, indexNotFound } from '../../common/errors.js';
import type { IndexService } from '../index-service.js';
import type { IndicesService } from '../indices-service.js';
import { LENIENT_EXPAND_OPEN, simpleMatch, STRICT_EXPAND_OPEN } from '../index-names.js';
import { VERSION_CREATED, type FlatSettings } from '../index-settings.js';
import type { MetadataWriter } from '../metadata-writer.js';
import type { WriteExecutor } from '../write-executor.js';
import { defaultWriteBase, type IndexRequest } from '../write-request.js';
import {
  CorruptSnapshotFile,
  readIndexMetas,
  readShard,
  verifyShard,
  readSnapshotList,
  writeIndexMetas,
  writeShard,
  writeSnapshotList,
  type SnapshotIndexMeta,
} from './repository-files.js';
import type { RestoreMarks } from './restore-marks.js';
import {
  validateSnapshotName,
  type ShardFailure,
  type ShardFiles,
  type SnapshotRecord,
} from './snapshot-info.js';

export interface SnapshotDeps {
  readonly indices: IndicesService;
  readonly writes: WriteExecutor;
  readonly metadata: MetadataWriter;
  /** Resolves once every write accepted so far is in the store. */
  readonly durable: () => Promise<void>;
  /** Refreshes every copy of an index (each node's, in a cluster). */
  readonly refresh: (idx: IndexService) => Promise<void>;
  /**
   * Every live document of each shard of `idx`; default: this node's own shards. A node of a
   * cluster reads each shard where its primary is.
   */
  readonly readShards?: (idx: IndexService) => Promise<ShardDoc[][]>;
  readonly esVersion: string;
  /** Where a restore in progress is kept durably (a lone node; see restore-marks.ts). */
  readonly restoreMarks?: RestoreMarks;
}

export interface Repo {
  readonly name: string;
  readonly location: string;
  /** ES BlobStoreRepository `max_restore_bytes_per_sec` (40mb by default; 0: unthrottled). */
  readonly maxRestoreBytesPerSec?: number;
}

const base64Uuid = () => randomBytes(15).toString('base64url').slice(0, 20);

/** An `indices` body value: a comma separated string or a list. */
function indexList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const l = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return l.map((s) => s.trim()).filter((s) => s);
}

const bool = (v: unknown, dflt: boolean) =>
  v === undefined || v === null ? dflt : v === true || v === 'true';

/** Settings the node gives an index when it is made, not ones a restore may carry over. */
const PRIVATE_SETTINGS = ['index.uuid', 'index.creation_date', 'index.version.created', 'index.provided_name', 'index.version.upgraded']; // prettier-ignore

export interface ShardDoc {
  readonly id: string;
  readonly type: string;
  readonly routing: string | null;
  readonly version: number;
  readonly source: Buffer;
}

function shardDocs(idx: IndexService, n: number): ShardDoc[] {
  const type = idx.typeName ?? '_doc';
  return idx
    .shard(n)
    .changesSince(0)
    .filter((c) => !c.record.tombstone)
    .map((c) => ({ id: c.id, type, routing: c.record.routing, version: c.record.version, source: c.record.source })); // prettier-ignore
}

/** PUT _snapshot/{repo}/{snapshot}: writes every shard of the chosen open indices. */
export async function createSnapshot(
  deps: SnapshotDeps,
  repo: Repo,
  name: string,
  body: Record<string, unknown>,
): Promise<SnapshotRecord> {
  const list = readSnapshotList(repo.location, repo.name);
  validateSnapshotName(repo.name, name, list);
  const ignoreUnavailable = bool(body.ignore_unavailable, false);
  const targets = deps.indices.resolve(
    indexList(body.indices),
    ignoreUnavailable ? LENIENT_EXPAND_OPEN : STRICT_EXPAND_OPEN,
  );
  const startMs = Date.now();
  await deps.durable();
  const uuid = base64Uuid();
  const metas: Record<string, SnapshotIndexMeta> = {};
  const shards: Record<string, ShardFiles[]> = {};
  // ES SnapshotsService: a closed index's shards are missing; without `partial` the snapshot fails
  const failures: ShardFailure[] = [];
  const closed = targets.filter((i) => i.closed);
  for (const idx of closed)
    for (let n = 0; n < idx.numberOfShards; n++)
      failures.push({ index: idx.name, indexUuid: idx.uuid, shard: n, reason: 'index is closed' });
  const partial = bool(body.partial, false);
  for (const idx of targets.filter((i) => !i.closed)) {
    const m = idx.meta;
    metas[idx.name] = {
      settings: { ...m.settings },
      mapping: m.mapping,
      aliases: { ...m.aliases },
    };
    shards[idx.name] = [];
    const docs = deps.readShards
      ? await deps.readShards(idx)
      : Array.from({ length: idx.numberOfShards }, (_, n) => shardDocs(idx, n));
    for (let n = 0; n < idx.numberOfShards; n++)
      shards[idx.name]!.push(writeShard(repo.location, idx.name, n, docs[n] ?? []));
  }
  const metaSha = writeIndexMetas(repo.location, uuid, metas);
  const record: SnapshotRecord = {
    snapshot: name,
    uuid,
    versionId: Number(VERSION_CREATED),
    version: deps.esVersion,
    indices: targets.map((i) => i.name),
    includeGlobalState: bool(body.include_global_state, true),
    state: failures.length === 0 ? 'SUCCESS' : partial ? 'PARTIAL' : 'FAILED',
    ...(failures.length > 0 && !partial ? { reason: `Indices are closed [${closed.map((i) => i.name).join(', ')}]` } : {}), // prettier-ignore
    startMs,
    endMs: Math.max(Date.now(), startMs + 1),
    shards,
    ...(failures.length > 0 ? { failures } : {}),
    metaSha,
  };
  writeSnapshotList(repo.location, [...readSnapshotList(repo.location, repo.name), record]);
  return record;
}

/** ES SnapshotException: `[repo:snapshot/uuid] msg`, caused by what was found wrong. */
const snapshotException = (repo: string, s: SnapshotRecord, msg: string, cause: unknown) =>
  new EsError('snapshot_exception', `[${repo}:${s.snapshot}/${s.uuid}] ${msg}`, 500, {
    causedBy: new EsError('corrupt_state_exception', (cause as Error).message, 500),
  });

/** The snapshot's index metadata, or the ES error reporting it unreadable. */
function indexMetas(repo: Repo, s: SnapshotRecord): Record<string, SnapshotIndexMeta> {
  try {
    return readIndexMetas(repo.location, s.uuid, s.metaSha);
  } catch (e) {
    if (e instanceof CorruptSnapshotFile) throw snapshotException(repo.name, s, 'failed to read index metadata', e); // prettier-ignore
    throw e;
  }
}

/**
 * Checks every file of the snapshot's `indices` (default all) against its checksum: a corrupt or
 * half-written snapshot is reported (ES: failed to read shard snapshot file), never restored.
 */
export function verifySnapshot(repo: Repo, s: SnapshotRecord, indices = s.indices): void {
  indexMetas(repo, s);
  for (const index of indices)
    (s.shards[index] ?? []).forEach((files, n) => {
      try {
        verifyShard(repo.location, s.uuid, index, n, files);
      } catch (e) {
        if (e instanceof CorruptSnapshotFile) throw snapshotException(repo.name, s, `failed to read shard snapshot file for [${index}][${n}]`, e); // prettier-ignore
        throw e;
      }
    });
}

const restoreError = (repo: string, s: SnapshotRecord, msg: string) =>
  new EsError('snapshot_restore_exception', `[${repo}:${s.snapshot}/${s.uuid}] ${msg}`, 500);

/** ES Settings flattening of `index_settings`: nested objects to dotted `index.` keys. */
function flatSettings(
  v: unknown,
  path = '',
  out: Record<string, string> = {},
): Record<string, string> {
  // prettier-ignore
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flatSettings(x, path ? `${path}.${k}` : k, out);
  } else if (path && v !== null && v !== undefined) {
    out[path.startsWith('index.') ? path : `index.${path}`] = String(v);
  }
  return out;
}

/** ES RestoreService: the settings a restored index gets, or the error refusing them. */
function restoredSettings(
  repo: string,
  s: SnapshotRecord,
  recorded: FlatSettings,
  body: Record<string, unknown>,
): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(recorded)) if (!PRIVATE_SETTINGS.includes(k)) out[k] = v;
  const UNREMOVABLE = ['index.number_of_shards', 'index.version.created'];
  for (const raw of indexList(body.ignore_index_settings)) {
    const key = raw.startsWith('index.') ? raw : `index.${raw}`;
    if (UNREMOVABLE.includes(key))
      throw restoreError(repo, s, `cannot remove setting [${key}] on restore`);
    for (const k of Object.keys(out)) if (simpleMatch(key, k)) delete out[k];
  }
  for (const [k, v] of Object.entries(flatSettings(body.index_settings ?? {}))) {
    if (k === 'index.number_of_shards' || k === 'index.version.created')
      throw restoreError(repo, s, `cannot modify setting [${k}] on restore`);
    out[k] = v;
  }
  return out;
}

/** ES String.replaceAll with a Java replacement (`$1` groups): JS replace reads them alike. */
function renamed(name: string, body: Record<string, unknown>): string {
  if (typeof body.rename_pattern !== 'string' || typeof body.rename_replacement !== 'string')
    return name;
  return name.replace(new RegExp(body.rename_pattern, 'g'), body.rename_replacement);
}

const BATCH = 500;

/** ES 6.8's default `max_restore_bytes_per_sec`: 40mb. */
const DEFAULT_RESTORE_RATE = 40 * 1024 * 1024;

/**
 * ES RateLimitingInputStream over a restore: after each batch, waits until the bytes restored so
 * far took at least bytes / rate seconds (a rate of 0 or less is unthrottled).
 */
function restoreThrottle(bytesPerSec: number): (bytes: number) => Promise<void> {
  const t0 = performance.now();
  let total = 0;
  return async (bytes) => {
    total += bytes;
    if (bytesPerSec <= 0) return;
    const wait = (total / bytesPerSec) * 1000 - (performance.now() - t0);
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  };
}

/** POST _snapshot/{repo}/{snapshot}/_restore: recreates the chosen indices with their documents. */
export async function restoreSnapshot(
  deps: SnapshotDeps,
  repo: Repo,
  s: SnapshotRecord,
  body: Record<string, unknown>,
): Promise<{
  snapshot: string;
  indices: string[];
  shards: { total: number; failed: number; successful: number };
}> {
  // prettier-ignore
  // ES RestoreService: only a complete or partial snapshot, and a partial one's incomplete
  // indices only when `partial` is asked
  if (s.state !== 'SUCCESS' && s.state !== 'PARTIAL')
    throw restoreError(repo.name, s, `unsupported snapshot state [${s.state}]`);
  const asked = indexList(body.indices);
  const ignoreUnavailable = bool(body.ignore_unavailable, false);
  let chosen: string[] = [...s.indices];
  if (asked.length > 0 && !(asked.length === 1 && asked[0] === '_all')) {
    const picked = new Set<string>();
    for (const a of asked) {
      const exclude = a.startsWith('-');
      const pat = exclude ? a.slice(1) : a;
      const hits = s.indices.filter((i) => simpleMatch(pat, i));
      if (hits.length === 0 && !pat.includes('*') && !ignoreUnavailable && !exclude)
        throw indexNotFound(pat);
      for (const h of hits) exclude ? picked.delete(h) : picked.add(h);
    }
    chosen = s.indices.filter((i) => picked.has(i));
  }
  const incomplete = new Set((s.failures ?? []).map((f) => f.index));
  if (!bool(body.partial, false))
    for (const i of chosen)
      if (incomplete.has(i))
        throw restoreError(repo.name, s, `index [${i}] wasn't fully snapshotted - cannot restore`);
  chosen = chosen.filter((i) => !incomplete.has(i));
  verifySnapshot(repo, s, chosen);
  const metas = indexMetas(repo, s);
  const includeAliases = bool(body.include_aliases, true);
  // everything is checked before anything changes
  const plan = chosen.map((source) => {
    const target = renamed(source, body);
    const existing = deps.indices.get(target);
    if (existing && !existing.closed)
      throw restoreError(repo.name, s, `cannot restore index [${target}] because an open index with same name already exists in the cluster. Either close or delete the existing index or restore the index under a different name by providing a rename pattern and replacement name`); // prettier-ignore
    const meta = metas[source]!;
    return { source, target, existing, meta, settings: restoredSettings(repo.name, s, meta.settings, body) }; // prettier-ignore
  });
  const targets = new Set<string>();
  for (const p of plan) {
    if (targets.has(p.target))
      throw restoreError(repo.name, s, `indices [${plan.filter((x) => x.target === p.target).map((x) => x.source).join(',')}] and [${p.target}] are renamed into the same index`); // prettier-ignore
    targets.add(p.target);
  }
  let total = 0;
  for (const p of plan) {
    // marked first: a node killed from here on finds the index red, not half filled
    await deps.restoreMarks?.begin(p.target, s.snapshot);
    const startMs = Date.now();
    // write blocks would refuse the restore's own writes: they are applied once it is done
    const blocks: FlatSettings = {};
    const settings: FlatSettings = {};
    for (const [k, v] of Object.entries(p.settings))
      (k.startsWith('index.blocks.') ? blocks : settings)[k] = v;
    try {
      // ES restores over a closed index in place; here it is replaced by the snapshot's copy
      if (p.existing) await deps.metadata.deleteIndices([p.existing]);
      // here or through the master, so every node has it
      await deps.metadata.createIndex(p.target, {
        settings,
        ...(p.meta.mapping ? { mappings: { [p.meta.mapping.type]: p.meta.mapping.json } } : {}),
        ...(includeAliases ? { aliases: p.meta.aliases } : {}),
      });
    } catch (e) {
      // no index of this restore exists: a mark left would fail a later index of the name
      await deps.restoreMarks?.done(p.target);
      throw e;
    }
    const idx = deps.indices.get(p.target)!;
    await deps.restoreMarks?.created(p.target, s.snapshot, idx.uuid);
    const shards = s.shards[p.source]?.length ?? idx.numberOfShards;
    total += shards;
    let batch: IndexRequest[] = [];
    const throttle = restoreThrottle(repo.maxRestoreBytesPerSec ?? DEFAULT_RESTORE_RATE);
    const flush = async () => {
      if (batch.length === 0) return;
      const r = await deps.writes.run(batch, { policy: 'false' });
      const failed = r.items.find((i) => i.error);
      if (failed?.error) throw failed.error;
      await throttle(batch.reduce((n, b) => n + (b.kind === 'index' ? b.source.length : 0), 0));
      batch = [];
    };
    try {
      for (let n = 0; n < shards; n++) {
        for (const d of readShard(repo.location, s.uuid, p.source, n, s.shards[p.source]![n]!)) {
          // an external version keeps each document's version, as ES's copied segments do
          batch.push({ ...defaultWriteBase(p.target, d.type, d.id), routing: d.routing, version: d.version, versionType: 'external', kind: 'index', opType: 'index', source: d.source }); // prettier-ignore
          if (batch.length >= BATCH) await flush();
        }
      }
      await flush();
      await deps.durable();
    } catch (e) {
      // a restore that failed half way leaves its index red (deletable), as a restart would
      if (deps.restoreMarks) {
        idx.stop();
        idx.failed = true;
        idx.failure = `restore of snapshot [${s.snapshot}] failed: ${(e as Error).message}`;
      }
      throw e;
    }
    await deps.refresh(idx);
    if (Object.keys(blocks).length > 0) await deps.metadata.putSettings([idx], blocks, false);
    await deps.restoreMarks?.done(p.target);
    const snapshot = { repository: repo.name, snapshot: s.snapshot, version: s.version, index: p.source }; // prettier-ignore
    for (let n = 0; n < idx.numberOfShards; n++)
      idx.shard(n).recovery = { type: 'SNAPSHOT', startMs, stopMs: Math.max(Date.now(), startMs + 1), replayedOps: 0, snapshot }; // prettier-ignore
  }
  return { snapshot: s.snapshot, indices: plan.map((p) => p.target), shards: { total, failed: 0, successful: total } }; // prettier-ignore
}
