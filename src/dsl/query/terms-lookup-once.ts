/**
 * Terms lookups resolved once per search request. ES rewrites a `terms` lookup on the
 * coordinating node (TermsQueryBuilder.doRewrite + Rewriteable.rewriteAndFetch), so the lookup
 * document is fetched once however many shards run the query; the shards here lower the query
 * themselves, so the fetch is memoised per request instead. Failures are memoised too.
 */
import type { IndexQueryContext } from './lower/context.js';
import type { MltItem, PercolateNode, QueryNode, TermsLookupSpec } from './nodes.js';

type PercolateIndexed = NonNullable<PercolateNode['indexed']>;

/** The lookup that reads a percolate query's indexed document (its whole `_source`). */
export const percolateLookup = (d: PercolateIndexed): TermsLookupSpec => ({
  index: d.index,
  type: d.type ?? '_doc',
  id: d.id,
  path: '',
  routing: d.routing,
});
import { isPlainQuery, parseQuery } from './index.js';

type TermsLookupFn = NonNullable<IndexQueryContext['termsLookup']>;

/** One lookup the request made and what it returned (the request cache validates against it). */
export interface ResolvedLookup {
  readonly key: string;
  readonly values: readonly unknown[] | null;
}

/** What a lookup gave: the values at its path (null: no such document), or its failure. */
export type LookupOutcome = { readonly values: unknown[] | null } | { readonly error: unknown };

export interface TermsLookupOnce {
  readonly lookup: TermsLookupFn;
  /** Lookups resolved so far, in first-use order. */
  resolved(): ResolvedLookup[];
  /** Records a lookup fetched beforehand (a cluster reads the document asynchronously). */
  prime(key: string, outcome: LookupOutcome): void;
  /** Every lookup made or primed, failures included. */
  outcomes(): [string, LookupOutcome][];
}

/** A root that holds no lookup: absent, an empty list, or a plain parsed query tree. */
const nothingToRead = (r: unknown): boolean =>
  r === null ||
  r === undefined ||
  (Array.isArray(r) && r.length === 0) ||
  (typeof r === 'object' && isPlainQuery(r as QueryNode));

/** The memo key of a lookup. */
export const lookupKey = (l: TermsLookupSpec): string =>
  JSON.stringify([l.index, l.type, l.id, l.path, l.routing]);

/**
 * The terms lookups of queries and aggregations, parsed (a `terms` node with a lookup) or still
 * request JSON (an aggregation's filter is parsed on each shard): every `terms` object is parsed
 * as the query would be. Parsed `more_like_this` documents are read whole (path ''), from each of
 * `defaultIndices` when they name no index (each shard reads them from its own index).
 */
export function termsLookupsIn(
  root: unknown,
  defaultIndices: readonly string[] = [],
): TermsLookupSpec[] {
  // a search's roots are mostly plain trees and absent parts: nothing to walk
  if (Array.isArray(root) && root.every(nothingToRead)) return [];
  const out = new Map<string, TermsLookupSpec>();
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    // a query tree parsed without lookups, more_like_this or percolate queries in it
    if (isPlainQuery(v as QueryNode)) return;
    seen.add(v);
    if (Array.isArray(v)) return v.forEach(walk);
    if (v instanceof Map) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    if (o.type === 'more_like_this') {
      for (const item of [...(o.likeItems as MltItem[]), ...(o.unlikeItems as MltItem[])]) {
        if (item.id === null) continue;
        for (const index of item.index !== null ? [item.index] : defaultIndices) {
          const l = {
            index,
            type: mltItemType(item),
            id: item.id,
            path: '',
            routing: item.routing,
          };
          out.set(lookupKey(l), l);
        }
      }
    }
    // a percolate query's indexed document is read the same way (path '': its whole source)
    if (o.type === 'percolate' && o.indexed && typeof o.indexed === 'object') {
      const l = percolateLookup(o.indexed as PercolateIndexed);
      out.set(lookupKey(l), l);
    }
    if (o.type === 'terms' && o.lookup && typeof o.lookup === 'object') {
      const l = o.lookup as TermsLookupSpec;
      out.set(lookupKey(l), l);
    }
    if (o.terms && typeof o.terms === 'object' && !Array.isArray(o.terms)) {
      try {
        const n = parseQuery({ terms: o.terms });
        if (n.type === 'terms' && n.lookup) out.set(lookupKey(n.lookup), n.lookup);
      } catch {
        // not a terms query (a terms aggregation), or one the search itself will refuse
      }
    }
    // for-in, not Object.values: every search walks its query, without an array per node
    for (const k in o) walk(o[k]);
  };
  walk(root);
  return [...out.values()];
}

export function termsLookupOnce(fetch: TermsLookupFn): TermsLookupOnce {
  const done = new Map<string, LookupOutcome>();
  const lookup: TermsLookupFn = (index, type, id, path, routing) => {
    const key = lookupKey({ index, type, id, path, routing });
    let r = done.get(key);
    if (!r) {
      try {
        r = { values: fetch(index, type, id, path, routing) };
      } catch (error) {
        r = { error };
      }
      done.set(key, r);
    }
    if ('error' in r) throw r.error;
    return r.values;
  };
  return {
    lookup,
    prime: (key, outcome) => void done.set(key, outcome),
    outcomes: () => [...done],
    resolved: () =>
      [...done].flatMap(([key, r]) => ('values' in r ? [{ key, values: r.values }] : [])),
  };
}

/** The type a more_like_this document is read with (`_doc`: the index's type). */
export const mltItemType = (item: MltItem): string => item.type ?? '_doc';
