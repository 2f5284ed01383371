/**
 * Update scripts that fail (ES 6.8 UpdateHelper.executeScript): the failure is an
 * IllegalArgumentException "failed to execute script" (400) caused by the script_exception. The
 * single-document API runs on the shard through ES's transport service, so its root cause is the
 * RemoteTransportException naming the node and the shard action; bulk items carry the
 * IllegalArgumentException itself. Nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let nodeName: string;

beforeAll(async () => {
  node = await startTestNode();
  nodeName = (await node.req('GET', '/')).json.name;
  await node.req('PUT', '/u/_doc/1?refresh=true', { n: 1 });
}, 30_000);

afterAll(async () => {
  await node.destroy();
});

const unchanged = async () => {
  const got = await node.req('GET', '/u/_doc/1');
  expect(got.json._version).toBe(1);
  expect(got.json._source).toEqual({ n: 1 });
};

describe('failing update scripts', () => {
  it('a runtime error answers 400 failed to execute script, the transport wrapper as root cause', async () => {
    const r = await node.req('POST', '/u/_doc/1/_update', {
      script: { source: 'ctx._source.n += params.k', params: { j: 1 } },
    });
    expect(r.status).toBe(400);
    expect(r.json.status).toBe(400);
    expect(r.json.error.root_cause).toEqual([
      {
        type: 'remote_transport_exception',
        reason: `[${nodeName}][127.0.0.1:9300][indices:data/write/update[s]]`,
      },
    ]);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe('failed to execute script');
    expect(r.json.error.caused_by.type).toBe('script_exception');
    expect(r.json.error.caused_by.reason).toBe('runtime error');
    expect(r.json.error.caused_by.script).toBe('ctx._source.n += params.k');
    await unchanged();
  });

  it('a compile error is wrapped the same way', async () => {
    const r = await node.req('POST', '/u/_doc/1/_update', { script: 'ctx._source.n +=' });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('failed to execute script');
    expect(r.json.error.caused_by.type).toBe('script_exception');
    expect(r.json.error.caused_by.reason).toBe('compile error');
    await unchanged();
  });

  it('a scripted upsert that fails creates nothing', async () => {
    const r = await node.req('POST', '/u/_doc/2/_update', {
      scripted_upsert: true,
      script: { source: 'ctx._source.n = params.missing.x' },
      upsert: {},
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect((await node.req('GET', '/u/_doc/2')).status).toBe(404);
  });

  it('a bulk update item carries the IllegalArgumentException itself', async () => {
    const body =
      '{"update":{"_index":"u","_type":"_doc","_id":"1"}}\n' +
      '{"script":{"source":"ctx._source.n += params.k"}}\n';
    const r = await node.req('POST', '/_bulk', body, { 'content-type': 'application/x-ndjson' });
    expect(r.status).toBe(200);
    const item = r.json.items[0].update;
    expect(item.status).toBe(400);
    expect(item.error.type).toBe('illegal_argument_exception');
    expect(item.error.reason).toBe('failed to execute script');
    expect(item.error.caused_by.type).toBe('script_exception');
    await unchanged();
  });
});
