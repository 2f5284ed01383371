/**
 * Expectations of Elasticsearch's REST YAML tests for search (../shared/conformance/rest-api-spec/
 * test/search/): query_string URI parameters, exists on every field type and metadata field,
 * terms lookups and index.max_terms_count, index_prefixes / index_phrases, regex length limits.
 * The HTTP layer is the lead's; these run the same queries through the DSL and engine directly.
 */
import { describe, expect, it } from 'vitest';
import { Bench, chain } from './harness.js';

describe('60_query_string.yml: search with query_string parameters', () => {
  const b = new Bench({
    properties: {
      field: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      number: { type: 'integer' },
    },
  }).index([{ field: 'foo bar' }]);
  const qs = (o: Record<string, unknown>) => b.search({ query_string: o }).total;

  it('q with df, default_operator, prefixes and lenient', () => {
    expect(qs({ query: 'bar', default_field: 'field' })).toBe(1);
    expect(qs({ query: 'field:foo field:xyz' })).toBe(1);
    expect(qs({ query: 'field:foo field:xyz', default_operator: 'AND' })).toBe(0);
    expect(qs({ query: 'field:BA*' })).toBe(1);
    expect(qs({ query: 'number:foo', lenient: true })).toBe(0);
  });
});

describe('160_exists_query.yml', () => {
  const props = (dv: boolean) => {
    const t = (type: string, extra: object = {}) => ({
      type,
      ...(dv ? {} : { doc_values: false }),
      ...extra,
    });
    return {
      dynamic: false,
      properties: {
        binary: dv
          ? { type: 'binary', doc_values: true }
          : { type: 'binary', doc_values: false, store: true },
        boolean: t('boolean'),
        date: t('date'),
        geo_point: t('geo_point'),
        ip: t('ip'),
        keyword: t('keyword'),
        byte: t('byte'),
        double: t('double'),
        float: t('float'),
        half_float: t('half_float'),
        integer: t('integer'),
        long: t('long'),
        short: t('short'),
        object: { type: 'object', properties: { inner1: t('keyword'), inner2: t('keyword') } },
        text: { type: 'text' },
      },
    };
  };
  const full = (object: object) => ({
    binary: 'YWJjZGUxMjM0',
    boolean: true,
    date: '2017-01-01',
    geo_point: [0.0, 20.0],
    ip: '192.168.0.1',
    keyword: 'foo',
    byte: 1,
    double: 1.0,
    float: 1.0,
    half_float: 1.0,
    integer: 1,
    long: 1,
    short: 1,
    object,
    text: 'foo bar',
  });
  const load = (dv: boolean) => {
    const bench = new Bench(props(dv), { index: 'test' });
    bench.index([
      ['1', full({ inner1: 'foo', inner2: 'bar' })],
      ['2', full({ inner1: 'foo' })],
    ]);
    bench.index([['3', full({ inner2: 'bar' })]], 'route_me');
    bench.index([['4', {}]]);
    return bench;
  };
  const test = load(true);
  const noDv = load(false);
  const unmapped = new Bench({
    dynamic: false,
    properties: { unrelated: { type: 'keyword' } },
  }).index([{ unrelated: 'foo' }]);
  const empty = new Bench(props(true));
  const exists = (bench: Bench, field: string) => bench.search({ exists: { field } }).total;
  const fields = [
    'binary',
    'boolean',
    'date',
    'geo_point',
    'ip',
    'keyword',
    'byte',
    'double',
    'float',
    'half_float',
    'integer',
    'long',
    'short',
    'text',
  ];

  it('mapped fields, with and without doc values', () => {
    for (const f of fields) {
      expect([f, exists(test, f)]).toEqual([f, 3]);
      expect([f, exists(noDv, f)]).toEqual([f, 3]);
    }
    expect(exists(test, 'object')).toBe(3);
    expect(exists(test, 'object.inner1')).toBe(2);
    expect(exists(noDv, 'object')).toBe(3);
    expect(exists(noDv, 'object.inner1')).toBe(2);
  });

  it('metadata fields', () => {
    expect(exists(test, '_id')).toBe(4);
    expect(exists(test, '_uid')).toBe(4);
    expect(exists(test, '_index')).toBe(4);
    expect(exists(test, '_type')).toBe(4);
    expect(exists(test, '_routing')).toBe(1);
    expect(exists(test, '_seq_no')).toBe(4);
    expect(exists(test, '_version')).toBe(4);
    expect(test.error({ exists: { field: '_source' } }).type).toBe('query_shard_exception');
  });

  it('unmapped fields and empty indices', () => {
    for (const f of [...fields, 'object', 'object.inner1']) {
      expect([f, exists(unmapped, f)]).toEqual([f, 0]);
      expect([f, exists(empty, f)]).toEqual([f, 0]);
    }
  });
});

describe('170_terms_query.yml and 150_rewrite_on_coordinator.yml: terms lookup', () => {
  const followers: Record<string, string[]> = {
    u1: ['u2', 'u3'],
    u2: ['u1', 'u3', 'u4'],
    u3: ['u1'],
    u4: ['u3'],
  };
  const b = new Bench(
    { properties: { user: { type: 'keyword' }, followers: { type: 'keyword' } } },
    {
      index: 'test_index',
      context: {
        maxTermsCount: 2,
        termsLookup: (index, _type, id, path) => {
          if (index !== 'test_index' || path !== 'followers') return null;
          return followers[id] ?? null;
        },
      },
    },
  );
  b.index(Object.entries(followers).map(([u, f]) => [u, { user: u, followers: f }]));

  it('values and lookups, with a warning over index.max_terms_count', () => {
    expect(b.search({ terms: { user: ['u1', 'u2'] } }).total).toBe(2);
    expect(b.warnings).toEqual([]);
    expect(b.search({ terms: { user: ['u1', 'u2', 'u3'] } }).total).toBe(3);
    expect(b.warnings).toEqual([
      'Deprecated: the number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.',
    ]);
    const lookup = (id: string) => ({
      terms: { user: { index: 'test_index', type: 'test_type', id, path: 'followers' } },
    });
    expect(b.search(lookup('u1')).total).toBe(2);
    expect(b.search(lookup('u2')).total).toBe(3);
    expect(b.search(lookup('nope')).total).toBe(0);
  });

  it('lookup failures from the context propagate (no such index)', () => {
    const local = new Bench(
      { properties: { user: { type: 'keyword' } } },
      {
        context: {
          termsLookup: () => {
            throw new (class extends Error {})('no such index');
          },
        },
      },
    );
    expect(() =>
      local.search({
        terms: { user: { index: 'lookup_index', type: 'doc', id: '1', path: 'followers' } },
      }),
    ).toThrow('no such index');
  });
});

describe('190_index_prefix_search.yml and 200_index_phrase_search.yml', () => {
  const b = new Bench({
    properties: { text: { type: 'text', index_prefixes: { min_chars: 1, max_chars: 10 } } },
  }).index([{ text: 'some short words and a stupendously long one' }]);

  it('prefix queries score 1 (times the boost)', () => {
    const r = b.search({ query_string: { query: 'shor*', default_field: 'text' } });
    expect(r.total).toBe(1);
    expect(r.hits[0]!.score).toBe(1);
    const boosted = b.search({ query_string: { query: 'shor*', default_field: 'text', boost: 2 } });
    expect(boosted.hits[0]!.score).toBe(2);
    expect(
      b.search({ query_string: { query: 'stupendousl*', default_field: 'text' } }).hits[0]!.score,
    ).toBe(1);
  });

  it('phrases on fields with index_phrases', () => {
    const p = new Bench({ properties: { text: { type: 'text', index_phrases: true } } }).index([
      { text: 'peter piper picked a peck of pickled peppers' },
    ]);
    expect(p.search({ match_phrase: { text: { query: 'peter piper' } } }).total).toBe(1);
    expect(
      p.search({ query_string: { query: '"peter piper"~1', default_field: 'text' } }).total,
    ).toBe(1);
    expect(p.search({ match_phrase: { text: 'peter piper picked' } }).total).toBe(1);
    expect(p.search({ match_phrase: { text: 'piper' } }).total).toBe(1);
  });
});

describe('30_limits.yml: regexp length limit', () => {
  const b = new Bench({ properties: { foo: { type: 'text' } } }).index([{ foo: 'bar' }]);
  const long = '^'.padEnd(1110, 'a');

  it('in regexp queries and in query_string', () => {
    expect(chain(b.error({ regexp: { foo: long } }))[1]).toEqual([
      'illegal_argument_exception',
      'The length of regex [1110] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    ]);
    const e = b.error({ query_string: { query: `/${long}/` } });
    expect(chain(e).some(([, r]) => (r ?? '').startsWith('The length of regex [1110]'))).toBe(true);
  });
});
