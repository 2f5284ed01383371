/**
 * The bench's server peers against brute force on small data: each starts its real server on
 * loopback, loads documents through its protocol, and must answer the workload's counts,
 * aggregations and sort pages exactly as a scan of the same documents does, and its text
 * queries with documents that hold the terms (their ranking is their own).
 */
import { describe, expect, it } from 'vitest';
import { postgresPeer } from '../../bench/peers/postgres-peer.js';
import { sphinxPeer } from '../../bench/peers/sphinx-peer.js';
import type { PeerHandle, Row, ServerPeer } from '../../bench/peers/peer-types.js';
import { compareRows } from '../../bench/server-peer-rows.js';

const rnd = (() => {
  let s = 12345;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
})();
const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'library', 'tools', 'python', 'server'];
const debian: Row[] = Array.from({ length: 300 }, (_, i) => ({
  name: `pkg${i}`,
  version: '1.0',
  maintainer: 'm',
  section: pick(['libs', 'utils', 'net']),
  priority: 'optional',
  installed_size: Math.floor(rnd() * 5000),
  description: Array.from({ length: 6 }, () => pick(WORDS)).join(' '),
}));
const logs: Row[] = Array.from({ length: 2000 }, (_, i) => ({
  '@timestamp': new Date(Date.UTC(1998, 5, 1) + i * 1000).toISOString(),
  clientip: `10.0.${i % 7}.${i % 250}`,
  request: `GET /x/${pick(WORDS)}.html HTTP/1.0`,
  status: pick([200, 304, 404]),
  size: Math.floor(rnd() * 300_000),
  country: pick(['US', 'DE', 'FR', 'JP']),
}));
const debianSpec = {
  file: '',
  mappings: { name: 'keyword', version: 'keyword', maintainer: 'keyword', section: 'keyword', priority: 'keyword', installed_size: 'long', description: 'text' }, // prettier-ignore
};
const logsSpec = {
  file: '',
  mappings: { '@timestamp': 'date', clientip: 'ip', request: 'text', status: 'integer', size: 'long', country: 'keyword' }, // prettier-ignore
};

/** Brute-force answers in the shapes of the workload's DuckDB statements. */
const brute = {
  count: (docs: Row[], f: string, v: unknown): Row[] => [{ n: docs.filter((d) => d[f] === v).length }], // prettier-ignore
  termsAvg(docs: Row[], key: string, val: string): Row[] {
    const g = new Map<string, { c: number; s: number }>();
    for (const d of docs) {
      const e = g.get(String(d[key])) ?? { c: 0, s: 0 };
      e.c++;
      e.s += Number(d[val]);
      g.set(String(d[key]), e);
    }
    return [...g]
      .sort((a, b) => b[1].c - a[1].c || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([k, e]) => ({ [key]: k, c: e.c, avg: e.s / e.c }));
  },
  range(docs: Row[], f: string, edges: number[]): Row[] {
    const row: Row = {};
    for (let i = 0; i <= edges.length; i++) row[`b${i}`] = 0;
    for (const d of docs) {
      const v = Number(d[f]);
      let b = 0;
      while (b < edges.length && v >= edges[b]!) b++;
      row[`b${b}`] = (row[`b${b}`] as number) + 1;
    }
    return [row];
  },
  sortPage: (docs: Row[], f: string, from: number): Row[] =>
    [...docs].sort((a, b) => Number(b[f]) - Number(a[f])).slice(from, from + 10),
};

for (const peer of [postgresPeer, sphinxPeer] as unknown as ServerPeer<PeerHandle>[]) {
  const missing = peer.available();
  describe.skipIf(missing !== null)(
    `bench server peer ${peer.name}${missing ? ` (${missing})` : ''}`,
    () => {
      // prettier-ignore
      it('answers the debian queries', { timeout: 120_000 }, async () => {
      const h = await peer.load('debian', debian, debianSpec);
      try {
        const cnt = await peer.queries['debian.count_term']!(h, { section: 'net' });
        expect(compareRows('debian.count_term', cnt, brute.count(debian, 'section', 'net'))).toBeNull(); // prettier-ignore
        const hits = await peer.queries['debian.match']!(h, { q: 'python server' });
        expect(hits.length).toBe(10);
        const byName = new Map(debian.map((d) => [d.name, String(d.description)]));
        for (const r of hits) expect(byName.get(r.name)).toMatch(/python|server/);
        const ph = await peer.queries['debian.match_phrase']!(h, { phrase: 'alpha beta' });
        for (const r of ph) expect(byName.get(r.name)).toContain('alpha beta');
        expect(ph.length).toBe(Math.min(10, debian.filter((d) => String(d.description).includes('alpha beta')).length)); // prettier-ignore
        const br = await peer.queries['debian.bool_range']!(h, { q: 'tools', lo: 100, hi: 2000 });
        const size = new Map(debian.map((d) => [d.name, Number(d.installed_size)]));
        for (const r of br) expect(size.get(r.name)).toBeGreaterThanOrEqual(100);
        for (const r of br) expect(size.get(r.name)).toBeLessThanOrEqual(2000);
      } finally {
        await peer.close(h);
      }
    });

      it(
        'answers the logs counts, aggregations and sort pages exactly',
        { timeout: 120_000 },
        async () => {
          // prettier-ignore
          const h = await peer.load('logs', logs, logsSpec);
          try {
            const q = peer.queries;
            const cases: Array<[string, Row, Row[]]> = [
              ['logs.count_term', { status: 404 }, brute.count(logs, 'status', 404)],
              ['logs.terms_avg', { status: 200 }, brute.termsAvg(logs.filter((d) => d.status === 200), 'country', 'size')], // prettier-ignore
              ['logs.terms_avg_all', {}, brute.termsAvg(logs, 'country', 'size')],
              ['logs.range_agg', { country: 'DE' }, brute.range(logs.filter((d) => d.country === 'DE'), 'size', [1000, 10000, 100000])], // prettier-ignore
              ['logs.sort_page', { from: 20 }, brute.sortPage(logs, 'size', 20)],
            ];
            for (const [id, p, want] of cases) {
              const got = await q[id]!(h, p);
              expect(compareRows(id, got, want), id).toBeNull();
            }
          } finally {
            await peer.close(h);
          }
        },
      );
    },
  );
}
