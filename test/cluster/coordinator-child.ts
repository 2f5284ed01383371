/**
 * One etcd coordinator in its own process, so a test can kill -9 it (a crash: no resign, no lease
 * revoke). argv: endpoints (comma list), cluster name, node id, lease TTL seconds. Prints one JSON
 * line `{started, membership}` once joined, and one line per state change with the master id.
 */
import { etcdCoordinator } from '../../src/cluster/coordination/etcd-coordinator.js';

const [endpoints, clusterName, nodeId, ttl] = process.argv.slice(2);
const c = etcdCoordinator({
  endpoints: endpoints!.split(','),
  clusterName: clusterName!,
  leaseTtlSeconds: Number(ttl),
  prefix: '/quarry',
});
await c.start({
  id: nodeId!,
  name: `node-${nodeId}`,
  ephemeralId: `eph-${nodeId}-${process.pid}`,
  transportAddress: '127.0.0.1:9300',
  httpAddress: '127.0.0.1:9200',
  attributes: {},
  version: '0.1.0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
});
process.stdout.write(`${JSON.stringify({ started: true, membership: c.membership() })}\n`);
process.on('SIGTERM', () => void c.stop().then(() => process.exit(0)));
