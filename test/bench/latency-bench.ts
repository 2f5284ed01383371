/**
 * `npx tsx test/bench/latency-bench.ts [--indices debian,logs,accounts] [--runs 300] [--cap 3000]
 *  [--logs-n 1000000] [--fresh] [--compare <root>]`: small-search latency, in-process vs HTTP in
 *  one run (issue 17). `--compare`: another built checkout (its dist/ and bin/, e.g. the base
 *  commit built in a temporary directory) measured on the same data in the same run, phase by
 *  phase after this one, so before/after figures share the machine's load.
 *
 * Per data set: the index is loaded once into `.bench/latency/<index>-<n>` (kept for the next
 * run unless `--fresh`), then each workload query runs in-process (the compiled engine from
 * dist/, through the REST dispatcher), the node closes, `bin/quarry` starts on the same data and
 * the same parameters run over one keep-alive HTTP connection. SQL is timed for never-seen
 * statements (each text once) and for one statement repeated, and the repeated statement's own
 * `_sql/translate` body is timed through `_search` (SQL's cost over the request it lowers to);
 * so are the never-seen statements' own bodies, each once ("its translations": the executor's
 * cost of varied terms and phrases, which one repeated request does not show).
 * A bare `node:http` server in a
 * child process gives the machine's HTTP floor. The machine is noisy: read the ratios and the
 * deltas (HTTP − in-process, SQL − DSL) within one run. Build first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { copyHarness } from './harness.js';
import { renderSql } from './sql-render.js';
import { httpClient, startServerProcess } from './server-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const indices = opt('indices', 'debian,logs,accounts').split(',');
const RUNS = Number(opt('runs', '300'));
const WARM = 20;
const CAP = Number(opt('cap', '3000'));
const logsN = Number(opt('logs-n', '1000000'));
const fresh = args.includes('--fresh');
const compare = args.includes('--compare') ? resolve(opt('compare', '')) : null;
const dist = (p: string, base = root) => pathToFileURL(join(base, 'dist/src', p)).href;

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>; // prettier-ignore

interface Query {
  id: string;
  index: string;
  params: Record<string, string>;
  dsl: { method: string; path: string; body: unknown };
  es_sql: string;
}

/** The data file of a set: this worktree's harness copy, else the main checkout's. */
function dataFile(harness: string, index: string): string {
  const local = join(harness, `data/out/${index}.ndjson`);
  if (existsSync(local)) return local;
  const main = `/work/main/.bench/harness/data/out/${index}.ndjson`;
  if (existsSync(main)) return main;
  const gen = { debian: 'gen-debian.mjs', logs: 'gen-logs.mjs', accounts: 'gen-accounts.mjs' };
  execFileSync(process.execPath, [join(harness, 'data', gen[index as keyof typeof gen])], {
    stdio: 'inherit',
  });
  return local;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

/** Median ms of `run(i)` over the parameter sets (warm-ups first, capped in time). */
async function timeIt(n: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    const dt = performance.now() - t;
    if (i >= WARM) times.push(dt);
    if (i >= WARM && performance.now() - t0 > CAP && times.length >= 20) break;
  }
  return median(times);
}

function ok(q: string, r: { status: number; body: unknown }): void {
  if (r.status !== 200) {
    const b = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    throw new Error(`${q}: ${r.status} ${b.slice(0, 300)}`);
  }
}

interface Row {
  id: string;
  dsl: number;
  sqlCold: number;
  sqlRepeat: number;
  /** The repeated statement's `_sql/translate` body run through `_search`. */
  own: number;
  /** Each never-seen statement's own `_sql/translate` body run through `_search`. */
  ownCold: number;
}

/** A `_sql/translate` body as a 6.8 `_search` takes it, or null when there is none. */
function searchBody(tr: { status: number; body: unknown }): Record<string, unknown> | null {
  if (tr.status !== 200) return null;
  const b = (typeof tr.body === 'string' ? JSON.parse(tr.body) : tr.body) as Record<string, unknown>; // prettier-ignore
  // 7.x SQL translates COUNT to `track_total_hits: 2147483647`, which a 6.8 `_search` refuses
  if (typeof b?.track_total_hits === 'number') b.track_total_hits = true;
  return b;
}

/** DSL, never-seen SQL and repeated SQL medians for the queries of one index. */
async function measure(
  call: Call,
  queries: Query[],
  ps: Map<string, Array<Record<string, unknown>>>,
  renderDsl: (q: Query, p: unknown) => { body: unknown },
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const q of queries) {
    const params = ps.get(q.id)!;
    const dsl = await timeIt(params.length, async (i) => {
      const r = await call(q.dsl.method, q.dsl.path, renderDsl(q, params[i]).body);
      ok(q.id, r);
    });
    // never-seen statements: each distinct text once, made distinct by a trailing run of spaces
    // where the parameters repeat (the plan cache keys on the text). A literal template's shape
    // ignores what follows the last token, so a statement with literals measures the template
    // path (its shape seen, its literals new: a dashboard's next query), while one without any
    // (terms_avg_all) has no template and measures full planning every time.
    const seen = new Set<string>();
    const texts = params.map((p) => {
      let t = renderSql(q.es_sql, p);
      while (seen.has(t)) t += ' ';
      seen.add(t);
      return t;
    });
    const cold = await timeIt(texts.length, async (i) => {
      const r = await call('POST', '/_sql?format=json', { query: `${texts[i]}${' '.repeat(coldSalt)}` }); // prettier-ignore
      if (r.status !== 200) return; // statements ES SQL cannot express (OFFSET): ES's error
    });
    const one = texts[0]!;
    const repeat = await timeIt(texts.length, async () => {
      await call('POST', '/_sql?format=json', { query: one });
    });
    // the repeated statement's own translation run as a DSL search: SQL's overhead over the very
    // request it lowers to (grouped statements run a composite aggregation, not the workload's
    // terms/range aggregation, so `− DSL` also holds that difference in execution)
    const trBody = searchBody(await call('POST', '/_sql/translate', { query: one }));
    const own =
      trBody !== null
        ? await timeIt(texts.length, async () => {
            ok(`${q.id} translated`, await call('POST', `/${q.index}/_search`, trBody));
          })
        : NaN;
    // each never-seen statement's own translation (varied as they are: other terms, other
    // phrases cost the executor differently than one repeated request)
    const coldBodies: Array<Record<string, unknown> | null> = [];
    for (const t of texts) {
      const tq = `${t}${' '.repeat(coldSalt)}`;
      coldBodies.push(searchBody(await call('POST', '/_sql/translate', { query: tq })));
    }
    const ownCold = coldBodies.every((b) => b !== null)
      ? await timeIt(texts.length, async (i) => {
          ok(`${q.id} translated`, await call('POST', `/${q.index}/_search`, coldBodies[i]));
        })
      : NaN;
    rows.push({ id: q.id, dsl, sqlCold: cold, sqlRepeat: repeat, own, ownCold });
  }
  return rows;
}
/** Makes each pass's statements never seen before (the plan cache lives as long as the node). */
let coldSalt = 0;

/** A bare node:http server in its own process: the machine's round-trip floor. */
async function bareHttpFloor(): Promise<number> {
  const src =
    "const s=require('http').createServer((q,r)=>{q.resume();q.on('end',()=>{const b='{\"count\":1}';r.writeHead(200,{'content-type':'application/json','content-length':b.length});r.end(b)})});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((res) =>
    child.stdout!.once('data', (d: Buffer) => res(Number(d.toString().trim()))),
  );
  const call = httpClient(port);
  const ms = await timeIt(2000, () => call('POST', '/x/_count', { query: { term: { a: 'b' } } }));
  child.kill();
  return ms;
}

async function loadIndex(
  node: { openNode: (o: { dataPath: string }) => Promise<any> },
  call: Call,
  index: string,
  mappings: Record<string, string>,
  lines: string[],
): Promise<void> {
  const properties = Object.fromEntries(Object.entries(mappings).map(([f, t]) => [f, { type: t }])); // prettier-ignore
  ok('create', await call('PUT', `/${index}`, {
    settings: {
      number_of_shards: 1,
      number_of_replicas: 0,
      refresh_interval: '1s',
      'index.requests.cache.enable': false,
    },
    mappings: { _doc: { properties } },
  })); // prettier-ignore
  const action = JSON.stringify({ index: { _index: index, _type: '_doc' } });
  for (let i = 0; i < lines.length; i += 5000) {
    const body = lines
      .slice(i, i + 5000)
      .map((l) => `${action}\n${l}\n`)
      .join('');
    const r = await call('POST', '/_bulk', body);
    ok('bulk', r);
  }
  ok('refresh', await call('POST', `/${index}/_refresh`));
  void node;
}

async function main(): Promise<void> {
  const harness = copyHarness(root);
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as {
    seed: number;
    indices: Record<string, { mappings: Record<string, string> }>;
    queries: Query[];
  };
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const node = await import(dist('node.js'));
  const { createDispatcher } = await import(dist('http/dispatcher.js'));
  const floor = await bareHttpFloor();
  const out: string[] = [];
  out.push(`bare node:http round trip: ${floor.toFixed(3)} ms`, '');
  out.push(
    '| query | in-proc ms | HTTP ms | HTTP − in-proc | SQL cold in-proc | SQL cold − DSL | SQL repeat in-proc | SQL repeat − DSL | translated DSL in-proc | SQL cold − translated | SQL repeat − translated | SQL cold − its translations | SQL cold HTTP | SQL repeat HTTP |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const index of indices) {
    let lines = readFileSync(dataFile(harness, index), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0);
    if (index === 'logs' && lines.length > logsN) lines = lines.slice(0, logsN);
    const docs = lines.map((l) => JSON.parse(l));
    const ctx = params.buildContext(index, docs);
    const queries = workload.queries.filter((q) => q.index === index);
    const ps = new Map<string, Array<Record<string, unknown>>>();
    for (const q of queries) ps.set(q.id, params.makeParams(q, ctx, RUNS + WARM, workload.seed));
    const dataPath = join(root, `.bench/latency/${index}-${lines.length}`);
    if (fresh) rmSync(dataPath, { recursive: true, force: true });
    const loaded = existsSync(join(dataPath, 'loaded'));
    mkdirSync(dataPath, { recursive: true });

    const renderDsl = params.renderDsl as (q: Query, p: unknown) => { body: unknown };
    if (!loaded) {
      const opened = await node.openNode({ dataPath });
      const dispatch = createDispatcher(opened.context);
      const t = performance.now();
      await loadIndex(node, async (m, p, b) => dispatch(m, p, b), index, workload.indices[index]!.mappings, lines); // prettier-ignore
      console.error(`[latency] loaded ${index} (${lines.length}) in ${((performance.now() - t) / 1000).toFixed(0)} s`); // prettier-ignore
      await opened.close();
      execFileSync('touch', [join(dataPath, 'loaded')]);
    }
    const builds = compare ? [root, compare] : [root];
    const rows = new Map<string, { ip: Row[]; hp: Row[] }>();
    for (const base of builds) rows.set(base, { ip: [], hp: [] });
    for (const base of builds) {
      const n = await import(dist('node.js', base));
      const { createDispatcher: cd } = await import(dist('http/dispatcher.js', base));
      const opened = await n.openNode({ dataPath });
      const dispatch = cd(opened.context);
      const inproc: Call = async (m, p, b) => {
        const r = await dispatch(m, p, b);
        return { status: r.status, body: r.body };
      };
      // a first pass warms the JIT and the page cache as the second is measured: a fresh server
      // process would otherwise be compared cold against a warm in-process node
      coldSalt = 0;
      await measure(inproc, queries, ps, renderDsl);
      coldSalt = 1;
      rows.get(base)!.ip = await measure(inproc, queries, ps, renderDsl);
      await opened.close();
    }
    for (const base of builds) {
      const server = await startServerProcess(base, dataPath);
      try {
        const http = httpClient(server.port);
        coldSalt = 2;
        await measure(http, queries, ps, renderDsl);
        coldSalt = 3;
        rows.get(base)!.hp = await measure(http, queries, ps, renderDsl);
      } finally {
        await server.stop(); // a failed measurement must not leave the node holding the data path
      }
    }
    let added = 0;
    for (const base of builds) {
      const { ip, hp } = rows.get(base)!;
      for (const r of ip) {
        const h = hp.find((x) => x.id === r.id)!;
        const f = (v: number) => (Number.isNaN(v) ? '—' : v.toFixed(3));
        const label = base === root ? r.id : `${r.id} (compare)`;
        out.push(
          `| ${label} | ${f(r.dsl)} | ${f(h.dsl)} | ${f(h.dsl - r.dsl)} | ${f(r.sqlCold)} | ${f(r.sqlCold - r.dsl)} | ${f(r.sqlRepeat)} | ${f(r.sqlRepeat - r.dsl)} | ${f(r.own)} | ${f(r.sqlCold - r.own)} | ${f(r.sqlRepeat - r.own)} | ${f(r.sqlCold - r.ownCold)} | ${f(h.sqlCold)} | ${f(h.sqlRepeat)} |`,
        );
        added++;
      }
    }
    console.error(out.slice(-added).join('\n'));
  }
  process.stdout.write(out.join('\n') + '\n');
}

await main();
