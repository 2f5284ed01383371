/**
 * Terms lookups resolved once per search request. ES rewrites a `terms` lookup on the
 * coordinating node (TermsQueryBuilder.doRewrite + Rewriteable.rewriteAndFetch), so the lookup
 * document is fetched once however many shards run the query; the shards here lower the query
 * themselves, so the fetch is memoised per request instead. Failures are memoised too.
 */
import type { IndexQueryContext } from './lower/context.js';

type TermsLookupFn = NonNullable<IndexQueryContext['termsLookup']>;

/** One lookup the request made and what it returned (the request cache validates against it). */
export interface ResolvedLookup {
  readonly key: string;
  readonly values: readonly unknown[] | null;
}

export interface TermsLookupOnce {
  readonly lookup: TermsLookupFn;
  /** Lookups resolved so far, in first-use order. */
  resolved(): ResolvedLookup[];
}

export function termsLookupOnce(fetch: TermsLookupFn): TermsLookupOnce {
  const done = new Map<string, { values: unknown[] | null } | { error: unknown }>();
  const lookup: TermsLookupFn = (index, type, id, path, routing) => {
    const key = JSON.stringify([index, type, id, path, routing]);
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
    resolved: () =>
      [...done].flatMap(([key, r]) => ('values' in r ? [{ key, values: r.values }] : [])),
  };
}
