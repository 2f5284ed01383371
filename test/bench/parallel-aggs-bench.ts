/**
 * `npx tsx test/bench/parallel-aggs-bench.ts [--data /tmp/quarry-paragg] [--rounds 6] [--per 60]
 *  [--logs-n 1000000]`: the logs aggregation queries in-process with the search workers on and
 * off in the same run (issue 17): rounds alternate the two settings over the same parameters, and
 * every response of one setting is compared with the other's (they must be identical). Build
 * first (`npx tsc -p tsconfig.build.json`). The index is loaded once into `--data`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const dataPath = opt('data', '/tmp/quarry-paragg');
const ROUNDS = Number(opt('rounds', '6'));
const PER = Number(opt('per', '60'));
const logsN = Number(opt('logs-n', '1000000'));
const IDS = opt('ids', 'logs.terms_avg,logs.terms_avg_all,logs.range_agg').split(',');
const dist = (p: string) => pathToFileURL(join(root, 'dist/src', p)).href;

interface Query {
  id: string;
  index: string;
  dsl: { method: string; path: string; body: unknown };
}
type Dispatch = (m: string, p: string, b?: unknown) => Promise<{ status: number; body: unknown }>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const shared = resolve(root, '../shared/bench');
  const workload = JSON.parse(readFileSync(join(shared, 'workload.json'), 'utf8')) as {
    seed: number;
    indices: Record<string, { mappings: Record<string, string> }>;
    queries: Query[];
  };
  const params = await import(pathToFileURL(join(shared, 'lib/params.mjs')).href);
  const node = await import(dist('node.js'));
  const { createDispatcher } = await import(dist('http/dispatcher.js'));
  const pool = await import(dist('search/parallel/search-pool.js'));
  const shm = await import(dist('search/parallel/shared-arrays.js'));
  const file = ['/work/main/.bench/harness/data/out/logs.ndjson', join(root, '.bench/harness/data/out/logs.ndjson')].find(existsSync)!; // prettier-ignore
  let lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  if (lines.length > logsN) lines = lines.slice(0, logsN);
  const ctx = params.buildContext(
    'logs',
    lines.map((l) => JSON.parse(l)),
  );
  const queries = workload.queries.filter((q) => IDS.includes(q.id));
  mkdirSync(dataPath, { recursive: true });
  let opened = await node.openNode({ dataPath });
  let dispatch: Dispatch = createDispatcher(opened.context);
  if (!existsSync(join(dataPath, 'loaded'))) {
    const properties = Object.fromEntries(Object.entries(workload.indices.logs!.mappings).map(([f, t]) => [f, { type: t }])); // prettier-ignore
    await dispatch('PUT', '/logs', { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.requests.cache.enable': false }, mappings: { _doc: { properties } } }); // prettier-ignore
    const action = JSON.stringify({ index: { _index: 'logs', _type: '_doc' } });
    for (let i = 0; i < lines.length; i += 5000)
      await dispatch('POST', '/_bulk', lines.slice(i, i + 5000).map((l) => `${action}\n${l}\n`).join('')); // prettier-ignore
    await dispatch('POST', '/logs/_refresh');
    execFileSync('touch', [join(dataPath, 'loaded')]);
    await opened.close();
    opened = await node.openNode({ dataPath });
    dispatch = createDispatcher(opened.context);
  }
  const segs = (await dispatch('GET', '/logs/_segments')).body as any;
  const shard = segs?.indices?.logs?.shards?.['0']?.[0];
  console.log(`logs ${lines.length} docs, ${shard ? Object.keys(shard.segments).length : '?'} segments`); // prettier-ignore
  const workers = pool.searchWorkerCount('1');
  pool.configureSearchWorkers(workers, 200_000);
  await pool.searchWorkersReady(workers);
  const rss0 = process.memoryUsage().rss;
  const times = new Map<string, { on: number[]; off: number[] }>();
  const answers = new Map<string, string>();
  let mismatches = 0;
  for (let round = 0; round < ROUNDS * 2; round++) {
    const on = round % 2 === 0;
    pool.configureSearchWorkers(on ? workers : 0, 200_000);
    if (on) await pool.searchWorkersReady(workers);
    for (const q of queries) {
      const ps = params.makeParams(q, ctx, PER, workload.seed) as unknown[];
      const t = times.get(q.id) ?? { on: [], off: [] };
      times.set(q.id, t);
      for (let i = 0; i < ps.length; i++) {
        const body = params.renderDsl(q, ps[i]).body;
        const t0 = performance.now();
        const r = await dispatch(q.dsl.method, q.dsl.path, body);
        const dt = performance.now() - t0;
        if (r.status !== 200) throw new Error(`${q.id}: ${r.status} ${JSON.stringify(r.body)}`);
        if (round >= 2) (on ? t.on : t.off).push(dt);
        const b = r.body as Record<string, unknown>;
        const key = `${q.id}#${i}`;
        const text = JSON.stringify({ hits: b.hits, aggregations: b.aggregations });
        const prev = answers.get(key);
        if (prev === undefined) answers.set(key, text);
        else if (prev !== text) mismatches++;
      }
    }
  }
  const stats = pool.searchJobStats();
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(`| query | serial ms | parallel ms | ratio |\n|---|---|---|---|`);
  for (const [id, t] of times) {
    const a = median(t.off);
    const b = median(t.on);
    console.log(`| ${id} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(2)}x |`);
  }
  console.log(`tasks ${stats.tasks}: taken by the main thread ${stats.mainTasks}, by workers ${stats.tasks - stats.mainTasks} (of which redone here ${stats.local}); responses differing between settings: ${mismatches}`); // prettier-ignore
  console.log(`shared copies ${(shm.sharedBytes() / 1048576).toFixed(1)} MB; rss ${(rss0 / 1048576).toFixed(0)} -> ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`); // prettier-ignore
  await opened.close();
  pool.configureSearchWorkers(0);
}

await main();
