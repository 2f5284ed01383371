/**
 * `npx tsx test/bench/warmup-curve.ts <index> [--ids a,b] [--passes 6] [--compare <root>]
 *  [--warm-body '<json>'] [--warm-seed N]`: the in-process latency of workload queries pass by
 * pass on a freshly loaded node, as `npm run bench` loads it (one shard, bulk of 5,000, refresh):
 * each pass replays the bench's seeded parameters (210 runs, the first 10 untimed) and prints
 * their median. The main bench times pass 0 only; the latency bench (latency-bench.ts) times a
 * pass after a whole warm pass, so the two differ by this curve (JIT tier-up of the request
 * path). `--compare`: another built checkout loaded the same way, its passes interleaved with
 * this one's. `--warm-body`: a `_search` body run 420 times per build before the passes
 * (`"from": "I"` cycles 0..90), showing which shared code the warm-up is in; `--warm-seed`: the
 * same query with other parameters first (warm code, cold parameters). Build first.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadedNode, readHarnessIndex } from './fresh-node.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const index = args[0] ?? 'accounts';
const passes = Number(opt('passes', '6'));
const builds = [root, ...(args.includes('--compare') ? [resolve(opt('compare', ''))] : [])];
const warmBody = opt('warm-body', '');
const warmSeed = opt('warm-seed', '');
const RUNS = 210;
const WARM = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const h = await readHarnessIndex(root, index);
const { workload, params, ctx } = h;
const ids = opt('ids', `${index}.sort_page,${index}.count_term`).split(',');
const queries = workload.queries.filter((q) => ids.includes(q.id));

const nodes = [];
for (const b of builds) nodes.push(await loadedNode(b, index, h));
for (const q of queries) {
  const ps = params.makeParams(q, ctx, RUNS, workload.seed);
  for (const { call } of nodes) {
    if (warmBody) {
      for (let i = 0; i < 420; i++) {
        const b = JSON.parse(warmBody) as { from?: unknown };
        if (b.from === 'I') b.from = (i % 10) * 10;
        if ((await call('POST', `/${index}/_search`, b)).status !== 200) throw new Error('warm');
      }
    }
    if (warmSeed) {
      for (const p of params.makeParams(q, ctx, 2 * RUNS, Number(warmSeed)))
        await call(q.dsl.method, q.dsl.path, params.renderDsl(q, p).body);
    }
  }
  for (let pass = 0; pass < passes; pass++) {
    const row: string[] = [];
    for (const { call } of nodes) {
      const times: number[] = [];
      for (let i = 0; i < ps.length; i++) {
        const body = params.renderDsl(q, ps[i]).body;
        const t = performance.now();
        const r = await call(q.dsl.method, q.dsl.path, body);
        const dt = performance.now() - t;
        if (r.status !== 200) throw new Error(`${q.id}: ${r.status}`);
        if (i >= WARM) times.push(dt);
      }
      row.push(median(times).toFixed(4));
    }
    console.log(`${q.id} pass ${pass}: ${row.join(' | ')} ms`);
  }
}
for (const n of nodes) await n.close();
