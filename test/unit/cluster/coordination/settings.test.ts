import { describe, expect, it } from 'vitest';
import { etcdSettings } from '../../../../src/cluster/coordination/etcd-coordinator.js';
import { coordinatorFor } from '../../../../src/cluster/coordination/select.js';

describe('etcdSettings', () => {
  it('is null without endpoints: the node runs alone', () => {
    expect(etcdSettings({})).toBeNull();
    expect(etcdSettings({ 'discovery.etcd.endpoints': ' , ' })).toBeNull();
  });

  it('reads the endpoints, cluster name, lease TTL and prefix, with their defaults', () => {
    expect(
      etcdSettings({ 'discovery.etcd.endpoints': 'http://127.0.0.1:2379, http://127.0.0.2:2379' }),
    ).toEqual({
      endpoints: ['http://127.0.0.1:2379', 'http://127.0.0.2:2379'],
      clusterName: 'elasticsearch',
      leaseTtlSeconds: 5,
      prefix: '/quarry',
    });
    expect(
      etcdSettings({
        'discovery.etcd.endpoints': ['http://127.0.0.1:2379'],
        'cluster.name': 'prod',
        'discovery.etcd.lease_ttl': '10s',
        'discovery.etcd.prefix': '/q',
      }),
    ).toEqual({
      endpoints: ['http://127.0.0.1:2379'],
      clusterName: 'prod',
      leaseTtlSeconds: 10,
      prefix: '/q',
    });
    // etcd leases are whole seconds, at least one.
    expect(
      etcdSettings({
        'discovery.etcd.endpoints': 'http://a:1',
        'discovery.etcd.lease_ttl': '200ms',
      })!.leaseTtlSeconds,
    ).toBe(1);
    expect(() =>
      etcdSettings({ 'discovery.etcd.endpoints': 'http://a:1', 'discovery.etcd.lease_ttl': '5x' }),
    ).toThrow(/lease_ttl/);
  });
});

describe('coordinatorFor', () => {
  it('runs a node without etcd endpoints alone, and one with them on etcd', async () => {
    const lone = coordinatorFor({ 'cluster.name': 'solo' });
    expect('membership' in lone).toBe(false);
    const s = await lone.start({
      id: 'n1',
      name: 'n1',
      ephemeralId: 'e',
      transportAddress: '127.0.0.1:9300',
      httpAddress: '127.0.0.1:9200',
      attributes: {},
      version: '0.1.0',
      esVersion: '6.8.13',
      roles: ['master', 'data', 'ingest'],
    });
    expect(s.clusterName).toBe('solo');
    expect(lone.isMaster()).toBe(true);
    // Not started: no connection is made.
    const clustered = coordinatorFor({ 'discovery.etcd.endpoints': 'http://127.0.0.1:1' });
    expect('membership' in clustered).toBe(true);
    expect(clustered.isMaster()).toBe(false);
  });
});
