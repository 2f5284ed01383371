/**
 * The HTTP fast path (src/http/request-body.ts and app.ts's onRequest hook): which requests have
 * their body read off the socket, how it is read, and that such requests answer exactly as the
 * same requests taking Fastify's parser (other content types, chunked bodies) do.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody, requestBody } from '../../../src/http/request-body.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

const msg = (method: string, headers: Record<string, string>) =>
  ({ method, headers }) as unknown as IncomingMessage;

describe('requestBody', () => {
  it('reads plain JSON and NDJSON bodies of a known length here', () => {
    const json = { 'content-type': 'application/json', 'content-length': '12' };
    expect(requestBody(msg('POST', json), 100)).toBe(12);
    expect(requestBody(msg('GET', json), 100)).toBe(12);
    const nd = { 'content-type': 'application/x-ndjson', 'content-length': '0' };
    expect(requestBody(msg('PUT', nd), 100)).toBe(0);
  });

  it('has no body without type, length or encoding, and none on HEAD and TRACE', () => {
    expect(requestBody(msg('GET', {}), 100)).toBe('none');
    expect(requestBody(msg('POST', { 'content-length': '0' }), 100)).toBe('none');
    const json = { 'content-type': 'application/json', 'content-length': '5' };
    expect(requestBody(msg('HEAD', json), 100)).toBe('none');
    expect(requestBody(msg('TRACE', json), 100)).toBe('none');
  });

  it("leaves anything unusual to Fastify's parser", () => {
    const f = (h: Record<string, string>) => requestBody(msg('POST', h), 100);
    expect(f({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' })).toBe(
      'fastify',
    );
    expect(f({ 'content-type': 'application/json', 'content-length': '101' })).toBe('fastify');
    expect(f({ 'content-type': 'application/json' })).toBe('fastify');
    expect(f({ 'content-type': 'application/vnd.x+json', 'content-length': '3' })).toBe('fastify');
    expect(f({ 'content-type': 'not a type', 'content-length': '3' })).toBe('fastify');
    expect(f({ 'content-type': 'application/json', 'content-length': '1e3' })).toBe('fastify');
    expect(f({ 'content-length': '3' })).toBe('fastify');
  });
});

describe('readBody', () => {
  const read = (chunks: Buffer[], length: number) =>
    new Promise<{ e: Error | null; body: Buffer | null }>((resolve) =>
      readBody(Readable.from(chunks) as unknown as IncomingMessage, length, (e, body) =>
        resolve({ e, body }),
      ),
    );

  it('joins the chunks into one new buffer', async () => {
    const a = Buffer.from('{"a":');
    const { e, body } = await read([a, Buffer.from('1}')], 7);
    expect(e).toBeNull();
    expect(body!.toString()).toBe('{"a":1}');
    expect(body!.buffer === a.buffer && body!.byteOffset === a.byteOffset).toBe(false);
  });

  it('takes a body the parser already holds in one read, at once, as a copy', () => {
    const a = Buffer.from('{"a":');
    const r = new Readable({ read() {} });
    r.push(a);
    r.push(Buffer.from('1}'));
    r.push(null);
    Object.assign(r, { complete: true });
    let got: Buffer | null = null;
    readBody(r as unknown as IncomingMessage, 7, (e, body) => {
      expect(e).toBeNull();
      got = body;
    });
    expect(got!.toString()).toBe('{"a":1}');
    expect(got!.buffer === a.buffer && got!.byteOffset === a.byteOffset).toBe(false);
  });

  it('refuses a body whose size is not the declared length', async () => {
    const { e, body } = await read([Buffer.from('abc')], 4);
    expect(body).toBeNull();
    expect(e!.message).toBe('Request body size did not match Content-Length');
  });
});

describe('fast path and Fastify path answer alike', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
    await node.req('PUT', '/fp', {
      mappings: { _doc: { properties: { s: { type: 'keyword' } } } },
    });
    await node.req('POST', '/fp/_doc/1?refresh=true', { s: 'x' });
  });
  afterAll(async () => {
    await node.destroy();
  });

  /** A raw request: chunked when `length` is false. */
  const send = (method: string, path: string, body: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
      (resolve, reject) => {
        const req = request(`${node.url}${path}`, { method, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.on('error', reject);
        if (headers['transfer-encoding'] === 'chunked') {
          req.write(body.slice(0, 3));
          req.end(body.slice(3));
        } else req.end(body);
      },
    );

  const variants = (body: string): Record<string, string>[] => [
    { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    // a type ES reads as JSON (it ignores parameters) that the fast path leaves to Fastify
    { 'content-type': 'Application/JSON; charset=ISO-8859-1', 'content-length': String(Buffer.byteLength(body)) }, // prettier-ignore
    { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
  ];

  const same = async (method: string, path: string, body: string) => {
    const answers = [];
    for (const h of variants(body)) answers.push(await send(method, path, body, h));
    for (const a of answers.slice(1)) {
      expect(a.status).toBe(answers[0]!.status);
      expect(a.text).toBe(answers[0]!.text);
      expect(a.headers['content-type']).toBe(answers[0]!.headers['content-type']);
      expect(a.headers['content-length']).toBe(answers[0]!.headers['content-length']);
    }
    return answers[0]!;
  };

  it('counts and searches', async () => {
    const c = await same('POST', '/fp/_count', '{"query":{"term":{"s":"x"}}}');
    expect(c.status).toBe(200);
    expect(JSON.parse(c.text).count).toBe(1);
    expect(c.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(c.headers['content-length']).toBe(String(Buffer.byteLength(c.text)));
    const s = await same('GET', '/fp/_search?filter_path=hits.hits._source', '{"size":1}');
    expect(JSON.parse(s.text)).toEqual({ hits: { hits: [{ _source: { s: 'x' } }] } });
  });

  it('reports malformed JSON with its location', async () => {
    const r = await same('POST', '/fp/_search', '{"query": {"match_all": {}}');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.type).toBe('json_e_o_f_exception');
  });

  it('answers 405 with Allow, and OPTIONS with an empty 200', async () => {
    const r = await send('DELETE', '/_cluster/health', '', {});
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe('GET');
    const o = await send('OPTIONS', '/_cluster/health', '', {});
    expect(o.status).toBe(200);
    expect(o.headers['allow']).toBe('GET');
    expect(o.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(o.text).toBe('');
  });

  it('answers escaped URLs (left to Fastify) as plain ones (served from the request event)', async () => {
    const plain = await send('GET', '/fp/_doc/1?pretty', '', {});
    const escaped = await send('GET', '/f%70/_doc/%31?pretty', '', {});
    expect(plain.status).toBe(200);
    expect(escaped.text).toBe(plain.text);
    expect(escaped.headers['content-length']).toBe(plain.headers['content-length']);
    const bad = await send('GET', '/fp/_doc/%zz', '', {});
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error.type).toBe('illegal_argument_exception');
    const unknown = await send('GET', '/fp/_nope/1/2/3', '', {});
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error).toBe('no handler found for uri [/fp/_nope/1/2/3] and method [GET]'); // prettier-ignore
  });

  it('answers HEAD without a body', async () => {
    const head = await send('HEAD', '/', '', {});
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect((await send('HEAD', '/fp/_doc/1', '', {})).status).toBe(200);
    const missing = await send('HEAD', '/fp/_doc/2', '', {});
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
  });
});
