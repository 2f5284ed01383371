/**
 * Overload behaviour over real HTTP: full write and search pools answer 429
 * es_rejected_execution_exception and the queued requests still complete; oversized in-flight
 * bodies and runaway aggregations trip the circuit breakers with ES's wording, change nothing,
 * and the node keeps serving.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startNode, type RunningNode } from '../../src/node.js';

const nodes: Array<{ node: RunningNode; dir: string }> = [];
afterEach(async () => {
  for (const { node, dir } of nodes.splice(0)) {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function start(settings: Record<string, string>): Promise<RunningNode> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-overload-'));
  const node = await startNode({ dataPath: dir, port: 0, settings });
  nodes.push({ node, dir });
  return node;
}

async function req(node: RunningNode, method: string, path: string, body?: unknown, ct?: string) {
  const r = await fetch(node.url + path, {
    method,
    ...(body !== undefined
      ? {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': ct ?? 'application/json' },
        }
      : {}),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

/** Sends a request's headers now and its body later (a slow client holding a pool slot). */
function slowRequest(node: RunningNode, method: string, path: string, body: string) {
  const sock: Socket = connect(node.port, '127.0.0.1');
  let data = '';
  sock.on('data', (d) => (data += d));
  const done = new Promise<{ status: number; body: any }>((res) =>
    sock.on('end', () => {
      const [head, payload] = data.split('\r\n\r\n');
      res({ status: Number(head!.split(' ')[1]), body: JSON.parse(payload || 'null') });
    }),
  );
  sock.write(
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  return { finish: () => sock.write(body), done };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

describe('thread pool queues', () => {
  it('rejects writes beyond thread_pool.write size + queue_size with 429, then serves', async () => {
    const node = await start({
      'thread_pool.write.size': '1',
      'thread_pool.write.queue_size': '2',
    });
    await req(node, 'PUT', '/w', { settings: { number_of_shards: 1 } });
    const pool = node.context.overload!.pools.write;
    const slow = [1, 2, 3].map((i) => slowRequest(node, 'PUT', `/w/_doc/${i}`, `{"n":${i}}`));
    await until(() => pool.active === 1 && pool.queued === 2);
    const r = await req(node, 'PUT', '/w/_doc/4', { n: 4 });
    expect(r.status).toBe(429);
    expect(r.json.status).toBe(429);
    expect(r.json.error.type).toBe('es_rejected_execution_exception');
    expect(r.json.error.root_cause[0].type).toBe('es_rejected_execution_exception');
    expect(r.json.error.reason).toMatch(
      /^rejected execution of .* on EsThreadPoolExecutor\[name = .*\/write, queue capacity = 2, .*\[Running, pool size = 1, active threads = 1, queued tasks = 2, completed tasks = \d+\]\]$/,
    );
    const bulk = await req(node, 'POST', '/_bulk', '{"index":{"_index":"w","_type":"_doc"}}\n{}\n');
    expect(bulk.status).toBe(429);
    // Searches and admin requests are not in the write pool.
    expect((await req(node, 'GET', '/w/_search')).status).toBe(200);
    for (const s of slow) s.finish();
    const done = await Promise.all(slow.map((s) => s.done));
    expect(done.map((d) => d.status)).toEqual([201, 201, 201]);
    expect(pool.active).toBe(0);
    expect((await req(node, 'PUT', '/w/_doc/4', { n: 4 })).status).toBe(201);
    expect((await req(node, 'GET', '/w/_doc/4')).json._source).toEqual({ n: 4 });
    expect((await req(node, 'GET', '/w/_doc/1')).json._source).toEqual({ n: 1 });
  });

  it('rejects searches beyond thread_pool.search size + queue_size', async () => {
    const node = await start({
      'thread_pool.search.size': '1',
      'thread_pool.search.queue_size': '1',
    });
    await req(node, 'PUT', '/s/_doc/1?refresh=true', { n: 1 });
    const pool = node.context.overload!.pools.search;
    const q = '{"query":{"match_all":{}}}';
    const slow = [1, 2].map(() => slowRequest(node, 'POST', '/s/_search', q));
    await until(() => pool.active === 1 && pool.queued === 1);
    const r = await req(node, 'POST', '/s/_search', q);
    expect(r.status).toBe(429);
    expect(r.json.error.type).toBe('es_rejected_execution_exception');
    expect(r.json.error.reason).toMatch(
      /on QueueResizingEsThreadPoolExecutor\[name = .*\/search, queue capacity = 1, /,
    );
    expect((await req(node, 'PUT', '/s/_doc/2', { n: 2 })).status).toBe(201);
    for (const s of slow) s.finish();
    for (const d of await Promise.all(slow.map((s) => s.done))) {
      expect(d.status).toBe(200);
      expect(d.body.hits.total).toBe(1);
    }
  });

  it('a client that goes away while queued frees its place', async () => {
    const node = await start({
      'thread_pool.write.size': '1',
      'thread_pool.write.queue_size': '1',
    });
    const pool = node.context.overload!.pools.write;
    const first = slowRequest(node, 'PUT', '/c/_doc/1', '{}');
    await until(() => pool.active === 1);
    const sock = connect(node.port, '127.0.0.1');
    sock.write(
      'PUT /c/_doc/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
    );
    await until(() => pool.queued === 1);
    sock.destroy();
    await until(() => pool.queued === 0);
    first.finish();
    expect((await first.done).status).toBe(201);
    await until(() => pool.active === 0);
  });
});

describe('circuit breakers', () => {
  it('a bulk body over the parent limit is refused with [parent] Data too large and changes nothing', async () => {
    const node = await start({
      'indices.breaker.total.limit': '1mb',
      'indices.breaker.total.use_real_memory': 'false',
    });
    await req(node, 'PUT', '/b/_doc/0?refresh=true', { n: 0 });
    let body = '';
    for (let i = 1; body.length < 2 * 1024 * 1024; i++)
      body += `{"index":{"_index":"b","_type":"_doc","_id":"${i}"}}\n{"n":${i},"pad":"${'x'.repeat(200)}"}\n`;
    const len = Buffer.byteLength(body);
    const r = await req(node, 'POST', '/_bulk?refresh=true', body, 'application/x-ndjson');
    expect(r.status).toBe(429);
    expect(r.json.error.type).toBe('circuit_breaking_exception');
    expect(r.json.error.reason).toMatch(
      new RegExp(
        `^\\[parent\\] Data too large, data for \\[<http_request>\\] would be \\[${len}/2mb\\], which is larger than the limit of \\[1048576/1mb\\], usages \\[request=0/0b, fielddata=0/0b, in_flight_requests=${len}/2mb, accounting=0/0b\\]$`,
      ),
    );
    expect(r.json.error.bytes_wanted).toBe(len);
    expect(r.json.error.bytes_limit).toBe(1048576);
    expect((await req(node, 'GET', '/b/_count')).json.count).toBe(1);
    expect(node.context.overload!.breakers.usedBytes('in_flight_requests')).toBe(0);
    const small = await req(
      node,
      'POST',
      '/_bulk',
      body.split('\n').slice(0, 2).join('\n') + '\n',
      'application/x-ndjson',
    );
    expect(small.status).toBe(200);
    expect(small.json.errors).toBe(false);
  });

  it('a runaway aggregation trips the request breaker; the node keeps serving', async () => {
    const node = await start({ 'indices.breaker.request.limit': '2mb' });
    await req(node, 'PUT', '/h/_doc/1?refresh=true', { n: 1 });
    const r = await req(node, 'POST', '/h/_search', {
      size: 0,
      aggs: {
        h: {
          histogram: {
            field: 'n',
            interval: 1,
            min_doc_count: 0,
            extended_bounds: { min: 0, max: 5_000_000 },
          },
        },
      },
    });
    expect(r.status).toBe(429);
    const causes = JSON.stringify(r.json.error);
    expect(causes).toContain('circuit_breaking_exception');
    expect(causes).toMatch(
      /\[request\] Data too large, data for \[allocated_buckets\] would be \[\d+\/[\d.]+mb\], which is larger than the limit of \[2097152\/2mb\]/,
    );
    const ok = await req(node, 'POST', '/h/_search', {
      size: 0,
      aggs: { h: { histogram: { field: 'n', interval: 1 } } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.aggregations.h.buckets).toEqual([{ key: 1, doc_count: 1 }]);
  });
});
