/**
 * `npm run fuzz:long -- [--inputs 1000000] [--seed N] [--http-every 10]`: the long fuzz run. One
 * node, a protected index `fz` that only reads may name, and a scratch index `fzw` for writes.
 * Requests come from every generator the vitest properties use (query DSL and aggregations, broken
 * bytes, _msearch, query parameters, SQL statements and bodies, documents, updates, mappings and
 * settings, _bulk, index creation, the router), plus corrupted UTF-8 bodies with mixed content
 * types (fuzz-bytes.ts) and costly valid requests (fuzz-bombs.ts), and go through Fastify's
 * inject, every Nth over
 * real HTTP. Every answer is judged (no 5xx, ES error shapes); a sample of rejected writes is
 * checked to change nothing; `fz` is checksummed before, after, and after a restart on the same
 * data. Writes a JSON report to reports/ and exits 1 on any failure.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { startTestNode, type TestNode } from '../helpers/node.js';
import {
  brokenText,
  fuzzNode,
  judge,
  MAPPING,
  mutated,
  seedDoc,
  send,
  snapshot,
  difference,
  type Answer,
} from './fuzz-support.js';
import {
  BULK_ACTIONS,
  CREATE_BODIES,
  DOCS,
  MAPPINGS,
  QUERIES,
  SETTINGS,
  SQL_BODIES,
  UPDATES,
  routerRequest,
  statement,
  type FuzzRequest,
} from './fuzz-requests.js';
import { bombRequest } from './fuzz-bombs.js';
import { byteRequest } from './fuzz-bytes.js';

const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const INPUTS = Number(opt('inputs', '1000000'));
const SEED = Number(opt('seed', String(Math.floor(Math.random() * 2 ** 31))));
const HTTP_EVERY = Number(opt('http-every', '10'));
const BATCH = 1000;
const HANG_MS = 10_000;
/** One rejected write in this many is checked to have changed nothing (3 extra requests). */
const WRITE_CHECK_EVERY = 20;
/** The scratch index is dropped and recreated this often so it stays small. */
const SCRATCH_RESET_EVERY = 25_000;

const req = (
  target: string,
  method: string,
  path: string,
  body?: string,
  writes = false,
  contentType = 'application/json',
): FuzzRequest => ({
  target,
  method,
  path,
  writes,
  ...(body !== undefined ? { body, contentType } : {}),
});
const json = (v: unknown) => JSON.stringify(v) ?? 'null';
/** The bulk actions and writes of the corpora name `fz`; the long run aims them at `fzw`. */
const scratch = (s: string) => s.replace(/"fz"/g, '"fzw"');

const onlyQuery = (b: unknown) =>
  b && typeof b === 'object' && 'query' in b ? { query: (b as { query: unknown }).query } : b;

const targets: fc.Arbitrary<FuzzRequest> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        mutated(QUERIES),
        fc.constantFrom('/fz/_search', '/fz/_doc/_search', '/_search', '/fz/_count', '/fz/_validate/query?explain=true', '/fz/_doc/3/_explain'), // prettier-ignore
      )
      .map(([b, p]) => req('search', 'POST', p, json(p.includes('_search') ? b : onlyQuery(b)))),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.jsonValue({ maxDepth: 4 }).map(json), brokenText(QUERIES)),
        fc.constantFrom('/fz/_search', '/fz/_count', '/fz/_search?scroll=1m', '/_search?size=3'),
      )
      .map(([b, p]) => req('search-bytes', 'POST', p, b)),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.tuple(mutated([{}, { index: 'fz' }, { index: 'fz', search_type: 'dfs_query_then_fetch' }]), mutated(QUERIES)), // prettier-ignore
        { minLength: 1, maxLength: 3 },
      )
      .map(
        (pairs) =>
        req('msearch', 'POST', '/fz/_msearch', pairs.map(([h, q]) => `${json(h)}\n${json(q)}\n`).join(''), false, 'application/x-ndjson'), // prettier-ignore
      ),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        statement,
        fc.constantFrom('/_sql', '/_sql?format=txt', '/_sql?format=csv', '/_sql/translate', '/_xpack/sql?format=json'), // prettier-ignore
      )
      .map(([query, p]) => req('sql', 'POST', p, json({ query, params: [2, 't1'] }))),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(mutated(SQL_BODIES), fc.constantFrom('/_sql', '/_sql/translate', '/_sql?format=tsv'))
      .map(([b, p]) => req('sql-body', 'POST', p, json(b))),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: mutated(DOCS).map(json) },
          { weight: 1, arbitrary: brokenText(DOCS) },
        ),
        fc.constantFrom('PUT /fzw/_doc/{id}', 'POST /fzw/_doc', 'PUT /fzw/_doc/{id}/_create', 'PUT /fzw/_doc/{id}?version=3&version_type=external', 'PUT /fzw/_doc/{id}?if_seq_no=0&if_primary_term=1', 'PUT /fzw/_doc/{id}?op_type=create&routing=r'), // prettier-ignore
        fc.nat(12),
      )
      .map(([b, route, id]) => {
        const [m, p] = route.replace('{id}', `f${id}`).split(' ') as [string, string];
        return req('doc', m, p, b, true);
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: mutated(UPDATES).map(json) },
          { weight: 1, arbitrary: brokenText(UPDATES) },
        ),
        fc.nat(12),
      )
      .map(([b, id]) => req('update', 'POST', `/fzw/_doc/${id}/_update?retry_on_conflict=1`, b, true)), // prettier-ignore
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      mutated(MAPPINGS).map((b) => req('mapping', 'PUT', '/fzw/_mapping/_doc', json(b), true)),
      mutated(SETTINGS).map((b) => req('settings', 'PUT', '/fzw/_settings', json(b), true)),
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .tuple(mutated(BULK_ACTIONS), mutated(DOCS.concat(UPDATES)))
              .map(([a, d]) => `${json(a)}\n${json(d)}`),
          },
          { weight: 1, arbitrary: fc.constantFrom(...BULK_ACTIONS).map(json) },
          { weight: 1, arbitrary: brokenText(BULK_ACTIONS) },
          { weight: 1, arbitrary: fc.constantFrom('', ' ', '{}', '{"index":{}}\n') },
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map(
        (lines) =>
        req('bulk', 'POST', '/fzw/_doc/_bulk', scratch(lines.join('\n')) + '\n', true, 'application/x-ndjson'), // prettier-ignore
      ),
  },
  {
    weight: 1,
    arbitrary: mutated(CREATE_BODIES).map((b) => req('create-index', 'PUT', '/fzc', json(b), true)),
  },
  { weight: 6, arbitrary: routerRequest },
  { weight: 3, arbitrary: byteRequest },
  // bombs cost ~0.2 s each: one input in ~200
  { weight: 1, arbitrary: fc.oneof({ weight: 1, arbitrary: bombRequest }, { weight: 5, arbitrary: routerRequest }) }, // prettier-ignore
);

interface Stats {
  sent: number;
  overHttp: number;
  byTarget: Record<string, number>;
  byStatus: Record<string, number>;
  writeChecks: number;
  /** 5xx answers by ES error type (ES itself answers 500 for some, e.g. script errors). */
  serverErrors: Record<string, { count: number; example: unknown }>;
  failures: { request: unknown; why: string }[];
}

/** The request's headers: its Content-Type, when it has a body and one. */
const headersOf = (r: FuzzRequest): Record<string, string> =>
  r.body !== undefined && r.contentType !== undefined ? { 'content-type': r.contentType } : {};

/** For the report: bodies that are not UTF-8 as hex. */
function printable(r: FuzzRequest): unknown {
  if (!Buffer.isBuffer(r.body)) return r;
  const text = r.body.toString('utf8');
  const exact = Buffer.from(text, 'utf8').equals(r.body);
  return { ...r, body: exact ? text : { hex: r.body.toString('hex') } };
}

async function inject(node: TestNode, r: FuzzRequest): Promise<Answer & { type?: string }> {
  const res = await node.app.inject({
    method: r.method as 'GET',
    url: r.path,
    headers: headersOf(r),
    ...(r.body !== undefined ? { payload: r.body } : {}),
  });
  const text = res.body;
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const type = res.headers['content-type'];
  return { status: res.statusCode, text, json: parsed, type: type === undefined ? undefined : String(type) }; // prettier-ignore
}

async function overHttp(node: TestNode, r: FuzzRequest): Promise<Answer & { type?: string }> {
  // fetch labels a string body text/plain unless told otherwise: bytes go without a type
  const body = typeof r.body === 'string' && r.contentType === undefined ? Buffer.from(r.body) : r.body; // prettier-ignore
  const res = await fetch(node.url + r.path, {
    method: r.method,
    headers: headersOf(r),
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(HANG_MS),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, json: parsed, type: res.headers.get('content-type') ?? undefined }; // prettier-ignore
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
    }),
  ]);
}

async function resetScratch(node: TestNode): Promise<void> {
  for (const name of ['fzw', 'fzr', 'fzc', 'nope2', 'upper'])
    await send(node, 'DELETE', `/${name}`);
  const created = await send(node, 'PUT', '/fzw', json({ settings: { number_of_shards: 2 }, mappings: { _doc: MAPPING } })); // prettier-ignore
  if (created.status !== 200) throw new Error(`scratch index: ${created.text}`);
  let bulk = '';
  for (let i = 0; i < 10; i++) bulk += `{"index":{"_id":"f${i}"}}\n${json(seedDoc(i))}\n`;
  await send(node, 'POST', '/fzw/_doc/_bulk?refresh=true', bulk, 'application/x-ndjson');
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

async function main(): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  let node = await fuzzNode(40);
  const nodeData = node.dataPath;
  console.log(`[fuzz] ${INPUTS} inputs, seed ${SEED}, every ${HTTP_EVERY}th over HTTP, data ${nodeData}`); // prettier-ignore
  await resetScratch(node);
  const before = await snapshot(node);
  const stats: Stats = { sent: 0, overHttp: 0, byTarget: {}, byStatus: {}, writeChecks: 0, serverErrors: {}, failures: [] }; // prettier-ignore
  const t0 = performance.now();
  let peakRss = 0;
  let writes = 0;
  for (let b = 0; stats.sent < INPUTS; b++) {
    const batch = fc.sample(targets, { seed: SEED + b, numRuns: Math.min(BATCH, INPUTS - stats.sent) }); // prettier-ignore
    for (const r of batch) {
      const n = stats.sent++;
      stats.byTarget[r.target] = (stats.byTarget[r.target] ?? 0) + 1;
      const check = r.writes && writes++ % WRITE_CHECK_EVERY === 0;
      const state = check ? await snapshot(node, 'fzw') : null;
      let a: Answer & { type?: string };
      try {
        const http = n % HTTP_EVERY === 0;
        if (http) stats.overHttp++;
        a = await withTimeout(http ? overHttp(node, r) : inject(node, r));
      } catch (e) {
        stats.failures.push({ request: printable(r), why: String(e) });
        continue;
      }
      const cls = `${Math.floor(a.status / 100)}xx`;
      stats.byStatus[cls] = (stats.byStatus[cls] ?? 0) + 1;
      if (a.status >= 500) {
        const type = `${a.status} ${a.json?.error?.type ?? '?'}: ${a.json?.error?.root_cause?.[0]?.type ?? ''}`;
        const seen = (stats.serverErrors[type] ??= { count: 0, example: { request: printable(r), answer: a.text.slice(0, 600) } }); // prettier-ignore
        seen.count++;
      }
      const why = judge(r.method, a, a.type);
      if (why) stats.failures.push({ request: printable(r), why });
      // a write to a missing index auto-creates it before the document fails, as in ES
      const existed = state !== null && JSON.parse(state)[0]?.error === undefined;
      if (state !== null && existed && a.status >= 400) {
        stats.writeChecks++;
        const after = await snapshot(node, 'fzw');
        const docs = (s: string) => JSON.stringify(JSON.parse(s).slice(2));
        // ES applies a document's dynamic mapping before the version check fails (409)
        const same = a.status === 409 ? docs(after) === docs(state) : after === state;
        if (!same) {
          const why = `rejected (${a.status} ${a.text.slice(0, 200)}) but changed the scratch index: ${difference(state, after)}`; // prettier-ignore
          stats.failures.push({ request: printable(r), why });
        }
      }
      // an index that was created is dropped, so the next creation body is tried for real
      if (r.method === 'PUT' && r.path.startsWith('/fzc') && a.status < 300) await send(node, 'DELETE', '/fzc'); // prettier-ignore
      if (stats.sent % SCRATCH_RESET_EVERY === 0) await resetScratch(node);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if ((b + 1) % 50 === 0 || stats.sent >= INPUTS) {
      const s = (performance.now() - t0) / 1000;
      console.log(
        `[fuzz] ${stats.sent} sent, ${Math.round(stats.sent / s)}/s, ${JSON.stringify(stats.byStatus)}, ` +
          `${stats.failures.length} failures, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`,
      );
      if (stats.failures.length > 0) console.log(JSON.stringify(stats.failures.slice(-3)).slice(0, 2000)); // prettier-ignore
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = await snapshot(node);
  await node.close();
  node = await startTestNode(nodeData);
  const afterRestart = await snapshot(node);
  await node.destroy();
  rmSync(nodeData, { recursive: true, force: true });
  const report = {
    inputs: stats.sent,
    seed: SEED,
    seconds: Math.round(seconds),
    per_second: Math.round(stats.sent / seconds),
    over_http: stats.overHttp,
    by_target: stats.byTarget,
    by_status: stats.byStatus,
    rejected_writes_checked: stats.writeChecks,
    server_errors: stats.serverErrors,
    peak_rss_mb: Math.round(peakRss / 2 ** 20),
    checksum_before: sha(before),
    checksum_after: sha(after),
    checksum_after_restart: sha(afterRestart),
    failures: stats.failures.length,
    failure_examples: stats.failures.slice(0, 50),
  };
  mkdirSync(join(root, 'reports'), { recursive: true });
  const file = join(root, 'reports', `fuzz-long-${new Date().toISOString().replace(/[:.]/g, '-')}.json`); // prettier-ignore
  writeFileSync(file, JSON.stringify(report, null, 2));
  const { failure_examples: _examples, ...summary } = report;
  console.log(JSON.stringify(summary, null, 2));
  console.log(`[fuzz] report: ${file}`);
  const intact = sha(before) === sha(after) && sha(after) === sha(afterRestart);
  if (!intact) console.log('[fuzz] the protected index changed');
  process.exit(stats.failures.length === 0 && intact ? 0 : 1);
}

await main();
