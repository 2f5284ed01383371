/**
 * Span query parsing: node shapes with ES 6.8's defaults, and the errors of the Span*QueryBuilder
 * `fromXContent` methods with their types, reasons and JSON locations; and their toXContent.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { parseQuery, renderQuery } from '../../../../src/dsl/query/index.js';
import { resolveErrorLocations } from '../../../../src/dsl/query/errors.js';
import { locateInJson } from '../../../../src/dsl/query/json-location.js';

/** Parses JSON text; the error as ES renders it (line/col resolved in the text). */
function fail(text: string): EsError {
  try {
    parseQuery(JSON.parse(text));
  } catch (e) {
    if (e instanceof EsError) return resolveErrorLocations(e, (loc) => locateInJson(text, loc));
    throw e;
  }
  throw new Error('expected a parse error');
}

/** `[type, reason, col]` of a one-line query's error (col of the token ES points at). */
function err(text: string): [string, string | null, unknown] {
  const e = fail(text);
  return [e.type, e.reason, e.meta.col];
}

/** 1-based column of the `n`-th occurrence of `s` in `text` (+ `shift`). */
const col = (text: string, s: string, shift = 0, n = 1): number => {
  let i = -1;
  for (let k = 0; k < n; k++) i = text.indexOf(s, i + 1);
  return i + 1 + shift;
};

const term = { span_term: { body: 'a' } };

describe('span_term', () => {
  it('short and long forms', () => {
    expect(parseQuery({ span_term: { body: 'a' } })).toEqual({
      type: 'span_term',
      field: 'body',
      value: 'a',
      boost: 1,
      queryName: null,
    });
    expect(parseQuery({ span_term: { body: { value: 5, boost: 2, _name: 'n' } } })).toMatchObject({
      field: 'body',
      value: 5,
      boost: 2,
      queryName: 'n',
    });
    expect(parseQuery({ span_term: { body: { term: true } } })).toMatchObject({ value: true });
  });

  it('errors', () => {
    let t = '{"span_term": {"body": {"foo": 1}}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      '[span_term] query does not support [foo]',
      col(t, '1'),
    ]);
    t = '{"span_term": {"a": "x", "b": "y"}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      "[span_term] query doesn't support multiple fields, found [a] and [b]",
      col(t, '"y"'),
    ]);
    expect(err('{"span_term": {}}').slice(0, 2)).toEqual([
      'illegal_argument_exception',
      'field name is null or empty',
    ]);
    expect(err('{"span_term": {"a": null}}').slice(0, 2)).toEqual([
      'illegal_argument_exception',
      'value cannot be null',
    ]);
  });
});

describe('span_near and span_gap', () => {
  it('defaults: slop 0, in order', () => {
    expect(parseQuery({ span_near: { clauses: [term, term] } })).toMatchObject({
      type: 'span_near',
      slop: 0,
      inOrder: true,
      boost: 1,
      queryName: null,
    });
    const q = parseQuery({
      span_near: {
        clauses: [term, { span_gap: { body: 2 } }, term],
        slop: 3,
        in_order: false,
        boost: 2,
        _name: 'n',
      },
    });
    expect(q).toMatchObject({ slop: 3, inOrder: false, boost: 2, queryName: 'n' });
    expect((q as unknown as { clauses: unknown[] }).clauses[1]).toEqual({
      type: 'span_gap',
      field: 'body',
      width: 2,
      boost: 1,
      queryName: null,
    });
  });

  it('errors', () => {
    let t = '{"span_near": {"slop": 1}}';
    expect(err(t)).toEqual(['parsing_exception', 'span_near must include [clauses]', col(t, '}')]);
    t = '{"span_near": {"clauses": [{"term": {"f": "v"}}]}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      'span_near [clauses] must be of type span query',
      col(t, '}]'),
    ]);
    t = '{"span_near": {"clauses": [], "foo": 1}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      '[span_near] query does not support [foo]',
      col(t, '1'),
    ]);
    t = '{"span_near": {"slop": {}}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      '[span_near] query does not support [slop]',
      col(t, '{', 0, 3),
    ]);
    t = '{"span_near": {"clauses": ["x"]}}';
    expect(err(t)[0]).toBe('parsing_exception');
    expect(err(t)[1]).toBe('[_na] query malformed, must start with start_object');
  });

  it('span_gap: one field, a width', () => {
    let t = '{"span_gap": {"a": 1, "b": 2}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      "[span_gap] query doesn't support multiple fields, found [a] and [b]",
      col(t, '"b"'),
    ]);
    t = '{"span_gap": {}}';
    expect(err(t).slice(0, 2)).toEqual([
      'illegal_argument_exception',
      '[span_gap] field name is null or empty',
    ]);
  });
});

describe('span_or', () => {
  it('errors', () => {
    let t = '{"span_or": {"boost": 2}}';
    expect(err(t)).toEqual(['parsing_exception', 'span_or must include [clauses]', col(t, '}')]);
    t = '{"span_or": {"clauses": [{"match_all": {}}]}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      'span_or [clauses] must be of type span query',
      col(t, '}]'),
    ]);
    t = '{"span_or": {"other": []}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      '[span_or] query does not support [other]',
      col(t, '['),
    ]);
  });
});

describe('span_not', () => {
  it('dist sets pre and post; negative values are 0', () => {
    const base = { include: term, exclude: term };
    expect(parseQuery({ span_not: base })).toMatchObject({ pre: 0, post: 0 });
    expect(parseQuery({ span_not: { ...base, dist: 3 } })).toMatchObject({ pre: 3, post: 3 });
    expect(parseQuery({ span_not: { ...base, pre: 2, post: -4 } })).toMatchObject({
      pre: 2,
      post: 0,
    });
  });

  it('errors', () => {
    let t = `{"span_not": {"exclude": ${JSON.stringify(term)}}}`;
    expect(err(t)).toEqual([
      'parsing_exception',
      'span_not must have [include] span query clause',
      t.length - 1,
    ]);
    t = `{"span_not": {"include": ${JSON.stringify(term)}}}`;
    expect(err(t)[1]).toBe('span_not must have [exclude] span query clause');
    t = `{"span_not": {"include": ${JSON.stringify(term)}, "exclude": ${JSON.stringify(term)}, "dist": 1, "post": 2}}`;
    expect(err(t)[1]).toBe('span_not can either use [dist] or [pre] & [post] (or none)');
    t = '{"span_not": {"include": {"term": {"f": "v"}}}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      'span_not [include] must be of type span query',
      col(t, '}}', 1),
    ]);
    t = '{"span_not": {"foo": "bar"}}';
    expect(err(t)[1]).toBe('[span_not] query does not support [foo]');
  });
});

describe('span_first', () => {
  it('errors', () => {
    let t = '{"span_first": {"end": 3}}';
    expect(err(t)[1]).toBe('span_first must have [match] span query clause');
    t = `{"span_first": {"match": ${JSON.stringify(term)}}}`;
    expect(err(t)[1]).toBe('span_first must have [end] set for it');
    t = `{"span_first": {"match": ${JSON.stringify(term)}, "end": -1}}`;
    expect(err(t).slice(0, 2)).toEqual([
      'illegal_argument_exception',
      'parameter [end] needs to be positive.',
    ]);
    t = '{"span_first": {"match": {"prefix": {"f": "v"}}, "end": 1}}';
    expect(err(t)[1]).toBe('span_first [match] must be of type span query');
  });
});

describe('span_containing / span_within', () => {
  it('errors: the constructor for containing, the parser for within', () => {
    let t = `{"span_containing": {"little": ${JSON.stringify(term)}}}`;
    expect(err(t).slice(0, 2)).toEqual([
      'illegal_argument_exception',
      'inner clause [big] cannot be null.',
    ]);
    t = `{"span_containing": {"big": ${JSON.stringify(term)}}}`;
    expect(err(t)[1]).toBe('inner clause [little] cannot be null.');
    t = `{"span_within": {"little": ${JSON.stringify(term)}}}`;
    expect(err(t)).toEqual(['parsing_exception', 'span_within must include [big]', t.length - 1]);
    t = `{"span_within": {"big": ${JSON.stringify(term)}}}`;
    expect(err(t)[1]).toBe('span_within must include [little]');
    t = '{"span_within": {"big": {"match_all": {}}}}';
    expect(err(t)[1]).toBe('span_within [big] must be of type span query');
    t = '{"span_containing": {"huge": 1}}';
    expect(err(t)[1]).toBe('[span_containing] query does not support [huge]');
  });
});

describe('field_masking_span', () => {
  it('parses and fails as ES', () => {
    expect(
      parseQuery({ field_masking_span: { query: term, field: 'other', _name: 'm' } }),
    ).toMatchObject({ type: 'field_masking_span', field: 'other', queryName: 'm' });
    let t = `{"field_masking_span": {"query": ${JSON.stringify(term)}}}`;
    expect(err(t)[1]).toBe('field_masking_span must have [field] set for it');
    t = '{"field_masking_span": {"field": "f"}}';
    expect(err(t)[1]).toBe('field_masking_span must have [query] span query clause');
    t = '{"field_masking_span": {"query": {"term": {"f": "v"}}, "field": "f"}}';
    expect(err(t)[1]).toBe('[field_masking_span] query must be of type span query');
    t = `{"field_masking_span": {"query": ${JSON.stringify(term)}, "field": ""}}`;
    expect(err(t).slice(0, 2)).toEqual([
      'illegal_argument_exception',
      'field name is null or empty',
    ]);
  });
});

describe('span_multi', () => {
  it('wraps prefix, wildcard, regexp, fuzzy and range', () => {
    for (const inner of [
      { prefix: { f: 'a' } },
      { wildcard: { f: 'a*' } },
      { regexp: { f: 'a.*' } },
      { fuzzy: { f: 'a' } },
      { range: { f: { gte: 'a' } } },
    ]) {
      const q = parseQuery({ span_multi: { match: inner, boost: 3 } });
      expect(q).toMatchObject({ type: 'span_multi', boost: 3 });
      expect((q as unknown as { match: { type: string } }).match.type).toBe(Object.keys(inner)[0]);
    }
  });

  it('errors', () => {
    let t = '{"span_multi": {"match": {"term": {"f": "v"}}}}';
    expect(err(t)).toEqual([
      'parsing_exception',
      '[span_multi] [match] must be of type multi term query',
      col(t, '}}', 1),
    ]);
    t = '{"span_multi": {"boost": 2}}';
    expect(err(t)[1]).toBe('[span_multi] must have [match] multi term query clause');
    t = '{"span_multi": {"foo": {}}}';
    expect(err(t)[1]).toBe('[span_multi] query does not support [foo]');
    t = '{"span_multi": {"foo": 1}}';
    expect(err(t)[1]).toBe('[span_multi] query does not support [foo]');
  });
});

describe('toXContent', () => {
  it('renders every parameter with its default', () => {
    const q = parseQuery({
      span_not: {
        include: {
          span_near: {
            clauses: [{ span_term: { f: 'a' } }, { span_gap: { f: 1 } }],
            _name: 'n',
          },
        },
        exclude: { span_multi: { match: { prefix: { f: 'b' } } } },
        dist: 2,
      },
    });
    expect(JSON.parse(renderQuery(q))).toEqual({
      span_not: {
        include: {
          span_near: {
            clauses: [{ span_term: { f: { value: 'a', boost: 1.0 } } }, { span_gap: { f: 1 } }],
            slop: 0,
            in_order: true,
            boost: 1.0,
            _name: 'n',
          },
        },
        exclude: {
          span_multi: { match: { prefix: { f: { prefix: 'b', boost: 1.0 } } }, boost: 1.0 },
        },
        pre: 2,
        post: 2,
        boost: 1.0,
      },
    });
    expect(
      renderQuery(
        parseQuery({ field_masking_span: { query: { span_term: { f: 'a' } }, field: 'g' } }),
      ),
    ).toBe(
      '{\n  "field_masking_span" : {\n    "query" : {\n      "span_term" : {\n        "f" : {\n          "value" : "a",\n          "boost" : 1.0\n        }\n      }\n    },\n    "field" : "g",\n    "boost" : 1.0\n  }\n}',
    );
  });
});
