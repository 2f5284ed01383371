/**
 * Alias definitions as create-index bodies and index templates give them (ES Alias.fromXContent):
 * `routing` sets both routings, `index_routing` / `search_routing` override it.
 */
import { EsError } from '../common/errors.js';
import type { AliasMeta } from './index-meta.js';

export function parseAliases(v: unknown): Record<string, AliasMeta> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new EsError('parse_exception', 'Failed to parse aliases', 400);
  }
  const out: Record<string, AliasMeta> = {};
  for (const [name, def] of Object.entries(v as Record<string, unknown>)) {
    const d = (def ?? {}) as Record<string, unknown>;
    const a: AliasMeta = {};
    if (d.filter !== undefined) a.filter = d.filter;
    if (typeof d.routing === 'string' || typeof d.routing === 'number') {
      a.index_routing = a.search_routing = String(d.routing);
    }
    if (d.index_routing !== undefined) a.index_routing = String(d.index_routing);
    if (d.search_routing !== undefined) a.search_routing = String(d.search_routing);
    if (typeof d.is_write_index === 'boolean') a.is_write_index = d.is_write_index;
    out[name] = a;
  }
  return out;
}
