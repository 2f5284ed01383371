/**
 * Three real node processes on 127.0.0.1-3 join one cluster through a real etcd: one master,
 * every node's `_cat/nodes`, `_cat/master`, `_nodes` and health agree, the official clients'
 * sniffers find every node, the nodes talk over the transport port, index data is refused with
 * a clear block while the data path is per node, and a killed master is replaced.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-members-'));
let etcd: EtcdCluster;
const nodes: ProcessNode[] = [];

async function get(url: string): Promise<any> {
  const r = await fetch(url);
  const text = await r.text();
  return { status: r.status, text, json: text.startsWith('{') ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | null>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  etcd = await startEtcd();
  for (let k = 1; k <= 3; k++) {
    const args = ['--host', `127.0.0.${k}`, '--node-name', `n${k}`, '--transport-port', '0'];
    args.push('--etcd', etcd.endpoints.join(','), '-E', 'discovery.etcd.lease_ttl=2s');
    nodes.push(await startProcessNode(join(dir, `n${k}`), args));
  }
}, 60_000);

afterAll(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a cluster of three nodes on etcd', () => {
  it('has one master that every node names', async () => {
    const rows = await until('three nodes', 10_000, async () => {
      const r = await get(`${nodes[0]!.url}/_cat/nodes?h=name,master,ip&s=name`);
      const lines = r.text.trim().split('\n');
      return lines.length === 3 ? lines : null;
    });
    expect(rows.map((l: string) => l.split(/\s+/)[0])).toEqual(['n1', 'n2', 'n3']);
    expect(rows.filter((l: string) => l.includes(' * ')).length).toBe(1);
    const masters = await Promise.all(
      nodes.map(async (n) => (await get(`${n.url}/_cat/master?h=node`)).text.trim()),
    );
    expect(new Set(masters).size).toBe(1);
    const health = await get(`${nodes[2]!.url}/_cluster/health`);
    expect(health.json.number_of_nodes).toBe(3);
    const cat = await get(`${nodes[1]!.url}/_cat/health?h=node.total`);
    expect(cat.text.trim()).toBe('3');
  });

  it('lists every node in _nodes, collected over the transport', async () => {
    const r = await get(`${nodes[1]!.url}/_nodes/_all/http,os`);
    expect(r.json._nodes).toEqual({ total: 3, successful: 3, failed: 0 });
    const entries = Object.values(r.json.nodes) as any[];
    expect(entries.map((n) => n.http.publish_address).sort()).toEqual(
      nodes.map((n) => n.url.replace('http://', '')).sort(),
    );
    expect(entries.every((n) => n.os.available_processors > 0)).toBe(true);
    const stats = await get(`${nodes[0]!.url}/_nodes/stats/process,transport`);
    expect(stats.json._nodes.successful).toBe(3);
    // the node that collected sent two requests at least (one to each other node)
    const mine = Object.values(stats.json.nodes).find((n: any) => n.name === 'n1') as any;
    expect(mine.transport.tx_count).toBeGreaterThanOrEqual(2);
    const state = await get(`${nodes[2]!.url}/_cluster/state/master_node,nodes`);
    expect(Object.keys(state.json.nodes)).toHaveLength(3);
    expect(state.json.nodes[state.json.master_node]).toBeDefined();
  });

  it('is found whole by the legacy JS client and the Python client sniffers', async () => {
    const require = createRequire(import.meta.url);
    const es = require('elasticsearch');
    const client = new es.Client({ host: nodes[2]!.url, log: [] });
    const hosts: string[] = await new Promise((res, rej) =>
      client.transport.sniff((err: Error | null) =>
        err ? rej(err) : res(Object.keys(client.transport.connectionPool.index)),
      ),
    );
    client.close();
    expect(hosts.map((h) => h.replace(/\/$/, '')).sort()).toEqual(nodes.map((n) => n.url).sort());
    // .ci/run installs Debian's python3-elasticsearch; without it this test fails, never skips
    {
      const script = [
        'import sys',
        'from elasticsearch import Elasticsearch',
        'es = Elasticsearch([sys.argv[1]], sniff_on_start=True)',
        'print(" ".join(sorted(c.host for c in es.transport.connection_pool.connections)))',
      ].join('\n');
      const out = execFileSync('/usr/bin/python3', ['-c', script, nodes[0]!.url]).toString();
      expect(out.trim().split(' ')).toEqual(nodes.map((n) => n.url).sort());
    }
  });

  it('refuses an endpoint Quarry lacks without writing anything, as a lone node does', async () => {
    const r = await fetch(`${nodes[0]!.url}/_watcher/watch/w1/_execute`, { method: 'POST' });
    expect(r.status).toBe(400);
    // ES 6.8's answer for a path no handler serves
    expect(await r.json()).toEqual({
      error: 'no handler found for uri [/_watcher/watch/w1/_execute] and method [POST]',
    });
    expect((await fetch(`${nodes[1]!.url}/logs`)).status).toBe(404);
  });

  it('elects a new master when the master is killed, within the lease', async () => {
    const masterName = (await get(`${nodes[0]!.url}/_cat/master?h=node`)).text.trim();
    const idx = nodes.findIndex((_, i) => `n${i + 1}` === masterName);
    const t0 = Date.now();
    await nodes[idx]!.kill9();
    const survivor = nodes[(idx + 1) % 3]!;
    const next = await until('a new master', 10_000, async () => {
      const r = await get(`${survivor.url}/_cat/nodes?h=name,master`);
      const lines = r.text.trim().split('\n');
      const m = lines.find((l: string) => l.trim().endsWith('*'));
      return lines.length === 2 && m ? m.split(/\s+/)[0]! : null;
    });
    const ms = Date.now() - t0;
    expect(next).not.toBe(masterName);
    expect(ms).toBeLessThan(8_000);
    nodes.splice(idx, 1);
  });
});
