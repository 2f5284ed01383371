/**
 * What a snapshot is once taken (ES 6.8 SnapshotInfo) and how the snapshot APIs render it: the
 * info of `GET _snapshot/{repo}/{snapshot}`, the completed status of `_status`, name checks and
 * the selection of snapshots by name. Pure: the files live in repository-files.ts.
 */
import { EsError } from '../../common/errors.js';
import { formatTimeValue } from '../../common/units.js';
import { simpleMatch } from '../index-names.js';

/** Files and bytes a shard's copy took in the repository (ES SnapshotStats). */
export interface ShardFiles {
  readonly files: number;
  readonly bytes: number;
  /** SHA-256 of the shard's file, which is its name (absent: a snapshot of the older format). */
  readonly blob?: string;
  /** What this snapshot copied that was not in the repository yet (absent: all of it). */
  readonly newFiles?: number;
  readonly newBytes?: number;
}

/** A shard that could not be copied (ES SnapshotShardFailure). */
export interface ShardFailure {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly reason: string;
}

export interface SnapshotRecord {
  readonly snapshot: string;
  readonly uuid: string;
  readonly versionId: number;
  readonly version: string;
  readonly indices: readonly string[];
  readonly includeGlobalState: boolean;
  readonly state: 'SUCCESS' | 'PARTIAL' | 'FAILED';
  readonly startMs: number;
  readonly endMs: number;
  /** FAILED: why (ES SnapshotInfo.reason). */
  readonly reason?: string;
  /** Per index, per shard number: what was written. */
  readonly shards: Readonly<Record<string, readonly ShardFiles[]>>;
  readonly failures?: readonly ShardFailure[];
  /** SHA-256 of the snapshot's indices.json (absent: a snapshot of the older format). */
  readonly metaSha?: string;
}

export const snapshotMissing = (repo: string, name: string) =>
  new EsError('snapshot_missing_exception', `[${repo}:${name}] is missing`, 404);

const invalidName = (repo: string, name: string, why: string) =>
  new EsError('invalid_snapshot_name_exception', `[${repo}:${name}] Invalid snapshot name [${name}], ${why}`, 400); // prettier-ignore

/** ES Strings.INVALID_FILENAME_CHARS as ES prints the set. */
const INVALID_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** ES SnapshotsService.validate: a snapshot name must be usable as a file name. */
export function validateSnapshotName(
  repo: string,
  name: string,
  existing: readonly SnapshotRecord[],
): void {
  if (name === '') throw invalidName(repo, name, 'cannot be empty');
  if (name.includes('#')) throw invalidName(repo, name, "must not contain '#'");
  if (name.startsWith('_')) throw invalidName(repo, name, "must not start with '_'");
  if (name.toLowerCase() !== name) throw invalidName(repo, name, 'must be lowercase');
  if (INVALID_CHARS.some((c) => name.includes(c)))
    throw invalidName(repo, name, `must not contain the following characters [${INVALID_CHARS.join(', ')}]`); // prettier-ignore
  if (existing.some((s) => s.snapshot === name))
    throw invalidName(repo, name, 'snapshot with the same name already exists');
}

/**
 * ES TransportGetSnapshotsAction: `_all` (or nothing) is every snapshot, `_current` the running
 * ones (none: a lone node's snapshots complete before their request answers), otherwise names
 * and wildcards; a missing exact name fails unless `ignoreUnavailable`. Sorted as ES sorts
 * SnapshotInfo: by start time, then name.
 */
export function selectSnapshots(
  repo: string,
  all: readonly SnapshotRecord[],
  names: readonly string[],
  ignoreUnavailable: boolean,
): SnapshotRecord[] {
  let out: SnapshotRecord[];
  if (names.length === 0 || names.includes('_all')) out = [...all];
  else {
    const picked = new Set<SnapshotRecord>();
    for (const n of names) {
      if (n === '_current') continue;
      if (n.includes('*')) {
        for (const s of all) if (simpleMatch(n, s.snapshot)) picked.add(s);
        continue;
      }
      const s = all.find((x) => x.snapshot === n);
      if (s) picked.add(s);
      else if (!ignoreUnavailable) throw snapshotMissing(repo, n);
    }
    out = [...picked];
  }
  return out.sort((a, b) => a.startMs - b.startMs || (a.snapshot < b.snapshot ? -1 : 1));
}

export function shardTotals(s: SnapshotRecord): {
  total: number;
  failed: number;
  successful: number;
} {
  const successful = Object.values(s.shards).reduce((n, l) => n + l.length, 0);
  const failed = s.failures?.length ?? 0;
  return { total: successful + failed, failed, successful };
}

/** ES SnapshotInfo.toXContent; `verbose: false` is the name, uuid, indices and state alone. */
export function snapshotInfoJson(
  s: SnapshotRecord,
  verbose: boolean,
  human: boolean,
): Record<string, unknown> {
  if (!verbose)
    return { snapshot: s.snapshot, uuid: s.uuid, indices: [...s.indices], state: s.state };
  const date = (f: string, ms: number) => ({ [f]: new Date(ms).toISOString(), [`${f}_in_millis`]: ms }); // prettier-ignore
  const took = s.endMs - s.startMs;
  return {
    snapshot: s.snapshot,
    uuid: s.uuid,
    version_id: s.versionId,
    version: s.version,
    indices: [...s.indices],
    include_global_state: s.includeGlobalState,
    state: s.state,
    ...(s.reason !== undefined ? { reason: s.reason } : {}),
    ...date('start_time', s.startMs),
    ...date('end_time', s.endMs),
    ...(human ? { duration: formatTimeValue(took) } : {}),
    duration_in_millis: took,
    failures: (s.failures ?? []).map((f) => ({
      index: f.index,
      index_uuid: f.indexUuid,
      shard_id: f.shard,
      reason: f.reason,
      status: 'INTERNAL_SERVER_ERROR',
    })),
    shards: shardTotals(s),
  };
}

function statsJson(
  list: readonly ShardFiles[],
  startMs: number,
  tookMs: number,
): Record<string, unknown> {
  const files = list.reduce((n, f) => n + f.files, 0);
  const bytes = list.reduce((n, f) => n + f.bytes, 0);
  const newFiles = list.reduce((n, f) => n + (f.newFiles ?? f.files), 0);
  const newBytes = list.reduce((n, f) => n + (f.newBytes ?? f.bytes), 0);
  return {
    incremental: { file_count: newFiles, size_in_bytes: newBytes },
    total: { file_count: files, size_in_bytes: bytes },
    start_time_in_millis: startMs,
    time_in_millis: tookMs,
    // the 6.3 names ES still prints beside them
    // (ES: the incremental figures, all of them processed once done)
    number_of_files: newFiles,
    processed_files: newFiles,
    total_size_in_bytes: newBytes,
    processed_size_in_bytes: newBytes,
  };
}

const doneShards = (n: number) => ({ initializing: 0, started: 0, finalizing: 0, done: n, failed: 0, total: n }); // prettier-ignore

/** ES SnapshotStatus.toXContent of a completed snapshot: every shard DONE. */
export function snapshotStatusJson(repo: string, s: SnapshotRecord): Record<string, unknown> {
  const took = s.endMs - s.startMs;
  const all = Object.values(s.shards).flat();
  const indices: Record<string, unknown> = {};
  for (const [name, list] of Object.entries(s.shards)) {
    const shards: Record<string, unknown> = {};
    list.forEach(
      (f, i) => (shards[String(i)] = { stage: 'DONE', stats: statsJson([f], s.startMs, took) }),
    );
    indices[name] = { shards_stats: doneShards(list.length), stats: statsJson(list, s.startMs, took), shards }; // prettier-ignore
  }
  return {
    snapshot: s.snapshot,
    repository: repo,
    uuid: s.uuid,
    state: s.state,
    include_global_state: s.includeGlobalState,
    shards_stats: doneShards(all.length),
    stats: statsJson(all, s.startMs, took),
    indices,
  };
}
