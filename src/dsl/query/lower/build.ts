/**
 * Building engine queries the way Lucene's builders do: BoostQuery folding, BooleanQuery.Builder
 * with its clause limit and clause order, MatchNoDocsQuery reasons. Side tables keep what the
 * engine's plain data drops (reasons, Lucene display strings, clause order) for `describeQuery`.
 */
import type { Query } from '../../../search/query/query.js';
import { tooManyClauses } from '../errors.js';

export type Occur = 'must' | 'should' | 'must_not' | 'filter';

const displays = new WeakMap<object, string>();
const clauseOrders = new WeakMap<object, ReadonlyArray<readonly [Occur, Query]>>();

/** Attaches the Lucene `toString` of a query whose engine form prints differently. */
export function withDisplay<T extends Query>(q: T, text: string): T {
  displays.set(q, text);
  return q;
}

export const displayOf = (q: Query): string | undefined => displays.get(q);

export const clauseOrderOf = (q: Query): ReadonlyArray<readonly [Occur, Query]> | undefined =>
  clauseOrders.get(q);

/** MatchNoDocsQuery(reason). */
export function matchNone(reason = ''): Query {
  return withDisplay({ kind: 'MatchNone' }, `MatchNoDocsQuery("${reason}")`);
}

export const matchAll = (): Query => ({ kind: 'MatchAll', boost: 1 });

export const isMatchNone = (q: Query): boolean => q.kind === 'MatchNone';

/** Lucene BoostQuery: folded into the engine query's own boost (float product). */
export function boosted(q: Query, boost: number): Query {
  if (boost === 1 || q.kind === 'MatchNone') return q;
  const b = Math.fround((q as { boost: number }).boost * boost);
  const out = { ...q, boost: b } as Query;
  const d = displays.get(q);
  if (d !== undefined) displays.set(out, d);
  const order = clauseOrders.get(q);
  if (order) clauseOrders.set(out, order);
  return out;
}

/** Lucene BooleanQuery.Builder. */
export class BoolBuilder {
  private readonly clauses: Array<[Occur, Query]> = [];
  private msm = 0;

  constructor(private maxClauseCount: number) {}

  add(q: Query, occur: Occur): this {
    if (this.clauses.length >= this.maxClauseCount) throw tooManyClauses(this.maxClauseCount);
    this.clauses.push([occur, q]);
    return this;
  }

  minShouldMatch(n: number): this {
    this.msm = n;
    return this;
  }

  get size(): number {
    return this.clauses.length;
  }

  get entries(): ReadonlyArray<readonly [Occur, Query]> {
    return this.clauses;
  }

  build(): Query {
    const q: Extract<Query, { kind: 'Bool' }> = {
      kind: 'Bool',
      must: [],
      should: [],
      mustNot: [],
      filter: [],
      minShouldMatch: this.msm,
      boost: 1,
    };
    for (const [occur, c] of this.clauses) {
      if (occur === 'must') q.must.push(c);
      else if (occur === 'should') q.should.push(c);
      else if (occur === 'must_not') q.mustNot.push(c);
      else q.filter.push(c);
    }
    clauseOrders.set(q, [...this.clauses]);
    return q;
  }

  /** Rebuilds an existing engine bool with its clause order (to change msm or add clauses). */
  static from(q: Extract<Query, { kind: 'Bool' }>, maxClauseCount: number): BoolBuilder {
    const b = new BoolBuilder(Number.MAX_SAFE_INTEGER);
    for (const [o, c] of boolClauses(q)) b.add(c, o);
    b.maxClauseCount = maxClauseCount;
    b.msm = q.minShouldMatch;
    return b;
  }
}

/** Clauses of an engine bool in Lucene order (insertion order when built here). */
export function boolClauses(
  q: Extract<Query, { kind: 'Bool' }>,
): ReadonlyArray<readonly [Occur, Query]> {
  const order = clauseOrders.get(q);
  if (order) return order;
  return [
    ...q.must.map((c) => ['must', c] as const),
    ...q.mustNot.map((c) => ['must_not', c] as const),
    ...q.should.map((c) => ['should', c] as const),
    ...q.filter.map((c) => ['filter', c] as const),
  ];
}

export const constantScore = (inner: Query): Query => ({ kind: 'ConstantScore', inner, boost: 1 });

export const disMax = (queries: Query[], tieBreaker: number): Query => ({
  kind: 'DisMax',
  queries,
  tieBreaker,
  boost: 1,
});
