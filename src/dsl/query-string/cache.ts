/**
 * A bounded cache of parsed query-string ASTs (`query_string`, `simple_query_string`), so a
 * repeated query text (SQL `QUERY('...')`, dashboards) skips lexing and parsing.
 *
 * The parse is a pure function of the text, the options its actions read, and the answers of
 * `isEmpty` (which looks at the mapping), asked in parse order. An entry keeps those answers; a
 * hit re-asks `isEmpty` for the same leaves, in the same order, and is used only if every answer
 * matches (the parse would then repeat itself exactly). Failed parses are never cached, so a bad
 * query throws its error afresh each time. Cached trees are deeply frozen. A text's first
 * sighting only records the text: one-off texts (random phrases) then cost almost nothing extra.
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
  /** The options the parse read, as a string. */
  readonly opts: string;
  readonly tree: QsNode;
  readonly probes: readonly Probe[];
}

/** Texts kept per language, at most. */
export const PARSE_CACHE_MAX_ENTRIES = 1000;
/** Option sets kept per text (a text is rarely sent with many). */
export const PARSE_CACHE_MAX_VARIANTS = 4;
/** Longer texts are parsed every time: they are rarely repeated and would hold memory. */
export const PARSE_CACHE_MAX_TEXT = 4096;

/**
 * Two generations, keyed by the text itself (its hash is computed once and kept by the engine):
 * new texts and texts used again go to `young`; when it holds half the bound it becomes `old`
 * and the previous `old` is dropped. Recently used texts survive, as with an LRU, without the
 * per-call cost of deleting from a Map's front (V8 then skips the holes on every eviction).
 */
export interface ParseCache {
  young: Map<string, Entry[]>;
  old: Map<string, Entry[]>;
  readonly max: number;
}

export function newParseCache(max = PARSE_CACHE_MAX_ENTRIES): ParseCache {
  return { young: new Map(), old: new Map(), max };
}

/** The number of trees held. */
export function parseCacheSize(cache: ParseCache): number {
  let n = 0;
  for (const [text, list] of cache.old) if (!cache.young.has(text)) n += list.length;
  for (const list of cache.young.values()) n += list.length;
  return n;
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

const never: IsEmpty = () => false;

function stillValid(e: Entry, isEmpty: IsEmpty | undefined): boolean {
  for (const p of e.probes) {
    if ((isEmpty ? isEmpty(p.leaf) : false) !== p.empty) return false;
  }
  return true;
}

/** Puts `text`'s list in the young generation, aging the generations when it is full. */
function keep(cache: ParseCache, text: string, list: Entry[]): void {
  if (cache.young.has(text)) return;
  if (cache.young.size >= Math.max(1, cache.max >> 1)) {
    cache.old = cache.young;
    cache.young = new Map();
  }
  cache.young.set(text, list);
}

/**
 * Looks (`text`, `opts`) up in `cache`, or runs `parse` (with a recording `isEmpty`, from the
 * text's second sighting on) and keeps its tree. `opts` must be a string of every option value
 * the parse reads.
 */
export function cachedParse(
  cache: ParseCache,
  text: string,
  opts: string,
  isEmpty: IsEmpty | undefined,
  parse: (isEmpty: IsEmpty) => QsNode,
): QsNode {
  const list = cache.young.get(text) ?? cache.old.get(text);
  if (list === undefined) {
    // first sighting: only remember the text, so one-off texts cost no tree bookkeeping
    keep(cache, text, []);
    return parse(isEmpty ?? never);
  }
  const at = list.findIndex((e) => e.opts === opts);
  if (at >= 0) {
    const hit = list[at]!;
    // an isEmpty error propagates, as the parse it stands for would have thrown it
    if (stillValid(hit, isEmpty)) {
      keep(cache, text, list);
      return hit.tree;
    }
    list.splice(at, 1);
  }
  const probes: Probe[] = [];
  const tree = parse((leaf) => {
    const empty = isEmpty ? isEmpty(leaf) : false;
    probes.push({ leaf, empty });
    return empty;
  });
  if (list.length >= PARSE_CACHE_MAX_VARIANTS) list.shift();
  list.push({ opts, tree: deepFreeze(tree), probes: deepFreeze(probes) });
  keep(cache, text, list);
  return tree;
}

/** `parseQueryString` through the cache; `index` only names the index in errors. */
export function parseQueryStringCached(
  text: string,
  opts: QueryStringOptions,
  cache: ParseCache = queryStringCache,
): QsNode {
  if (text.length > PARSE_CACHE_MAX_TEXT) return parseQueryString(text, opts);
  // the free-form default field comes last, after its type (null vs "null")
  const key =
    `${opts.defaultOperator}|${opts.allowLeadingWildcard ?? true}|${opts.lenient ?? false}` +
    `|${opts.escape ?? false}|${opts.maxRegexLength}|${opts.maxClauseCount ?? 1024}` +
    `|${typeof (opts.defaultField ?? null)}|${opts.defaultField ?? null}`;
  return cachedParse(cache, text, key, opts.isEmpty, (isEmpty) =>
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
  const key = `${opts.defaultOperator}|${typeof flags}|${flags}`;
  return cachedParse(cache, text, key, opts.isEmpty, (isEmpty) =>
    parseSimpleQueryString(text, { ...opts, isEmpty }),
  );
}
