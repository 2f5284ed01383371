/**
 * Where pipeline definitions live: cluster metadata, kept behind this small interface so the
 * cluster layer can move it (to etcd) without touching the ingest service. The node's meta
 * store implementation keeps them across restarts, like stored scripts.
 */
import type { JsonMap } from './document.js';

export interface PipelineStore {
  get(id: string): JsonMap | undefined;
  /** Every definition by id. */
  all(): Record<string, JsonMap>;
  put(id: string, config: JsonMap): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
}

/** The part of the node's meta database this needs (src/store/store.ts Store has it). */
export interface MetaDatabase {
  getMeta<T>(key: string): T | undefined;
  putMeta(key: string, value: unknown): Promise<boolean>;
  removeMeta(key: string): Promise<boolean>;
  metaKeys(prefix: string): string[];
  durable(): Promise<void>;
}

const PREFIX = 'ingest-pipeline:';

export function metaPipelineStore(db: MetaDatabase): PipelineStore {
  return {
    get: (id) => db.getMeta<JsonMap>(PREFIX + id),
    all: () => {
      const out: Record<string, JsonMap> = {};
      for (const k of db.metaKeys(PREFIX)) {
        const v = db.getMeta<JsonMap>(k);
        if (v) out[k.slice(PREFIX.length)] = v;
      }
      return out;
    },
    put: async (id, config) => {
      await db.putMeta(PREFIX + id, config);
      await db.durable();
    },
    remove: async (ids) => {
      for (const id of ids) await db.removeMeta(PREFIX + id);
      await db.durable();
    },
  };
}

/** A store in memory (tests, and nodes without a data path). */
export function memoryPipelineStore(): PipelineStore {
  const m = new Map<string, JsonMap>();
  return {
    get: (id) => m.get(id),
    all: () => Object.fromEntries(m),
    put: async (id, c) => void m.set(id, c),
    remove: async (ids) => ids.forEach((id) => m.delete(id)),
  };
}
