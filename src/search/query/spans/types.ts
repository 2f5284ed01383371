/**
 * Lucene 7.7's span queries as engine query nodes (members of the `Query` union): every node
 * matches spans, [start, end) position ranges of one field per document. A nested node's `boost`
 * is Lucene's SpanBoostQuery, printed but never scored (only the top span query scores).
 */
import type { Query } from '../query.js';

/** Lucene Spans.NO_MORE_POSITIONS (Integer.MAX_VALUE). */
export const NO_MORE_POSITIONS = 0x7fffffff;

/** The multi-term queries ES wraps in a SpanMultiTermQueryWrapper. */
export type SpanMultiTermInner = Extract<Query, { kind: 'MultiTerm' | 'TermRange' | 'Fuzzy' }>;

/**
 * How a wrapped multi-term query becomes span terms: ES SpanBooleanQueryRewriteWithMaxClause
 * (every matching term, a failure past `max`) or Lucene TopTermsSpanBooleanQueryRewrite (the
 * `size` best terms by boost).
 */
export type SpanExpansion =
  | { readonly kind: 'max_clause'; readonly max: number }
  | { readonly kind: 'top_terms'; readonly size: number };

export type SpanQuery =
  /** Lucene SpanTermQuery. */
  | { kind: 'SpanTerm'; field: string; term: string; boost: number }
  /**
   * SpanTermQuery on ES's hidden `<source>._index_prefix` field (index_prefixes): the edge n-grams
   * of the source field's tokens at their positions, i.e. the union of the source terms starting
   * with `prefix`. `minChars` is the mapping's min_chars (the prefix field's doc count).
   */
  | {
      kind: 'SpanPrefixTerm';
      field: string;
      source: string;
      prefix: string;
      minChars: number;
      boost: number;
    }
  /** Lucene SpanMultiTermQueryWrapper; `display` is the wrapped query's toString. */
  | {
      kind: 'SpanMultiTerm';
      field: string;
      inner: SpanMultiTermInner;
      display: string;
      expansion: SpanExpansion;
      boost: number;
    }
  /** Lucene SpanNearQuery; `field` is the builder's (span_gap clauses have no query of their own). */
  | {
      kind: 'SpanNear';
      field: string | null;
      clauses: SpanQuery[];
      slop: number;
      inOrder: boolean;
      boost: number;
    }
  /** SpanNearQuery.addGap (ES span_gap). */
  | { kind: 'SpanGap'; field: string; width: number; boost: number }
  | { kind: 'SpanOr'; clauses: SpanQuery[]; boost: number }
  | {
      kind: 'SpanNot';
      include: SpanQuery;
      exclude: SpanQuery;
      pre: number;
      post: number;
      boost: number;
    }
  | { kind: 'SpanFirst'; match: SpanQuery; end: number; boost: number }
  | { kind: 'SpanContaining'; big: SpanQuery; little: SpanQuery; boost: number }
  | { kind: 'SpanWithin'; big: SpanQuery; little: SpanQuery; boost: number }
  /** Lucene FieldMaskingSpanQuery: `inner` reported as a span of `field`. */
  | { kind: 'SpanMask'; inner: SpanQuery; field: string; boost: number }
  /** ES SpanMatchNoDocsQuery. */
  | { kind: 'SpanNone'; field: string | null; reason: string; boost: number };

export type SpanKind = SpanQuery['kind'];

const SPAN_KINDS: ReadonlySet<string> = new Set<SpanKind>([
  'SpanTerm',
  'SpanPrefixTerm',
  'SpanMultiTerm',
  'SpanNear',
  'SpanGap',
  'SpanOr',
  'SpanNot',
  'SpanFirst',
  'SpanContaining',
  'SpanWithin',
  'SpanMask',
  'SpanNone',
]);

export const isSpanQuery = (q: Query): q is SpanQuery => SPAN_KINDS.has(q.kind);

/** Lucene SpanQuery.getField(). */
export function spanField(q: SpanQuery): string | null {
  switch (q.kind) {
    case 'SpanTerm':
    case 'SpanPrefixTerm':
    case 'SpanMultiTerm':
    case 'SpanNear':
    case 'SpanGap':
    case 'SpanMask':
    case 'SpanNone':
      return q.field;
    case 'SpanOr':
      // SpanOrQuery.addClause: the first clause with a field
      for (const c of q.clauses) {
        const f = spanField(c);
        if (f !== null) return f;
      }
      return null;
    case 'SpanNot':
      return spanField(q.include);
    case 'SpanFirst':
      return spanField(q.match);
    case 'SpanContaining':
    case 'SpanWithin':
      return spanField(q.big);
  }
}
