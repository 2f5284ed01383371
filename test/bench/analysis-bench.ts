/**
 * `npm run bench -- --analysis`: the cost of analysis and highlighting, side by side in one run
 * against one `bin/quarry` process (issue 15):
 * - indexing the debian data set's descriptions with the `standard` analyzer, the `english`
 *   analyzer, and a custom analyzer with a `shingle` filter: docs/s and the ratio to standard;
 * - a match query on the description returning 10 hits, with and without highlighting the
 *   description (unified highlighter), medians over keep-alive HTTP: the difference is what
 *   highlighting 10 hits adds.
 * Every load is checked (each item created, counts equal after refresh); every highlighted answer
 * must carry a highlight on each hit that has the term. Writes reports/bench-analysis-<stamp>.md.
 *
 * Options: --analysis-docs N (all 63k debian docs by default), --analysis-runs N (300).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bulkBodies, loadBulk } from './bulk-load.js';
import { ensureDebian } from './harness.js';
import { cpuSeconds } from './proc-stats.js';
import { httpClient, startServerProcess } from './server-process.js';

export interface AnalysisBenchOptions {
  readonly docs: number;
  readonly runs: number;
}

export function analysisOptions(args: readonly string[]): AnalysisBenchOptions {
  const opt = (n: string, d: string) => {
    const i = args.indexOf(`--${n}`);
    return Number(i >= 0 ? args[i + 1]! : d);
  };
  return { docs: opt('analysis-docs', '1000000'), runs: opt('analysis-runs', '300') };
}

const ANALYZERS: Record<string, Record<string, unknown>> = {
  standard: { type: 'standard' },
  english: { type: 'english' },
  shingle: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'shingles'] },
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export async function runAnalysisBench(root: string, o: AnalysisBenchOptions): Promise<string> {
  const harness = ensureDebian(root);
  const lines = readFileSync(join(harness, 'data/out/debian.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, o.docs)
    .map((l) => {
      const d = JSON.parse(l) as { name: string; description: string };
      return JSON.stringify({ name: d.name, description: d.description });
    });
  const data = mkdtempSync(join(tmpdir(), 'quarry-analysis-bench-'));
  const server = await startServerProcess(root, data);
  const url = `http://127.0.0.1:${server.port}`;
  const call = httpClient(server.port);
  const problems: string[] = [];
  const rows: string[] = [];
  try {
    const loads: Record<string, { perS: number; cpuUs: number }> = {};
    for (const name of Object.keys(ANALYZERS)) {
      const r = await call('PUT', `/d-${name}`, {
        settings: {
          number_of_shards: 1,
          number_of_replicas: 0,
          analysis: {
            filter: { shingles: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 2 } },
            analyzer: { body: ANALYZERS[name] },
          },
        },
        mappings: { _doc: { properties: { name: { type: 'keyword' }, description: { type: 'text', analyzer: 'body' } } } }, // prettier-ignore
      });
      if (r.status !== 200) throw new Error(`create d-${name}: ${r.body}`);
    }
    // two rounds, alternating, so drift on a shared machine hits every analyzer alike
    const half = Math.floor(lines.length / 2);
    for (const part of [lines.slice(0, half), lines.slice(half)]) {
      for (const name of Object.keys(ANALYZERS)) {
        const cpu0 = cpuSeconds(server.pid);
        const r = await loadBulk([url], bulkBodies(part, `d-${name}`, 2000), 4, 1);
        const cpu = cpuSeconds(server.pid) - cpu0;
        problems.push(...r.problems);
        const prev = loads[name] ?? { perS: 0, cpuUs: 0 };
        // accumulate time and CPU; turned into rates below
        loads[name] = { perS: prev.perS + r.wallMs, cpuUs: prev.cpuUs + cpu };
      }
    }
    await call('POST', '/_refresh');
    for (const name of Object.keys(ANALYZERS)) {
      const c = JSON.parse((await call('GET', `/d-${name}/_count`)).body) as { count: number };
      if (c.count !== lines.length)
        problems.push(`d-${name}: ${c.count} docs, want ${lines.length}`);
    }
    const std = lines.length / loads.standard!.perS;
    rows.push(
      '| analyzer | docs | docs/s | vs standard | server CPU µs/doc |',
      '|---|---|---|---|---|',
    );
    for (const [name, l] of Object.entries(loads)) {
      const perS = lines.length / l.perS;
      rows.push(`| ${name} | ${lines.length} | ${Math.round(perS * 1000)} | ${(perS / std).toFixed(2)}× | ${((l.cpuUs / lines.length) * 1e6).toFixed(1)} |`); // prettier-ignore
    }

    // Highlighting: the same match queries with and without a highlight, interleaved.
    const words = ['library', 'python', 'server', 'development', 'documentation', 'game', 'data', 'files', 'network', 'module', 'tool', 'kernel']; // prettier-ignore
    const plain: number[] = [];
    const lit: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      const q = { size: 10, query: { match: { description: words[i % words.length] } } };
      for (const withHl of i % 2 === 0 ? [false, true] : [true, false]) {
        const body = withHl ? { ...q, highlight: { fields: { description: {} } } } : q;
        const t = performance.now();
        const r = await call('POST', '/d-standard/_search', body);
        const ms = performance.now() - t;
        (withHl ? lit : plain).push(ms);
        if (withHl && i < 20) {
          const hits = (JSON.parse(r.body) as { hits: { hits: Array<{ highlight?: unknown }> } }).hits.hits; // prettier-ignore
          if (hits.length === 0 || hits.some((h) => !h.highlight))
            problems.push(`highlight of [${q.query.match.description}]: a hit without highlight`);
        }
      }
    }
    const mp = median(plain);
    const mh = median(lit);
    const md = [
      `# Quarry analysis benchmark ${new Date().toISOString()}`,
      '',
      `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`, // prettier-ignore
      `one \`bin/quarry\` process; debian descriptions; 4 keep-alive bulk clients, 2000 docs per \`_bulk\`; 1-shard indices`,
      '',
      ...rows,
      '',
      '| query (HTTP, keep-alive, 10 hits) | median ms |',
      '|---|---|',
      `| match on description | ${mp.toFixed(3)} |`,
      `| same, highlighting description | ${mh.toFixed(3)} |`,
      `| highlighting adds | ${(mh - mp).toFixed(3)} |`,
      '',
      problems.length
        ? `**problems:** ${problems.slice(0, 10).join('; ')}`
        : 'checks: every item created, counts equal, highlighted hits carry highlights',
      '',
    ].join('\n');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    mkdirSync(join(root, 'reports'), { recursive: true });
    writeFileSync(join(root, `reports/bench-analysis-${stamp}.md`), md);
    if (problems.length) process.exitCode = 1;
    return md;
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
}
