/**
 * The dynamic search settings of ES SearchService that Quarry reads: the default search
 * `timeout` and the default of `allow_partial_search_results`. Each request reads the effective
 * cluster setting (transient over persistent), else the node setting (`-E`, config file), else
 * ES's default; values are validated where ES validates them: on PUT _cluster/settings and at
 * node start.
 */
import { illegalArgument } from '../common/errors.js';
import { NO_TIMEOUT, searchTimeoutMs } from '../dsl/search/search-timeout.js';
import type { NodeContext } from '../node-context.js';
import { MAX_AGG_DEPTH_SETTING } from '../dsl/aggs/parse/parse-aggs.js';

/** ES SearchService.DEFAULT_SEARCH_TIMEOUT_SETTING (default -1: none). */
export const DEFAULT_SEARCH_TIMEOUT = 'search.default_search_timeout';
/** ES SearchService.DEFAULT_ALLOW_PARTIAL_SEARCH_RESULTS (default true). */
export const DEFAULT_ALLOW_PARTIAL_RESULTS = 'search.default_allow_partial_results';

/** Quarry's SQL JOIN (issue 16): rows past which one JOIN input is refused (default 100,000). */
export const SQL_JOIN_MAX_ROWS = 'sql.join.max_rows';

/** ES Booleans.parseBoolean: only `true` and `false`. */
export function strictBoolean(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** ES Setting.parseInt: a Java int of at least `min`. */
const intAtLeast =
  (min: number) =>
  (value: string, key: string): number => {
    const n = /^[+-]?\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n > 2 ** 31 - 1 || n < min)
      throw illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min}`); // prettier-ignore
    return n;
  };

/** The typed search settings' parsers, by key (ES Setting.get). */
const PARSERS: Record<string, (value: string, key: string) => unknown> = {
  [DEFAULT_SEARCH_TIMEOUT]: searchTimeoutMs,
  [DEFAULT_ALLOW_PARTIAL_RESULTS]: strictBoolean,
  'search.max_buckets': intAtLeast(0),
  [MAX_AGG_DEPTH_SETTING]: intAtLeast(1),
  [SQL_JOIN_MAX_ROWS]: intAtLeast(1),
};

/** Throws ES's error when `key` is a search setting and `value` is not a valid value for it. */
export function validateSearchSetting(key: string, value: string): void {
  PARSERS[key]?.(value, key);
}

/** Checks the search settings of the node's own settings (a bad one stops the node's start). */
export function validateNodeSearchSettings(raw: Record<string, string>): void {
  for (const key of Object.keys(PARSERS))
    if (raw[key] !== undefined) validateSearchSetting(key, raw[key]);
}

function settingValue(node: NodeContext, key: string): string | undefined {
  return node.clusterSettings?.()[key] ?? node.settings.raw[key];
}

/** `sql.join.max_rows`, or undefined for the default. */
export function sqlJoinMaxRows(node: NodeContext): number | undefined {
  const v = settingValue(node, SQL_JOIN_MAX_ROWS);
  return v === undefined ? undefined : Number(v);
}

/** `search.default_search_timeout` in ms; -1 when none. */
export function defaultSearchTimeoutMs(node: NodeContext): number {
  const v = settingValue(node, DEFAULT_SEARCH_TIMEOUT);
  return v === undefined ? NO_TIMEOUT : searchTimeoutMs(v, DEFAULT_SEARCH_TIMEOUT);
}

/** `search.default_allow_partial_results`. */
export function defaultAllowPartialResults(node: NodeContext): boolean {
  const v = settingValue(node, DEFAULT_ALLOW_PARTIAL_RESULTS);
  return v === undefined ? true : strictBoolean(v);
}

/**
 * A request's `allow_partial_search_results` (RestRequest.paramAsBoolean: empty is unset),
 * else the cluster default.
 */
export function allowPartialResults(node: NodeContext, param: string | undefined): boolean {
  return param === undefined || param === ''
    ? defaultAllowPartialResults(node)
    : strictBoolean(param);
}

/** The options of one search's timeout: its default, partial results and the clock. */
export function searchTimeoutOptions(
  node: NodeContext,
  allowPartialParam?: string,
): { defaultTimeoutMs: number; allowPartialSearchResults: boolean; clock?: () => number } {
  return {
    defaultTimeoutMs: defaultSearchTimeoutMs(node),
    allowPartialSearchResults: allowPartialResults(node, allowPartialParam),
    ...(node.searchClock ? { clock: node.searchClock } : {}),
  };
}
