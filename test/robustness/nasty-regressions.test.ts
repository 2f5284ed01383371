/**
 * Regression tests for the bugs the corpus of nasty inputs (nasty-corpus.test.ts) found: each
 * request once answered differently from Elasticsearch 6.8 (a JavaScript error, a 5xx, another
 * status or error type), or accepted what ES rejects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { fuzzNode, send, snapshot } from './fuzz-support.js';

let node: TestNode;
beforeAll(async () => {
  node = await fuzzNode(5);
}, 60_000);
afterAll(() => node.destroy());

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => Buffer.from(p as string))); // prettier-ignore

describe('request bodies as JSON (Jackson 2.8)', () => {
  // Bodies were decoded with U+FFFD for bad bytes: the document was stored, the search ran.
  it('bytes that are not UTF-8 inside a string are json_parse_exception, and nothing is stored', async () => {
    const before = await snapshot(node);
    const a = await send(node, 'PUT', '/fz/_doc/u1', bytes('{"title":"a', [0xff], 'b"}'));
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('mapper_parsing_exception');
    expect(a.json.error.caused_by.type).toBe('json_parse_exception');
    expect(a.json.error.caused_by.reason).toMatch(/^Invalid UTF-8 start byte 0xff\n at \[Source: .*; line: 1, column: 13\]$/); // prettier-ignore
    expect(await snapshot(node)).toBe(before);
    const s = await send(node, 'POST', '/fz/_search', bytes('{"query":{"match":{"title":"', [0xe2, 0x82], '"}}}')); // prettier-ignore
    expect(s.status).toBe(400);
    expect(s.json.error.root_cause[0].reason).toMatch(/^Invalid UTF-8 middle byte 0x22\n/);
  });

  it('a key repeated within an object is `Duplicate field`, in documents, bulk items, searches and SQL', async () => {
    const before = await snapshot(node);
    const d = await send(node, 'PUT', '/fz/_doc/d1', '{"title":"a","n":1,"title":"b"}');
    expect(d.status).toBe(400);
    expect(d.json.error.caused_by).toMatchObject({ type: 'json_parse_exception' });
    expect(d.json.error.caused_by.reason).toMatch(/^Duplicate field 'title'\n at .*column: 27\]$/);
    const b = await send(node, 'POST', '/fz/_doc/_bulk', '{"index":{"_id":"d2"}}\n{"n":1,"kids":[{"age":1,"age":2}]}\n', 'application/x-ndjson'); // prettier-ignore
    expect(b.status).toBe(200);
    expect(b.json.items[0].index.error.caused_by.reason).toMatch(/^Duplicate field 'age'/);
    expect(await snapshot(node)).toBe(before);
    const s = await send(node, 'POST', '/fz/_search', '{"size":1,"size":2}');
    expect(s.status).toBe(400);
    expect(s.json.error.type).toBe('json_parse_exception');
    const q = await send(node, 'POST', '/_sql', '{"query":"SELECT 1","query":"SELECT 2"}');
    expect(q.status).toBe(400);
    expect(q.json.error.reason).toMatch(/^Duplicate field 'query'/);
  });

  it('a byte order mark before the body is skipped, and _source is stored without it', async () => {
    const a = await send(node, 'PUT', '/fz/_doc/bom?refresh=true', bytes([0xef, 0xbb, 0xbf], '{"tag":"bom"}')); // prettier-ignore
    expect(a.status).toBe(201);
    const g = await send(node, 'GET', '/fz/_doc/bom');
    expect(g.json._source).toEqual({ tag: 'bom' });
    const s = await send(node, 'POST', '/fz/_search', bytes([0xef, 0xbb, 0xbf], '{"query":{"term":{"tag":"bom"}}}')); // prettier-ignore
    expect(s.json.hits.total).toBe(1);
    await send(node, 'DELETE', '/fz/_doc/bom?refresh=true');
  });

  // A second BOM was skipped too (once by the route, once by the parser) and the document stored
  // starting with U+FEFF: a scripted update of it then failed with a 500 (fuzz:long seed 2002).
  it('only one byte order mark is skipped: a second is an unexpected character, nothing stored', async () => {
    const before = await snapshot(node);
    const twice = bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '{"tag":"bom2"}');
    const a = await send(node, 'PUT', '/fz/_doc/bom2', twice);
    expect(a.status).toBe(400);
    expect(a.json.error.caused_by.type).toBe('json_parse_exception');
    const b = await send(node, 'POST', '/_bulk', Buffer.concat([Buffer.from('{"index":{"_index":"fz","_type":"_doc","_id":"bom2"}}\n'), twice, Buffer.from('\n')]), 'application/x-ndjson'); // prettier-ignore
    expect(b.json.items[0].index.status).toBe(400);
    expect(await snapshot(node)).toBe(before);
    const once = bytes([0xef, 0xbb, 0xbf], '{"n":1}\n');
    const c = await send(node, 'POST', '/_bulk?refresh=true', Buffer.concat([Buffer.from('{"index":{"_index":"fz","_type":"_doc","_id":"bom1"}}\n'), once]), 'application/x-ndjson'); // prettier-ignore
    expect(c.json.errors).toBe(false);
    const u = await send(node, 'POST', '/fz/_doc/bom1/_update', '{"script":"ctx._source.n += 1"}');
    expect(u.status).toBe(200);
    expect((await send(node, 'GET', '/fz/_doc/bom1')).json._source).toEqual({ n: 2 });
    await send(node, 'DELETE', '/fz/_doc/bom1?refresh=true');
  });

  // Comments were json_parse_exception; ES's parser allows them (JsonXContent ALLOW_COMMENTS).
  it('comments are read as white space in documents, bulk lines, searches and SQL', async () => {
    const doc = '{"tag": "cmt", /* block */ "n": 7 // to the end of the line\n}';
    const a = await send(node, 'PUT', '/fz/_doc/cmt?refresh=true', doc);
    expect(a.status).toBe(201);
    // stored with the comments blanked out, so every reader of the source gets plain JSON
    const g = await send(node, 'GET', '/fz/_doc/cmt');
    expect(g.json._source).toEqual({ tag: 'cmt', n: 7 });
    const b = await send(node, 'POST', '/_bulk?refresh=true', '{"index":{"_index":"fz","_type":"_doc","_id":"cmt2"}} // action\n{"tag":"cmt" /* doc */}\n', 'application/x-ndjson'); // prettier-ignore
    expect(b.json.errors).toBe(false);
    const s = await send(node, 'POST', '/fz/_search', '{"query":{"term":{"tag":"cmt"}} /* x */, "sort":["_id"]}'); // prettier-ignore
    expect(s.status).toBe(200);
    expect(s.json.hits.hits.map((h: { _source: unknown }) => h._source)).toEqual([{ tag: 'cmt', n: 7 }, { tag: 'cmt' }]); // prettier-ignore
    const q = await send(node, 'POST', '/_sql', '{"query": /* the statement */ "SELECT 1 AS one"}');
    expect(q.json.rows).toEqual([[1]]);
    const bad = await send(node, 'POST', '/fz/_search', '{"size":1 /x}');
    expect(bad.json.error.reason).toMatch(/^Unexpected character \('x' \(code 120\)\): was expecting either '\*' or '\/' for a comment\n/); // prettier-ignore
    await send(node, 'DELETE', '/fz/_doc/cmt?refresh=true');
    await send(node, 'DELETE', '/fz/_doc/cmt2?refresh=true');
  });

  // V8's `Unexpected token` messages carry no position, which read as the end of the input.
  it('an unexpected character mid-body is json_parse_exception, not json_e_o_f_exception', async () => {
    const a = await send(node, 'POST', '/fz/_search', '{"query":{"match_all":{}}, "size": x}');
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('json_parse_exception');
    expect(a.json.error.reason).toMatch(/^Unrecognized token 'x': was expecting \('true', 'false' or 'null'\)\n at .*column: 38\]$/); // prettier-ignore
  });
});

// Any Content-Type was read as JSON, and a malformed one was Fastify's 415 `exception`.
describe('Content-Type (ES RestRequest.parseContentType, RestController.dispatchRequest)', () => {
  it('a body of a type ES has no parser for is a 406, and changes nothing', async () => {
    const before = await snapshot(node);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const a = await send(node, 'PUT', '/fz/_doc/ct', '{"n":1}', type);
      expect(a.status).toBe(406);
      expect(a.json).toEqual({ error: `Content-Type header [${type}] is not supported`, status: 406 }); // prettier-ignore
    }
    const none = await send(node, 'POST', '/fz/_search', '{"size":0}', null);
    expect(none.json).toEqual({ error: 'Content-Type header is missing', status: 406 });
    expect(await snapshot(node)).toBe(before);
    // without a body the type does not matter
    expect((await send(node, 'GET', '/fz/_count')).status).toBe(200);
  });

  it('NDJSON only for _bulk and _msearch, which refuse YAML; parameters such as charset are ignored', async () => {
    const nd = 'application/x-ndjson';
    expect((await send(node, 'POST', '/fz/_msearch', '{}\n{"size":0}\n', nd)).status).toBe(200);
    const s = await send(node, 'POST', '/fz/_search', '{"size":0}', nd);
    expect(s.json).toEqual({ error: `Content-Type header [${nd}] is not supported`, status: 406 });
    const y = await send(node, 'POST', '/fz/_doc/_bulk', '{"delete":{"_id":"x"}}\n', 'application/yaml'); // prettier-ignore
    expect(y.status).toBe(406);
    expect(y.json.error).toBe('Content-Type [YAML] does not support stream parsing. Use JSON or SMILE instead'); // prettier-ignore
    const latin = await send(
      node,
      'POST',
      '/fz/_count',
      '{}',
      'application/json; charset=ISO-8859-1',
    );
    expect(latin.json.count).toBe(5);
  });

  it('a header that is not type/subtype is a 400 content_type_header_exception, even without a body', async () => {
    for (const [method, path, body] of [
      ['PUT', '/fz/_doc/ct', '{}'],
      ['GET', '/', undefined],
    ] as const) {
      const r = await fetch(node.url + path, { method, headers: { 'content-type': 'nonsense' }, ...(body ? { body } : {}) }); // prettier-ignore
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({
        error: {
          root_cause: [{ type: 'content_type_header_exception', reason: 'java.lang.IllegalArgumentException: invalid Content-Type header [nonsense]' }], // prettier-ignore
          type: 'content_type_header_exception',
          reason: 'java.lang.IllegalArgumentException: invalid Content-Type header [nonsense]',
          caused_by: { type: 'illegal_argument_exception', reason: 'invalid Content-Type header [nonsense]' }, // prettier-ignore
        },
        status: 400,
      });
    }
  });
});

describe('empty bodies (ES RestRequest.requiredContent / contentOrSourceParam)', () => {
  // _msearch answered 200 with no responses, _sql a 500, the others validation errors.
  it('APIs that need a body say so with parse_exception, before anything else', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/fz/_msearch', 'request body or source parameter is required'],
      ['POST', '/_sql', 'request body or source parameter is required'],
      ['POST', '/_sql/translate', 'request body or source parameter is required'],
      ['POST', '/_analyze', 'request body or source parameter is required'],
      ['POST', '/_aliases', 'request body is required'],
      ['PUT', '/fz/_mapping/_doc', 'request body is required'],
      ['PUT', '/fz/_settings', 'request body is required'],
    ];
    for (const [method, path, reason] of cases) {
      for (const body of [undefined, '']) {
        const a = await send(node, method, path, body);
        expect([path, a.status, a.json.error.root_cause]).toEqual([path, 400, [{ type: 'parse_exception', reason }]]); // prettier-ignore
      }
    }
  });

  it('a body of white space is no SQL request object (ES ObjectParser)', async () => {
    const a = await send(node, 'POST', '/_sql', ' \n ');
    expect(a.status).toBe(400);
    expect(a.json.error.reason).toBe('[sql/query] Expected START_OBJECT but was: null');
    const b = await send(node, 'POST', '/_sql', '[1]');
    expect(b.json.error.reason).toBe('[sql/query] Expected START_OBJECT but was: START_ARRAY');
  });
});

// Each overflowed the stack in a recursive function (a 500 `Maximum call stack size exceeded`).
describe('nesting thousands of levels deep', () => {
  const nest = (d: number, open: string, inner: string, close: string) =>
    open.repeat(d) + inner + close.repeat(d);

  it('queries nest up to 1000 levels; deeper is refused as later ES versions refuse it', async () => {
    const bool = (d: number) =>
      `{"query":${nest(d, '{"bool":{"must":', '{"match_all":{}}', '}}')}}`;
    expect((await send(node, 'POST', '/fz/_search', bool(999))).status).toBe(200); // 1000 queries
    expect((await send(node, 'POST', '/fz/_search', bool(1000))).status).toBe(400);
    const a = await send(node, 'POST', '/fz/_search', bool(5000));
    expect(a.status).toBe(400);
    expect(a.json.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: 'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]', // prettier-ignore
    });
    // a deep value inside a query is an ordinary parse error (the query parser read it whole)
    const v = await send(node, 'POST', '/fz/_search', `{"query":{"term":{"n":${nest(5000, '[', '', ']')}}}}`); // prettier-ignore
    expect(v.status).toBe(400);
    expect(v.json.error.reason).toBe('[term] query does not support array of values');
  });

  it('aggregations nest up to 100 levels (through the request cache); deeper is refused', async () => {
    const aggs = (d: number) => `{"size":0,"aggs":${nest(d, '{"a":{"terms":{"field":"tag"},"aggs":', '{}', '}}')}}`; // prettier-ignore
    // 99 aggregations and the innermost (empty) `aggs` object: 100 levels
    expect((await send(node, 'POST', '/fz/_search?request_cache=true', aggs(99))).status).toBe(200);
    const a = await send(node, 'POST', '/fz/_search', aggs(501));
    expect(a.status).toBe(400);
    expect(a.json.error.reason).toBe('The nested depth of the aggregations exceeds the maximum nested depth for aggregations of [100] set in [search.aggs.max_nested_depth]'); // prettier-ignore
  });

  it('settings, mappings and _analyze answer as ES reads them (Settings.fromXContent, Map.toString)', async () => {
    const before = await snapshot(node);
    const s = await send(node, 'PUT', '/fz/_settings', `{"index":{"max_result_window":${nest(5000, '{"a":', '1', '}')}}}`); // prettier-ignore
    expect(s.status).toBe(400);
    expect(s.json.error.reason).toMatch(/^unknown setting \[index\.max_result_window\.a\.a\.a/);
    // a list may hold values only: ES answers a 500 SettingsException
    for (const list of ['[[1]]', nest(5000, '[', '', ']')]) {
      const l = await send(node, 'PUT', '/fz/_settings', `{"index":{"max_result_window":${list}}}`);
      expect(l.status).toBe(500);
      expect(l.json.error.type).toBe('settings_exception');
      expect(l.json.error.caused_by).toEqual({ type: 'illegal_state_exception', reason: 'only value lists are allowed in serialized settings' }); // prettier-ignore
    }
    const m = await send(node, 'PUT', '/fz/_mapping/_doc', `{"properties":{"k":{"type":"keyword","ignore_above":${nest(5000, '{"a":', '1', '}')}}}}`); // prettier-ignore
    expect(m.status).toBe(400);
    expect(m.json.error.reason).toMatch(/^For input string: "\{a=\{a=\{a=/);
    const z = await send(node, 'POST', '/_analyze', `{"tokenizer":{"type":"standard","max_token_length":${nest(5000, '[', '', ']')}},"text":"a"}`); // prettier-ignore
    expect(z.status).toBe(500);
    expect(z.json.error.type).toBe('settings_exception');
    expect(await snapshot(node)).toBe(before);
  });

  it('a _source nesting arrays 1000 deep is stored and served in every format; deeper is refused', async () => {
    const ok = await send(node, 'PUT', '/fz/_doc/deep?refresh=true', `{"n":${nest(999, '[', '7', ']')}}`); // prettier-ignore
    expect(ok.status).toBe(201);
    for (const q of ['?pretty', '?format=yaml', '?_source_includes=n', '?filter_path=_source'])
      expect((await send(node, 'GET', `/fz/_doc/deep${q}`)).status).toBe(200);
    await send(node, 'DELETE', '/fz/_doc/deep?refresh=true');
    const before = await snapshot(node);
    for (const [m, p, b] of [
      ['PUT', '/fz/_doc/deep', `{"n":${nest(1000, '[', '7', ']')}}`],
      ['POST', '/fz/_doc/1/_update', `{"doc":{"n":${nest(5000, '[', '', ']')}}}`],
    ]) {
      const a = await send(node, m!, p!, b);
      expect(a.status).toBe(400);
      expect(a.json.error.caused_by.reason).toBe('Document nesting depth (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)'); // prettier-ignore
    }
    expect(await snapshot(node)).toBe(before);
  });
});

// Alias filters were stored unchecked (a deep one overflowed the store's encoder); a failed
// action left the earlier actions of the request applied in memory.
describe('alias filters (ES AliasValidator.validateAliasFilter)', () => {
  it('a filter that does not build as a query on the index is refused, and nothing changes', async () => {
    const before = await send(node, 'GET', '/_alias');
    for (const filter of [
      { bogus: {} },
      { range: { n: { gte: { a: 1 } } } },
      { term: { n: 'x' } },
    ]) {
      const a = await send(node, 'POST', '/_aliases', JSON.stringify({ actions: [{ add: { index: 'fz', alias: 'ok1' } }, { add: { index: 'fz', alias: 'bad', filter } }] })); // prettier-ignore
      expect(a.status).toBe(400);
      expect(a.json.error.type).toBe('illegal_argument_exception');
      expect(a.json.error.reason).toBe('failed to parse filter for alias [bad]');
      const b = await send(node, 'PUT', '/fz/_alias/bad', JSON.stringify({ filter }));
      expect(b.json.error.reason).toBe('failed to parse filter for alias [bad]');
      const mappings = { _doc: { properties: { n: { type: 'long' } } } };
      const c = await send(node, 'PUT', '/fzx', JSON.stringify({ mappings, aliases: { bad: { filter } } })); // prettier-ignore
      expect(c.json.error.reason).toBe('failed to parse filter for alias [bad]');
      expect((await send(node, 'HEAD', '/fzx')).status).toBe(404);
    }
    expect((await send(node, 'GET', '/_alias')).json).toEqual(before.json);
    const good = await send(node, 'POST', '/_aliases', JSON.stringify({ actions: [{ add: { index: 'fz', alias: 'good', filter: { term: { n: 1 } } } }] })); // prettier-ignore
    expect(good.status).toBe(200);
    expect((await send(node, 'GET', '/_alias/good')).json).toEqual({ fz: { aliases: { good: { filter: { term: { n: 1 } } } } } }); // prettier-ignore
    await send(node, 'DELETE', '/fz/_alias/good');
  });
});

describe('numbers that do not fit', () => {
  // size 2147483648 used to reach the result-window check (a 500); "NaN" was refused.
  it('from, size and terminate_after are read as ES reads them (parser.intValue())', async () => {
    const cases: [string, number, string][] = [
      ['{"size":2147483648}', 400, 'Numeric value (2147483648) out of range of int'],
      ['{"from":-2147483649}', 400, 'Numeric value (-2147483649) out of range of int'],
      ['{"size":1e400}', 400, 'Numeric value (Infinity) out of range of int (-2147483648 - 2147483647)'], // prettier-ignore
      ['{"size":"Infinity"}', 400, 'Value [Infinity] is out of range for an integer'],
      ['{"terminate_after":"1e400"}', 400, 'Value [1e400] is out of range for an integer'],
      ['{"size":"abc"}', 400, 'For input string: "abc"'],
    ];
    for (const [body, status, reason] of cases) {
      const a = await send(node, 'POST', '/fz/_search', body);
      expect([body, a.status, a.json.error.root_cause[0].reason]).toEqual([body, status, reason]);
    }
    // Double.parseDouble("NaN") is NaN, and (int) NaN is 0
    const nan = await send(node, 'POST', '/fz/_search', '{"size":"NaN"}');
    expect(nan.status).toBe(200);
    expect(nan.json.hits.hits).toEqual([]);
  });

  it('a long term beyond 2^63 is out of range (ES saw a BigInteger), not a search for nothing', async () => {
    const a = await send(node, 'POST', '/fz/_search', '{"query":{"term":{"n":123456789012345678901234567890}}}'); // prettier-ignore
    expect(a.status).toBe(400);
    expect(a.json.error.failed_shards[0].reason.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Value [1.2345678901234568E29] is out of range for a long',
    });
  });

  // JSON.stringify wrote the merged Infinity as null: the update succeeded and stored n: null.
  it('an update or upsert with 1e400 writes it back as ES does ("Infinity"), which a long refuses', async () => {
    const before = await snapshot(node);
    const a = await send(node, 'POST', '/fz/_doc/1/_update', '{"doc":{"n":1e400}}');
    expect(a.status).toBe(400);
    expect(a.json.error.reason).toBe("failed to parse field [n] of type [long] in document with id '1'"); // prettier-ignore
    const u = await send(node, 'POST', '/fz/_doc/up/_update', '{"doc":{"n":1},"upsert":{"price":-1e400}}'); // prettier-ignore
    expect(u.status).toBe(400);
    expect(await snapshot(node)).toBe(before);
  });
});

// The engine never passed the id to the document parser (ES: context.sourceToParse().id()).
it("a field that fails to parse names the document's id", async () => {
  const a = await send(node, 'PUT', '/fz/_doc/named', '{"n":"x"}');
  expect(a.json.error.reason).toBe("failed to parse field [n] of type [long] in document with id 'named'"); // prettier-ignore
});

describe('10 MB strings and long lines', () => {
  // Stored: Lucene refuses a term over 32766 bytes of UTF-8 (DefaultIndexingChain).
  it('a keyword value over 32766 bytes fails the document as Lucene does, and nothing is stored', async () => {
    const before = await snapshot(node);
    const big = 'é'.repeat(16384); // 32768 bytes
    const a = await send(node, 'PUT', '/fz/_doc/big', JSON.stringify({ tag: big }));
    expect(a.status).toBe(400);
    expect(a.json.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(a.json.error.reason).toBe(
      `Document contains at least one immense term in field="tag" (whose UTF8 encoding is longer than the max length 32766), all of which were skipped.  Please correct the analyzer to not produce such terms.  The prefix of the first immense term is: '[${Array(15).fill('-61, -87').join(', ')}]...', original message: bytes can be at most 32766 in length; got 32768`,
    );
    expect(a.json.error.caused_by).toEqual({ type: 'max_bytes_length_exceeded_exception', reason: 'bytes can be at most 32766 in length; got 32768' }); // prettier-ignore
    // title is text, but its keyword sub-field takes the whole value
    const t = await send(
      node,
      'PUT',
      '/fz/_doc/big',
      JSON.stringify({ title: 'fox '.repeat(9000) }),
    );
    expect(t.json.error.reason).toMatch(/^Document contains at least one immense term in field="title\.raw"/); // prettier-ignore
    const b = await send(node, 'POST', '/fz/_doc/_bulk', `{"index":{"_id":"big"}}\n${JSON.stringify({ kids: [{ name: big }] })}\n`, 'application/x-ndjson'); // prettier-ignore
    expect(b.json.items[0].index.status).toBe(400);
    expect(b.json.items[0].index.error.reason).toMatch(/immense term in field="kids\.name"/);
    expect(await snapshot(node)).toBe(before);
    expect((await send(node, 'PUT', '/fz/_doc/big?refresh=true', JSON.stringify({ tag: 'é'.repeat(16383) }))).status).toBe(201); // prettier-ignore
    await send(node, 'DELETE', '/fz/_doc/big?refresh=true');
  });

  // The SQL lexer's string and quoted-identifier RegExps overflowed V8's regexp stack.
  it('a 10 MB SQL string literal is a value like any other', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const a = await send(node, 'POST', '/_sql', JSON.stringify({ query: `SELECT tag FROM fz WHERE tag = '${big}'` })); // prettier-ignore
    expect(a.status).toBe(200);
    expect(a.json.rows).toEqual([]);
    const b = await send(node, 'POST', '/_sql', JSON.stringify({ query: `SELECT 'it''s' AS "a""b" FROM fz LIMIT 1` })); // prettier-ignore
    expect(b.json).toMatchObject({ columns: [{ name: 'a"b' }], rows: [["it's"]] });
  });

  // Node answered 431 with Fastify's body, or served lines ES's decoder refuses (4kb, 8kb).
  it('a request line over 4096 bytes or headers over 8192 are too_long_frame_exception', async () => {
    for (const n of [5000, 100_000]) {
      const a = await send(node, 'GET', `/fz/_doc/${'x'.repeat(n)}`);
      expect(a.status).toBe(400);
      expect(a.json).toEqual({
        error: {
          root_cause: [{ type: 'too_long_frame_exception', reason: 'An HTTP line is larger than 4096 bytes.' }], // prettier-ignore
          type: 'too_long_frame_exception',
          reason: 'An HTTP line is larger than 4096 bytes.',
        },
        status: 400,
      });
    }
    const h = await fetch(node.url + '/fz/_count', { headers: { 'x-big': 'y'.repeat(9000) } });
    expect(h.status).toBe(400);
    expect(((await h.json()) as any).error.reason).toBe('HTTP header is larger than 8192 bytes.');
    expect((await send(node, 'GET', `/fz/_doc/${'x'.repeat(3000)}`)).status).toBe(404);
  });

  // Names were trimmed: `fz ` and "fz\n" named fz.
  it('index names are not trimmed (ES Strings.splitStringByCommaToArray)', async () => {
    const a = await send(node, 'GET', '/fz%20/_search');
    expect(a.status).toBe(404);
    expect(a.json.error.index).toBe('fz ');
    const b = await send(
      node,
      'POST',
      '/_sql',
      JSON.stringify({ query: 'SELECT title FROM "fz\n"' }),
    );
    expect(b.json.error.reason).toBe('Found 1 problem\nline 1:19: Unknown index [fz\n]');
  });
});
