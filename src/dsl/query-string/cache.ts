/**
 * A bounded cache of parsed query-string ASTs (`query_string`, `simple_query_string`), so a
 * repeated query text (SQL `QUERY('...')`, dashboards) skips lexing and parsing.
 *
 * The parse is a pure function of the text, the options its actions read, and the answers of
 * `isEmpty` (which looks at the mapping), asked in parse order. An entry keeps those answers; a
 * hit re-asks `isEmpty` for the same leaves, in the same order, and is used only if every answer
 * matches (the parse would then repeat itself exactly). Failed parses are never cached, so a bad
 * query throws its error afresh each time. Cached trees are deeply frozen.
 */
import type { QsAnalyzedLeaf, QsNode } from './ast.js';
import { parseQueryString, type QueryStringOptions } from './parse.js';
import { parseSimpleQueryString, type SimpleQueryStringOptions } from './simple.js';

type IsEmpty = (leaf: QsAnalyzedLeaf) => boolean;

interface Probe {
  readonly leaf: QsAnalyzedLeaf;
  readonly empty: boolean;
}

interface Entry {
  readonly tree: QsNode;
  readonly probes: readonly Probe[];
}

/** Entries kept per language; the least recently used goes first. */
export const PARSE_CACHE_MAX_ENTRIES = 1000;
/** Longer texts are parsed every time: they are rarely repeated and would hold memory. */
export const PARSE_CACHE_MAX_TEXT = 4096;

export interface ParseCache {
  readonly entries: Map<string, Entry>;
  readonly max: number;
}

export function newParseCache(max = PARSE_CACHE_MAX_ENTRIES): ParseCache {
  return { entries: new Map(), max };
}

const queryStringCache = newParseCache();
const simpleCache = newParseCache();

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function stillValid(e: Entry, isEmpty: IsEmpty | undefined): boolean {
  for (const p of e.probes) {
    if ((isEmpty ? isEmpty(p.leaf) : false) !== p.empty) return false;
  }
  return true;
}

/** Looks `key` up in `cache`, or runs `parse` with a recording `isEmpty` and keeps its tree. */
export function cachedParse(
  cache: ParseCache,
  key: string,
  isEmpty: IsEmpty | undefined,
  parse: (isEmpty: IsEmpty) => QsNode,
): QsNode {
  const hit = cache.entries.get(key);
  if (hit !== undefined) {
    // an isEmpty error propagates, as the parse it stands for would have thrown it
    if (stillValid(hit, isEmpty)) {
      cache.entries.delete(key);
      cache.entries.set(key, hit);
      return hit.tree;
    }
    cache.entries.delete(key);
  }
  const probes: Probe[] = [];
  const tree = parse((leaf) => {
    const empty = isEmpty ? isEmpty(leaf) : false;
    probes.push({ leaf, empty });
    return empty;
  });
  const entry: Entry = { tree: deepFreeze(tree), probes: deepFreeze(probes) };
  cache.entries.set(key, entry);
  if (cache.entries.size > cache.max) {
    cache.entries.delete(cache.entries.keys().next().value!);
  }
  return entry.tree;
}

/** `parseQueryString` through the cache; `index` only names the index in errors. */
export function parseQueryStringCached(
  text: string,
  opts: QueryStringOptions,
  cache: ParseCache = queryStringCache,
): QsNode {
  if (text.length > PARSE_CACHE_MAX_TEXT) return parseQueryString(text, opts);
  const key = JSON.stringify([
    text,
    opts.defaultOperator,
    opts.allowLeadingWildcard ?? true,
    opts.lenient ?? false,
    opts.defaultField ?? null,
    opts.escape ?? false,
    opts.maxRegexLength ?? null,
    opts.maxClauseCount ?? 1024,
  ]);
  return cachedParse(cache, key, opts.isEmpty, (isEmpty) =>
    parseQueryString(text, { ...opts, isEmpty }),
  );
}

/** `parseSimpleQueryString` through the cache. */
export function parseSimpleQueryStringCached(
  text: string,
  opts: SimpleQueryStringOptions,
  cache: ParseCache = simpleCache,
): QsNode {
  if (text.length > PARSE_CACHE_MAX_TEXT) return parseSimpleQueryString(text, opts);
  const flags = opts.flags ?? -1;
  const key = JSON.stringify([text, opts.defaultOperator, typeof flags, flags]);
  return cachedParse(cache, key, opts.isEmpty, (isEmpty) =>
    parseSimpleQueryString(text, { ...opts, isEmpty }),
  );
}
