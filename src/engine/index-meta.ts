/**
 * Persisted index metadata (ES IndexMetaData): identity, settings, the single type's mapping as
 * JSON, aliases and state. Stored in the `meta` database under `index:<name>`.
 */
import type { FlatSettings } from './index-settings.js';

export interface AliasMeta {
  filter?: unknown;
  index_routing?: string;
  search_routing?: string;
  is_write_index?: boolean;
}

export interface IndexMeta {
  name: string;
  uuid: string;
  creationDate: number;
  settings: FlatSettings;
  /** The type name and its mapping as rendered by `mappingToJson` (null: no mapping yet). */
  mapping: { type: string; json: Record<string, unknown> } | null;
  aliases: Record<string, AliasMeta>;
  state: 'open' | 'close';
  primaryTerm: number;
  /** Max sequence number per shard at the last metadata write (tombstones may be purged). */
  version: number;
}

export const metaKey = (name: string) => `index:${name}`;
export const seqKey = (uuid: string) => `seq:${uuid}`;
