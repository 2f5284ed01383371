/**
 * Index settings as Elasticsearch 6.8 keeps them: a flat map of `index.*` keys to string (or
 * string list) values, normalised from nested or flat request bodies, validated against the
 * built-in index settings, and rendered nested or flat for GET _settings.
 */
import { illegalArgument, EsError } from '../common/errors.js';
import { onlyValueLists } from '../common/settings-source.js';
import { INDEX_SORT_KEYS, indexSortSpecs } from './index-sort-settings.js';

export type SettingValue = string | string[];
export type FlatSettings = Record<string, SettingValue>;

/** ES 6.8.13's `index.version.created` (Version.V_6_8_13.id). */
export const VERSION_CREATED = '6081399';

/** Flattens a settings object (`{index: {number_of_shards: 1}}`, `{"index.refresh_interval": "1s"}`)
 *  into `index.`-prefixed keys (ES Settings.Builder#loadFromMap + normalizePrefix("index.")).
 *  Iterative: a body may nest objects thousands of levels deep. */
export function flattenSettings(input: unknown, prefix = ''): FlatSettings {
  const out: FlatSettings = {};
  const todo: [unknown, string][] = [[input, prefix]];
  while (todo.length > 0) {
    const [v, path] = todo.pop()!;
    if (v === null || v === undefined) {
      if (path) out[path] = null as unknown as string; // explicit null: reset to default
    } else if (Array.isArray(v)) {
      // ES Settings.fromXContent reads lists of values only
      if (v.some((x) => x === null || typeof x === 'object')) throw onlyValueLists(input);
      out[path] = v.map((x) => String(x));
    } else if (typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        todo.push([x, path ? `${path}.${k}` : k]);
      }
    } else out[path] = String(v);
  }
  const norm: FlatSettings = {};
  for (const [k, v] of Object.entries(out)) {
    norm[k.startsWith('index.') ? k : `index.${k}`] = v;
  }
  return norm;
}

const EXACT_KEYS = new Set([
  'index.number_of_shards',
  'index.number_of_replicas',
  'index.number_of_routing_shards',
  'index.routing_partition_size',
  'index.auto_expand_replicas',
  'index.refresh_interval',
  'index.max_result_window',
  'index.max_inner_result_window',
  'index.max_docvalue_fields_search',
  'index.max_script_fields',
  'index.max_ngram_diff',
  'index.max_shingle_diff',
  'index.max_rescore_window',
  'index.max_adjacency_matrix_filters',
  'index.max_analyzed_offset',
  'index.highlight.max_analyzed_offset',
  'index.max_terms_count',
  'index.analyze.max_token_count',
  'index.max_regex_length',
  'index.max_refresh_listeners',
  'index.max_slices_per_scroll',
  'index.translog.durability',
  'index.translog.sync_interval',
  'index.translog.flush_threshold_size',
  'index.translog.generation_threshold_size',
  'index.translog.retention.age',
  'index.translog.retention.size',
  'index.gc_deletes',
  'index.soft_deletes.enabled',
  'index.soft_deletes.retention.operations',
  'index.soft_deletes.retention_lease.period',
  'index.codec',
  'index.priority',
  'index.hidden',
  'index.format',
  'index.data_path',
  'index.shard.check_on_startup',
  'index.query.default_field',
  'index.query_string.lenient',
  'index.query.parse.allow_unmapped_fields',
  'index.mapping.total_fields.limit',
  'index.mapping.depth.limit',
  'index.mapping.nested_fields.limit',
  'index.mapping.ignore_malformed',
  'index.mapping.coerce',
  'index.mapper.dynamic',
  'index.requests.cache.enable',
  'index.queries.cache.enabled',
  'index.warmer.enabled',
  'index.search.throttled',
  'index.default_pipeline',
  'index.optimize_auto_generated_id',
  'index.write.wait_for_active_shards',
  'index.load_fixed_bitset_filters_eagerly',
  'index.store.type',
  'index.store.preload',
  'index.store.stats_refresh_interval',
  'index.store.fs.fs_lock',
  'index.ttl.disable_purge',
  'index.compound_format',
  'index.fielddata.cache',
  'index.unassigned.node_left.delayed_timeout',
  'index.allocation.max_retries',
  'index.version.created',
  'index.version.upgraded',
  'index.creation_date',
  'index.uuid',
  'index.provided_name',
  'index.resize.source.name',
  'index.resize.source.uuid',
  'index.total_shards_per_node',
  ...INDEX_SORT_KEYS,
]);

const PREFIXES = [
  'index.analysis.',
  'index.similarity.',
  'index.routing.allocation.',
  'index.routing.rebalance.',
  'index.blocks.',
  'index.merge.',
  'index.search.slowlog.',
  'index.indexing.slowlog.',
  'index.lifecycle.',
  'index.xpack.',
];

const isKnown = (k: string) => EXACT_KEYS.has(k) || PREFIXES.some((p) => k.startsWith(p));

const PRIVATE_KEYS = new Set([
  'index.resize.source.name',
  'index.resize.source.uuid',
  'index.creation_date',
  'index.uuid',
  'index.provided_name',
  'index.version.upgraded',
]);

/** Validates user-supplied settings. `creating` allows number_of_shards and friends. */
export function validateSettings(s: FlatSettings, creating: boolean): void {
  const unknown = Object.keys(s).filter((k) => !isKnown(k));
  if (unknown.length) {
    const k = unknown[0]!;
    throw illegalArgument(
      `unknown setting [${k}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
    );
  }
  if (INDEX_SORT_KEYS.some((k) => s[k] !== undefined && s[k] !== null)) indexSortSpecs(s);
  for (const [k, v] of Object.entries(s)) {
    if (v === null) continue;
    if (!creating && PRIVATE_KEYS.has(k)) {
      throw illegalArgument(
        `can not update private setting [${k}]; this setting is managed by Elasticsearch`,
      );
    }
    switch (k) {
      case 'index.number_of_shards':
        intSetting(k, v, 1, 1024);
        break;
      case 'index.number_of_replicas':
        intSetting(k, v, 0);
        break;
      case 'index.number_of_routing_shards':
        intSetting(k, v, 1);
        break;
      case 'index.max_result_window':
      case 'index.max_inner_result_window':
      case 'index.max_terms_count':
      case 'index.analyze.max_token_count':
      case 'index.max_docvalue_fields_search':
      case 'index.max_script_fields':
      case 'index.max_regex_length':
      case 'index.mapping.total_fields.limit':
      case 'index.mapping.depth.limit':
      case 'index.mapping.nested_fields.limit':
        intSetting(k, v, k === 'index.max_result_window' ? 1 : 0);
        break;
      case 'index.highlight.max_analyzed_offset':
        intSetting(k, v, -1);
        break;
      case 'index.translog.durability':
        if (typeof v !== 'string' || !['request', 'async'].includes(v.toLowerCase()))
          throw illegalArgument(
            `No enum constant org.elasticsearch.index.translog.Translog.Durability.${String(v).toUpperCase()}`,
          );
        break;
      case 'index.blocks.read_only':
      case 'index.blocks.read':
      case 'index.blocks.write':
      case 'index.blocks.metadata':
      case 'index.blocks.read_only_allow_delete':
        boolSetting(k, v);
        break;
    }
  }
}

function intSetting(key: string, v: SettingValue, min: number, max?: number): number {
  const n = Number(v);
  if (typeof v !== 'string' || !/^-?\d+$/.test(v.trim())) {
    throw illegalArgument(`Failed to parse value [${String(v)}] for setting [${key}]`);
  }
  if (n < min)
    throw illegalArgument(`Failed to parse value [${v}] for setting [${key}] must be >= ${min}`);
  if (max !== undefined && n > max)
    throw illegalArgument(`Failed to parse value [${v}] for setting [${key}] must be <= ${max}`);
  return n;
}

function boolSetting(key: string, v: SettingValue): boolean {
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw illegalArgument(
    `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`,
  );
}

export function getInt(s: FlatSettings, key: string, dflt: number): number {
  const v = s[key];
  return typeof v === 'string' ? Number(v) : dflt;
}

export function getStr(s: FlatSettings, key: string, dflt: string): string {
  const v = s[key];
  return typeof v === 'string' ? v : dflt;
}

export function getBool(s: FlatSettings, key: string, dflt: boolean): boolean {
  const v = s[key];
  return typeof v === 'string' ? v === 'true' : dflt;
}

/** Sorted flat map (ES Settings are a TreeMap). */
export function sortedSettings(s: FlatSettings): FlatSettings {
  const out: FlatSettings = {};
  for (const k of Object.keys(s).sort()) out[k] = s[k]!;
  return out;
}

/** Nested rendering for GET _settings without flat_settings. */
export function nestSettings(s: FlatSettings): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const k of Object.keys(s).sort()) {
    const parts = k.split('.');
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const p = parts[i]!;
      let next = node[p];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) {
        next = {};
        node[p] = next;
      }
      node = next as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = s[k];
  }
  return root;
}

/** Defaults shown by `include_defaults=true` (a representative subset of IndexScopedSettings). */
export const INDEX_DEFAULTS: FlatSettings = {
  'index.refresh_interval': '1s',
  'index.max_result_window': '10000',
  'index.max_inner_result_window': '100',
  'index.max_terms_count': '65536',
  'index.analyze.max_token_count': '10000',
  'index.max_regex_length': '1000',
  'index.max_docvalue_fields_search': '100',
  'index.max_script_fields': '32',
  'index.max_ngram_diff': '1',
  'index.max_shingle_diff': '3',
  'index.max_rescore_window': '10000',
  'index.max_adjacency_matrix_filters': '100',
  'index.max_slices_per_scroll': '1024',
  'index.max_refresh_listeners': '1000',
  'index.translog.durability': 'REQUEST',
  'index.translog.sync_interval': '5s',
  'index.gc_deletes': '60s',
  'index.mapping.total_fields.limit': '1000',
  'index.mapping.depth.limit': '20',
  'index.mapping.nested_fields.limit': '50',
  'index.mapping.ignore_malformed': 'false',
  'index.mapping.coerce': 'false',
  'index.codec': 'default',
  'index.priority': '1',
  'index.routing_partition_size': '1',
  'index.auto_expand_replicas': 'false',
  'index.query.default_field': ['*'],
  'index.blocks.read_only': 'false',
  'index.blocks.read_only_allow_delete': 'false',
  'index.blocks.read': 'false',
  'index.blocks.write': 'false',
  'index.blocks.metadata': 'false',
  'index.soft_deletes.enabled': 'false',
  'index.search.throttled': 'false',
  'index.shard.check_on_startup': 'false',
  'index.write.wait_for_active_shards': '1',
};

export function settingsError(reason: string): EsError {
  return illegalArgument(reason);
}
