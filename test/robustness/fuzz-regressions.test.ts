/**
 * Regression tests for the bugs the HTTP fuzzers found: each request once answered a 500 with a
 * JavaScript error, a non-ES body, or a reason with an unresolved location marker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { fuzzNode, malformed, send, snapshot } from './fuzz-support.js';

let node: TestNode;
beforeAll(async () => {
  node = await fuzzNode(5);
}, 60_000);
afterAll(() => node.destroy());

const search = (body: string) => send(node, 'POST', '/fz/_search', body);

describe('fuzzer regressions', () => {
  it('query parse errors carry ES line/col; inline locations are rendered as line:col', async () => {
    const a = await search('{"size":1,"query":{"bogus":{}}}');
    expect(a.status).toBe(400);
    expect(a.json.error).toMatchObject({
      type: 'parsing_exception',
      reason: 'no [query] registered for [bogus]',
      line: 1,
      col: 28,
    });
    const b = await search(
      '{"query":{"multi_match":{"query":"brown","fields":[{"query":"title"},"tag"]}}}',
    );
    // ES: MultiMatchQueryBuilder reads each field with parser.text() (IllegalStateException).
    expect(b.status).toBe(500);
    expect(b.json.error.type).toBe('illegal_state_exception');
    expect(b.json.error.reason).toBe("Can't get text on a START_OBJECT at 1:52");
  });

  // ES 6.8 parses every item (RestMultiSearchAction) before any runs: one that does not parse
  // fails the request. Items were parsed and run one by one, the error answered per item.
  it('an _msearch body that does not parse fails the whole request, located in its own line', async () => {
    const a = await send(
      node,
      'POST',
      '/fz/_msearch',
      '{}\n{"size":0}\n{}\n{"size":1,"query":{"bogus":{}}}\n',
      'application/x-ndjson',
    );
    expect(a.status).toBe(400);
    expect(a.json.error).toMatchObject({ type: 'parsing_exception', line: 1, col: 28 });
    const neg = await send(
      node,
      'POST',
      '/fz/_msearch',
      '{}\n{"from":-2}\n',
      'application/x-ndjson',
    );
    expect(neg.status).toBe(400);
    expect(neg.json.error.reason).toBe('[from] parameter cannot be negative');
    // what fails once it runs (a missing index) is still answered per item
    const ok = await send(node, 'POST', '/fz/_msearch', '{"index":"nope"}\n{}\n{}\n{"size":0}\n', 'application/x-ndjson'); // prettier-ignore
    expect(ok.json.responses.map((r: any) => r.status)).toEqual([404, 200]);
  });

  it('_msearch header keys ES does not know are deprecated and ignored; the body must end in a newline', async () => {
    const r = await fetch(node.url + '/fz/_msearch', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"indices":["fz"],"size":0,"searchType":"query_then_fetch"}\n{"size":1}\n',
    });
    const body = (await r.json()) as any;
    expect(body.responses[0].hits.hits).toHaveLength(1);
    expect(r.headers.get('warning')).toContain(
      'key [size] is not supported in the metadata section and will be rejected in 7.x',
    );
    const cut = await send(node, 'POST', '/fz/_msearch', '{}\n{"size":0}', 'application/x-ndjson');
    expect(cut.status).toBe(400);
    expect(cut.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'The msearch request must be terminated by a newline [\n]',
    });
    const lead = await send(
      node,
      'POST',
      '/fz/_msearch',
      '\n{}\n{"size":0}\n',
      'application/x-ndjson',
    );
    expect(lead.json.responses).toHaveLength(1);
  });

  it('an aggregation query error leaves no location marker in the reason', async () => {
    const a = await search('{"size":0,"aggs":{"f":{"filters":{"filters":{"a":{}}}}}}');
    expect(malformed(a)).toBeNull();
    expect(a.text).not.toContain('\\u0001');
  });

  it('_msearch header lines that are not objects read as empty headers (ES parser.map())', async () => {
    const a = await send(
      node,
      'POST',
      '/fz/_msearch',
      'null\n{"query":{"match_all":{}}}\n[1]\n{"size":0}\n',
      'application/x-ndjson',
    );
    expect(a.status).toBe(200);
    expect(a.json.responses.map((r: any) => r.status)).toEqual([200, 200]);
    expect(a.json.responses[0].hits.total).toBe(5);
  });

  it('an update whose doc is not an object is a noop (ES reads doc with parser.map())', async () => {
    for (const doc of ['null', '5', '[1]']) {
      const a = await send(node, 'POST', '/fz/_doc/1/_update', `{"doc":${doc}}`);
      expect(a.status, a.text).toBe(200);
      expect(a.json.result).toBe('noop');
    }
    const got = await send(node, 'GET', '/fz/_doc/1');
    expect(got.json._version).toBe(1);
  });

  it('percentiles outside [0, 100] are an illegal_argument_exception (t-digest quantile)', async () => {
    const a = await search(
      '{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":[-1]}}}}',
    );
    expect(a.status).toBe(400);
    expect(a.json.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: 'q should be in [0,1], got -0.01',
    });
  });

  it('warnings with characters outside a quoted-string are percent-encoded (DeprecationLogger)', async () => {
    // A docvalue field without a format is a deprecation warning that names the field.
    const r = await fetch(node.url + '/fz/_msearch', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{}\n{"docvalue_fields":["Ā%"]}\n',
    });
    expect(r.status).toBe(200);
    const w = r.headers.get('warning') ?? '';
    expect(w).toContain('%C4%80%25');
    expect(w).not.toContain('Ā');
  });

  it('a settings update the index cannot apply changes nothing', async () => {
    const before = await send(node, 'GET', '/fz/_settings');
    const a = await send(node, 'PUT', '/fz/_settings', '{"index":{"refresh_interval":"filters"}}');
    expect(a.status).toBe(400);
    expect(a.json.error.reason).toBe(
      'failed to parse setting [index.refresh_interval] with value [filters] as a time value: unit is missing or unrecognized',
    );
    expect((await send(node, 'GET', '/fz/_settings')).json).toEqual(before.json);
  });

  // The parser used to recurse into objects before the limits applied, overflowing the stack.
  // ES rejects such a mapping update at merge time, total fields before depth.
  it('a document nested 3000 objects deep is a 400 total-fields error, data unchanged', async () => {
    const before = await snapshot(node);
    const d = 3000;
    const a = await send(
      node,
      'PUT',
      '/fz/_doc/deep?version=3&version_type=external',
      '{"query":'.repeat(d) + '{}' + '}'.repeat(d),
    );
    expect(a.status).toBe(400);
    expect(a.json.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(a.json.error.reason).toBe(
      'Limit of total fields [1000] in index [fz] has been exceeded',
    );
    expect(await snapshot(node)).toBe(before);
  });

  it('1,500 levels (below the early stop) give the same error from the merge', async () => {
    const d = 1500;
    const a = await send(node, 'PUT', '/fz/_doc/deep2', '{"q":'.repeat(d) + '{}' + '}'.repeat(d));
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('illegal_argument_exception');
    expect(a.json.error.reason).toBe(
      'Limit of total fields [1000] in index [fz] has been exceeded',
    );
  });

  it('PATCH on an existing path is a 405 with the allowed methods (ES RestController)', async () => {
    const a = await send(node, 'PATCH', '/fz');
    expect(a.status).toBe(405);
    expect(a.json.status).toBe(405);
    expect(a.json.error).toMatch(
      /^Incorrect HTTP method for uri \[\/fz\] and method \[PATCH\], allowed: \[/,
    );
  });

  it("a malformed percent escape in the path is ES's illegal_argument_exception", async () => {
    const a = await send(node, 'GET', '/fz/_doc/%zz');
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('illegal_argument_exception');
    expect(a.json.error.reason).toBe("invalid escape sequence `%zz' at index 0 of: %zz");
    const b = await send(node, 'GET', '/fz/_doc/a%4');
    expect(b.json.error.reason).toBe('partial escape sequence at end of string: a%4');
  });

  it('escapes that are not UTF-8 decode to U+FFFD and reach the handler', async () => {
    const a = await send(node, 'GET', '/%C3%28/_search');
    expect(a.status).toBe(404);
    expect(a.json.error.index).toBe('\ufffd(');
  });

  it('filter_path does not filter error bodies (ES newErrorBuilder)', async () => {
    const a = await send(node, 'GET', '/nope/_search?filter_path=hits.total');
    expect(a.status).toBe(404);
    expect(a.json.error.type).toBe('index_not_found_exception');
    const ok = await send(node, 'GET', '/fz/_search?filter_path=hits.total');
    expect(Object.keys(ok.json)).toEqual(['hits']);
    expect(Object.keys(ok.json.hits)).toEqual(['total']);
  });

  it('top_hits with an empty sort array sorts by score (ES SortBuilder.buildSort)', async () => {
    const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ size: 0, aggs: { top: { top_hits: { size: 1, sort: [] } } } })); // prettier-ignore
    expect(a.status).toBe(200);
    expect(a.json.aggregations.top.hits.hits).toHaveLength(1);
    expect(a.json.aggregations.top.hits.hits[0]._score).toBe(1);
  });

  it("highlight fields as an array of non-objects is ObjectParser's x_content_parse_exception", async () => {
    const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ query: { match_all: {} }, highlight: { fields: [null, 1] } })); // prettier-ignore
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('x_content_parse_exception');
    expect(a.json.error.reason).toBe('[highlight] failed to parse field [fields]');
    expect(a.json.error.caused_by.reason).toMatch(/^\[fields\] can be a single object/);
  });

  it('a bucket metrics pipeline with an empty buckets_path fails as ES does (index 0 of 0)', async () => {
    const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ size: 0, aggs: { h: { terms: { field: 'tag' } }, mb: { max_bucket: { buckets_path: [] } } } })); // prettier-ignore
    expect(a.status).toBe(500);
    expect(a.json.error.type).toBe('array_index_out_of_bounds_exception');
    expect(malformed(a)).toBeNull();
  });

  // fuzz:long seed 9090: a nested array in buckets_path, and an empty path, were TypeErrors.
  it('a parent pipeline buckets_path that is not text, or is empty, fails as ES does', async () => {
    const agg = (buckets_path: unknown) => JSON.stringify({ size: 0, aggs: { h: { date_histogram: { field: 'when', interval: 'day' }, aggs: { s: { sum: { field: 'n' } }, cs: { cumulative_sum: { buckets_path } } } } } }); // prettier-ignore
    const nested = await send(node, 'POST', '/fz/_search', agg([[]]));
    expect(nested.status).toBe(500);
    expect(nested.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_state_exception',
      reason: "Can't get text on a START_ARRAY",
    });
    for (const empty of ['', ['']]) {
      const a = await send(node, 'POST', '/fz/_search', agg(empty));
      expect(a.status).toBe(500);
      expect(a.json.error.root_cause[0]).toMatchObject({
        type: 'index_out_of_bounds_exception',
        reason: 'Index 0 out of bounds for length 0',
      });
      expect(malformed(a)).toBeNull();
    }
  });

  it('a statement ending in NOT is a parsing_exception, not a TypeError in the error reporter', async () => {
    const a = await send(node, 'POST', '/_sql', JSON.stringify({ query: 'SELECT 1 NOT' }));
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('parsing_exception');
    expect(a.json.error.reason).toBe("line 1:13: no viable alternative at input 'NOT'");
  });

  it('top_hits sort entries that are empty objects add no sort (ES SortBuilder.fromXContent)', async () => {
    const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ size: 0, aggs: { top: { top_hits: { size: 1, sort: [{}] } } } })); // prettier-ignore
    expect(a.status).toBe(200);
    expect(a.json.aggregations.top.hits.hits[0]._score).toBe(1);
  });

  it('analysis component names that are Object.prototype members are unknown, not a TypeError', async () => {
    const a = await send(node, 'PUT', '/fz/_mapping/_doc', JSON.stringify({ properties: { vo: { type: 'text', analyzer: 'valueOf' } } })); // prettier-ignore
    expect(a.status).toBe(400);
    expect(a.json.error.root_cause[0].reason).toBe('analyzer [valueOf] not found for field [vo]');
    const b = await send(node, 'PUT', '/proto', JSON.stringify({ settings: { analysis: { analyzer: { x: { type: 'custom', tokenizer: 'constructor' } } } } })); // prettier-ignore
    expect(b.status).toBe(400);
    expect(malformed(b)).toBeNull();
    const c = await send(node, 'POST', '/_analyze', JSON.stringify({ tokenizer: 'toString', text: 'a b' })); // prettier-ignore
    expect(c.status).toBe(400);
    expect(malformed(c)).toBeNull();
  });

  it('a cardinality precision_threshold of 1e308 answers (capped precision) instead of looping forever', async () => {
    const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ size: 0, aggs: { c: { cardinality: { field: 'tag', precision_threshold: 1e308 } } } })); // prettier-ignore
    expect(a.status).toBe(200);
    expect(a.json.aggregations.c.value).toBe(5);
  });

  // TermsAggregationBuilder.order(List) takes orders.get(0) of an empty list (was a TypeError)
  it('an empty order array fails to parse the field, caused by the index out of bounds', async () => {
    for (const agg of [
      { terms: { field: 'tag', order: [] } },
      { histogram: { field: 'n', interval: 5, order: [] } },
    ]) {
      // prettier-ignore
      const a = await send(node, 'POST', '/fz/_search', JSON.stringify({ size: 0, aggs: { a: agg } })); // prettier-ignore
      expect(a.status).toBe(400);
      expect(a.json.error.type).toBe('x_content_parse_exception');
      expect(a.json.error.caused_by).toEqual({
        type: 'index_out_of_bounds_exception',
        reason: 'Index 0 out of bounds for length 0',
      });
      expect(malformed(a)).toBeNull();
    }
  });

  // the judge took the U+0001 Jackson quotes from the input for an unresolved location marker
  it('a body whose BOM is broken by a control byte is a well-formed json_parse_exception', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0x01, 0xbb, 0xbf]), Buffer.from('{"index":{"refresh_interval":"2s"}}')]); // prettier-ignore
    const res = await fetch(node.url + '/fz/_settings', {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json' },
    });
    const text = await res.text();
    const a = { status: res.status, text, json: JSON.parse(text) };
    expect(a.status).toBe(400);
    expect(a.json.error.type).toBe('json_parse_exception');
    expect(a.json.error.reason).toMatch(/^Unrecognized token '\u00ef\u0001'/);
    expect(malformed(a)).toBeNull();
  });
});
