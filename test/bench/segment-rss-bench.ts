/**
 * `npx tsx test/bench/segment-rss-bench.ts [--docs 1m|2m] [--runs 30] [--old-root DIR]`: the
 * server's memory with segments read in place from the LMDB map against segments copied into the
 * heap (`QUARRY_SEGMENTS_IN_HEAP=1`, or the build in DIR), in one run. For each mode it ingests the logs documents into its
 * own data directory over HTTP `_bulk` (as the scale bench does), flushes, and reports RSS (anon /
 * file) after ingest; then restarts each directory under each mode, alternating, and reports RSS
 * after restart, the logs query medians and RSS after the queries. Needs `npm run build`.
 * `--ingest-only` stops after the ingests; `--modes mapped` (or `heap`) runs one mode. Each memory
 * line also gives the node's heap used, external and array-buffer bytes (`_nodes/stats/jvm`);
 * `--smaps` adds the resident memory per mapping kind (smaps-breakdown.ts) and, per LMDB file,
 * which of its pages are resident (mdb-residency.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLogs } from './harness.js';
import { ingest, logsQuerySetup } from './scale-bench.js';
import { httpClient, startServerProcess, type ServerProcess } from './server-process.js';
import { formatBreakdown, smapsBreakdown } from './smaps-breakdown.js';
import { formatResidency, mdbResidency } from './mdb-residency.js';

const QUERY_IDS = ['logs.count_term', 'logs.terms_avg', 'logs.range_agg'];

function memOf(pid: number): { rss: number; anon: number; file: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

const fmtMem = (m: { rss: number; anon: number; file: number }) =>
  `RSS ${m.rss.toFixed(0)} MB (anon ${m.anon.toFixed(0)}, file ${m.file.toFixed(0)})`;

/** The node's heap used, external and array-buffer memory in MB, from `_nodes/stats/jvm`. */
async function runtimeMem(call: ReturnType<typeof httpClient>): Promise<string> {
  const r = await call('GET', '/_nodes/stats/jvm');
  const node = Object.values(JSON.parse(r.body).nodes)[0] as {
    jvm: { mem: Record<string, number>; buffer_pools: { direct: { used_in_bytes: number } } };
  };
  const mb = (n: number) => (n / 2 ** 20).toFixed(0);
  const m = node.jvm.mem;
  return `heap used ${mb(m.heap_used_in_bytes!)}, external ${mb(m.non_heap_used_in_bytes!)}, array buffers ${mb(node.jvm.buffer_pools.direct.used_in_bytes)} MB`; // prettier-ignore
}

/** What of each LMDB file of the data path is resident, by page kind. */
function residency(pid: number, dataPath: string): string {
  return ['quarry.mdb', 'segments.mdb']
    .filter((f) => existsSync(join(dataPath, f)))
    .map((f) => `  ${f} pages:\n${formatResidency(mdbResidency(pid, join(dataPath, f)))}`)
    .join('\n');
}

/** `--old-root DIR`: the old mode runs that checkout's build (e.g. the base commit's). */
let oldRoot: string | null = null;
/** `--smaps`: each memory line is followed by the resident memory per mapping kind. */
let smaps = false;

async function start(root: string, dataPath: string, inHeap: boolean): Promise<ServerProcess> {
  if (inHeap && oldRoot) return startServerProcess(oldRoot, dataPath);
  if (inHeap) process.env.QUARRY_SEGMENTS_IN_HEAP = '1';
  else delete process.env.QUARRY_SEGMENTS_IN_HEAP;
  try {
    return await startServerProcess(root, dataPath);
  } finally {
    delete process.env.QUARRY_SEGMENTS_IN_HEAP;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const di = args.indexOf('--docs');
  const docsArg = di >= 0 ? args[di + 1]! : '1m';
  const docs = docsArg.endsWith('m') ? Number(docsArg.slice(0, -1)) * 1e6 : Number(docsArg);
  const ri = args.indexOf('--runs');
  const runs = ri >= 0 ? Number(args[ri + 1]) : 30;
  const oi = args.indexOf('--old-root');
  if (oi >= 0) oldRoot = args[oi + 1]!;
  const ingestOnly = args.includes('--ingest-only');
  smaps = args.includes('--smaps');
  const mi = args.indexOf('--modes');
  const modeList = (mi >= 0 ? [args[mi + 1]!] : ['heap', 'mapped']) as Array<'heap' | 'mapped'>;
  const root = process.cwd();
  const harness = ensureLogs(root);
  const file =
    docs <= 1_000_000
      ? join(harness, 'data/out/logs.ndjson')
      : docs <= 2_000_000
        ? join(root, '.bench', 'scale-2000000', 'data/out/logs.ndjson')
        : join(root, '.bench', 'scale-10000000', 'data/out/logs.ndjson'); // its first `docs` lines
  const { workload, params, queries, ps } = await logsQuerySetup(harness, file, QUERY_IDS, runs);
  const log = (s: string) =>
    console.log(
      `${s}  [load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}]`,
    );

  const dirs: Record<string, string> = {};
  try {
    for (const mode of modeList) {
      const dataPath = mkdtempSync(join(tmpdir(), `quarry-segrss-${mode}-`));
      dirs[mode] = dataPath;
      const server = await start(root, dataPath, mode === 'heap');
      const call = httpClient(server.port);
      try {
        const r = await call('PUT', '/logs', {
          settings: { number_of_shards: 1, number_of_replicas: 0, 'index.requests.cache.enable': false }, // prettier-ignore
          mappings: { _doc: { properties: Object.fromEntries(Object.entries(workload.indices.logs!.mappings).map(([f, t]) => [f, { type: t }])) } }, // prettier-ignore
        });
        if (r.status !== 200) throw new Error(`create index: ${r.body}`);
        const t0 = performance.now();
        await ingest(file, server.port, docs, async (n) => {
          if (n < docs) log(`[${mode}] at ${n}: ${fmtMem(memOf(server.pid))}; ${await runtimeMem(call)}`); // prettier-ignore
          if (n < docs && smaps) console.log(formatBreakdown(smapsBreakdown(server.pid)));
          if (n < docs && smaps) console.log(residency(server.pid, dataPath));
        });
        await call('POST', '/logs/_refresh');
        await call('POST', '/logs/_flush');
        const secs = (performance.now() - t0) / 1000;
        await new Promise((res) => setTimeout(res, 2000));
        log(`[${mode}] after ingest of ${docs} (${(docs / secs).toFixed(0)} docs/s): ${fmtMem(memOf(server.pid))}; ${await runtimeMem(call)}`); // prettier-ignore
        if (smaps) console.log(formatBreakdown(smapsBreakdown(server.pid)));
        if (smaps) console.log(residency(server.pid, dataPath));
        const segs = JSON.parse((await call('GET', '/logs/_segments')).body);
        const list = Object.values(segs.indices.logs.shards['0'][0].segments) as Array<{ size_in_bytes: number; num_docs: number }>; // prettier-ignore
        log(`[${mode}] segments: ${list.map((s) => `${s.num_docs}/${(s.size_in_bytes / 2 ** 20).toFixed(0)}MB`).join(' ')}`); // prettier-ignore
      } finally {
        await server.stop();
      }
    }
    // Restarts: every directory under every mode, alternating.
    for (const round of ingestOnly || modeList.length < 2 ? [] : [0, 1]) {
      for (const dir of ['heap', 'mapped'] as const) {
        const modes: Array<'heap' | 'mapped'> =
          round === 0 ? ['heap', 'mapped'] : ['mapped', 'heap'];
        for (const mode of modes) {
          // an older build may not read the newer segment format
          if (oldRoot && dir === 'mapped' && mode === 'heap') continue;
          const server = await start(root, dirs[dir]!, mode === 'heap');
          const call = httpClient(server.port);
          try {
            const t0 = performance.now();
            for (;;) {
              const c = await call('GET', '/logs/_count');
              if (c.status === 200 && JSON.parse(c.body).count === docs) break;
              if (performance.now() - t0 > 300_000) throw new Error(`no correct count: ${c.body}`);
              await new Promise((res) => setTimeout(res, 50));
            }
            const restartMs = performance.now() - t0;
            const afterRestart = memOf(server.pid);
            const medians: string[] = [];
            for (const q of queries) {
              const times: number[] = [];
              const list = ps[q.id]!;
              for (let i = 0; i < list.length; i++) {
                const d = params.renderDsl(q, list[i]!) as { method: string; path: string; body: unknown }; // prettier-ignore
                const t = performance.now();
                const res = await call(d.method, d.path, d.body);
                const dt = performance.now() - t;
                if (res.status !== 200) throw new Error(`${q.id}: ${res.status} ${res.body.slice(0, 300)}`); // prettier-ignore
                if (i >= 5) times.push(dt);
              }
              times.sort((a, b) => a - b);
              medians.push(`${q.id.slice(5)} ${times[times.length >> 1]!.toFixed(2)} ms`);
            }
            log(`[restart ${round}: data ${dir}, mode ${mode}] count after ${restartMs.toFixed(0)} ms; ${fmtMem(afterRestart)}; queries ${medians.join(', ')}; after queries ${fmtMem(memOf(server.pid))}`); // prettier-ignore
          } finally {
            await server.stop();
          }
        }
      }
    }
  } finally {
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
}

await main();
