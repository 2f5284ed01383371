/**
 * Throughput of parseDocument on the bench workload's shapes (../shared/bench/workload.json):
 * 6-field access logs and 11-field bank accounts, already JSON-parsed, explicit mappings.
 * Run: npx tsx test/unit/mapping/parse-document.bench.ts [docs=200000]
 * (a script, not a unit test: vitest only collects *.test.ts)
 */
import { mergeMapping, parseDocument, parseMapping } from '../../../src/mapping/index.js';
import type { MappingContext, RootMapping } from '../../../src/mapping/index.js';

const N = Number(process.argv[2] ?? 200_000);
const ctx: MappingContext = {
  indexName: 'bench',
  analyzerExists: () => true,
  normalizerExists: () => false,
};

/** mulberry32, as the bench data generators use. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const typed = (m: Record<string, string>) =>
  Object.fromEntries(Object.entries(m).map(([k, type]) => [k, { type }]));

function logsDocs(n: number): unknown[] {
  const rnd = prng(42);
  const countries = ['US', 'DE', 'FR', 'GB', 'JP', 'CN', 'BR', 'IN'];
  let ts = Date.UTC(1998, 5, 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    ts += Math.floor(rnd() * 200);
    const ip = `${1 + Math.floor(rnd() * 223)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${1 + Math.floor(rnd() * 254)}`;
    out.push(
      JSON.stringify({
        '@timestamp': new Date(ts).toISOString(),
        clientip: ip,
        request: `GET /english/images/team_${Math.floor(rnd() * 1000)}.gif HTTP/1.0`,
        status: rnd() < 0.8 ? 200 : 304,
        size: Math.floor(rnd() * 2_000_000),
        country: countries[Math.floor(rnd() * countries.length)],
      }),
    );
  }
  return out.map((s) => JSON.parse(s));
}

function accountsDocs(n: number): unknown[] {
  const rnd = prng(7);
  const first = ['Amber', 'Hattie', 'Nanette', 'Dale', 'Elinor', 'Virginia'];
  const last = ['Duke', 'Bond', 'Bates', 'Adams', 'Ratliff', 'Ayala'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = first[Math.floor(rnd() * first.length)]!;
    const l = last[Math.floor(rnd() * last.length)]!;
    out.push(
      JSON.stringify({
        account_number: i,
        balance: Math.floor(rnd() * 50000),
        firstname: f,
        lastname: l,
        age: 20 + Math.floor(rnd() * 20),
        gender: rnd() < 0.5 ? 'M' : 'F',
        address: `${Math.floor(rnd() * 999)} Bristol Street`,
        employer: 'Pyrami',
        email: `${f.toLowerCase()}${l.toLowerCase()}@pyrami.com`,
        city: 'Brogan',
        state: 'IL',
      }),
    );
  }
  return out.map((s) => JSON.parse(s));
}

function bench(name: string, root: RootMapping, docs: unknown[]): void {
  // warm up the JIT on a slice, then measure the full set three times and keep the best
  for (let i = 0; i < Math.min(docs.length, 20_000); i++) parseDocument(root, docs[i], ctx);
  // CPU time (user + system, all threads incl. GC) is reported beside wall time: on a shared,
  // loaded machine wall time mostly measures waiting for a core
  let bestWall = Infinity;
  let bestCpu = Infinity;
  let values = 0;
  for (let rep = 0; rep < 5; rep++) {
    values = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < docs.length; i++) values += parseDocument(root, docs[i], ctx).values.length;
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    const c = process.cpuUsage(c0);
    bestWall = Math.min(bestWall, wall);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
  }
  const fmt = (ms: number) => Math.round(docs.length / (ms / 1000)).toLocaleString('en-US');
  console.log(
    `${name}: ${docs.length} docs, ${values / docs.length} values/doc: ${fmt(bestCpu)} docs/CPU-s (${bestCpu.toFixed(0)} ms CPU), ${fmt(bestWall)} docs/s wall (${bestWall.toFixed(0)} ms)`,
  );
}

const logs = mergeMapping(
  null,
  parseMapping(
    '_doc',
    {
      properties: typed({
        '@timestamp': 'date',
        clientip: 'ip',
        request: 'text',
        status: 'integer',
        size: 'long',
        country: 'keyword',
      }),
    },
    ctx,
  ),
  ctx,
);
const accounts = mergeMapping(
  null,
  parseMapping(
    '_doc',
    {
      properties: typed({
        account_number: 'long',
        balance: 'long',
        firstname: 'keyword',
        lastname: 'keyword',
        age: 'integer',
        gender: 'keyword',
        address: 'text',
        employer: 'keyword',
        email: 'keyword',
        city: 'keyword',
        state: 'keyword',
      }),
    },
    ctx,
  ),
  ctx,
);

bench('logs (6 fields)', logs, logsDocs(N));
bench('accounts (11 fields)', accounts, accountsDocs(N));
