import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});

describe('GET /', () => {
  it('reports node identity and version 6.8', async () => {
    const r = await node.req('GET', '/');
    expect(r.status).toBe(200);
    expect(r.json.cluster_name).toBe('elasticsearch');
    expect(r.json.version.number).toMatch(/^6\.8\./);
    expect(r.json.version.lucene_version).toMatch(/^7\.7\./);
    expect(r.json.tagline).toBe('You Know, for Search');
    expect(typeof r.json.cluster_uuid).toBe('string');
    expect(r.json.name).toHaveLength(7);
  });

  it('answers HEAD / with 200 and no body', async () => {
    const r = await node.req('HEAD', '/');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });

  it('pretty prints as Elasticsearch does', async () => {
    const r = await node.req('GET', '/?pretty');
    expect(r.text).toMatch(/^\{\n {2}"name" : "/);
  });

  it('answers unknown paths with 400 no handler found', async () => {
    const r = await node.req('GET', '/_nope/x/y/z/w/v');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: 'no handler found for uri [/_nope/x/y/z/w/v] and method [GET]',
    });
  });

  it('answers a known path with a wrong method with 405', async () => {
    const r = await node.req('DELETE', '/');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
    expect(r.json.error).toMatch(
      /^Incorrect HTTP method for uri \[\/\] and method \[DELETE\], allowed: \[/,
    );
  });

  it('filters responses with filter_path', async () => {
    const r = await node.req('GET', '/?filter_path=version.number,tagline');
    expect(r.json).toEqual({ version: { number: '6.8.13' }, tagline: 'You Know, for Search' });
  });
});
