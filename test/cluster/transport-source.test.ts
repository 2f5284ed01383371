/**
 * A node bound to 127.0.0.k connects to its peers from 127.0.0.k, not from 127.0.0.1: a firewall
 * rule between two nodes' addresses (the fault test's partitions) then sees their traffic.
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../src/cluster/transport/transport.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

it('connects to peers from its own bound address', async () => {
  let seen: string | undefined;
  const sockets: Socket[] = [];
  const server = createServer((s) => {
    seen = s.remoteAddress;
    sockets.push(s);
  });
  await new Promise<void>((r) => server.listen({ host: '127.0.0.6', port: 0 }, () => r()));
  cleanups.push(
    () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  const t: Transport = createTransport({
    local: { clusterName: 'a', nodeId: 'A', nodeName: 'node-A', version: '0.1.0' },
    settings: {
      'network.host': '127.0.0.5',
      'transport.port': '0',
      'transport.connect_timeout': '300ms',
    },
  });
  cleanups.push(() => t.close());
  await t.start();
  const port = (server.address() as { port: number }).port;
  // the server never answers the handshake: the connect times out, after the socket was seen
  await expect(
    t.send({ id: 'B', transportAddress: `127.0.0.6:${port}` }, 'test:x', {}, { timeoutMs: 500 }),
  ).rejects.toMatchObject({ type: 'connect_transport_exception' });
  expect(seen).toBe('127.0.0.5');
});
