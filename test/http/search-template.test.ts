/**
 * Search templates as ES 6.8's lang-mustache serves them: inline and stored mustache templates
 * rendered (`_render/template`) and run (`_search/template`, `_msearch/template`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/t/_doc/1', { text: 'value1', tags: ['a', 'b'] });
  await node.req('PUT', '/t/_doc/2', { text: 'value2' });
  await node.req('POST', '/t/_refresh');
});
afterAll(async () => {
  await node.destroy();
});

describe('render', () => {
  it('renders an inline object template, escaping values for JSON', async () => {
    const r = await node.req('POST', '/_render/template', {
      source: { query: { match: { text: '{{v}}' } }, size: '{{n}}' },
      params: { v: 'say "hi"', n: 3 },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      template_output: { query: { match: { text: 'say "hi"' } }, size: '3' },
    });
  });

  it('renders a string template with toJson and join', async () => {
    const r = await node.req('POST', '/_render/template', {
      source: '{"terms": {{#toJson}}t{{/toJson}}, "s": "{{#join}}t{{/join}}"}',
      params: { t: ['x', 'y'] },
    });
    expect(r.json).toEqual({ template_output: { terms: ['x', 'y'], s: 'x,y' } });
  });

  it('renders a stored template by id in the body or the path', async () => {
    const put = await node.req('PUT', '/_scripts/tpl', {
      script: { lang: 'mustache', source: { query: { term: { text: '{{v}}' } } } },
    });
    expect(put.json).toEqual({ acknowledged: true });
    const got = await node.req('GET', '/_scripts/tpl');
    expect(got.json.script).toEqual({
      lang: 'mustache',
      source: '{"query":{"term":{"text":"{{v}}"}}}',
      options: { content_type: 'application/json; charset=UTF-8' },
    });
    const byBody = await node.req('POST', '/_render/template', { id: 'tpl', params: { v: 'a' } });
    const byPath = await node.req('POST', '/_render/template/tpl', { params: { v: 'a' } });
    expect(byBody.json).toEqual({ template_output: { query: { term: { text: 'a' } } } });
    expect(byPath.json).toEqual(byBody.json);
  });

  it('refuses a template that does not compile, as mustache.java does', async () => {
    const r = await node.req('POST', '/_render/template', { source: '{"a": "{{{x}}"}' });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('script_exception');
    expect(r.json.error.reason).toMatch(/Improperly closed variable in query-template/);
    const put = await node.req('PUT', '/_scripts/bad', {
      script: { lang: 'mustache', source: '{{#a}}' },
    });
    expect(put.status).toBe(400);
  });
});

describe('search', () => {
  it('runs inline and stored templates on an index', async () => {
    const inline = await node.req('POST', '/t/_search/template', {
      source: { query: { term: { text: { value: '{{v}}' } } } },
      params: { v: 'value1' },
    });
    expect(inline.status).toBe(200);
    expect(inline.json.hits.total).toBe(1);
    expect(inline.json.hits.hits[0]._id).toBe('1');
    await node.req('PUT', '/_scripts/by_text', {
      script: { lang: 'mustache', source: { query: { match: { text: '{{v}}' } } } },
    });
    const src = JSON.stringify({ id: 'by_text', params: { v: 'value2' } });
    // a GET carries its body in the `source` parameter
    const stored = await node.req(
      'GET',
      `/_search/template?source=${encodeURIComponent(src)}&source_content_type=application/json`,
    );
    expect(stored.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
  });

  it('refuses a stored Painless script as a template, and a render without a body', async () => {
    await node.req('PUT', '/_scripts/pl', { script: { lang: 'painless', source: '1' } });
    const r = await node.req('POST', '/_search/template', { id: 'pl' });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('painless does not know how to handle context [template]');
    const none = await node.req('POST', '/_render/template/tpl');
    expect(none.status).toBe(400);
    expect(none.json.error.type).toBe('parse_exception');
  });

  it('answers 404 for an unknown stored template', async () => {
    const r = await node.req('POST', '/_search/template', { id: 'nope' });
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('resource_not_found_exception');
  });

  it('runs NDJSON items, one failing without failing the others', async () => {
    const lines = [
      { index: 't' },
      { source: '{"query": {"match": {"text": "{{v}}"}}}', params: { v: 'value1' } },
      { index: 't' },
      { source: '{"query": {"match": {' },
      { index: 't' },
      { id: 'by_text', params: { v: 'value2' } },
    ];
    const r = await node.req('POST', '/_msearch/template', lines.map((l) => JSON.stringify(l) + '\n').join(''), {
      'content-type': 'application/x-ndjson',
    }); // prettier-ignore
    expect(r.status).toBe(200);
    expect(r.json.responses[0].hits.total).toBe(1);
    expect(r.json.responses[1].error.root_cause[0].type).toBe('json_e_o_f_exception');
    expect(r.json.responses[1].status).toBe(400);
    expect(r.json.responses[2].hits.hits[0]._id).toBe('2');
  });

  it('refuses an msearch item without a template', async () => {
    const body = `{}\n${JSON.stringify({ source: '' })}\n`;
    const r = await node.req('POST', '/_msearch/template', body, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('Validation Failed: 1: template is missing;');
  });
});

describe('profile', () => {
  it('profiles the rendered search with the request profile flag, one entry per shard', async () => {
    const body = { source: { query: { match: { text: '{{v}}' } } }, params: { v: 'value1' } };
    const plain = await node.req('POST', '/t/_search/template', body);
    expect(plain.json).not.toHaveProperty('profile');
    const r = await node.req('POST', '/t/_search/template', { ...body, profile: true });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(1);
    expect(Object.keys(r.json.profile)).toEqual(['shards']);
    const shards = r.json.profile.shards as Array<{ id: string; searches: Array<{ query: unknown[] }> }>; // prettier-ignore
    expect(shards).toHaveLength(5);
    expect(shards[0]!.id).toMatch(/^\[[^\]]+\]\[t\]\[\d\]$/);
    expect(shards[0]!.searches[0]!.query[0]).toMatchObject({
      type: 'TermQuery',
      description: 'text:value1',
    });
  });
});

describe('templates rendering a body cut short', () => {
  it('fail on an unknown query name before the cut, else on the end of input', async () => {
    const lines = [
      { index: 't' },
      { source: '{"query": {"{{query_type}}": {} }', params: { query_type: 'unknown' } },
      { index: 't' },
      { source: '{"query": {"match": {', params: {} },
    ];
    const r = await node.req(
      'POST',
      '/_msearch/template',
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(r.status).toBe(200);
    const [unknown, eof] = r.json.responses;
    expect(unknown.error.root_cause[0].type).toBe('parsing_exception');
    expect(unknown.error.root_cause[0].reason).toBe('no [query] registered for [unknown]');
    expect(eof.error.root_cause[0].type).toBe('json_e_o_f_exception');
  });
});
