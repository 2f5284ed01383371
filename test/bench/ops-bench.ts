/**
 * `npm run bench -- --ops`: the operations API's throughput, side by side in one run against one
 * `bin/quarry` process (issue 14):
 * - ingest of the logs data as raw access-log lines through a pipeline of grok + date + remove +
 *   rename, against a plain bulk of the same documents already structured (docs/s and the ratio);
 * - `_reindex` of the whole logs index (1M documents by default) into a new index, docs/s.
 * Every load is checked (each item created, counts equal after refresh, a sample of documents
 * shaped as the pipeline should leave them). Writes reports/bench-ops-<stamp>.{json,md}.
 *
 * Options: --ops-docs N (pipeline/plain docs, 200000), --ops-reindex-docs N (1000000),
 * --ops-batch B (docs per `_bulk`, 2000), --ops-clients C (concurrent connections, 4).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bulkBodies, loadBulk, type LoadResult } from './bulk-load.js';
import { ensureLogs } from './harness.js';
import { cpuSeconds } from './proc-stats.js';
import { startServerProcess } from './server-process.js';

export interface OpsBenchOptions {
  readonly docs: number;
  readonly reindexDocs: number;
  readonly batch: number;
  readonly clients: number;
}

export function opsOptions(args: readonly string[]): OpsBenchOptions {
  const opt = (n: string, d: string) => {
    const i = args.indexOf(`--${n}`);
    return Number(i >= 0 ? args[i + 1]! : d);
  };
  return {
    docs: opt('ops-docs', '200000'),
    reindexDocs: opt('ops-reindex-docs', '1000000'),
    batch: opt('ops-batch', '2000'),
    clients: opt('ops-clients', '4'),
  };
}

interface LogDoc {
  '@timestamp': string;
  clientip: string;
  request: string;
  status: number;
  size: number;
  country: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The access-log line (Apache common log format, UTC) a structured logs document came from. */
export function accessLine(d: LogDoc): string {
  const t = new Date(d['@timestamp']);
  const when = `${two(t.getUTCDate())}/${MONTHS[t.getUTCMonth()]}/${t.getUTCFullYear()}:${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} +0000`; // prettier-ignore
  return `${d.clientip} - - [${when}] "${d.request}" ${d.status} ${d.size}`;
}

/** What the pipeline turns a line into, and what the plain load stores for the same document. */
export function structured(d: LogDoc): Record<string, unknown> {
  const [verb, request, proto] = d.request.split(' ');
  return {
    '@timestamp': d['@timestamp'].replace(/\.\d{3}Z$/, '.000Z'),
    client: { ip: d.clientip },
    verb,
    request,
    httpversion: proto!.slice('HTTP/'.length),
    status: d.status,
    size: d.size,
  };
}

const PIPELINE = {
  description: 'access log: grok + date + remove + rename',
  processors: [
    {
      grok: {
        field: 'message',
        patterns: [
          '%{IPORHOST:clientip} %{USER:ident} %{USER:auth} \\[%{HTTPDATE:timestamp}\\] "%{WORD:verb} %{NOTSPACE:request} HTTP/%{NUMBER:httpversion}" %{NUMBER:status:int} %{NUMBER:size:int}',
        ],
      },
    },
    { date: { field: 'timestamp', target_field: '@timestamp', formats: ['dd/MMM/yyyy:HH:mm:ss Z'] } }, // prettier-ignore
    { remove: { field: ['message', 'timestamp', 'ident', 'auth'] } },
    { rename: { field: 'clientip', target_field: 'client.ip' } },
  ],
};

const MAPPINGS = {
  _doc: {
    properties: {
      '@timestamp': { type: 'date' },
      client: { properties: { ip: { type: 'ip' } } },
      verb: { type: 'keyword' },
      request: { type: 'text' },
      httpversion: { type: 'keyword' },
      status: { type: 'integer' },
      size: { type: 'long' },
    },
  },
};

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

function caller(port: number): Call {
  return async (method, path, body) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
}

interface LoadFigures {
  readonly docs: number;
  readonly docsPerS: number;
  readonly serverCpuS: number;
  readonly medianMs: number;
  readonly problems: readonly string[];
}

async function timedLoad(
  url: string,
  pid: number,
  lines: readonly string[],
  index: string,
  o: OpsBenchOptions,
): Promise<LoadFigures> {
  const bodies = bulkBodies(lines, index, o.batch);
  const cpu0 = cpuSeconds(pid);
  const r: LoadResult = await loadBulk([url], bodies, o.clients, 1);
  return {
    docs: r.docsAcked,
    docsPerS: (r.docsAcked / r.wallMs) * 1000,
    serverCpuS: cpuSeconds(pid) - cpu0,
    medianMs: r.medianMs,
    problems: r.problems,
  };
}

/** Runs the ops bench; returns the markdown report. */
export async function runOpsBench(root: string, o: OpsBenchOptions): Promise<string> {
  const harness = ensureLogs(root);
  const all = readFileSync(join(harness, 'data/out/logs.ndjson'), 'utf8').split('\n');
  const docs = all.slice(0, o.docs).map((l) => JSON.parse(l) as LogDoc);
  const plainLines = docs.map((d) => JSON.stringify(structured(d)));
  const rawLines = docs.map((d) => JSON.stringify({ message: accessLine(d) }));
  const data = mkdtempSync(join(tmpdir(), 'quarry-ops-bench-'));
  const server = await startServerProcess(root, data);
  const url = `http://127.0.0.1:${server.port}`;
  const call = caller(server.port);
  const problems: string[] = [];
  try {
    await call('PUT', '/_ingest/pipeline/access', PIPELINE);
    const settings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '1s' };
    await call('PUT', '/plain', { settings, mappings: MAPPINGS });
    await call('PUT', '/piped', {
      settings: { ...settings, 'index.default_pipeline': 'access' },
      mappings: MAPPINGS,
    });
    // Alternate the two loads twice so drift on a shared machine hits both alike; keep the second.
    const half = Math.floor(o.docs / 2);
    const plain1 = await timedLoad(url, server.pid, plainLines.slice(0, half), 'plain', o);
    const piped1 = await timedLoad(url, server.pid, rawLines.slice(0, half), 'piped', o);
    const piped2 = await timedLoad(url, server.pid, rawLines.slice(half), 'piped', o);
    const plain2 = await timedLoad(url, server.pid, plainLines.slice(half), 'plain', o);
    const sum = (a: LoadFigures, b: LoadFigures) => ({
      docs: a.docs + b.docs,
      docsPerS: (a.docs + b.docs) / (a.docs / a.docsPerS + b.docs / b.docsPerS),
      serverCpuS: a.serverCpuS + b.serverCpuS,
      medianMs: (a.medianMs + b.medianMs) / 2,
      problems: [...a.problems, ...b.problems],
    });
    const plain = sum(plain1, plain2);
    const piped = sum(piped1, piped2);
    problems.push(...plain.problems, ...piped.problems);
    await call('POST', '/plain,piped/_refresh');
    const counts = await call('GET', '/_cat/indices/plain,piped?format=json&h=index,docs.count');
    for (const c of counts as Array<{ index: string; 'docs.count': string }>)
      if (Number(c['docs.count']) !== o.docs)
        problems.push(`${c.index}: ${c['docs.count']} docs, want ${o.docs}`);
    // The pipeline's documents must equal the plain ones, field for field, on a sample.
    for (const i of [0, 1, Math.floor(o.docs / 3), o.docs - 1]) {
      const want = structured(docs[i]!);
      const got = await call('POST', '/piped/_search', {
        size: 1,
        query: { bool: { filter: [{ term: { '@timestamp': want['@timestamp'] } }, { term: { 'client.ip': (want.client as { ip: string }).ip } }, { term: { size: want.size } }] } }, // prettier-ignore
      });
      const src = got.hits.hits[0]?._source;
      if (JSON.stringify(sortKeys(src)) !== JSON.stringify(sortKeys(want)))
        problems.push(`piped doc ${i}: ${JSON.stringify(src)} want ${JSON.stringify(want)}`);
    }

    // Reindex: a 1-shard source of reindexDocs plain documents into a new index.
    await call('PUT', '/source', { settings, mappings: { _doc: { properties: { '@timestamp': { type: 'date' }, clientip: { type: 'ip' }, request: { type: 'text' }, status: { type: 'integer' }, size: { type: 'long' }, country: { type: 'keyword' } } } } }); // prettier-ignore
    const srcLoad = await timedLoad(url, server.pid, all.slice(0, o.reindexDocs).filter(Boolean), 'source', o); // prettier-ignore
    problems.push(...srcLoad.problems);
    await call('POST', '/source/_refresh');
    await call('PUT', '/dest', { settings, mappings: { _doc: { dynamic: true } } });
    const cpu0 = cpuSeconds(server.pid);
    const t0 = performance.now();
    const rx = await call('POST', '/_reindex?refresh=true', {
      source: { index: 'source', size: 5000 },
      dest: { index: 'dest' },
    });
    const reindexMs = performance.now() - t0;
    const reindexCpu = cpuSeconds(server.pid) - cpu0;
    if (rx.created !== o.reindexDocs || rx.failures.length > 0)
      problems.push(`reindex: created ${rx.created} of ${o.reindexDocs}, ${rx.failures.length} failures`); // prettier-ignore
    const destCount = await call('GET', '/dest/_count');
    if (destCount.count !== o.reindexDocs)
      problems.push(`dest: ${destCount.count} docs, want ${o.reindexDocs}`);

    const lines = [
      `# Quarry ops benchmark ${new Date().toISOString()}`,
      '',
      `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`, // prettier-ignore
      `one \`bin/quarry\` process; ${o.clients} keep-alive clients, ${o.batch} docs per \`_bulk\`; 1-shard indices, 0 replicas`,
      '',
      '| load | docs | docs/s | vs plain | server CPU µs/doc | median `_bulk` ms |',
      '|---|---|---|---|---|---|',
      row('plain bulk (structured docs)', plain, plain.docsPerS),
      row('pipeline grok + date + remove + rename (raw lines)', piped, plain.docsPerS),
      row('reindex source load (plain)', srcLoad, plain.docsPerS),
      '',
      '| reindex | docs | seconds | docs/s | server CPU µs/doc |',
      '|---|---|---|---|---|',
      `| \`_reindex\` source → dest (size 5000) | ${rx.created} | ${(reindexMs / 1000).toFixed(1)} | ${Math.round((rx.created / reindexMs) * 1000)} | ${((reindexCpu / rx.created) * 1e6).toFixed(1)} |`, // prettier-ignore
      '',
      problems.length
        ? `**problems:** ${problems.join('; ')}`
        : 'checks: every item created, counts equal, sampled pipeline documents equal the plain ones',
      '',
    ];
    const md = lines.join('\n');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    mkdirSync(join(root, 'reports'), { recursive: true });
    writeFileSync(join(root, `reports/bench-ops-${stamp}.md`), md);
    writeFileSync(
      join(root, `reports/bench-ops-${stamp}.json`),
      JSON.stringify({ options: o, plain, piped, srcLoad, reindex: { docs: rx.created, ms: reindexMs, cpuS: reindexCpu }, problems }, null, 2), // prettier-ignore
    );
    if (problems.length) process.exitCode = 1;
    return md;
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
}

function row(label: string, f: LoadFigures, plainPerS: number): string {
  return `| ${label} | ${f.docs} | ${Math.round(f.docsPerS)} | ${(f.docsPerS / plainPerS).toFixed(2)}× | ${((f.serverCpuS / f.docs) * 1e6).toFixed(1)} | ${f.medianMs.toFixed(1)} |`; // prettier-ignore
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
