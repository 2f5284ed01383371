/**
 * Search request parsing (SearchSourceBuilder): indices_boost forms, script_fields,
 * docvalue_fields, SearchRequest.validate, the fetch phase's _source / stored_fields decision,
 * can_match's query test, and date math in index names.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import {
  parseSearchBody,
  validateSearchRequest,
  type SearchRequest,
} from '../../../../src/dsl/search/request.js';
import { fetchSelection } from '../../../../src/dsl/search/fetch-options.js';
import { canRewriteToMatchNone, shardCanMatch } from '../../../../src/dsl/search/can-match.js';
import { parseQuery } from '../../../../src/dsl/query/index.js';
import { resolveDateMathExpression } from '../../../../src/engine/date-math-index.js';
import { Bench } from '../query/harness.js';

const err = (f: () => unknown): [string, string | null] => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return [e.type, e.reason];
    throw e;
  }
  throw new Error('expected an error');
};

describe('indices_boost', () => {
  it('reads the array form in order', () => {
    const r = parseSearchBody({ indices_boost: [{ 'a*': 3 }, { b: 1.5 }] });
    expect(r.indicesBoost).toEqual([
      { index: 'a*', boost: 3 },
      { index: 'b', boost: 1.5 },
    ]);
    expect(r.deprecations).toEqual([]);
  });
  it('reads the object form with its deprecation warning', () => {
    const r = parseSearchBody({ indices_boost: { a: 2, b: 1 } });
    expect(r.indicesBoost.map((b) => b.index)).toEqual(['a', 'b']);
    expect(r.deprecations).toEqual([
      'Object format in indices_boost is deprecated, please use array format instead',
    ]);
  });
  it('rejects malformed array entries like IndexBoost(XContentParser)', () => {
    expect(err(() => parseSearchBody({ indices_boost: [{ a: 1, b: 2 }] }))).toEqual([
      'parsing_exception',
      'Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]',
    ]);
    expect(err(() => parseSearchBody({ indices_boost: [{ a: 'x' }] }))).toEqual([
      'parsing_exception',
      'Expected [VALUE_NUMBER] in [indices_boost] but found [VALUE_STRING]',
    ]);
    expect(err(() => parseSearchBody({ indices_boost: [1] }))).toEqual([
      'parsing_exception',
      'Unknown key for a VALUE_NUMBER in [indices_boost].',
    ]);
  });
});

describe('script_fields and docvalue_fields', () => {
  it('reads script fields with ignore_failure', () => {
    const r = parseSearchBody({
      script_fields: { a: { script: '1' }, b: { script: { source: '2' }, ignore_failure: true } },
    });
    expect(r.scriptFields).toEqual([
      { name: 'a', script: '1', ignoreFailure: false },
      { name: 'b', script: { source: '2' }, ignoreFailure: true },
    ]);
    expect(err(() => parseSearchBody({ script_fields: { a: 1 } }))).toEqual([
      'parsing_exception',
      'Expected [START_OBJECT] in [a] but found [VALUE_NUMBER]',
    ]);
  });
  it('reads docvalue_fields names and {field, format}', () => {
    expect(
      parseSearchBody({ docvalue_fields: ['a', { field: 'b', format: 'use_field_mapping' }] })
        .docvalueFields,
    ).toEqual([
      { field: 'a', format: null },
      { field: 'b', format: 'use_field_mapping' },
    ]);
  });
});

describe('validateSearchRequest (SearchRequest.validate)', () => {
  const req = (body: object) => parseSearchBody(body);
  it('lists every scroll problem in one validation exception', () => {
    const w: string[] = [];
    expect(
      err(() =>
        validateSearchRequest(
          req({ from: 5, size: 0, track_total_hits: false }),
          true,
          undefined,
          w,
        ),
      ),
    ).toEqual([
      'action_request_validation_exception',
      'Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;2: using [from] is not allowed in a scroll context;3: [size] cannot be [0] in a scroll context;',
    ]);
  });
  it('warns about request_cache and rescore in scrolls, and accepts plain searches', () => {
    const w: string[] = [];
    validateSearchRequest(
      req({ rescore: { query: { rescore_query: { match_all: {} } } } }),
      true,
      'true',
      w,
    );
    expect(w).toEqual([
      'Explicitly set [request_cache] for a scroll query is deprecated and will return a 400 error in future versions',
      'Using [rescore] for a scroll query is deprecated and will be ignored. From 7.0 on will return a 400 error',
    ]);
    const w2: string[] = [];
    validateSearchRequest(req({ size: 0, from: 3 }), false, 'true', w2);
    expect(w2).toEqual([]);
  });
});

describe('fetchSelection (FetchPhase)', () => {
  const sel = (body: object, uriSource = false) => {
    const r: SearchRequest = parseSearchBody(body);
    if (uriSource) r.sourceGiven = true;
    return fetchSelection(r);
  };
  const all = { includes: [], excludes: [] };
  it('returns the source by default, not with script_fields alone', () => {
    expect(sel({})).toEqual({ source: all, storedFields: null });
    expect(sel({ script_fields: { a: { script: '1' } } })).toEqual({
      source: null,
      storedFields: null,
    });
    expect(sel({ script_fields: { a: { script: '1' } }, _source: true })).toEqual({
      source: all,
      storedFields: null,
    });
  });
  it('drops the source with stored_fields unless asked for', () => {
    expect(sel({ stored_fields: [] })).toEqual({ source: null, storedFields: [] });
    expect(sel({ stored_fields: ['a'] })).toEqual({ source: null, storedFields: ['a'] });
    expect(sel({ stored_fields: ['a', '_source'] })).toEqual({ source: all, storedFields: ['a'] });
    expect(sel({ stored_fields: ['a'], _source: ['x'] })).toEqual({
      source: { includes: ['x'], excludes: [] },
      storedFields: ['a'],
    });
  });
  it('disables everything with _none_, which cannot be combined', () => {
    expect(sel({ stored_fields: '_none_' })).toEqual({
      source: null,
      storedFields: null,
      noStoredFields: true,
    });
    expect(err(() => sel({ stored_fields: ['_none_', 'a'] }))).toEqual([
      'illegal_argument_exception',
      'cannot combine _none_ with other fields',
    ]);
  });
});

describe('can_match', () => {
  const bench = new Bench({
    properties: { d: { type: 'date', format: 'yyyy-MM-dd' }, n: { type: 'long' } },
  }).index([{ d: '2016-01-01', n: 1 }]);
  const snap = bench.shards[0]!.searcher();
  const can = (q: unknown) => shardCanMatch(parseQuery(q), snap, bench.ctx);

  it('only pre-filters real queries without suggest or aggs that visit every doc', () => {
    const q = parseQuery({ term: { n: 1 } });
    expect(canRewriteToMatchNone(null, null, null)).toBe(false);
    expect(canRewriteToMatchNone(parseQuery({ match_all: {} }), null, null)).toBe(false);
    expect(canRewriteToMatchNone(q, null, null)).toBe(true);
    expect(canRewriteToMatchNone(q, null, { s: {} })).toBe(false);
    expect(canRewriteToMatchNone(q, { g: { global: {} } }, null)).toBe(false);
    expect(canRewriteToMatchNone(q, { t: { terms: { field: 'n', min_doc_count: 0 } } }, null)).toBe(
      false,
    );
    expect(canRewriteToMatchNone(q, { t: { terms: { field: 'n' } } }, null)).toBe(true);
  });

  it('rewrites date ranges outside the shard values (and unmapped fields) to match_none', () => {
    expect(can({ range: { d: { gte: '2016-02-01' } } })).toBe(false);
    expect(can({ range: { d: { gte: '2015-02-01', lt: '2016-01-01' } } })).toBe(false);
    expect(can({ range: { d: { gte: '2015-02-01', lte: '2016-01-01' } } })).toBe(true);
    expect(can({ range: { nope: { gte: 1 } } })).toBe(false);
    // numbers always intersect in 6.8
    expect(can({ range: { n: { gte: 100 } } })).toBe(true);
    expect(can({ bool: { filter: [{ range: { d: { gte: '2017-01-01' } } }] } })).toBe(false);
    expect(can({ bool: { should: [{ range: { d: { gte: '2017-01-01' } } }] } })).toBe(true);
    expect(can({ constant_score: { filter: { match_none: {} } } })).toBe(false);
  });
});

describe('resolveDateMathExpression', () => {
  const now = Date.UTC(2024, 2, 17, 15, 30);
  it('formats now with date math in the default uuuu.MM.dd', () => {
    expect(resolveDateMathExpression('<logstash-{now/d}>', now)).toBe('logstash-2024.03.17');
    expect(resolveDateMathExpression('<logstash-{now/M}>', now)).toBe('logstash-2024.03.01');
    expect(resolveDateMathExpression('<logstash-{now-1d}>', now)).toBe('logstash-2024.03.16');
  });
  it('takes a custom format, a time zone and escaped braces', () => {
    expect(resolveDateMathExpression('<x-{now/M{yyyy.MM}}>', now)).toBe('x-2024.03');
    expect(resolveDateMathExpression('<x-{now{yyyy.MM.dd.HH|+12:00}}>', now)).toBe(
      'x-2024.03.18.03',
    );
    expect(resolveDateMathExpression('<a\\{b\\}-{now/y{yyyy}}>', now)).toBe('a{b}-2024');
    expect(resolveDateMathExpression('plain', now)).toBe('plain');
  });
  it('rejects open placeholders and stray braces', () => {
    expect(err(() => resolveDateMathExpression('<a-{now>', now))).toEqual([
      'parse_exception',
      'invalid dynamic name expression [a-{now]. date math placeholder is open ended',
    ]);
    expect(err(() => resolveDateMathExpression('<a}>', now))[0]).toBe('parse_exception');
  });
});
