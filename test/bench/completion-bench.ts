/**
 * Issue 15 acceptance: a fuzzy completion suggestion over 100k titles (target median <= 1 ms).
 * Starts a node in-process, bulk-indexes 100k synthetic titles (deterministic PRNG) into a
 * completion field, and times 200 fuzzy suggestions, each a title's prefix with one typo, sent
 * through the HTTP layer in-process (Fastify inject: routing, parsing, the suggester, JSON out;
 * no socket). Also times the same prefixes exact and a regex, for comparison.
 * Run: npx tsx test/bench/completion-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '../../src/node.js';

const TITLES = 100_000;
const QUERIES = 200;

// xorshift32: the same titles and typos on every run
let seed = 0x2545f491;
const rnd = (n: number): number => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};
const SYLLABLES = 'ka lo mi ne ru sa ti vo ba de fi gu ha je ko lu ma no pe ri so ta ve wi yo za'
  .split(' ')
  .concat('an er in on st th ch qu br gr pl tr sl'.split(' '));
const word = (): string =>
  Array.from({ length: 2 + rnd(3) }, () => SYLLABLES[rnd(SYLLABLES.length)]).join('');
const VOCAB = Array.from({ length: 3000 }, word);
const title = (): string => {
  const w = Array.from({ length: 2 + rnd(4) }, () => VOCAB[rnd(VOCAB.length)]!);
  return w.map((x) => x[0]!.toUpperCase() + x.slice(1)).join(' ');
};

/** A title's prefix (5 to 8 letters) with one substituted letter after the first. */
function typo(t: string): string {
  const p = t.toLowerCase().slice(0, 5 + rnd(4));
  const at = 1 + rnd(p.length - 1);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let c = letters[rnd(26)]!;
  while (c === p[at]) c = letters[rnd(26)]!;
  return p.slice(0, at) + c + p.slice(at + 1);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-completion-bench-'));
  const node = await startNode({ dataPath: dir, port: 0 });
  try {
    const inject = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
      const r = await node.app.inject({
        method,
        url,
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      });
      if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body) as Record<string, any>;
    };
    await inject('PUT', '/titles', {
      settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: -1 },
      mappings: { doc: { properties: { title: { type: 'completion', analyzer: 'simple' } } } },
    });
    const titles = Array.from({ length: TITLES }, title);
    const t0 = performance.now();
    for (let i = 0; i < TITLES; i += 5000) {
      const lines: string[] = [];
      for (let j = i; j < Math.min(TITLES, i + 5000); j++) {
        lines.push(JSON.stringify({ index: { _index: 'titles', _type: 'doc', _id: String(j) } }));
        lines.push(JSON.stringify({ title: { input: titles[j], weight: 1 + rnd(100) } }));
      }
      const r = await node.app.inject({
        method: 'POST',
        url: '/_bulk',
        payload: lines.join('\n') + '\n',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      if (r.statusCode !== 200 || JSON.parse(r.body).errors) throw new Error('bulk failed');
    }
    await inject('POST', '/titles/_refresh', {});
    await inject('POST', '/titles/_forcemerge?max_num_segments=1', {}).catch(() => undefined);
    const count = (await inject('POST', '/titles/_count', {})).count as number;
    if (count !== TITLES) throw new Error(`expected ${TITLES} documents, counted ${count}`);
    const segs = await node.app.inject({ method: 'GET', url: '/_cat/segments/titles?h=segment' });
    console.log(`segments: ${segs.body.trim().split('\n').length}`);
    console.log(`indexed ${TITLES} titles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const typed = Array.from({ length: QUERIES }, () => typo(titles[rnd(TITLES)]!));
    const run = async (label: string, body: (p: string) => unknown) => {
      for (const p of typed.slice(0, 20)) await inject('POST', '/titles/_search', body(p)); // warm
      const ms: number[] = [];
      let found = 0;
      for (const p of typed) {
        const s = performance.now();
        const r = await inject('POST', '/titles/_search', body(p));
        ms.push(performance.now() - s);
        if (r.suggest.s[0].options.length > 0) found++;
      }
      console.log(
        `${label}: median ${median(ms).toFixed(3)} ms, p90 ${pct(ms, 0.9).toFixed(3)} ms, ` +
          `max ${Math.max(...ms).toFixed(3)} ms, ${found}/${QUERIES} with options`,
      );
    };
    const completion = (p: string, extra: Record<string, unknown> = {}) => ({
      size: 0,
      suggest: { s: { prefix: p, completion: { field: 'title', size: 5, ...extra } } },
    });
    await run('fuzzy (one typo, fuzziness 1)', (p) => completion(p, { fuzzy: true }));
    await run('fuzzy AUTO', (p) => completion(p, { fuzzy: { fuzziness: 'AUTO' } }));
    await run('exact prefix (same typo)', (p) => completion(p));
    await run('regex (first 3 letters, [a-z]*)', (p) => ({
      size: 0,
      suggest: { s: { regex: `${p.slice(0, 3)}[a-z]*`, completion: { field: 'title', size: 5 } } },
    }));
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
