/**
 * `npx tsx test/bench/search-profile.ts [--build <built checkout>] [--query debian.match,...]
 *  [--rounds 20000] [--warm 0] [--check] [--cpu | --heap] [--only <text>]`: loops workload queries' seeded
 * parameters through a build's REST dispatcher in this process; prints each median ms.
 * `--check` prints a digest of every response (hits, scores, totals, no `took`) to compare
 * builds; `--cpu` / `--heap` write a CPU profile (50 µs samples) / an allocation profile (every
 * allocation, collected or not) of the timed loop to the temp dir (`<query id>.cpuprofile`,
 * `.heapprofile`); `--only` keeps the requests whose body holds the text (one query's profile);
 * `--warm N` runs N untimed rounds first (profile the warm code, or with 0 the first runs).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadLatencyWorkload } from './latency-workload.js';

const args = process.argv.slice(2);

/** CPU-profiles (50 µs samples) until the returned stop is called. */
async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 50 });
  await s.post('Profiler.start');
  return async (file) => {
    const { profile } = (await s.post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    s.disconnect();
  };
}

/** Samples every allocation (also those the GC collected) until the returned stop is called. */
async function startHeapSampling(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const s = new Session();
  s.connect();
  await s.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async (file) => {
    const { profile } = (await s.post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    s.disconnect();
  };
}
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const here = resolve(import.meta.dirname, '../..');
const build = resolve(opt('build', here));
const ids = opt('query', 'debian.match').split(',');
const rounds = Number(opt('rounds', '20000'));
const { dataPath, workload, params, ctx, queries } = await loadLatencyWorkload(here, ids[0]!.split('.')[0]!, ids); // prettier-ignore
const copy = mkdtempSync(join(tmpdir(), 'quarry-prof-'));
cpSync(dataPath, copy, { recursive: true });
const dist = (p: string) => pathToFileURL(join(build, 'dist/src', p)).href;
const n = await import(dist('node.js'));
const { createDispatcher } = await import(dist('http/dispatcher.js'));
const o = await n.openNode({ dataPath: copy });
const call = createDispatcher(o.context);
try {
  for (const q of queries) {
    let reqs = params.makeParams(q, ctx, 500, workload.seed).map((p: unknown) => params.renderDsl(q, p)); // prettier-ignore
    // `--only <text>`: the requests whose body holds the text (one query shape's profile)
    if (args.includes('--only'))
      reqs = reqs.filter((r: { body: unknown }) =>
        JSON.stringify(r.body).includes(opt('only', '')),
      );
    if (args.includes('--check')) {
      const h = createHash('sha1');
      for (const r of reqs) {
        const res = await call(r.method, r.path, r.body);
        const b = typeof res.body === 'string' ? JSON.parse(res.body) : res.body;
        delete b.took;
        h.update(JSON.stringify(b));
      }
      console.log(q.id, h.digest('hex'));
      continue;
    }
    const warm = Number(opt('warm', '0'));
    for (let i = 0; i < warm; i++) {
      const r = reqs[i % reqs.length];
      if ((await call(r.method, r.path, r.body)).status !== 200) throw new Error('warm-up');
    }
    const times: number[] = [];
    const heap = args.includes('--heap')
      ? await startHeapSampling()
      : args.includes('--cpu')
        ? await startCpuProfile()
        : null;
    for (let i = 0; i < rounds; i++) {
      const r = reqs[(warm + i) % reqs.length];
      const t = performance.now();
      const res = await call(r.method, r.path, r.body);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(String(res.status));
    }
    if (heap)
      await heap(join(tmpdir(), `${q.id}.${args.includes('--heap') ? 'heap' : 'cpu'}profile`));
    times.sort((a, b) => a - b);
    console.log(q.id, 'median', times[times.length >> 1]!.toFixed(4), 'ms');
  }
} finally {
  await o.close();
  rmSync(copy, { recursive: true, force: true });
}
