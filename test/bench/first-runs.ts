/**
 * `npx tsx test/bench/first-runs.ts <index> [--compare <built checkout>] [--rounds 4]
 *  [--ids a,b] [--curve]`: each workload query's first runs on a freshly loaded node, timed as
 * `npm run bench` times them (the workload's 10 warm-ups, then the median of the next 200, in
 * workload order, one shard, bulk of 5,000 then refresh), each round in a fresh process (a
 * process's JIT state is what the first runs measure). `--compare`: another built checkout (e.g.
 * main built in a temporary directory), its processes alternated with this one's; prints the
 * per-query median over the rounds, their ratio and the load average. `--curve`: the median of
 * every 25 timed runs too (how the first runs fall as V8 optimizes the request path). Build first.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
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
const index = args[0] ?? 'debian';
const RUNS = 210;
const WARM = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** One fresh node of `base`'s build: loads the index, prints {query id: median ms}. */
async function child(base: string): Promise<void> {
  const h = await readHarnessIndex(root, index);
  const { workload, params, ctx } = h;
  const { call, close } = await loadedNode(base, index, h);
  try {
    const ids = args.includes('--ids') ? opt('ids', '').split(',') : null;
    const out: Record<string, number> = {};
    for (const q of workload.queries) {
      if (q.index !== index || (ids && !ids.includes(q.id))) continue;
      const ps = params.makeParams(q, ctx, RUNS, workload.seed);
      const times: number[] = [];
      for (let i = 0; i < ps.length; i++) {
        const body = params.renderDsl(q, ps[i]).body;
        const t = performance.now();
        const r = await call(q.dsl.method, q.dsl.path, body);
        const dt = performance.now() - t;
        if (r.status !== 200) throw new Error(`${q.id}: ${r.status}`);
        if (i >= WARM) times.push(dt);
      }
      out[q.id] = median(times);
      if (args.includes('--curve')) {
        const parts: string[] = [];
        for (let a = 0; a < times.length; a += 25) parts.push(median(times.slice(a, a + 25)).toFixed(3)); // prettier-ignore
        process.stderr.write(`${q.id} per 25 runs: ${parts.join(' ')}\n`);
      }
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await close();
  }
}

function parent(): void {
  const builds = [root, ...(args.includes('--compare') ? [resolve(opt('compare', ''))] : [])];
  const rounds = Number(opt('rounds', builds.length > 1 ? '4' : '1'));
  const results = builds.map(() => new Map<string, number[]>());
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // alternate which build goes first, so neither always follows the other's load
    const order = r % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
    for (const b of order) {
      loads.push(loadavg()[0]!);
      const line = execFileSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...args, '--child', builds[b]!], // prettier-ignore
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
      );
      const res = JSON.parse(line.trim().split('\n').pop()!) as Record<string, number>;
      for (const [id, ms] of Object.entries(res)) {
        const list = results[b]!.get(id) ?? [];
        list.push(ms);
        results[b]!.set(id, list);
      }
    }
  }
  console.log(`${index}, ${rounds} rounds, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; median over rounds of each round's median ms (runs 11-210)`); // prettier-ignore
  console.log(`| query | ${builds.join(' | ')} |${builds.length > 1 ? ' ratio |' : ''}`);
  for (const [id, xs] of results[0]!) {
    const cells = results.map((m) => median(m.get(id) ?? [NaN]));
    const ratio = builds.length > 1 ? ` ${(cells[0]! / cells[1]!).toFixed(2)} |` : '';
    console.log(`| ${id} | ${cells.map((c) => c.toFixed(4)).join(' | ')} |${ratio}`);
    void xs;
  }
}

if (args.includes('--child')) await child(opt('child', root));
else parent();
