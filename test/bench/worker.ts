/**
 * One benchmark measurement: `tsx test/bench/worker.ts <index> <inproc|http> <harnessDir>` loads
 * one data set into a fresh Quarry node (the compiled engine from dist/), measures load speed and
 * RSS growth, runs every workload query with the harness's seeded parameters, checks results
 * against a brute-force reference, measures restart time, and prints one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
import { pathToFileURL } from 'node:url';
import { checkResult, type Reference } from './reference.js';
import { openPeerChecker } from './peer-check.js';
import { renderSql, sqlRowsCheck } from './sql-render.js';
import { httpClient, startServerProcess, type ServerProcess } from './server-process.js';

const [index, mode, harness] = process.argv.slice(2) as [string, 'inproc' | 'http', string];
const root = resolve(here, '../..');
const dist = (p: string) => pathToFileURL(join(root, 'dist/src', p)).href;

interface Workload {
  seed: number;
  runs_per_query: number;
  warmup_runs: number;
  time_cap_ms_per_query: number;
  bulk: { batch_docs: number };
  indices: Record<string, { file: string; mappings: Record<string, string> }>;
  queries: Array<{
    id: string;
    index: string;
    params: Record<string, string>;
    dsl: { method: string; path: string; body: unknown };
    es_sql: string;
  }>;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rss = () => process.memoryUsage().rss / 2 ** 20;

async function main() {
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as Workload;
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const runs = Number(process.env.RUNS ?? workload.runs_per_query);
  const warm = Number(process.env.WARMUP ?? workload.warmup_runs);
  const cap = Number(process.env.CAP_MS ?? workload.time_cap_ms_per_query);
  const spec = workload.indices[index]!;
  const text = readFileSync(join(harness, spec.file), 'utf8');
  const lines = text.split('\n').filter((l) => l.length > 0);
  const docs = lines.map((l) => JSON.parse(l));
  const ctx = params.buildContext(index, docs);
  const queries = workload.queries.filter((q) => q.index === index);

  const node = await import(dist('node.js'));
  const { createDispatcher } = await import(dist('http/dispatcher.js'));
  const dataPath = mkdtempSync(join(tmpdir(), `quarry-bench-${index}-`));
  const out: Record<string, unknown> = { index, mode, docs: docs.length };

  // Empty node start: in-process open, or (http) a fresh `bin/quarry` process to first answer.
  const tStart = performance.now();
  let opened = mode === 'http' ? await startServerProcess(root, dataPath) : await node.openNode({ dataPath }); // prettier-ignore
  out.start_ms = performance.now() - tStart;
  let call = client(mode, opened, createDispatcher);
  // http: the server's memory, not the client's
  const serverRss = () => (mode === 'http' ? (opened as ServerProcess).rssMb() : rss());

  const mapping = Object.fromEntries(
    Object.entries(spec.mappings).map(([f, t]) => [f, { type: t }]),
  );
  await call('PUT', `/${index}`, {
    // The shard request cache (on by default for size-0 searches, as in ES) would answer the
    // workload's repeated parameters from memory: the bench measures the engine, not the cache.
    settings: {
      number_of_shards: 1,
      number_of_replicas: 0,
      refresh_interval: '1s',
      'index.requests.cache.enable': false,
    },
    mappings: { _doc: { properties: mapping } },
  });
  const batch = workload.bulk.batch_docs;
  const bodies: string[] = [];
  const action = JSON.stringify({ index: { _index: index, _type: '_doc' } });
  for (let i = 0; i < lines.length; i += batch) {
    bodies.push(
      lines
        .slice(i, i + batch)
        .map((l) => `${action}\n${l}\n`)
        .join(''),
    );
  }
  // After the bulk bodies exist: they are the client's data (~80 MB for debian), which the
  // peers, handed parsed documents, never hold either.
  gc();
  const rss0 = serverRss();
  const tLoad = performance.now();
  for (const b of bodies) {
    const r = await call('POST', '/_bulk', b);
    const rb = typeof r.body === 'string' ? JSON.parse(r.body) : r.body;
    if ((rb as { errors?: boolean }).errors) throw new Error('bulk errors');
  }
  await call('POST', `/${index}/_refresh`);
  const loadMs = performance.now() - tLoad;
  gc();
  out.load_ms = loadMs;
  out.docs_per_s = docs.length / (loadMs / 1000);
  out.rss_delta_mb = serverRss() - rss0;
  out.rss_after_mb = serverRss();

  const ref: Reference = { index, docs, ctx };
  // The peers answer the same parameters in-process (after the load: their memory is not ours).
  const peers = mode === 'inproc' ? await openPeerChecker(harness, index, docs, workload) : null;
  const qres: Record<string, unknown> = {};
  for (const q of queries) {
    const ps = params.makeParams(q, ctx, runs + warm, workload.seed);
    const times: number[] = [];
    let checks = 0;
    let failures = 0;
    let firstFailure: string | undefined;
    // The answers checked (a sample) are kept and checked after the timed loop: a check between
    // two requests (the brute-force reference sorts or filters every document, the peers run the
    // query) left its garbage and its peers' threads to the next timed request.
    const answers: unknown[] = [];
    const t0 = performance.now();
    for (let i = 0; i < ps.length; i++) {
      const body = params.renderDsl(q, ps[i]).body;
      const t = performance.now();
      const r = await call(q.dsl.method, q.dsl.path, body);
      const dt = performance.now() - t;
      if (r.status !== 200) {
        const b = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
        throw new Error(`${q.id}: status ${r.status} ${b.slice(0, 300)}`);
      }
      if (i >= warm) times.push(dt);
      if (i < warm + 20) answers.push(r.body);
      if (i >= warm && performance.now() - t0 > cap && times.length >= 5) break;
    }
    // Check the sample against the brute-force reference (and the peers), outside the timing.
    for (let i = 0; i < answers.length; i++) {
      const a = answers[i];
      const got = materialize(typeof a === 'string' ? JSON.parse(a) : a);
      const problem = checkResult(q.id, ps[i], got, ref);
      checks++;
      if (problem) {
        failures++;
        firstFailure ??= problem;
      }
      await peers?.check(q.id, q, ps[i], got);
    }
    qres[q.id] = {
      ...stats(times),
      checks,
      check_failures: failures,
      ...(firstFailure ? { first_failure: firstFailure } : {}),
      ...(await timeSql(q, ps, call, warm, cap, (i) => params.renderDsl(q, ps[i]).body)),
    };
  }
  out.queries = qres;
  if (peers) {
    out.peer_checks = peers.results();
    await peers.close();
  }

  // Restart on the same data.
  await stop(opened);
  const tRe = performance.now();
  opened = mode === 'http' ? await startServerProcess(root, dataPath) : await node.openNode({ dataPath }); // prettier-ignore
  out.restart_ms = performance.now() - tRe;
  call = client(mode, opened, createDispatcher);
  const count = await call('GET', `/${index}/_count`);
  const cb = typeof count.body === 'string' ? JSON.parse(count.body) : count.body;
  out.restart_count_ok = (cb as { count: number }).count === docs.length;
  await stop(opened);
  rmSync(dataPath, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out) + '\n');
}

function stats(times: number[]): { n: number; median_ms: number; p90_ms: number; p99_ms: number } {
  times.sort((a, b) => a - b);
  const at = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!;
  return { n: times.length, median_ms: at(0.5), p90_ms: at(0.9), p99_ms: at(0.99) };
}

/**
 * The same query through `POST /_sql` (its `es_sql` form with the same parameters; sort_page uses
 * LIMIT/OFFSET, a Quarry extension). A statement the server refuses records its error instead of
 * a timing. The first answers are compared with the DSL answers (counts, top names, group counts,
 * sort_page's rows).
 */
async function timeSql(
  q: Workload['queries'][number],
  ps: Array<Record<string, unknown>>,
  call: Call,
  warm: number,
  cap: number,
  dsl: (i: number) => unknown,
): Promise<Record<string, unknown>> {
  const times: number[] = [];
  let mismatches = 0;
  let firstMismatch: string | undefined;
  const t0 = performance.now();
  for (let i = 0; i < ps.length; i++) {
    const t = performance.now();
    const r = await call('POST', '/_sql?format=json', { query: renderSql(q.es_sql, ps[i]!) });
    const dt = performance.now() - t;
    const body = typeof r.body === 'string' ? JSON.parse(r.body) : r.body;
    if (r.status !== 200) {
      const e = (body as { error?: { type?: string; reason?: string } }).error;
      return { sql_error: `${r.status} ${e?.type}: ${String(e?.reason).slice(0, 120)}` };
    }
    if (i >= warm) times.push(dt);
    if (i < warm + 5) {
      const d = await call(q.dsl.method, q.dsl.path, dsl(i));
      const problem = sqlRowsCheck(
        q.id,
        materialize(body),
        materialize(typeof d.body === 'string' ? JSON.parse(d.body) : d.body),
      );
      if (problem) {
        mismatches++;
        firstMismatch ??= problem;
      }
    }
    if (i >= warm && performance.now() - t0 > cap && times.length >= 5) break;
  }
  const s = stats(times);
  return {
    sql_median_ms: s.median_ms,
    sql_p90_ms: s.p90_ms,
    sql_mismatches: mismatches,
    ...(firstMismatch ? { sql_first_mismatch: firstMismatch } : {}),
  };
}

type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

const stop = (opened: any): Promise<void> => ('stop' in opened ? opened.stop() : opened.close());

function client(mode: string, opened: any, createDispatcher: any): Call {
  if (mode === 'http') return httpClient((opened as ServerProcess).port);
  const dispatch = createDispatcher(opened.context);
  return async (method, path, body) => {
    const r = await dispatch(method, path, body);
    return { status: r.status, body: r.body };
  };
}

/** In-process responses may hold raw `_source` fragments; the checks read plain objects. */
function materialize(v: unknown): unknown {
  if (
    v &&
    typeof v === 'object' &&
    'text' in (v as object) &&
    (v as { constructor: { name: string } }).constructor.name === 'RawJson'
  ) {
    return JSON.parse((v as { text: string }).text);
  }
  if (Array.isArray(v)) return v.map(materialize);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialize(x)]));
  return v;
}

main().catch((e) => {
  process.stdout.write(
    JSON.stringify({ index, mode, error: String(e?.stack ?? e).slice(0, 2000) }) + '\n',
  );
  process.exit(1);
});
