/**
 * Query DSL parsing: node shapes with ES defaults, and ES 6.8's parse errors (types, reasons and
 * JSON locations), ported from the `*QueryBuilderTests` of Elasticsearch 6.8.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { parseQuery, renderQuery } from '../../../../src/dsl/query/index.js';
import { resolveErrorLocations } from '../../../../src/dsl/query/errors.js';
import { locateInJson } from '../../../../src/dsl/query/json-location.js';

function fail(json: unknown): EsError {
  try {
    parseQuery(json);
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected a parse error');
}

/** Parses JSON text and renders the error as ES would (line/col resolved in the text). */
function failText(text: string): EsError {
  const e = fail(JSON.parse(text));
  return resolveErrorLocations(e, (loc) => locateInJson(text, loc));
}

describe('nesting', () => {
  const deep = (d: number): unknown => {
    let q: unknown = { match_all: {} };
    for (let i = 1; i < d; i++) q = { constant_score: { filter: q } };
    return q;
  };

  it('bounds the depth of query objects (indices.query.bool.max_nested_depth)', () => {
    expect(() => parseQuery(deep(5), [], 5)).not.toThrow();
    const e = (() => {
      try {
        parseQuery(deep(6), [], 5);
      } catch (x) {
        return x as EsError;
      }
      throw new Error('expected an error');
    })();
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toContain('[indices.query.bool.max_nested_depth]');
  });

  it('tokenizes JSON of any depth without recursion, locations intact', () => {
    let v: unknown = 'x';
    for (let i = 0; i < 100_000; i++) v = [v];
    // a malformed query wrapped around a hundred-thousand-level value fails on its shape
    expect(() => parseQuery({ match: { title: { query: v } } }, [], Infinity)).toThrow(EsError);
    const text = '{"bool": {"must": [{"term": {"a": "b"}}, {"nope": {}}]}}';
    expect(failText(text).meta).toMatchObject({ line: 1, col: 51 });
  });
});

describe('parseInnerQueryBuilder', () => {
  it('reports malformed query objects', () => {
    expect(fail('foo').reason).toBe('[_na] query malformed, must start with start_object');
    const empty = failText('{}');
    expect(empty.type).toBe('illegal_argument_exception');
    expect(empty.reason).toBe('query malformed, empty clause found at [1:2]');
    const noObj = failText('{ "foo" : "bar" }');
    expect(noObj.type).toBe('parsing_exception');
    expect(noObj.reason).toBe('[foo] query malformed, no start_object after query name');
    expect(noObj.meta).toMatchObject({ line: 1, col: 11 });
    const unknown = failText('{ "foo" : {} }');
    expect(unknown.reason).toBe('no [query] registered for [foo]');
    expect(unknown.meta).toMatchObject({ line: 1, col: 11 });
  });

  it('rejects unknown queries inside bool and two queries in one object', () => {
    expect(fail({ bool: { must: { unknown_query: {} } } }).reason).toBe(
      'no [query] registered for [unknown_query]',
    );
    const text =
      '{\n  "bool": {\n    "must": {\n      "match": {\n        "foo": "bar"\n      },\n      "term": {\n        "baz": "buzz"\n      }\n    }\n  }\n}';
    const e = failText(text);
    expect(e.reason).toBe('[match] malformed query, expected [END_OBJECT] but found [FIELD_NAME]');
    expect(e.meta).toMatchObject({ line: 7, col: 7 });
  });
});

describe('term-level queries', () => {
  it('parses term in short and long form', () => {
    expect(parseQuery({ term: { user: 'kimchy' } })).toEqual({
      type: 'term',
      field: 'user',
      value: 'kimchy',
      boost: 1,
      queryName: null,
    });
    expect(parseQuery({ term: { age: { value: 5, boost: '2.5', _name: 'x' } } })).toEqual({
      type: 'term',
      field: 'age',
      value: 5,
      boost: 2.5,
      queryName: 'x',
    });
  });

  it('reports term errors', () => {
    expect(fail({ term: { message1: 'a', message2: 'b' } }).reason).toBe(
      "[term] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ term: { message1: { value: 'a' }, message2: { value: 'b' } } }).reason).toBe(
      "[term] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ term: { f: ['a'] } }).reason).toBe(
      '[term] query does not support array of values',
    );
    expect(fail({ term: { f: { value: 'a', foo: 1 } } }).reason).toBe(
      '[term] query does not support [foo]',
    );
    expect(fail({ term: {} }).reason).toBe('field name is null or empty');
    expect(fail({ term: { f: { boost: 2 } } }).reason).toBe('value cannot be null');
    // a null short value is skipped by the token loop: no field at all
    expect(fail({ term: { f: null } }).reason).toBe('field name is null or empty');
    const nfe = fail({ term: { f: { value: 'a', boost: 'x' } } });
    expect(nfe.type).toBe('number_format_exception');
    expect(nfe.reason).toBe('For input string: "x"');
  });

  it('parses terms values and lookups', () => {
    expect(parseQuery({ terms: { user: ['a', 1, true], boost: 3 } })).toEqual({
      type: 'terms',
      field: 'user',
      values: ['a', 1, true],
      lookup: null,
      boost: 3,
      queryName: null,
    });
    expect(
      parseQuery({ terms: { user: { index: 'i', type: 't', id: '1', path: 'followers' } } }),
    ).toMatchObject({
      lookup: { index: 'i', type: 't', id: '1', path: 'followers', routing: null },
      values: null,
    });
  });

  it('reports terms errors', () => {
    expect(fail({ terms: { a: ['x'], b: ['y'] } }).reason).toBe(
      '[terms] query does not support multiple fields',
    );
    const lk = { index: 'i', type: 't', id: '1', path: 'p' };
    expect(fail({ terms: { a: lk, b: lk } }).reason).toContain(
      '[terms] query does not support more than one field.',
    );
    expect(fail({ terms: { a: [null] } }).reason).toBe('No value specified for terms query');
    expect(fail({ terms: { boost: 2 } }).reason).toBe(
      '[terms] query requires a field name, followed by array of terms or a document lookup specification',
    );
    expect(fail({ terms: { a: { id: '1', type: 't', path: 'p', foo: 'x' } } }).reason).toBe(
      '[terms] query does not support [foo] within lookup element',
    );
    expect(fail({ terms: { a: { type: 't', path: 'p', index: 'i' } } }).reason).toBe(
      '[terms] query lookup element requires specifying the id.',
    );
    expect(fail({ terms: { a: { id: '1', type: 't', path: 'p' } } }).reason).toBe(
      '[terms] query lookup element requires specifying the index.',
    );
  });

  it('parses range bounds with gt/gte/lt/lte/from/to', () => {
    expect(parseQuery({ range: { age: { gte: 10, lt: 20 } } })).toMatchObject({
      type: 'range',
      field: 'age',
      from: 10,
      to: 20,
      includeLower: true,
      includeUpper: false,
      relation: null,
    });
    expect(
      parseQuery({
        range: { age: { from: 1, to: 5, include_lower: false, include_upper: 'false' } },
      }),
    ).toMatchObject({ from: 1, to: 5, includeLower: false, includeUpper: false });
    expect(parseQuery({ range: { d: { gt: 'now', relation: 'WITHIN' } } })).toMatchObject({
      relation: 'within',
      includeLower: false,
    });
  });

  it('reports range errors', () => {
    expect(fail({ range: { age: { gt: 1 }, price: { lt: 2 } } }).reason).toBe(
      "[range] query doesn't support multiple fields, found [age] and [price]",
    );
    expect(fail({ range: { age: { foo: 1 } } }).reason).toBe(
      '[range] query does not support [foo]',
    );
    expect(fail({ range: { age: 1 } }).reason).toBe('[range] query does not support [age]');
    expect(fail({ range: { age: { gt: 1, relation: 'disjoint' } } }).reason).toBe(
      '[range] query does not support relation [disjoint]',
    );
    expect(fail({ range: { age: { gt: 1, relation: 'foo' } } }).reason).toBe(
      'foo is not a valid relation',
    );
    const bool = fail({ range: { age: { gt: 1, include_lower: 'yes' } } });
    expect(bool.type).toBe('illegal_argument_exception');
    expect(bool.reason).toBe('Failed to parse value [yes] as only [true] or [false] are allowed.');
  });

  it('parses exists, prefix, wildcard, regexp, fuzzy, ids, type', () => {
    expect(parseQuery({ exists: { field: 'f' } })).toMatchObject({ type: 'exists', field: 'f' });
    expect(parseQuery({ prefix: { user: 'ki' } })).toMatchObject({ value: 'ki', rewrite: null });
    expect(
      parseQuery({ prefix: { user: { prefix: 'ki', rewrite: 'top_terms_3' } } }),
    ).toMatchObject({ value: 'ki', rewrite: 'top_terms_3' });
    expect(parseQuery({ wildcard: { user: { wildcard: 'k*y', boost: 2 } } })).toMatchObject({
      value: 'k*y',
      boost: 2,
    });
    expect(
      parseQuery({ regexp: { name: { value: 's.*y', flags: 'INTERSECTION|COMPLEMENT|EMPTY' } } }),
    ).toMatchObject({ value: 's.*y', flags: 7, maxDeterminizedStates: 10000 });
    expect(parseQuery({ regexp: { name: 'x' } })).toMatchObject({ flags: 0xffff });
    expect(
      parseQuery({ fuzzy: { user: { value: 'ki', fuzziness: 2, prefix_length: 1 } } }),
    ).toMatchObject({
      value: 'ki',
      fuzziness: { auto: false, value: '2' },
      prefixLength: 1,
      maxExpansions: 50,
      transpositions: false,
    });
    expect(parseQuery({ fuzzy: { user: { value: 'ki', fuzziness: 'auto:2,5' } } })).toMatchObject({
      fuzziness: { auto: true, low: 2, high: 5 },
    });
    expect(parseQuery({ ids: { type: 'doc', values: ['1', '2'] } })).toEqual({
      type: 'ids',
      types: ['doc'],
      ids: ['1', '2'],
      boost: 1,
      queryName: null,
    });
    expect(parseQuery({ type: { value: 'doc' } })).toMatchObject({ type: 'type', value: 'doc' });
  });

  it('reports errors of the simple field queries', () => {
    expect(fail({ prefix: { user1: 'a', user2: 'b' } }).reason).toBe(
      "[prefix] query doesn't support multiple fields, found [user1] and [user2]",
    );
    expect(fail({ regexp: { user1: { value: 'a' }, user2: { value: 'b' } } }).reason).toBe(
      "[regexp] query doesn't support multiple fields, found [user1] and [user2]",
    );
    expect(fail({ regexp: { f: { value: 'a', flags: 'FOO' } } }).reason).toBe(
      'Unknown regexp flag [FOO]',
    );
    expect(fail({ fuzzy: { f: { value: ['a'] } } }).reason).toBe(
      '[fuzzy] unexpected token [START_ARRAY] after [value]',
    );
    expect(fail({ fuzzy: { f: { boost: 2 } } }).reason).toBe('query value cannot be null');
    expect(fail({ exists: {} }).reason).toBe('[exists] must be provided with a [field]');
    expect(fail({ exists: { field: 'a', foo: 'b' } }).reason).toBe(
      '[exists] query does not support [foo]',
    );
    expect(fail({ type: {} }).reason).toBe(
      '[type] filter needs to be provided with a value for the type',
    );
  });

  it('wraps ObjectParser failures of ids in parsing_exception', () => {
    const text = '{"ids": {"values": ["1"], "foo": 1}}';
    const e = failText(text);
    expect(e.type).toBe('parsing_exception');
    expect(e.reason).toBe('[1:27] [ids] unknown field [foo], parser not found');
    expect(e.causedBy?.type).toBe('x_content_parse_exception');
    const bad = failText('{"ids": {"values": [{"a": 1}]}}');
    expect(bad.reason).toContain('[ids] failed to parse field [values]');
  });
});

describe('full-text queries', () => {
  it('parses match with defaults', () => {
    expect(parseQuery({ match: { message: 'this is a test' } })).toEqual({
      type: 'match',
      field: 'message',
      query: 'this is a test',
      operator: 'OR',
      analyzer: null,
      minimumShouldMatch: null,
      fuzziness: null,
      prefixLength: 0,
      maxExpansions: 50,
      fuzzyTranspositions: true,
      fuzzyRewrite: null,
      lenient: false,
      cutoffFrequency: null,
      zeroTermsQuery: 'none',
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
      queryName: null,
    });
    expect(
      parseQuery({
        match: {
          message: { query: 'x', operator: 'and', fuzziness: 'AUTO', zero_terms_query: 'ALL' },
        },
      }),
    ).toMatchObject({
      operator: 'AND',
      fuzziness: { auto: true, low: 3, high: 6 },
      zeroTermsQuery: 'all',
    });
  });

  it('reports match errors', () => {
    expect(fail({ match: { message1: 'a', message2: 'b' } }).reason).toBe(
      "[match] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ match: { message: { operator: 'and' } } }).reason).toBe(
      'No text specified for text query',
    );
    expect(fail({ match: { message: { query: 'a', operator: 'xor' } } }).reason).toBe(
      'No enum constant org.elasticsearch.index.query.Operator.XOR',
    );
    expect(fail({ match: { message: { query: 'a', zero_terms_query: 'some' } } }).reason).toBe(
      'Unsupported zero_terms_docs value [some]',
    );
    expect(fail({ match: { message: { query: ['a'] } } }).reason).toBe(
      '[match] unknown token [START_ARRAY] after [query]',
    );
    expect(fail({ match: { message: { query: 'a', prefix_length: -1 } } }).reason).toBe(
      '[match] requires prefix length to be non-negative.',
    );
    expect(fail({ match_phrase: { message1: 'a', message2: 'b' } }).reason).toBe(
      "[match_phrase] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ match_phrase_prefix: { m: { query: 'a', slop: -1 } } }).reason).toBe(
      'No negative slop allowed.',
    );
  });

  it('parses multi_match fields with boosts and types', () => {
    expect(
      parseQuery({
        multi_match: { query: 'x', fields: ['a^2', 'b', 'a^3'], type: 'most_fields' },
      }),
    ).toMatchObject({
      fields: [
        ['a', 3],
        ['b', 1],
      ],
      matchType: 'most_fields',
      tieBreaker: null,
    });
    expect(parseQuery({ multi_match: { query: 'x', fields: 'title^1.5' } })).toMatchObject({
      fields: [['title', 1.5]],
    });
    expect(parseQuery({ multi_match: { query: 'x', type: 'boolean' } })).toMatchObject({
      matchType: 'best_fields',
      fields: [],
    });
  });

  it('reports multi_match errors', () => {
    for (const type of ['cross_fields', 'phrase', 'phrase_prefix']) {
      expect(fail({ multi_match: { query: 'x', type, fuzziness: 1 } }).reason).toBe(
        `Fuzziness not allowed for type [${type}]`,
      );
    }
    expect(fail({ multi_match: { query: ['x'] } }).reason).toBe(
      '[multi_match] unknown token [START_ARRAY] after [query]',
    );
    expect(fail({ multi_match: { fields: ['a'] } }).reason).toBe(
      'No text specified for multi_match query',
    );
    const t = fail({ multi_match: { query: 'x', type: 'foo' } });
    expect(t.type).toBe('parse_exception');
    expect(t.reason).toBe('failed to parse [multi_match] query type [foo]. unknown type.');
    expect(fail({ multi_match: { query: 'x', fields: ['a^e'] } }).reason).toBe(
      'For input string: "e"',
    );
  });

  it('parses common terms with its minimum_should_match object (CommonTermsQueryBuilderTests)', () => {
    const text = `{
  "common" : {
    "body" : {
      "query" : "nelly the elephant not as a cartoon",
      "high_freq_operator" : "AND",
      "low_freq_operator" : "OR",
      "cutoff_frequency" : 0.001,
      "minimum_should_match" : {
        "low_freq" : "2",
        "high_freq" : "3"
      },
      "boost" : 42.0
    }
  }
}`;
    const node = parseQuery(JSON.parse(text));
    expect(node).toEqual({
      type: 'common',
      field: 'body',
      query: 'nelly the elephant not as a cartoon',
      analyzer: null,
      cutoffFrequency: Math.fround(0.001),
      highFreqOperator: 'AND',
      lowFreqOperator: 'OR',
      lowFreqMinimumShouldMatch: '2',
      highFreqMinimumShouldMatch: '3',
      boost: 42,
      queryName: null,
    });
    expect(renderQuery(node)).toBe(text); // checkGeneratedJson
    expect(parseQuery({ common: { body: 'x y' } })).toMatchObject({
      field: 'body',
      query: 'x y',
      cutoffFrequency: Math.fround(0.01),
      highFreqOperator: 'OR',
      lowFreqOperator: 'OR',
      lowFreqMinimumShouldMatch: null,
    });
    expect(
      parseQuery({
        common: { body: { query: 5, minimum_should_match: '60%', disable_coord: true } },
      }),
    ).toMatchObject({
      query: 5,
      lowFreqMinimumShouldMatch: '60%',
      highFreqMinimumShouldMatch: null,
    });
  });

  it('reports common terms errors', () => {
    const multi = failText(`{
  "common" : {
    "message1" : { "query" : "nelly" },
    "message2" : { "query" : "nelly" }
  }
}`);
    expect(multi.type).toBe('parsing_exception');
    expect(multi.reason).toBe(
      "[common] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ common: { message1: 'a', message2: 'b' } }).reason).toBe(
      "[common] query doesn't support multiple fields, found [message1] and [message2]",
    );
    expect(fail({ common: { body: { query: 'a', foo: 1 } } }).reason).toBe(
      '[common] query does not support [foo]',
    );
    expect(fail({ common: { body: { query: 'a', foo: {} } } }).reason).toBe(
      '[common] query does not support [foo]',
    );
    expect(
      fail({ common: { body: { query: 'a', minimum_should_match: { mid: '1' } } } }).reason,
    ).toBe('[common] query does not support [mid] for [minimum_should_match]');
    expect(
      fail({ common: { body: { query: 'a', minimum_should_match: { low_freq: [1] } } } }).reason,
    ).toBe('[common] unexpected token type [START_ARRAY] after [low_freq]');
    const op = fail({ common: { body: { query: 'a', low_freq_operator: 'xor' } } });
    expect(op.type).toBe('illegal_argument_exception');
    expect(op.reason).toBe('No enum constant org.elasticsearch.index.query.Operator.XOR');
    const noText = fail({ common: { body: { analyzer: 'standard' } } });
    expect(noText.type).toBe('illegal_argument_exception');
    expect(noText.reason).toBe('text cannot be null');
    expect(fail({ common: {} }).reason).toBe('field name is null or empty');
    expect(fail({ common: { '': 'x' } }).reason).toBe('field name is null or empty');
  });

  it('parses query_string and simple_query_string parameters', () => {
    expect(
      parseQuery({ query_string: { query: 'a AND b', fields: ['x^2', 'y'], phrase_slop: 2 } }),
    ).toMatchObject({
      type: 'query_string',
      query: 'a AND b',
      fields: [
        ['x', 2],
        ['y', 1],
      ],
      phraseSlop: 2,
      fuzziness: { auto: true, low: 3, high: 6 },
      defaultOperator: 'OR',
    });
    expect(parseQuery({ query_string: { query: 'a', all_fields: true } })).toMatchObject({
      defaultField: '*',
    });
    expect(parseQuery({ simple_query_string: { query: 'a', flags: 'OR|AND' } })).toMatchObject({
      flags: 5,
      defaultOperator: 'OR',
    });
    expect(parseQuery({ simple_query_string: { query: 'a', flags: -3 } })).toMatchObject({
      flags: -1,
    });
  });

  it('reports query_string errors', () => {
    expect(fail({ query_string: { fields: ['a'] } }).reason).toBe(
      '[query_string] must be provided with a [query]',
    );
    expect(fail({ query_string: { query: 'a', foo: 1 } }).reason).toBe(
      '[query_string] query does not support [foo]',
    );
    expect(fail({ simple_query_string: { query: 'a', foo: 1 } }).reason).toBe(
      '[simple_query_string] unsupported field [foo]',
    );
    expect(fail({ simple_query_string: { query: 'a', flags: 'FOO' } }).reason).toBe(
      'Unknown simple_query_string flag [FOO]',
    );
    expect(fail({ simple_query_string: {} }).reason).toBe(
      '[simple_query_string] query text missing',
    );
  });
});

describe('compound queries', () => {
  it('parses bool with single objects and arrays in ES clause order', () => {
    const q = parseQuery({
      bool: {
        must: { term: { a: 1 } },
        should: [{ term: { b: 2 } }, { term: { c: 3 } }],
        must_not: { term: { d: 4 } },
        filter: [{ term: { e: 5 } }],
        minimum_should_match: 1,
        boost: 2,
        disable_coord: true,
      },
    });
    expect(q).toMatchObject({
      type: 'bool',
      minimumShouldMatch: '1',
      boost: 2,
      adjustPureNegative: true,
    });
    if (q.type !== 'bool') throw new Error();
    expect(q.must.length).toBe(1);
    expect(q.should.length).toBe(2);
    expect(q.mustNot.length).toBe(1);
    expect(q.filter.length).toBe(1);
    expect(parseQuery({ bool: { mustNot: { match_all: {} } } })).toMatchObject({
      mustNot: [{ type: 'match_all' }],
    });
  });

  it('reports bool errors', () => {
    expect(fail({ bool: { foo: { match_all: {} } } }).reason).toBe(
      '[bool] query does not support [foo]',
    );
    expect(fail({ bool: { foo: [{ match_all: {} }] } }).reason).toBe(
      'bool query does not support [foo]',
    );
    expect(fail({ bool: { foo: 1 } }).reason).toBe('[bool] query does not support [foo]');
    expect(fail({ bool: { must: ['x'] } }).reason).toBe(
      '[_na] query malformed, must start with start_object',
    );
  });

  it('parses constant_score, dis_max, boosting', () => {
    expect(
      parseQuery({ constant_score: { filter: { term: { a: 1 } }, boost: 1.2 } }),
    ).toMatchObject({ type: 'constant_score', boost: Math.fround(1.2), filter: { type: 'term' } });
    expect(
      parseQuery({
        dis_max: { queries: [{ term: { a: 1 } }, { term: { b: 1 } }], tie_breaker: 0.7 },
      }),
    ).toMatchObject({ type: 'dis_max', tieBreaker: Math.fround(0.7) });
    expect(
      parseQuery({
        boosting: {
          positive: { match_all: {} },
          negative: { term: { a: 1 } },
          negative_boost: 0.2,
        },
      }),
    ).toMatchObject({ type: 'boosting', negativeBoost: Math.fround(0.2) });
  });

  it('reports compound errors', () => {
    expect(fail({ constant_score: {} }).reason).toBe(
      "[constant_score] requires a 'filter' element",
    );
    expect(fail({ constant_score: { filter: [] } }).reason).toBe('unexpected token [START_ARRAY]');
    expect(fail({ dis_max: { tie_breaker: 0.5 } }).reason).toBe(
      "[dis_max] requires 'queries' field with at least one clause",
    );
    expect(fail({ dis_max: { queries: [] } }).reason).toBe(
      '[_na] query malformed, must start with start_object',
    );
    expect(
      fail({ boosting: { positive: { match_all: {} }, negative: { match_all: {} } } }).reason,
    ).toBe("[boosting] query requires 'negative_boost' to be set to be a positive value'");
    expect(fail({ nested: { query: { match_all: {} } } }).reason).toBe(
      "[nested] requires 'path' field",
    );
    expect(
      fail({ nested: { path: 'a', query: { match_all: {} }, score_mode: 'foo' } }).reason,
    ).toBe('No score mode for child query [foo] found');
  });

  it('parses match_all / match_none with ObjectParser errors', () => {
    expect(parseQuery({ match_all: { boost: 1.5, _name: 'n' } })).toEqual({
      type: 'match_all',
      boost: 1.5,
      queryName: 'n',
    });
    const e = failText('{"match_all": {"foo": 1}}');
    expect(e.type).toBe('parsing_exception');
    expect(e.reason).toBe('[1:16] [match_all] unknown field [foo], parser not found');
    expect(fail({ match_none: { foo: 1 } }).reason).toBe(
      '[match_none] query does not support [foo]',
    );
  });

  it('parses wrapper (base64) and script', () => {
    const src = Buffer.from('{"term":{"a":"b"}}').toString('base64');
    expect(parseQuery({ wrapper: { query: src } })).toEqual({
      type: 'wrapper',
      source: '{"term":{"a":"b"}}',
      boost: 1,
      queryName: null,
    });
    expect(fail({ wrapper: { foo: src } }).reason).toBe(
      '[wrapper] query malformed, expected `query` but was foo',
    );
    expect(
      parseQuery({ script: { script: { source: 'doc.a.value > 1', params: { x: 1 } } } }),
    ).toEqual({
      type: 'script',
      script: {
        source: 'doc.a.value > 1',
        id: null,
        lang: 'painless',
        params: { x: 1 },
        options: {},
      },
      boost: 1,
      queryName: null,
    });
    expect(fail({ script: { script: [] } }).reason).toContain(
      'does not support an array of scripts',
    );
    expect(fail({ script: { script: { source: 'a', id: 'b' } } }).reason).toBe(
      '[script] failed to parse field [id]',
    );
  });

  it('parses function_score with single functions and arrays', () => {
    const q = parseQuery({
      function_score: {
        query: { match_all: {} },
        functions: [
          { filter: { term: { a: 1 } }, weight: 2 },
          { field_value_factor: { field: 'likes', factor: 1.2, modifier: 'sqrt', missing: 1 } },
          { gauss: { date: { origin: 'now', scale: '10d' }, multi_value_mode: 'avg' }, weight: 3 },
        ],
        score_mode: 'sum',
        boost_mode: 'replace',
        max_boost: 10,
        min_score: 0.5,
      },
    });
    expect(q).toMatchObject({
      type: 'function_score',
      scoreMode: 'sum',
      boostMode: 'replace',
      maxBoost: 10,
      minScore: 0.5,
      functions: [
        { filter: { type: 'term' }, function: { fn: 'weight', weight: 2 } },
        {
          filter: null,
          function: {
            fn: 'field_value_factor',
            field: 'likes',
            factor: Math.fround(1.2),
            modifier: 'sqrt',
            missing: 1,
          },
        },
        {
          filter: null,
          function: {
            fn: 'gauss',
            field: 'date',
            params: { origin: 'now', scale: '10d' },
            multiValueMode: 'avg',
            weight: 3,
          },
        },
      ],
    });
    expect(
      parseQuery({ function_score: { random_score: { seed: 10, field: '_seq_no' } } }),
    ).toMatchObject({
      functions: [{ filter: null, function: { fn: 'random_score', seed: 10, field: '_seq_no' } }],
    });
    expect(parseQuery({ function_score: { weight: 2 } })).toMatchObject({
      query: { type: 'match_all' },
      functions: [{ filter: null, function: { fn: 'weight', weight: 2 } }],
      scoreMode: 'multiply',
      boostMode: null,
    });
  });

  it('reports function_score errors', () => {
    expect(
      fail({ function_score: { random_score: {}, field_value_factor: { field: 'a' } } }).reason,
    ).toBe(
      'failed to parse [function_score] query. already found function [random_score], now encountering [field_value_factor]. use [functions] array if you want to define several functions.',
    );
    expect(fail({ function_score: { functions: [{ random_score: {} }], weight: 2 } }).reason).toBe(
      'failed to parse [function_score] query. [you can either define [functions] array or a single function, not both. already found [functions] array, now encountering [weight].]',
    );
    expect(fail({ function_score: { functions: [{ filter: { match_all: {} } }] } }).reason).toBe(
      'failed to parse [function_score] query. an entry in functions list is missing a function.',
    );
    const named = failText('{"function_score": {"foo": {}}}');
    expect(named.type).toBe('named_object_not_found_exception');
    expect(named.reason).toBe(
      '[1:28] unable to parse ScoreFunctionBuilder with name [foo]: parser not found',
    );
    expect(fail({ function_score: { score_mode: 'foo' } }).reason).toBe(
      'No enum constant org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode.FOO',
    );
    expect(fail({ function_score: { functions: ['a'] } }).reason).toBe(
      'failed to parse [START_OBJECT]. malformed query, expected a [VALUE_STRING] while parsing functions but got a [function_score] instead',
    );
    expect(fail({ function_score: { field_value_factor: { factor: 2 } } }).reason).toBe(
      "[field_value_factor] required field 'field' missing",
    );
    expect(fail({ function_score: { random_score: { seed: 1.5 } } }).reason).toBe(
      "random_score seed must be an int, long or string, not 'VALUE_NUMBER'",
    );
    expect(fail({ function_score: { gauss: { multi_value_mode: 'avg' } } }).reason).toBe(
      'malformed score function score parameters.',
    );
  });
});
