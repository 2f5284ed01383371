/**
 * The files a snapshot is kept in under an `fs` repository's location, in Quarry's own format:
 *   quarry-snapshots.json             the repository's list of snapshots (SnapshotRecord[])
 *   snap-{uuid}/indices.json          per index: its settings, mapping and aliases as taken
 *   snap-{uuid}/{index}/{shard}.ndjson a header line, then one document a line
 * The list is replaced atomically (write then rename), so a reader sees a whole snapshot or none.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
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
const snapDir = (location: string, uuid: string) => join(location, `snap-${uuid}`);
// index names are file-name safe (ES validateIndexName refuses separators)
const shardFile = (location: string, uuid: string, index: string, shard: number) =>
  join(snapDir(location, uuid), index, `${shard}.ndjson`);

export function readSnapshotList(location: string): SnapshotRecord[] {
  const p = join(location, LIST);
  if (!existsSync(p)) return [];
  return (JSON.parse(readFileSync(p, 'utf8')) as { snapshots: SnapshotRecord[] }).snapshots;
}

export function writeSnapshotList(location: string, list: readonly SnapshotRecord[]): void {
  mkdirSync(location, { recursive: true });
  const p = join(location, LIST);
  writeFileSync(`${p}.tmp`, JSON.stringify({ snapshots: list }));
  renameSync(`${p}.tmp`, p);
}

export function writeIndexMetas(
  location: string,
  uuid: string,
  metas: Record<string, SnapshotIndexMeta>,
): void {
  // prettier-ignore
  mkdirSync(snapDir(location, uuid), { recursive: true });
  writeFileSync(join(snapDir(location, uuid), 'indices.json'), JSON.stringify(metas));
}

export function readIndexMetas(location: string, uuid: string): Record<string, SnapshotIndexMeta> {
  return JSON.parse(readFileSync(join(snapDir(location, uuid), 'indices.json'), 'utf8'));
}

/** Writes one shard's documents; returns what it took. Sources are kept byte for byte (base64). */
export function writeShard(
  location: string,
  uuid: string,
  index: string,
  shard: number,
  docs: readonly SnapshotDoc[],
): ShardFiles {
  mkdirSync(join(snapDir(location, uuid), index), { recursive: true });
  const lines = [JSON.stringify({ index, shard, docs: docs.length })];
  for (const d of docs)
    lines.push(JSON.stringify({ id: d.id, type: d.type, routing: d.routing, version: d.version, source: d.source.toString('base64') })); // prettier-ignore
  const text = lines.join('\n') + '\n';
  writeFileSync(shardFile(location, uuid, index, shard), text);
  return { files: 1, bytes: Buffer.byteLength(text) };
}

export function readShard(
  location: string,
  uuid: string,
  index: string,
  shard: number,
): SnapshotDoc[] {
  const lines = readFileSync(shardFile(location, uuid, index, shard), 'utf8').split('\n');
  const out: SnapshotDoc[] = [];
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
  return out;
}

export function removeSnapshotFiles(location: string, uuid: string): void {
  rmSync(snapDir(location, uuid), { recursive: true, force: true });
}
