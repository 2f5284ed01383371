/**
 * The pure parts of the cluster bench: `_bulk` bodies, /proc readings of a live process, and the
 * report's ratios against the one-node configuration.
 */
import { describe, expect, it } from 'vitest';
import { bulkBodies } from '../../bench/bulk-load.js';
import { renderClusterReport, type ConfigResult } from '../../bench/cluster-report.js';
import { cpuSeconds, peakRssMb } from '../../bench/proc-stats.js';

describe('cluster bench', () => {
  it('cuts the documents into NDJSON _bulk bodies of the batch size', () => {
    const lines = Array.from({ length: 5 }, (_, i) => JSON.stringify({ n: i }));
    const bodies = bulkBodies(lines, 'logs', 2);
    expect(bodies.map((b) => b.docs)).toEqual([2, 2, 1]);
    expect(bodies[2]!.bytes.toString()).toBe(
      '{"index":{"_index":"logs","_type":"_doc"}}\n{"n":4}\n',
    );
  });

  it('reads CPU seconds and peak RSS of a live process, NaN for a missing one', () => {
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i % 7;
    expect(x).toBeGreaterThan(0);
    expect(cpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(peakRssMb(process.pid)).toBeGreaterThan(10);
    expect(cpuSeconds(2 ** 30)).toBeNaN();
  });

  it('reports each configuration against the one-node cluster', () => {
    const row = (config: string, nodes: number, dps: number, cpu: Record<string, number>): ConfigResult => ({
      config, nodes, replicas: 0, standalone: false, docs: 1000, docs_acked: 1000, wall_s: 1000 / dps,
      docs_per_s: dps, node_cpu_s: cpu, node_peak_rss_mb: Object.fromEntries(Object.keys(cpu).map((k) => [k, 100])),
      count_ok: true, problems: [], primary_docs: 1000, gets_checked: 3,
    }); // prettier-ignore
    const md = renderClusterReport({
      options: { docs: 1000, batch: 100, clients: 2, nodeFlags: [] },
      results: [row('1x0', 1, 1000, { n1: 1 }), row('2x0', 2, 1600, { n1: 0.7, n2: 0.7 })],
      sweep: [],
      search: { skipped: 'blocked' },
      profDir: null,
      ceilings: [{ aloneMs: 1, twoMs: 1, speedup: 2 }],
    });
    const two = md.split('\n').find((l) => l.startsWith('| 2 nodes'))!;
    expect(two).toContain('| 1600 | 1.60× |');
    expect(two).toContain('| 1.4 | 1.40× |');
    expect(md).toContain('Skipped: blocked');
  });
});
