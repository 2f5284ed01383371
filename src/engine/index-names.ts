/**
 * Index name rules (ES MetaDataCreateIndexService.validateIndexOrAliasName) and index expression
 * resolution (ES IndexNameExpressionResolver): comma lists, `_all`, `*` wildcards, `-` exclusions
 * and aliases, under the IndicesOptions each API uses.
 */
import { EsError, indexNotFound, invalidIndexName } from '../common/errors.js';
import { resolveDateMathExpression } from './date-math-index.js';

const INVALID_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#'];
const INVALID_CHARS_TEXT = '[ , ", *, \\, <, |, ,, >, /, ?]';

export function validateIndexName(name: string): void {
  if (name.length === 0) throw invalidIndexName(name, 'must not be empty');
  if (name !== name.toLowerCase()) throw invalidIndexName(name, 'must be lowercase');
  for (const c of INVALID_CHARS) {
    if (name.includes(c)) {
      throw invalidIndexName(
        name,
        `must not contain the following characters ${INVALID_CHARS_TEXT}`,
      );
    }
  }
  if (name.includes('#')) throw invalidIndexName(name, "must not contain '#'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    throw invalidIndexName(name, "must not start with '_', '-', or '+'");
  }
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 255) throw invalidIndexName(name, `index name is too long, (${bytes} > 255)`);
  if (name === '.' || name === '..') throw invalidIndexName(name, "must not be '.' or '..'");
}

export interface IndicesOptions {
  /** Aliases are an error (index deletion: ES IndicesOptions.ignoreAliases). */
  forbidAliases?: boolean;
  ignoreUnavailable: boolean;
  allowNoIndices: boolean;
  expandOpen: boolean;
  expandClosed: boolean;
  /** Closed concrete indices are an error (index_closed_exception). */
  forbidClosed: boolean;
  /** Search-throttled (frozen) indices are left out (ES IndicesOptions.ignoreThrottled). */
  ignoreThrottled?: boolean;
}

export const STRICT_EXPAND_OPEN: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: false,
  forbidClosed: false,
};
export const STRICT_EXPAND_OPEN_FORBID_CLOSED: IndicesOptions = {
  ...STRICT_EXPAND_OPEN,
  forbidClosed: true,
};
/** SearchRequest.DEFAULT_INDICES_OPTIONS: searches skip frozen indices unless ignore_throttled=false. */
export const STRICT_EXPAND_OPEN_FORBID_CLOSED_IGNORE_THROTTLED: IndicesOptions = {
  ...STRICT_EXPAND_OPEN_FORBID_CLOSED,
  ignoreThrottled: true,
};
export const LENIENT_EXPAND_OPEN: IndicesOptions = {
  ignoreUnavailable: true,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: false,
  forbidClosed: false,
};
export const STRICT_EXPAND_OPEN_CLOSED: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: true,
  forbidClosed: false,
};

/** Applies `ignore_unavailable`, `allow_no_indices`, `expand_wildcards` request parameters. */
export function indicesOptionsFrom(
  base: IndicesOptions,
  get: (name: string) => string | undefined,
): IndicesOptions {
  const o = { ...base };
  const iu = get('ignore_unavailable');
  if (iu !== undefined) o.ignoreUnavailable = iu === '' || iu === 'true';
  const an = get('allow_no_indices');
  if (an !== undefined) o.allowNoIndices = an === '' || an === 'true';
  const it = get('ignore_throttled');
  if (it !== undefined) o.ignoreThrottled = it === '' || it === 'true';
  const ew = get('expand_wildcards');
  if (ew !== undefined) {
    o.expandOpen = false;
    o.expandClosed = false;
    for (const w of ew.split(',')) {
      const v = w.trim();
      if (v === 'open') o.expandOpen = true;
      else if (v === 'closed') o.expandClosed = true;
      else if (v === 'all') o.expandOpen = o.expandClosed = true;
      else if (v === 'none') {
        /* nothing */
      } else {
        throw new EsError(
          'illegal_argument_exception',
          `No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.${v.toUpperCase()}`,
          400,
        );
      }
    }
  }
  return o;
}

export interface ResolvableIndex {
  readonly name: string;
  readonly closed: boolean;
  readonly aliases: readonly string[];
  /** `index.search.throttled` (frozen indices). */
  readonly throttled?: boolean;
}

/**
 * A lone concrete name (no list, wildcard, exclusion, `_all`/`_`-name or date math): when an index
 * of that name exists, every resolution gives just that index (an alias never shares an index's
 * name), so callers may look it up directly.
 */
export function isPlainIndexName(e: string): boolean {
  if (e.length === 0) return false;
  const c = e.charCodeAt(0);
  // '_' (e.g. _all), '-', '+', '<'
  if (c === 95 || c === 45 || c === 43 || c === 60) return false;
  return !e.includes(',') && !e.includes('*');
}

export function isWildcard(s: string): boolean {
  return s.includes('*');
}

export function simpleMatch(pattern: string, s: string): boolean {
  if (!pattern.includes('*')) return pattern === s;
  const parts = pattern.split('*');
  if (!s.startsWith(parts[0]!)) return false;
  let pos = parts[0]!.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const idx = s.indexOf(parts[i]!, pos);
    if (idx < 0) return false;
    pos = idx + parts[i]!.length;
  }
  const last = parts[parts.length - 1]!;
  return s.length - pos >= last.length && s.endsWith(last);
}

/**
 * Resolves an index expression list to concrete index names (in the order they are found, no
 * duplicates). Throws index_not_found_exception as Elasticsearch does.
 */
export function resolveIndexExpression(
  expressions: string[],
  indices: readonly ResolvableIndex[],
  opts: IndicesOptions,
): string[] {
  if (!opts.ignoreThrottled) return resolveNames(expressions, indices, opts);
  // IndexNameExpressionResolver.addIndex: throttled indices drop out after resolution, and
  // an empty result is then an error only when allow_no_indices is false
  const names = resolveNames(expressions, indices, { ...opts, allowNoIndices: true });
  const throttled = new Set(indices.filter((i) => i.throttled).map((i) => i.name));
  const kept = names.filter((n) => !throttled.has(n));
  if (kept.length === 0 && !opts.allowNoIndices) {
    const exprs = expressions.length === 0 ? ['_all'] : expressions;
    throw indexNotFound(exprs.join(','));
  }
  return kept;
}

function resolveNames(
  expressions: string[],
  indices: readonly ResolvableIndex[],
  opts: IndicesOptions,
): string[] {
  const byName = new Map(indices.map((i) => [i.name, i]));
  const aliasMap = new Map<string, string[]>();
  for (const i of indices)
    for (const a of i.aliases) aliasMap.set(a, [...(aliasMap.get(a) ?? []), i.name]);
  // ES resolves date math (`<logs-{now/d}>`) before wildcards and names
  const now = Date.now();
  const exprs =
    expressions.length === 0 ? ['_all'] : expressions.map((e) => resolveDateMathExpression(e, now));
  if (exprs.length === 1 && (exprs[0] === '_all' || exprs[0] === '*' || exprs[0] === '')) {
    const all = indices
      .filter((i) => (i.closed ? opts.expandClosed : opts.expandOpen))
      .map((i) => i.name);
    if (all.length === 0 && !opts.allowNoIndices) throw indexNotFound(exprs[0] || '_all');
    return all.sort();
  }
  const result = new Set<string>();
  let sawWildcard = false;
  for (let n = 0; n < exprs.length; n++) {
    let e = exprs[n]!;
    let add = true;
    if (e.startsWith('-') && sawWildcard) {
      add = false;
      e = e.slice(1);
    } else if (e.startsWith('+')) e = e.slice(1);
    if (e === '_all') e = '*';
    if (!isWildcard(e)) {
      // ES WildcardExpressionResolver.validateAliasOrIndex
      if (e.startsWith('_') && !byName.has(e))
        throw invalidIndexName(e, "must not start with '_'.");
      if (!add) {
        result.delete(e);
        for (const x of aliasMap.get(e) ?? []) result.delete(x);
        continue;
      }
      const idx = byName.get(e);
      if (idx) {
        if (idx.closed && opts.forbidClosed && !opts.ignoreUnavailable) {
          throw new EsError('index_closed_exception', 'closed', 400, {
            meta: { index_uuid: '_na_', index: e },
          });
        }
        if (!(idx.closed && opts.forbidClosed)) result.add(e);
        continue;
      }
      const aliased = aliasMap.get(e);
      if (aliased) {
        if (opts.forbidAliases && opts.ignoreUnavailable) continue;
        if (opts.forbidAliases) {
          throw new EsError(
            'illegal_argument_exception',
            `The provided expression [${e}] matches an alias, specify the corresponding concrete indices instead.`,
            400,
          );
        }
        for (const x of aliased) result.add(x);
        continue;
      }
      if (!opts.ignoreUnavailable) throw indexNotFound(e);
      continue;
    }
    sawWildcard = true;
    const matches: string[] = [];
    for (const i of indices) {
      if (i.closed ? !opts.expandClosed : !opts.expandOpen) continue;
      const hit =
        simpleMatch(e, i.name) || (!opts.forbidAliases && i.aliases.some((a) => simpleMatch(e, a)));
      if (!hit) continue;
      // IndexNameExpressionResolver.concreteIndices: closed indices expanded by a wildcard
      if (i.closed && opts.forbidClosed && add) {
        if (!opts.ignoreUnavailable)
          throw new EsError('index_closed_exception', 'closed', 400, {
            meta: { index_uuid: '_na_', index: i.name },
          });
        continue;
      }
      matches.push(i.name);
    }
    if (add) {
      if (matches.length === 0 && !opts.allowNoIndices) throw indexNotFound(e);
      for (const m of matches.sort()) result.add(m);
    } else for (const m of matches) result.delete(m);
  }
  if (result.size === 0 && !opts.allowNoIndices) throw indexNotFound(exprs.join(','));
  return [...result];
}
