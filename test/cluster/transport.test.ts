/**
 * The transport over real sockets on 127.0.0.1: round trips, errors in ES's words, handshake
 * checks, authentication, and hostile input. Every test stops what it started.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EsError } from '../../src/common/errors.js';
import {
  createTransport,
  type Transport,
  type TransportOptions,
  type TransportPeer,
} from '../../src/cluster/transport/transport.js';
import { encodeFrame, FLAG_HANDSHAKE } from '../../src/cluster/transport/frame.js';

const started: Transport[] = [];
const cleanups: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const t of started.splice(0)) await t.close();
  for (const c of cleanups.splice(0)) await c();
});

interface NodeHandle {
  readonly t: Transport;
  readonly peer: TransportPeer;
  readonly errors: EsError[];
}

async function node(
  id: string,
  settings: Record<string, string> = {},
  local: Partial<TransportOptions['local']> = {},
  handshakeTimeoutMs = 2000,
): Promise<NodeHandle> {
  const errors: EsError[] = [];
  const t = createTransport({
    local: { clusterName: 'a', nodeId: id, nodeName: `node-${id}`, version: '0.1.0', ...local },
    settings: { 'network.host': '127.0.0.1', 'transport.port': '0', ...settings },
    handshakeTimeoutMs,
    onError: (e) => errors.push(e),
  });
  started.push(t);
  const address = await t.start();
  return { t, peer: { id, transportAddress: address }, errors };
}

const echo = (t: Transport) =>
  t.registerHandler('test:echo', async (req) => ({
    body: { got: req.body, from: req.fromNode },
    ...(req.attachment ? { attachment: req.attachment } : {}),
  }));

async function caught(p: Promise<unknown>): Promise<EsError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return e as EsError;
  }
  throw new Error('expected a failure');
}

/** Raw socket to a transport port; collects what comes back until the server closes. */
function rawExchange(
  address: string,
  payload: Buffer | Buffer[],
): Promise<{ data: Buffer; closed: boolean }> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect({ host: host!, port: Number(port) }, () => {
      for (const p of Array.isArray(payload) ? payload : [payload]) s.write(p);
    });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error('server did not close the connection'));
    }, 5000);
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => {});
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks), closed: true });
    });
  });
}

describe('transport: requests and responses', () => {
  it('binds an ephemeral port separate from anything else, and round-trips JSON and a 20 MB attachment', async () => {
    const a = await node('A');
    const b = await node('B');
    echo(b.t);
    expect(b.peer.transportAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const blob = randomBytes(20 * 1024 * 1024);
    const res = await a.t.send(
      b.peer,
      'test:echo',
      { q: 'héllo', n: [1, 2] },
      { timeoutMs: 20000, attachment: blob },
    );
    expect(res.body).toEqual({ got: { q: 'héllo', n: [1, 2] }, from: { id: 'A', name: 'node-A' } });
    expect(res.attachment?.length).toBe(blob.length);
    expect(res.attachment!.equals(blob)).toBe(true);
    // No attachment sent: none comes back.
    const plain = await a.t.send(b.peer, 'test:echo', null, { timeoutMs: 5000 });
    expect(plain).toEqual({ body: { got: null, from: { id: 'A', name: 'node-A' } } });
    const sa = a.t.stats();
    const sb = b.t.stats();
    expect(sb.server_open).toBe(1);
    expect(sa.server_open).toBe(0);
    // Handshake (3 frames each way... 3 sent, 2 received by the client) plus 2 requests.
    expect(sa.tx_count).toBe(2 + 2);
    expect(sa.rx_count).toBe(2 + 2);
    expect(sa.tx_size_in_bytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(sa.rx_size_in_bytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(sb.rx_size_in_bytes).toBe(sa.tx_size_in_bytes);
    expect(sb.tx_size_in_bytes).toBe(sa.rx_size_in_bytes);
    expect(sa.peers.B).toEqual({
      rx_count: 2,
      rx_size_in_bytes: expect.any(Number),
      tx_count: 2,
      tx_size_in_bytes: expect.any(Number),
    });
    expect(sb.peers.A?.rx_count).toBe(2);
  });

  it('answers 1,000 concurrent requests over one pooled connection', async () => {
    const a = await node('A');
    const b = await node('B');
    b.t.registerHandler('test:double', async (req) => {
      await new Promise((r) => setImmediate(r));
      return { body: { v: (req.body as { v: number }).v * 2 } };
    });
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        a.t.send(b.peer, 'test:double', { v: i }, { timeoutMs: 20000 }),
      ),
    );
    expect(results.map((r) => (r.body as { v: number }).v)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i * 2),
    );
    expect(b.t.stats().server_open).toBe(1);
  });

  it('brings a remote handler error back as the same EsError', async () => {
    const a = await node('A');
    const b = await node('B');
    b.t.registerHandler('test:fail', async () => {
      throw new EsError('version_conflict_engine_exception', '[_doc][1]: version conflict', 409, {
        meta: { index_uuid: 'u', shard: '0', index: 'i' },
        causedBy: new EsError('illegal_argument_exception', 'inner', 400, { meta: { line: 3 } }),
        headers: { 'X-Test': '1' },
      });
    });
    b.t.registerHandler('test:crash', () => {
      throw new TypeError('boom');
    });
    const e = await caught(a.t.send(b.peer, 'test:fail', {}, { timeoutMs: 5000 }));
    expect(e.type).toBe('version_conflict_engine_exception');
    expect(e.reason).toBe('[_doc][1]: version conflict');
    expect(e.status).toBe(409);
    expect(e.meta).toEqual({ index_uuid: 'u', shard: '0', index: 'i' });
    expect(e.headers).toEqual({ 'X-Test': '1' });
    expect(e.causedBy?.toInner()).toEqual({
      type: 'illegal_argument_exception',
      reason: 'inner',
      line: 3,
    });
    expect(e.toBody()).toEqual({
      error: {
        root_cause: [
          {
            type: 'version_conflict_engine_exception',
            reason: '[_doc][1]: version conflict',
            index_uuid: 'u',
            shard: '0',
            index: 'i',
          },
        ],
        type: 'version_conflict_engine_exception',
        reason: '[_doc][1]: version conflict',
        index_uuid: 'u',
        shard: '0',
        index: 'i',
        caused_by: { type: 'illegal_argument_exception', reason: 'inner', line: 3 },
      },
      status: 409,
    });
    const crash = await caught(a.t.send(b.peer, 'test:crash', {}, { timeoutMs: 5000 }));
    expect([crash.type, crash.reason, crash.status]).toEqual(['exception', 'boom', 500]);
  });

  it('answers an unknown action with action_not_found_transport_exception', async () => {
    const a = await node('A');
    const b = await node('B');
    const e = await caught(a.t.send(b.peer, 'internal:nope', {}, { timeoutMs: 5000 }));
    expect([e.type, e.reason]).toEqual([
      'action_not_found_transport_exception',
      'No handler for action [internal:nope]',
    ]);
  });

  it('times out with receive_timeout_transport_exception, and a late answer is dropped', async () => {
    const a = await node('A');
    const b = await node('B');
    b.t.registerHandler(
      'test:slow',
      () => new Promise((r) => setTimeout(() => r({ body: 'late' }), 300)),
    );
    echo(b.t);
    const e = await caught(a.t.send(b.peer, 'test:slow', {}, { timeoutMs: 50 }));
    expect(e.type).toBe('receive_timeout_transport_exception');
    expect(e.reason).toMatch(
      /^\[node-B\]\[127\.0\.0\.1:\d+\]\[test:slow\] request_id \[\d+\] timed out after \[50ms\]$/,
    );
    await new Promise((r) => setTimeout(r, 400));
    // The connection is still good.
    const ok = await a.t.send(b.peer, 'test:echo', 1, { timeoutMs: 5000 });
    expect((ok.body as { got: number }).got).toBe(1);
  });

  it('fails requests in flight with node_disconnected_exception when the peer drops, then reconnects', async () => {
    const a = await node('A');
    const b = await node('B');
    echo(b.t);
    b.t.registerHandler('test:hang', () => new Promise(() => {}));
    // Find the server end of the pooled connection by its traffic: the only inbound socket.
    await a.t.send(b.peer, 'test:echo', 0, { timeoutMs: 5000 });
    const pendingReq = a.t.send(b.peer, 'test:hang', {}, { timeoutMs: 10000 });
    await new Promise((r) => setTimeout(r, 50));
    // Kill the server side: closing B's transport closes its sockets, as a crashed node would.
    const addr = b.peer.transportAddress;
    await b.t.close();
    const e = await caught(pendingReq);
    expect(e.type).toBe('node_disconnected_exception');
    expect(e.reason).toBe(`[node-B][${addr}][test:hang] disconnected`);
    // B comes back on the same port; A reconnects on the next send.
    const port = addr.split(':')[1]!;
    const b2 = await node('B', { 'transport.port': port });
    echo(b2.t);
    const res = await a.t.send(b.peer, 'test:echo', 2, { timeoutMs: 5000 });
    expect((res.body as { got: number }).got).toBe(2);
  });

  it('fails requests in flight when the connection is cut under a running node, then reconnects', async () => {
    const a = await node('A');
    const b = await node('B');
    echo(b.t);
    let hung = 0;
    b.t.registerHandler('test:hang', () => {
      hung++;
      return new Promise(() => {});
    });
    // A TCP relay in front of B: cutting its sockets is a connection killed mid-request.
    const [bHost, bPort] = b.peer.transportAddress.split(':');
    const relaySockets = new Set<Socket>();
    const relay = createServer((client) => {
      const upstream = connect({ host: bHost!, port: Number(bPort) });
      relaySockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', cut).on('close', cut);
      upstream.on('error', cut).on('close', cut);
    });
    await new Promise<void>((r) => relay.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    cleanups.push(() => {
      for (const s of relaySockets) s.destroy();
      return new Promise<void>((r) => relay.close(() => r()));
    });
    const via = {
      id: 'B',
      transportAddress: `127.0.0.1:${(relay.address() as { port: number }).port}`,
    };
    await a.t.send(via, 'test:echo', 0, { timeoutMs: 5000 });
    const inFlight = [1, 2, 3].map(() => a.t.send(via, 'test:hang', {}, { timeoutMs: 10000 }));
    for (let i = 0; i < 100 && hung < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hung).toBe(3);
    for (const s of relaySockets) s.destroy();
    for (const p of inFlight) {
      const e = await caught(p);
      expect(e.type).toBe('node_disconnected_exception');
      expect(e.reason).toBe(`[node-B][${via.transportAddress}][test:hang] disconnected`);
    }
    const res = await a.t.send(via, 'test:echo', 5, { timeoutMs: 5000 });
    expect((res.body as { got: number }).got).toBe(5);
    // B saw the old connection go and the new one come.
    await new Promise((r) => setTimeout(r, 50));
    expect(b.t.stats().server_open).toBe(1);
  });

  it('fails with connect_transport_exception when nothing listens', async () => {
    const a = await node('A');
    const dead = await node('D');
    const address = dead.peer.transportAddress;
    await dead.t.close();
    const e = await caught(
      a.t.send({ id: 'D', transportAddress: address }, 'test:echo', {}, { timeoutMs: 5000 }),
    );
    expect(e.type).toBe('connect_transport_exception');
    expect(e.reason).toBe(`[D][${address}] connect_exception`);
    expect(e.causedBy?.reason).toMatch(/ECONNREFUSED/);
  });

  it('close() fails pending requests and a closed transport refuses to send', async () => {
    const a = await node('A');
    const b = await node('B');
    b.t.registerHandler('test:hang', () => new Promise(() => {}));
    const p = a.t.send(b.peer, 'test:hang', {}, { timeoutMs: 10000 });
    await new Promise((r) => setTimeout(r, 100));
    await a.t.close();
    const e = await caught(p);
    expect([e.type, e.reason]).toEqual([
      'transport_exception',
      'transport stopped, action: test:hang',
    ]);
    const e2 = await caught(a.t.send(b.peer, 'test:hang', {}, { timeoutMs: 100 }));
    expect(e2.type).toBe('transport_exception');
  });

  it('gives up on a peer that accepts but never answers the handshake, after transport.connect_timeout', async () => {
    const silent: Server = createServer(() => {});
    const held = new Set<Socket>();
    silent.on('connection', (s) => held.add(s));
    await new Promise<void>((r) => silent.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    cleanups.push(() => {
      for (const s of held) s.destroy();
      return new Promise<void>((r) => silent.close(() => r()));
    });
    const a = await node('A', { 'transport.connect_timeout': '200ms' });
    const address = `127.0.0.1:${(silent.address() as { port: number }).port}`;
    const e = await caught(
      a.t.send({ id: 'S', transportAddress: address }, 'x', {}, { timeoutMs: 5000 }),
    );
    expect([e.type, e.reason]).toEqual([
      'connect_transport_exception',
      `[S][${address}] connect_timeout[200ms]`,
    ]);
  });

  it('fails to start with bind_transport_exception when the port is taken', async () => {
    const a = await node('A');
    const port = a.peer.transportAddress.split(':')[1]!;
    const t = createTransport({
      local: { clusterName: 'a', nodeId: 'X', nodeName: 'X', version: '0.1.0' },
      settings: { 'transport.port': port },
    });
    started.push(t);
    const e = await caught(t.start());
    expect([e.type, e.reason]).toEqual(['bind_transport_exception', `Failed to bind to [${port}]`]);
    expect(e.causedBy?.reason).toMatch(/EADDRINUSE/);
  });

  it('tries each port of a range and skips one in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    cleanups.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const used = (blocker.address() as { port: number }).port;
    const n = await node('R', { 'transport.port': `${used}-${used + 20}` });
    const port = Number(n.peer.transportAddress.split(':')[1]);
    expect(port).toBeGreaterThan(used);
    expect(port).toBeLessThanOrEqual(used + 20);
  });
});

describe('transport: hostile and foreign input', () => {
  it('answers an HTTP request with "This is not an HTTP port" and closes', async () => {
    const b = await node('B');
    const r = await rawExchange(
      b.peer.transportAddress,
      Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
    );
    expect(r.data.toString('utf8')).toBe('This is not an HTTP port');
    expect(b.errors.map((e) => e.reason)).toEqual(['This is not an HTTP port']);
  });

  it('closes on garbage, on an oversized frame and on a request before the handshake; the node keeps serving', async () => {
    const b = await node('B', { 'transport.max_content_length': '1kb' });
    echo(b.t);
    const garbage = await rawExchange(b.peer.transportAddress, randomBytes(256));
    expect(garbage.closed).toBe(true);
    // An oversized handshake frame (limit before authentication is small anyway).
    const huge = Buffer.concat(
      encodeFrame({
        requestId: 1,
        flags: FLAG_HANDSHAKE,
        action: 'internal:tcp/handshake',
        json: Buffer.from('{}'),
        attachment: Buffer.alloc(100_000),
      }),
    );
    const big = await rawExchange(b.peer.transportAddress, huge.subarray(0, 64));
    expect(big.closed).toBe(true);
    // A request frame straight away: refused, no handler reached.
    const sneaky = Buffer.concat(
      encodeFrame({ requestId: 1, flags: 0, action: 'test:echo', json: Buffer.from('{}') }),
    );
    const s = await rawExchange(b.peer.transportAddress, sneaky);
    expect(s.data.toString('utf8')).toContain(
      'action [test:echo] sent before the handshake completed',
    );
    expect(b.errors.map((e) => e.type)).toEqual([
      'stream_corrupted_exception',
      'illegal_argument_exception',
      'security_exception',
    ]);
    expect(b.errors[1]!.reason).toBe('transport content length received [97.6kb] exceeded [64kb]');
    // After all that, a real peer still gets answers.
    const a = await node('A', { 'transport.max_content_length': '1kb' });
    const ok = await a.t.send(b.peer, 'test:echo', 'x', { timeoutMs: 5000 });
    expect((ok.body as { got: string }).got).toBe('x');
    expect(b.t.stats().server_open).toBe(1);
  });

  it('closes the connection when an authenticated peer sends a frame over transport.max_content_length', async () => {
    const a = await node('A'); // 100mb
    const b = await node('B', { 'transport.max_content_length': '1kb' });
    echo(b.t);
    await a.t.send(b.peer, 'test:echo', 1, { timeoutMs: 5000 });
    const e = await caught(a.t.send(b.peer, 'test:echo', 'x'.repeat(4000), { timeoutMs: 5000 }));
    expect(e.type).toBe('node_disconnected_exception');
    await new Promise((r) => setTimeout(r, 50));
    expect(b.errors.map((x) => x.reason)).toEqual([
      expect.stringMatching(/^transport content length received \[3\.9kb\] exceeded \[1kb\]$/),
    ]);
    // And a sender refuses to send what exceeds its own limit.
    const e2 = await caught(b.t.send(a.peer, 'test:echo', 'x'.repeat(4000), { timeoutMs: 5000 }));
    expect(e2.type).toBe('send_request_transport_exception');
    expect(e2.causedBy?.reason).toMatch(/exceeded \[1kb\]/);
  });

  it('closes a connection that never completes its handshake', async () => {
    const b = await node('B', {}, {}, 200);
    const r = await rawExchange(b.peer.transportAddress, Buffer.from([0x51, 0x54]));
    expect(r.closed).toBe(true);
    expect(b.errors[0]?.reason).toBe(
      'transport protocol violation: handshake not completed within [200ms]',
    );
  });
});

describe('transport: handshake', () => {
  it('refuses another cluster, with a clear error on both sides', async () => {
    const a = await node('A');
    const b = await node('B', {}, { clusterName: 'b' });
    echo(b.t);
    const e = await caught(a.t.send(b.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect(e.type).toBe('illegal_state_exception');
    expect(e.reason).toBe(
      `handshake failed, mismatched cluster name [Cluster [b]] - {node-B}{B}{${b.peer.transportAddress}}: remote cluster name [b] does not match local cluster name [a]`,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(b.errors[0]?.reason).toMatch(
      /^handshake failed, mismatched cluster name \[Cluster \[a\]\] - \{node-A\}\{A\}\{127\.0\.0\.1:\d+\}: remote cluster name \[a\] does not match local cluster name \[b\]$/,
    );
    // The other direction.
    echo(a.t);
    const e2 = await caught(b.t.send(a.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect(e2.reason).toMatch(/remote cluster name \[a\] does not match local cluster name \[b\]$/);
  });

  it('refuses another Quarry major.minor, naming both versions; a patch difference is fine', async () => {
    const a = await node('A');
    const b = await node('B', {}, { version: '0.2.0' });
    const c = await node('C', {}, { version: '0.1.7' });
    echo(b.t);
    echo(c.t);
    const e = await caught(a.t.send(b.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect(e.reason).toBe(
      `Received handshake message from unsupported version: [0.2.0] minimal compatible version is: [0.1.0] (local version [0.1.0], remote node {node-B}{B}{${b.peer.transportAddress}})`,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(b.errors[0]?.reason).toMatch(
      /^Received handshake message from unsupported version: \[0\.1\.0\] minimal compatible version is: \[0\.2\.0\]/,
    );
    const ok = await a.t.send(c.peer, 'test:echo', 1, { timeoutMs: 5000 });
    expect((ok.body as { got: number }).got).toBe(1);
  });

  it('refuses a node that is not the one expected at that address', async () => {
    const a = await node('A');
    const b = await node('B');
    const e = await caught(
      a.t.send(
        { id: 'Z', transportAddress: b.peer.transportAddress },
        'x',
        {},
        { timeoutMs: 5000 },
      ),
    );
    expect(e.type).toBe('connect_transport_exception');
    expect(e.reason).toBe(
      `[Z][${b.peer.transportAddress}] handshake failed. unexpected remote node {node-B}{B}{${b.peer.transportAddress}}`,
    );
  });
});

describe('transport: authentication', () => {
  const secured = (secret: string) => ({
    'xpack.security.enabled': 'true',
    'transport.auth.secret': secret,
  });

  it('lets nodes with the same secret talk (inline and from a file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-transport-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'secret');
    writeFileSync(file, 's3cret\n');
    const a = await node('A', secured('s3cret'));
    const b = await node('B', {
      'xpack.security.enabled': 'true',
      'transport.auth.secret_file': file,
    });
    echo(b.t);
    echo(a.t);
    expect(
      ((await a.t.send(b.peer, 'test:echo', 1, { timeoutMs: 5000 })).body as { got: number }).got,
    ).toBe(1);
    expect(
      ((await b.t.send(a.peer, 'test:echo', 2, { timeoutMs: 5000 })).body as { got: number }).got,
    ).toBe(2);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('refuses a wrong secret on both sides; no handler runs', async () => {
    const a = await node('A', secured('right'));
    const b = await node('B', secured('wrong'));
    let reached = 0;
    b.t.registerHandler('test:echo', async () => {
      reached++;
      return { body: null };
    });
    const e = await caught(a.t.send(b.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect([e.type, e.status]).toEqual(['security_exception', 401]);
    expect(e.reason).toBe(
      `authentication failed for transport connection to [${b.peer.transportAddress}]: node {node-B}{B} did not prove it holds the shared secret [transport.auth.secret]`,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(b.errors.map((x) => x.reason)).toEqual([
      expect.stringMatching(
        /^authentication failed for transport connection from \[127\.0\.0\.1:\d+\]: node \{node-A\}\{A\} did not prove it holds the shared secret/,
      ),
    ]);
    expect(reached).toBe(0);
    expect(b.t.stats().server_open).toBe(0);
  });

  it('refuses to talk between a secured node and an open one', async () => {
    const a = await node('A', secured('x'));
    const b = await node('B');
    const e = await caught(a.t.send(b.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect(e.reason).toBe(
      `authentication failed for transport connection to [${b.peer.transportAddress}]: the remote node does not have security enabled`,
    );
    const e2 = await caught(b.t.send(a.peer, 'test:echo', {}, { timeoutMs: 5000 }));
    expect(e2.reason).toMatch(/requires authentication but security is disabled on this node$/);
  });

  it('refuses to construct a secured transport without a secret', () => {
    expect(() =>
      createTransport({
        local: { clusterName: 'a', nodeId: 'A', nodeName: 'A', version: '0.1.0' },
        settings: { 'xpack.security.enabled': 'true' },
      }),
    ).toThrow(
      '[xpack.security.enabled] is true but neither [transport.auth.secret] nor [transport.auth.secret_file] is set: nodes could not authenticate each other',
    );
  });
});
