/**
 * The allocation settings with ES 6.8's keys and defaults, read from the effective cluster
 * settings (flat strings) and an index's own settings.
 */
import { parseTimeValue } from '../../common/units.js';
import type { IndexMetadata } from '../state.js';

export type Settings = Readonly<Record<string, string>>;

export const ENABLE = 'cluster.routing.allocation.enable';
export const INDEX_ENABLE = 'index.routing.allocation.enable';
export const REBALANCE_ENABLE = 'cluster.routing.rebalance.enable';
export const INDEX_REBALANCE_ENABLE = 'index.routing.rebalance.enable';
export const ALLOW_REBALANCE = 'cluster.routing.allocation.allow_rebalance';
export const CONCURRENT_REBALANCE = 'cluster.routing.allocation.cluster_concurrent_rebalance';
export const NODE_CONCURRENT_RECOVERIES = 'cluster.routing.allocation.node_concurrent_recoveries';
export const NODE_INCOMING = 'cluster.routing.allocation.node_concurrent_incoming_recoveries';
export const NODE_OUTGOING = 'cluster.routing.allocation.node_concurrent_outgoing_recoveries';
export const NODE_INITIAL_PRIMARIES =
  'cluster.routing.allocation.node_initial_primaries_recoveries';
export const CLUSTER_TOTAL_SHARDS = 'cluster.routing.allocation.total_shards_per_node';
export const INDEX_TOTAL_SHARDS = 'index.routing.allocation.total_shards_per_node';
export const MAX_RETRIES = 'index.allocation.max_retries';
export const DELAYED_TIMEOUT = 'index.unassigned.node_left.delayed_timeout';
export const INDEX_BALANCE = 'cluster.routing.allocation.balance.index';
export const SHARD_BALANCE = 'cluster.routing.allocation.balance.shard';
export const BALANCE_THRESHOLD = 'cluster.routing.allocation.balance.threshold';
export const DISK_THRESHOLD_ENABLED = 'cluster.routing.allocation.disk.threshold_enabled';
export const AWARENESS_ATTRIBUTES = 'cluster.routing.allocation.awareness.attributes';

export function intSetting(settings: Settings, key: string, dflt: number): number {
  const v = settings[key];
  if (v === undefined) return dflt;
  const n = Number(v);
  return Number.isInteger(n) ? n : dflt;
}

export function floatSetting(settings: Settings, key: string, dflt: number): number {
  const v = settings[key];
  if (v === undefined) return dflt;
  const n = Number(v);
  return Number.isFinite(n) ? n : dflt;
}

export type EnableAllocation = 'all' | 'primaries' | 'new_primaries' | 'none';
export type EnableRebalance = 'all' | 'primaries' | 'replicas' | 'none';

export function parseEnable(v: string | undefined): EnableAllocation {
  const s = (v ?? 'all').toLowerCase();
  return s === 'primaries' || s === 'new_primaries' || s === 'none' ? s : 'all';
}

export function parseRebalance(v: string | undefined): EnableRebalance {
  const s = (v ?? 'all').toLowerCase();
  return s === 'primaries' || s === 'replicas' || s === 'none' ? s : 'all';
}

export type AllowRebalance = 'always' | 'indices_primaries_active' | 'indices_all_active';

export function allowRebalance(settings: Settings): AllowRebalance {
  const s = (settings[ALLOW_REBALANCE] ?? 'indices_all_active').toLowerCase();
  if (s === 'always') return 'always';
  if (s === 'indices_primaries_active' || s === 'indicesprimariesactive')
    return 'indices_primaries_active';
  return 'indices_all_active';
}

/** Incoming and outgoing recovery limits, each defaulting to node_concurrent_recoveries. */
export function recoveryLimits(settings: Settings): { incoming: number; outgoing: number } {
  const both = intSetting(settings, NODE_CONCURRENT_RECOVERIES, 2);
  return {
    incoming: intSetting(settings, NODE_INCOMING, both),
    outgoing: intSetting(settings, NODE_OUTGOING, both),
  };
}

/** `index.unassigned.node_left.delayed_timeout` in millis (default 1m). */
export function delayedTimeout(meta: IndexMetadata): number {
  const v = meta.settings[DELAYED_TIMEOUT];
  if (v === undefined) return 60_000;
  try {
    return Math.max(0, parseTimeValue(v, DELAYED_TIMEOUT));
  } catch {
    return 60_000;
  }
}
