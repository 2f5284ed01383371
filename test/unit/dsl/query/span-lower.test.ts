/**
 * Span queries lowered for an index as ES 6.8 builds them (Lucene toString as _validate prints
 * it), their construction failures ("failed to create query"), span_multi's rules (index_prefixes,
 * unrewritten ranges, fuzzy top terms), named clauses, filter context, and search through the DSL.
 */
import { describe, expect, it } from 'vitest';
import { lowerQuery, parseQuery } from '../../../../src/dsl/query/index.js';
import { byte4ToInt, intToByte4 } from '../../../../src/search/index/norms.js';
import { Bench, chain } from './harness.js';

const b = new Bench({
  properties: {
    body: { type: 'text' },
    other: { type: 'text' },
    title: { type: 'text', index_prefixes: { min_chars: 2, max_chars: 5 } },
    tag: { type: 'keyword' },
    low: { type: 'keyword', normalizer: 'lowercase' },
    num: { type: 'long' },
    day: { type: 'date' },
    ip: { type: 'ip' },
    alias: { type: 'alias', path: 'body' },
    docs_only: { type: 'text', index_options: 'freqs' },
  },
});
b.index([
  ['1', { body: 'quick brown fox', title: 'word words wordy', tag: 'x' }],
  ['2', { body: 'quick fox', title: 'short words', tag: 'y' }],
  ['3', { body: 'fox quick', title: 'a world', tag: 'x' }],
  ['4', { body: 'the quack', title: 'wo', docs_only: 'a b' }],
]);

const d = (q: unknown) => b.describe(q);
const st = (f: string, v: unknown) => ({ span_term: { [f]: v } });
const near = (clauses: unknown[], extra: Record<string, unknown> = {}) => ({
  span_near: { clauses, ...extra },
});
const multi = (match: unknown) => ({ span_multi: { match } });
/** The cause of "failed to create query". */
const cause = (q: unknown) => chain(b.error(q)).slice(1);

describe('Lucene toString', () => {
  it('prints every span query as Lucene 7.7 does', () => {
    expect(d(st('body', 'fox'))).toBe('body:fox');
    expect(d({ span_term: { body: { value: 'fox', boost: 2 } } })).toBe('(body:fox)^2.0');
    expect(d(near([st('body', 'a'), st('body', 'b')], { slop: 2, in_order: false }))).toBe(
      'spanNear([body:a, body:b], 2, false)',
    );
    expect(d({ span_or: { clauses: [st('body', 'a'), st('body', 'b')], boost: 3 } })).toBe(
      '(spanOr([body:a, body:b]))^3.0',
    );
    expect(d({ span_not: { include: st('body', 'a'), exclude: st('body', 'b'), dist: 1 } })).toBe(
      'spanNot(body:a, body:b, 1, 1)',
    );
    expect(d({ span_first: { match: st('body', 'a'), end: 3 } })).toBe('spanFirst(body:a, 3)');
    expect(d({ span_containing: { big: st('body', 'a'), little: st('body', 'b') } })).toBe(
      'SpanContaining(body:a, body:b)',
    );
    expect(d({ span_within: { big: st('body', 'a'), little: st('body', 'b') } })).toBe(
      'SpanWithin(body:a, body:b)',
    );
    expect(d({ field_masking_span: { query: st('other', 'a'), field: 'alias' } })).toBe(
      'mask(other:a) as body',
    );
    expect(d(near([st('body', 'a'), { span_gap: { body: 2 } }, st('body', 'b')]))).toBe(
      'spanNear([body:a, SpanGap(:2), body:b], 0, true)',
    );
    // one clause: the clause itself
    expect(d(near([st('body', 'a')], { slop: 3 }))).toBe('body:a');
  });

  it('span_term: the field type builds the term; unmapped fields keep the value', () => {
    expect(d(st('low', 'ABC'))).toBe('low:abc');
    expect(d(st('alias', 'a'))).toBe('body:a');
    expect(d(st('nope', 5))).toBe('nope:5');
  });

  it('span_multi wraps the multi-term query', () => {
    expect(d(multi({ prefix: { body: 'qu' } }))).toBe('SpanMultiTermQueryWrapper(body:qu*)');
    expect(d(multi({ wildcard: { body: 'q*k' } }))).toBe('SpanMultiTermQueryWrapper(body:q*k)');
    expect(d(multi({ regexp: { body: 'q.*' } }))).toBe('SpanMultiTermQueryWrapper(body:/q.*/)');
    expect(d(multi({ fuzzy: { body: 'quikc' } }))).toBe('SpanMultiTermQueryWrapper(body:quikc~1)');
    expect(d(multi({ range: { body: { gte: 'a', lt: 'c', boost: 4 } } }))).toBe(
      'SpanMultiTermQueryWrapper(body:[a TO c})',
    );
    // not rewritten to match_none first: a TermRangeQuery over the unmapped field
    expect(d(multi({ range: { nope: { gt: 'a' } } }))).toBe(
      'SpanMultiTermQueryWrapper(nope:{a TO *])',
    );
    expect(d(multi({ prefix: { nope: 'a' } }))).toBe('SpanMatchNoDocsQuery("unknown field")');
    expect(d(multi({ wildcard: { nope: 'a*' } }))).toBe(
      'SpanMatchNoDocsQuery("MatchNoDocsQuery("unknown field [nope]")")',
    );
  });

  it('a prefix within index_prefixes bounds is the prefix field term, masked', () => {
    expect(d(multi({ prefix: { title: 'wor' } }))).toBe('mask(title._index_prefix:wor) as title');
    expect(d(multi({ prefix: { title: 'w' } }))).toBe('SpanMultiTermQueryWrapper(title:w*)');
    expect(d(multi({ prefix: { title: 'wordsy' } }))).toBe(
      'SpanMultiTermQueryWrapper(title:wordsy*)',
    );
    expect(d(near([st('title', 'short'), multi({ prefix: { title: 'word' } })]))).toBe(
      'spanNear([title:short, mask(title._index_prefix:word) as title], 0, true)',
    );
  });
});

describe('construction failures', () => {
  it("Lucene's same-field checks", () => {
    expect(cause(near([st('body', 'a'), st('other', 'b')]))).toEqual([
      ['illegal_argument_exception', 'Cannot add clause other:b to SpanNearQuery for field body'],
    ]);
    expect(cause({ span_or: { clauses: [st('body', 'a'), st('other', 'b')] } })).toEqual([
      ['illegal_argument_exception', 'Clauses must have same field.'],
    ]);
    expect(cause({ span_not: { include: st('body', 'a'), exclude: st('other', 'b') } })).toEqual([
      ['illegal_argument_exception', 'Clauses must have same field.'],
    ]);
    expect(cause({ span_within: { big: st('body', 'a'), little: st('other', 'b') } })).toEqual([
      ['illegal_argument_exception', 'big and little not same field'],
    ]);
    expect(cause(near([st('body', 'a'), { span_gap: { other: 1 } }]))).toEqual([
      ['illegal_argument_exception', '[span_near] clauses must have same field'],
    ]);
    expect(cause(near([st('body', 'a'), { span_gap: { body: 1 } }], { in_order: false }))).toEqual([
      ['illegal_argument_exception', 'Gaps can only be added to ordered near queries'],
    ]);
  });

  it('wraps the failure in "failed to create query" with the query as ES prints it', () => {
    const e = b.error({ span_gap: { body: 1 } });
    expect(e.type).toBe('query_shard_exception');
    expect(e.reason).toBe('failed to create query: {\n  "span_gap" : {\n    "body" : 1\n  }\n}');
    expect(chain(e)[1]).toEqual(['unsupported_operation_exception', null]);
  });

  it('span_term needs a term query', () => {
    expect(cause(st('num', 5))).toEqual([
      [
        'illegal_argument_exception',
        'Cannot extract a term from a query of type class org.apache.lucene.document.LongPoint$1: num:[5 TO 5]',
      ],
    ]);
    expect(cause(st('ip', '1.2.3.4'))[0]![1]).toMatch(
      /^Cannot extract a term from a query of type class org\.apache\.lucene\.document\.InetAddressPoint\$1: /,
    );
  });

  it('span_multi: prefixes only on text fields, multi-term queries only', () => {
    expect(cause(multi({ prefix: { tag: 'x' } }))).toEqual([
      [
        'illegal_argument_exception',
        'Can only use span prefix queries on text fields - not on [tag] which is of type [keyword]',
      ],
    ]);
    expect(cause(multi({ range: { num: { gte: 1 } } }))).toEqual([
      [
        'unsupported_operation_exception',
        'unsupported inner query, should be org.apache.lucene.search.MultiTermQuery but was org.apache.lucene.search.IndexOrDocValuesQuery',
      ],
    ]);
    expect(cause(multi({ range: { body: {} } }))).toEqual([
      [
        'unsupported_operation_exception',
        'unsupported inner query, should be org.apache.lucene.search.MultiTermQuery but was org.apache.lucene.search.NormsFieldExistsQuery',
      ],
    ]);
  });
});

describe('search', () => {
  const ids = (q: unknown) => b.ids(q).sort();

  it('matches through the DSL', () => {
    expect(ids(near([st('body', 'quick'), st('body', 'fox')]))).toEqual(['2']);
    expect(ids(near([st('body', 'quick'), st('body', 'fox')], { slop: 1 }))).toEqual(['1', '2']);
    expect(ids(near([st('body', 'quick'), st('body', 'fox')], { in_order: false }))).toEqual([
      '2',
      '3',
    ]);
    expect(ids(near([st('title', 'short'), multi({ prefix: { title: 'word' } })]))).toEqual(['2']);
    expect(ids(near([st('body', 'the'), multi({ fuzzy: { body: 'quick' } })]))).toEqual(['4']);
    expect(ids({ bool: { filter: [multi({ wildcard: { body: 'qu*' } })] } })).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });

  it('fuzzy keeps its top-terms rewrite, except in filter context', () => {
    const fuzzy = multi({ fuzzy: { body: { value: 'quick', max_expansions: 1 } } });
    expect(ids(fuzzy)).toEqual(['1', '2', '3']);
    expect(ids({ bool: { filter: [fuzzy] } })).toEqual(['1', '2', '3', '4']);
    expect(ids(multi({ fuzzy: { body: { value: 'quick', rewrite: 'top_terms_1' } } }))).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('scores an index_prefixes span term with the prefix field statistics, without norms', () => {
    // title._index_prefix:wor: docs 1 (3 tokens), 2 and 3; docs with a token of 2+ chars: 4
    const hits = b.search(multi({ prefix: { title: 'wor' } })).hits;
    const f = Math.fround;
    const idf = f(Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5)));
    const weight = f(idf * f(2.2));
    const score = (freq: number) => f(f(weight * freq) / f(freq + f(1.2)));
    expect(hits).toEqual([
      { id: '1', score: score(3) },
      { id: '2', score: score(1) },
      { id: '3', score: score(1) },
    ]);
    // in a span_near the near's field (title) gives the statistics and norms
    const near2 = b.search(near([st('title', 'short'), multi({ prefix: { title: 'word' } })]));
    const docCount = 4;
    const avgdl = f((3 + 2 + 2 + 1) / docCount);
    const idfs = f(
      f(Math.log(1 + (docCount - 1 + 0.5) / 1.5)) + f(Math.log(1 + (docCount - 2 + 0.5) / 2.5)),
    );
    const norm = f(f(1.2) * f(f(1 - f(0.75)) + f(f(f(0.75) * byte4ToInt(intToByte4(2))) / avgdl)));
    expect(near2.hits).toEqual([{ id: '2', score: f(f(f(idfs * f(2.2)) * 1) / f(1 + norm)) }]);
  });

  it('fails on positions-less fields and on too many expansions', () => {
    expect(chain(b.error(st('tag', 'x')))).toEqual([
      [
        'illegal_state_exception',
        'field "tag" was indexed without position data; cannot run SpanTermQuery (term=x)',
      ],
    ]);
    expect(chain(b.error(st('docs_only', 'a')))[0]![1]).toBe(
      'field "docs_only" was indexed without position data; cannot run SpanTermQuery (term=a)',
    );
    const small = new Bench(
      { properties: { body: { type: 'text' } } },
      { context: { maxClauseCount: 2 } },
    );
    small.index([{ body: 'qa qb qc' }]);
    expect(chain(small.error(multi({ prefix: { body: 'q' } })))).toEqual([
      [
        'runtime_exception',
        '[body:q* ] exceeds maxClauseCount [ Boolean maxClauseCount is set to 2]',
      ],
    ]);
  });
});

describe('lowering details', () => {
  it('registers named clauses and warns of inner boosts', () => {
    const warnings: string[] = [];
    const node = parseQuery(
      near([
        { span_term: { body: { value: 'quick', _name: 'inner', boost: 2 } } },
        st('body', 'fox'),
      ]),
    );
    const out = lowerQuery(node, { ...b.ctx, deprecation: (m) => warnings.push(m) });
    expect([...out.namedQueries.keys()]).toEqual(['inner']);
    expect(warnings).toEqual(['setting boost on inner span queries is deprecated!']);
    const masked = parseQuery({
      field_masking_span: {
        query: { span_term: { body: { value: 'a', boost: 2 } } },
        field: 'body',
      },
    });
    lowerQuery(masked, { ...b.ctx, deprecation: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
  });
});
