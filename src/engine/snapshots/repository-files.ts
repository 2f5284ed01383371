/**
 * The files a snapshot is kept in under an `fs` repository's location, in Quarry's own format:
 *   quarry-snapshots.json             the repository's list of snapshots (SnapshotRecord[])
 *   snap-{uuid}/indices.json          per index: its settings, mapping and aliases as taken
 *   blobs/{sha256}.ndjson             one shard's copy: a header line, then one document a line
 * The list is replaced atomically (write then rename), so a reader sees a whole snapshot or none.
 * A shard's file is named by the SHA-256 of its content: a snapshot of an unchanged shard finds
 * it already there and copies nothing (ES's incremental snapshots), and a reader checks the name
 * against the content, so a corrupt or half-written file is reported instead of restored.
 * (Snapshots taken before kept their shards in snap-{uuid}/{index}/{shard}.ndjson, unchecked.)
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { EsError } from '../../common/errors.js';
import type { AliasMeta } from '../index-meta.js';
import type { FlatSettings } from '../index-settings.js';
import type { ShardFiles, SnapshotRecord } from './snapshot-info.js';

export interface SnapshotIndexMeta {
  readonly settings: FlatSettings;
  /** Type name and its mapping as GET _mapping renders it (null: no mapping yet). */
  readonly mapping: { readonly type: string; readonly json: Record<string, unknown> } | null;
  readonly aliases: Readonly<Record<string, AliasMeta>>;
}

export interface SnapshotDoc {
  readonly id: string;
  readonly type: string;
  readonly routing: string | null;
  readonly version: number;
  readonly source: Buffer;
}

const LIST = 'quarry-snapshots.json';
const BLOBS = 'blobs';
const snapDir = (location: string, uuid: string) => join(location, `snap-${uuid}`);
// index names are file-name safe (ES validateIndexName refuses separators)
const legacyShardFile = (location: string, uuid: string, index: string, shard: number) =>
  join(snapDir(location, uuid), index, `${shard}.ndjson`);
const blobFile = (location: string, sha: string) => join(location, BLOBS, `${sha}.ndjson`);
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A repository file whose content is not what was written (the caller names the snapshot). */
export class CorruptSnapshotFile extends Error {}

/** The repository's snapshots; an unreadable list is ES's RepositoryException. */
export function readSnapshotList(location: string, repoName: string): SnapshotRecord[] {
  const p = join(location, LIST);
  if (!existsSync(p)) return [];
  try {
    const list = (JSON.parse(readFileSync(p, 'utf8')) as { snapshots: SnapshotRecord[] }).snapshots;
    if (!Array.isArray(list)) throw new Error('no snapshot list');
    return list;
  } catch (e) {
    throw new EsError(
      'repository_exception',
      `[${repoName}] could not read repository data from index blob`,
      500,
      {
        causedBy: new EsError('corrupt_state_exception', `${p}: ${(e as Error).message}`, 500),
      },
    );
  }
}

export function writeSnapshotList(location: string, list: readonly SnapshotRecord[]): void {
  mkdirSync(location, { recursive: true });
  const p = join(location, LIST);
  writeFileSync(`${p}.tmp`, JSON.stringify({ snapshots: list }));
  renameSync(`${p}.tmp`, p);
}

/** Writes the indices' metadata; returns the SHA-256 its reader checks. */
export function writeIndexMetas(
  location: string,
  uuid: string,
  metas: Record<string, SnapshotIndexMeta>,
): string {
  mkdirSync(snapDir(location, uuid), { recursive: true });
  const text = JSON.stringify(metas);
  writeFileSync(join(snapDir(location, uuid), 'indices.json'), text);
  return sha256(text);
}

/** The indices' metadata, checked against `sha` when the snapshot recorded one. */
export function readIndexMetas(
  location: string,
  uuid: string,
  sha?: string,
): Record<string, SnapshotIndexMeta> {
  const p = join(snapDir(location, uuid), 'indices.json');
  const raw = readChecked(p, sha);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new CorruptSnapshotFile(`${p}: ${(e as Error).message}`);
  }
}

function readChecked(path: string, sha: string | undefined): Buffer {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (e) {
    throw new CorruptSnapshotFile(`${path}: ${(e as Error).message}`);
  }
  if (sha !== undefined) {
    const actual = sha256(raw);
    if (actual !== sha)
      throw new CorruptSnapshotFile(`checksum failed: expected=${sha} actual=${actual} (resource=${path})`); // prettier-ignore
  }
  return raw;
}

/**
 * Writes one shard's documents unless a file of the same content is already in the repository;
 * returns what the shard takes and what this snapshot added. Sources are kept byte for byte
 * (base64).
 */
export function writeShard(
  location: string,
  index: string,
  shard: number,
  docs: readonly SnapshotDoc[],
): ShardFiles {
  const lines = [JSON.stringify({ index, shard, docs: docs.length })];
  for (const d of docs)
    lines.push(JSON.stringify({ id: d.id, type: d.type, routing: d.routing, version: d.version, source: d.source.toString('base64') })); // prettier-ignore
  const text = Buffer.from(lines.join('\n') + '\n');
  const blob = sha256(text);
  const p = blobFile(location, blob);
  const bytes = text.length;
  // a file of the right name and size was checked whole when written (renamed into place)
  if (existsSync(p) && statSync(p).size === bytes)
    return { files: 1, bytes, blob, newFiles: 0, newBytes: 0 };
  mkdirSync(join(location, BLOBS), { recursive: true });
  writeFileSync(`${p}.tmp`, text);
  renameSync(`${p}.tmp`, p);
  return { files: 1, bytes, blob, newFiles: 1, newBytes: bytes };
}

/** One shard's documents; throws CorruptSnapshotFile when the file is not what was written. */
export function readShard(
  location: string,
  uuid: string,
  index: string,
  shard: number,
  files: ShardFiles,
): SnapshotDoc[] {
  const path = files.blob
    ? blobFile(location, files.blob)
    : legacyShardFile(location, uuid, index, shard);
  const lines = readChecked(path, files.blob).toString('utf8').split('\n');
  const out: SnapshotDoc[] = [];
  try {
    const header = JSON.parse(lines[0]!) as { docs: number };
    for (const l of lines.slice(1)) {
      if (!l) continue;
      const d = JSON.parse(l) as { id: string; type: string; routing: string | null; version: number; source: string }; // prettier-ignore
      out.push({
        id: d.id,
        type: d.type,
        routing: d.routing,
        version: d.version,
        source: Buffer.from(d.source, 'base64'),
      });
    }
    if (out.length !== header.docs)
      throw new Error(`holds ${out.length} documents of ${header.docs}`);
  } catch (e) {
    if (e instanceof CorruptSnapshotFile) throw e;
    throw new CorruptSnapshotFile(`${path}: ${(e as Error).message}`);
  }
  return out;
}

/** Checks one shard's file whole without parsing it (the name is the content's checksum). */
export function verifyShard(
  location: string,
  uuid: string,
  index: string,
  shard: number,
  files: ShardFiles,
): void {
  if (files.blob) readChecked(blobFile(location, files.blob), files.blob);
  else readShard(location, uuid, index, shard, files);
}

/**
 * Removes a snapshot's own files, then every shard file no snapshot left in `remaining` refers
 * to (ES BlobStoreRepository deletes the blobs only the deleted snapshot used).
 */
export function removeSnapshotFiles(
  location: string,
  uuid: string,
  remaining: readonly SnapshotRecord[],
): void {
  rmSync(snapDir(location, uuid), { recursive: true, force: true });
  const used = new Set<string>();
  for (const s of remaining)
    for (const list of Object.values(s.shards)) for (const f of list) if (f.blob) used.add(f.blob);
  const dir = join(location, BLOBS);
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) {
    const sha = f.replace(/\.ndjson(\.tmp)?$/, '');
    if (!used.has(sha) || f.endsWith('.tmp')) rmSync(join(dir, f), { force: true });
  }
}
