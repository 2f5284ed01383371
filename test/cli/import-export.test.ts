/**
 * `quarry import` and `quarry export` against a real node on an ephemeral port (in process through
 * runImport / runExport, and `bin/quarry` for the interrupted run, which needs `npm run build`):
 * NDJSON, JSON array, `_bulk` and CSV files land the right documents; malformed lines are
 * reported with their line numbers and the rest goes in; 429 answers (whole and per item, from a
 * stub server) are retried; an import stopped with SIGINT and run again with --resume ends with
 * exactly the file's documents; exports round-trip.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { toolClient, type ToolClient } from '../../src/cli/http-client.js';
import { runImport, type ImportOptions } from '../../src/cli/import/importer.js';
import { detectFormat, idPrefix } from '../../src/cli/import/records.js';
import { mappingTypes } from '../../src/cli/import/csv.js';
import { runExport } from '../../src/cli/export.js';
import type { Progress } from '../../src/cli/progress.js';

let node: TestNode;
let client: ToolClient;
const dir = mkdtempSync(join(tmpdir(), 'quarry-import-'));
const QUARRY = resolve(__dirname, '../../bin/quarry');

beforeAll(async () => {
  node = await startTestNode();
  client = toolClient(node.url, null);
}, 60_000);

afterAll(async () => {
  client.close();
  await node.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const silent: Progress = { update: () => undefined, done: () => undefined };

function opts(file: string, index: string, more: Partial<ImportOptions> = {}): ImportOptions {
  return {
    file,
    index,
    format: detectFormat(file),
    concurrency: 4,
    batchDocs: 100,
    batchBytes: 1 << 20,
    resume: false,
    checkpointPath: join(dir, `${index}.checkpoint`),
    failuresPath: join(dir, `${index}.failures.ndjson`),
    idField: null,
    types: new Map(),
    properties: null,
    refresh: true,
    maxRetries: 5,
    backoffMs: 10,
    ...more,
  };
}

async function load(file: string, index: string, more: Partial<ImportOptions> = {}) {
  const logs: string[] = [];
  const r = await runImport(client, opts(file, index, more), {
    progress: silent,
    log: (l) => logs.push(l),
    stop: { requested: false },
  });
  return { ...r, logs };
}

async function sources(index: string): Promise<Array<Record<string, unknown>>> {
  const r = await node.req('POST', `/${index}/_search`, { size: 10000, sort: ['_doc'] });
  expect(r.status).toBe(200);
  return (r.json.hits.hits as Array<{ _source: Record<string, unknown> }>).map((h) => h._source);
}
const byN = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.n) - Number(b.n);
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('quarry import', () => {
  it('loads NDJSON, reports a malformed line with its number and goes on', async () => {
    const lines = Array.from({ length: 250 }, (_, n) => JSON.stringify({ n, tag: `t${n % 3}` }));
    lines.splice(41, 0, '{"n": 9999, oops}'); // line 42
    lines.splice(99, 0, '[1, 2]'); // line 100: not an object
    const file = write('docs.ndjson', lines.join('\n') + '\n\n');
    const r = await load(file, 'nd');
    expect(r).toMatchObject({ imported: 250, failed: 2, interrupted: false });
    const failures = readFileSync(r.failuresPath!, 'utf8').trim().split('\n').map((l) => JSON.parse(l)); // prettier-ignore
    expect(failures.map((f) => f.line)).toEqual([42, 100]);
    expect(failures[0].text).toBe('{"n": 9999, oops}');
    expect(failures[1].reason).toBe('malformed: not a JSON object');
    expect(r.logs[0]).toMatch(/^line 42: malformed: /);
    const docs = (await sources('nd')).sort(byN);
    expect(docs).toHaveLength(250);
    expect(docs[7]).toEqual({ n: 7, tag: 't1' });
    // ids are made of the file name and the line: a second run overwrites
    const again = await load(file, 'nd');
    expect(again.imported).toBe(250);
    expect((await node.req('GET', '/nd/_count')).json.count).toBe(250);
    const one = await node.req('GET', `/nd/_doc/${idPrefix(file)}-1`);
    expect(one.json._source).toEqual({ n: 0, tag: 't0' });
  });

  it('loads a JSON array spread over lines, with its own ids when asked', async () => {
    const docs = Array.from({ length: 130 }, (_, n) => ({ n, id: `doc-${n}`, text: 'a "quoted" ]} [{ \u00e9' })); // prettier-ignore
    const file = write('docs.json', JSON.stringify(docs, null, 2));
    expect(detectFormat(file)).toBe('json');
    const r = await load(file, 'arr', { idField: 'id' });
    expect(r).toMatchObject({ imported: 130, failed: 0 });
    expect((await sources('arr')).sort(byN)).toEqual(docs);
    expect((await node.req('GET', '/arr/_doc/doc-5')).json._source).toEqual(docs[5]);
  });

  it('loads a _bulk file: its ids, its deletes, and a made id where the action has none', async () => {
    const file = write('docs.bulk', [
      '{"index":{"_id":"a"}}', '{"n":1}',
      '{"index":{}}', '{"n":2}',
      '{"create":{"_id":"c"}}', '{"n":3}',
      '{"index":{"_id":"gone"}}', '{"n":4}',
      '{"delete":{"_id":"gone"}}',
      '{"index":{"_id":"x"}', '{"n":5}',
    ].join('\n') + '\n'); // prettier-ignore
    expect(detectFormat(file)).toBe('bulk');
    const r = await load(file, 'bk', { concurrency: 1, batchDocs: 1000 });
    expect(r.imported).toBe(5);
    // line 10: a broken action; line 11, its source, is then no action either
    expect(r.failed).toBe(2);
    const failures = readFileSync(r.failuresPath!, 'utf8').trim().split('\n').map((l) => JSON.parse(l)); // prettier-ignore
    expect(failures.map((f) => [f.line, f.reason.split(':')[0]])).toEqual([[10, 'malformed'], [11, 'malformed']]); // prettier-ignore
    expect(failures[1].reason).toBe(
      'malformed: not a bulk action (index, create, update or delete)',
    );
    expect((await sources('bk')).sort(byN)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect((await node.req('GET', `/bk/_doc/${idPrefix(file)}-3`)).json._source).toEqual({ n: 2 });
  });

  it('loads CSV with inferred types, or the types and mapping of --mapping', async () => {
    const csv =
      'n,name,score,ok,zip\n1,Ann,3.5,true,01234\n2,"Bob, Jr.","4",false,\n3,"multi\nline ""quoted""",,true,99\n4,short\n';
    const file = write('people.csv', csv);
    const r = await load(file, 'csv1');
    expect(r).toMatchObject({ imported: 3, failed: 1 });
    expect(readFileSync(r.failuresPath!, 'utf8')).toContain('"line":6');
    expect((await sources('csv1')).sort(byN)).toEqual([
      { n: 1, name: 'Ann', score: 3.5, ok: true, zip: '01234' }, // a leading zero stays text
      { n: 2, name: 'Bob, Jr.', score: 4, ok: false },
      { n: 3, name: 'multi\nline "quoted"', ok: true, zip: 99 },
    ]);
    const m = mappingTypes({ properties: { zip: { type: 'keyword' }, score: { type: 'float' } } });
    const typed = await load(file, 'csv2', { types: m.types, properties: m.properties });
    expect(typed.imported).toBe(3);
    expect((await sources('csv2')).sort(byN).map((d) => d.zip)).toEqual(['01234', undefined, '99']); // prettier-ignore
    const mapping = await node.req('GET', '/csv2/_mapping');
    expect(mapping.json.csv2.mappings._doc.properties.zip).toEqual({ type: 'keyword' });
  });

  it('retries a 429 answer and items refused with 429, with backoff', async () => {
    const received = new Map<string, unknown>();
    let requests = 0;
    const stub: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (!req.url!.includes('_bulk')) return res.end('{}');
        requests++;
        if (requests === 1) {
          res.statusCode = 429;
          return res.end('{"error":{"type":"es_rejected_execution_exception","reason":"queue full"},"status":429}'); // prettier-ignore
        }
        const lines = body.trim().split('\n');
        const items = [];
        for (let i = 0; i < lines.length; i += 2) {
          const id = JSON.parse(lines[i]!).index._id as string;
          // the second request refuses its first document once
          if (requests === 2 && i === 0)
            items.push({ index: { _id: id, status: 429, error: { type: 'es_rejected_execution_exception', reason: 'busy' } } }); // prettier-ignore
          else {
            received.set(id, JSON.parse(lines[i + 1]!));
            items.push({ index: { _id: id, status: 201 } });
          }
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ took: 1, errors: items.some((x) => x.index.status !== 201), items })); // prettier-ignore
      });
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const port = (stub.address() as { port: number }).port;
    const c = toolClient(`http://127.0.0.1:${port}`, null);
    try {
      const file = write('retry.ndjson', Array.from({ length: 30 }, (_, n) => JSON.stringify({ n })).join('\n') + '\n'); // prettier-ignore
      const logs: string[] = [];
      const r = await runImport(c, opts(file, 'r', { concurrency: 1, batchDocs: 10, refresh: false }), { progress: silent, log: (l) => logs.push(l), stop: { requested: false } }); // prettier-ignore
      expect(r).toMatchObject({ imported: 30, failed: 0, retries: 2 });
      expect(received.size).toBe(30);
      expect(requests).toBe(5); // 429, partial, the refused item again, two more bodies
      expect(logs[0]).toMatch(/^retrying 10 documents in 10 ms \(HTTP 429: queue full\)$/);
      expect(logs[1]).toBe('retrying 1 documents in 20 ms (1 documents refused with 429)');
    } finally {
      c.close();
      stub.close();
    }
  });

  it('resumes an import stopped by SIGINT without duplicating documents', async () => {
    const N = 30_000;
    const file = write('big.ndjson', Array.from({ length: N }, (_, n) => JSON.stringify({ n, pad: 'x'.repeat(40) })).join('\n') + '\n'); // prettier-ignore
    // a proxy slowing each _bulk down so the first run is stopped mid-way
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        setTimeout(() => {
          void fetch(node.url + req.url, { method: req.method!, headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') }, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }) // prettier-ignore
            .then(async (r) => {
              res.statusCode = r.status;
              res.end(Buffer.from(await r.arrayBuffer()));
            })
            .catch(() => res.destroy());
        }, 40);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const cp = join(dir, 'big.checkpoint');
    const args = ['import', file, '--index', 'resumed', '--url', url, '--batch-docs', '500', '--concurrency', '2', '--checkpoint', cp, '--failures', join(dir, 'big.failures')]; // prettier-ignore
    const run = (extra: string[], stopWhen?: () => boolean) =>
      new Promise<{ code: number | null; out: string; err: string }>((res, rej) => {
        const child = spawn(process.execPath, [QUARRY, ...args, ...extra], { cwd: dir });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        const timer = stopWhen
          ? setInterval(() => {
              if (stopWhen()) {
                clearInterval(timer);
                child.kill('SIGINT');
              }
            }, 20)
          : undefined;
        child.on('error', rej);
        child.on('close', (code) => {
          if (timer) clearInterval(timer);
          res({ code, out, err });
        });
      });
    try {
      const first = await run([], () => existsSync(cp));
      expect(first.code).toBe(130);
      expect(first.out).toMatch(/^interrupted: imported \d+ documents .*--resume/);
      const saved = JSON.parse(readFileSync(cp, 'utf8')) as { offset: number; nextLine: number };
      expect(saved.nextLine).toBeGreaterThan(1);
      expect(saved.nextLine).toBeLessThan(N);
      await node.req('POST', '/resumed/_refresh');
      const before = (await node.req('GET', '/resumed/_count')).json.count as number;
      expect(before).toBeLessThan(N);

      const second = await run(['--resume', '--quiet']);
      expect(second.code).toBe(0);
      expect(second.err).toContain(`resuming at line ${saved.nextLine}`);
      expect(existsSync(cp)).toBe(false);
      expect((await node.req('GET', '/resumed/_count')).json.count).toBe(N);
      const r = await node.req('POST', '/resumed/_search', { size: 0, aggs: { d: { cardinality: { field: 'n' } }, m: { max: { field: 'n' } } } }); // prettier-ignore
      expect(r.json.aggregations.m.value).toBe(N - 1);
    } finally {
      proxy.close();
    }
  }, 120_000);
});

describe('quarry export', () => {
  const collect = () => {
    let text = '';
    const out = new Writable({
      write(c, _e, cb) {
        text += String(c);
        cb();
      },
    });
    return { out, text: () => text };
  };

  it('round-trips NDJSON, _bulk (same ids) and CSV through import', async () => {
    const docs = Array.from({ length: 1234 }, (_, n) => ({ n, name: `d${n}`, geo: { city: n % 2 ? 'Oslo' : 'Rome, IT' } })); // prettier-ignore
    const src = write('src.ndjson', docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    expect((await load(src, 'ex-src')).imported).toBe(1234);

    for (const format of ['ndjson', 'bulk', 'csv'] as const) {
      const c = collect();
      const r = await runExport(client, { index: 'ex-src', query: null, format, fields: null, size: 100 }, c.out, silent); // prettier-ignore
      expect(r.docs).toBe(1234);
      const file = write(`exported.${format === 'bulk' ? 'bulk' : format}`, c.text());
      const target = `ex-${format}`;
      expect((await load(file, target)).imported).toBe(1234);
      expect((await sources(target)).sort(byN)).toEqual(docs);
      if (format === 'csv') expect(c.text().split('\n')[0]).toBe('geo.city,n,name');
      if (format === 'bulk') {
        const id = `${idPrefix(src)}-10`;
        expect((await node.req('GET', `/${target}/_doc/${id}`)).json._source).toEqual(docs[9]);
      }
    }
  });

  it('exports what a query matches', async () => {
    const c = collect();
    const r = await runExport(client, { index: 'ex-src', query: { range: { n: { lt: 5 } } }, format: 'ndjson', fields: null, size: 2 }, c.out, silent); // prettier-ignore
    expect(r.docs).toBe(5);
    expect(
      c
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).n)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});
