/**
 * `quarry export --index NAME [options]`: writes an index's documents, or those a query matches,
 * as NDJSON (one `_source` a line), `_bulk` lines (with `_id`, so an import restores the same
 * ids) or CSV (a header of the mapping's fields, dotted for objects), reading them with a scroll
 * and writing with backpressure (nothing held but a page). Progress on stderr as for imports.
 */
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { csvField } from './import/csv.js';
import { errorReason, toolClient, type ToolClient } from './http-client.js';
import { askPassword } from './password-prompt.js';
import { progress, rate } from './progress.js';
import { intOption, parseToolArgs } from './tool-args.js';

export const EXPORT_USAGE = `Usage: quarry export --index NAME [options]
Writes the documents of NAME (an index, alias or pattern) to a file or stdout.
  --url URL            the server (default http://localhost:9200; user:password@ allowed)
  -u, --user USER      log in as USER (the password is asked, hidden)
  --query JSON         only the documents this query matches ({"match": {...}} or
                       {"query": {...}})
  --query-file FILE    the query from a file
  --format F           ndjson (default: the sources), bulk (_bulk lines with _id) or csv
  --fields A,B,...     CSV columns (default: the mapping's fields)
  -o, --output FILE    where to write (default stdout)
  --size N             documents per scroll page (default 1000)
  -q, --quiet          no progress display`;

export type ExportFormat = 'ndjson' | 'bulk' | 'csv';

interface Hit {
  _index: string;
  _type?: string;
  _id: string;
  _source?: Record<string, unknown>;
}

/** The leaf fields of a mapping's properties, dotted (multi-fields left out). */
export function mappingFields(properties: Record<string, any>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(properties)) {
    if (v && typeof v === 'object' && v.properties)
      out.push(...mappingFields(v.properties, `${prefix}${k}.`)); // prettier-ignore
    else out.push(prefix + k);
  }
  return out;
}

/** A dotted field's value in a source: through objects, or a key holding the dots itself. */
export function fieldValue(source: Record<string, unknown>, path: string): unknown {
  if (path in source) return source[path];
  for (let i = path.indexOf('.'); i > 0; i = path.indexOf('.', i + 1)) {
    const head = source[path.slice(0, i)];
    if (head && typeof head === 'object' && !Array.isArray(head)) {
      const v = fieldValue(head as Record<string, unknown>, path.slice(i + 1));
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

export function hitLine(hit: Hit, format: ExportFormat, fields: readonly string[]): string {
  const src = hit._source ?? {};
  if (format === 'ndjson') return JSON.stringify(src) + '\n';
  if (format === 'bulk') return `${JSON.stringify({ index: { _id: hit._id } })}\n${JSON.stringify(src)}\n`; // prettier-ignore
  return fields.map((f) => csvField(fieldValue(src, f))).join(',') + '\n';
}

async function csvColumns(client: ToolClient, index: string): Promise<string[]> {
  const a = await client.send('GET', `/${encodeURIComponent(index)}/_mapping`);
  if (a.status !== 200) throw new Error(`could not read the mapping of [${index}]: ${errorReason(a)}`); // prettier-ignore
  const body = JSON.parse(a.text) as Record<string, { mappings?: Record<string, any> }>;
  const fields = new Set<string>();
  for (const idx of Object.values(body)) {
    const m = idx.mappings ?? {};
    const props = m.properties ?? Object.values(m).find((t: any) => t && t.properties)?.properties ?? {}; // prettier-ignore
    for (const f of mappingFields(props)) fields.add(f);
  }
  return [...fields];
}

export interface ExportOptions {
  readonly index: string;
  readonly query: unknown;
  readonly format: ExportFormat;
  readonly fields: readonly string[] | null;
  readonly size: number;
}

export async function runExport(
  client: ToolClient,
  o: ExportOptions,
  out: NodeJS.WritableStream,
  prog: ReturnType<typeof progress>,
): Promise<{ docs: number; elapsedMs: number }> {
  const t0 = performance.now();
  const fields = o.format === 'csv' ? (o.fields ?? (await csvColumns(client, o.index))) : [];
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  if (o.format === 'csv') await write(fields.map(csvField).join(',') + '\n');
  const body: Record<string, unknown> = { size: o.size, sort: ['_doc'] };
  if (o.query !== null) body.query = o.query;
  let a = await client.send('POST', `/${encodeURIComponent(o.index)}/_search?scroll=2m`, JSON.stringify(body)); // prettier-ignore
  let docs = 0;
  let scrollId: string | null = null;
  try {
    for (;;) {
      if (a.status !== 200) throw new Error(`search failed: ${errorReason(a)}`);
      const r = JSON.parse(a.text) as { _scroll_id?: string; hits: { total: number | { value: number }; hits: Hit[] } }; // prettier-ignore
      scrollId = r._scroll_id ?? null;
      const total = typeof r.hits.total === 'number' ? r.hits.total : r.hits.total.value;
      if (r.hits.hits.length === 0) break;
      await write(r.hits.hits.map((h) => hitLine(h, o.format, fields)).join(''));
      docs += r.hits.hits.length;
      prog.update(docs / Math.max(1, total), docs);
      if (scrollId === null) break;
      a = await client.send('POST', '/_search/scroll', JSON.stringify({ scroll: '2m', scroll_id: scrollId })); // prettier-ignore
    }
  } finally {
    if (scrollId !== null)
      await client.send('DELETE', '/_search/scroll', JSON.stringify({ scroll_id: [scrollId] })).catch(() => undefined); // prettier-ignore
  }
  prog.update(1, docs);
  prog.done();
  return { docs, elapsedMs: performance.now() - t0 };
}

export async function exportMain(argv: string[]): Promise<number> {
  let a;
  try {
    a = parseToolArgs(argv, {
      values: ['url', 'user', 'index', 'query', 'query-file', 'format', 'fields', 'output', 'size'],
      flags: ['quiet', 'help'],
      aliases: { '-u': '--user', '-o': '--output', '-q': '--quiet', '-h': '--help', '-i': '--index' }, // prettier-ignore
    });
  } catch (e) {
    process.stderr.write(`quarry export: ${(e as Error).message}\n${EXPORT_USAGE}\n`);
    return 64;
  }
  if (a.flags.has('help')) {
    process.stdout.write(EXPORT_USAGE + '\n');
    return 0;
  }
  const bad = (why: string) => {
    process.stderr.write(`quarry export: ${why}\n${EXPORT_USAGE}\n`);
    return 64;
  };
  const index = a.values.get('index') ?? a.positional[0];
  if (!index) return bad('--index is needed');
  const format = a.values.get('format') ?? 'ndjson';
  if (format !== 'ndjson' && format !== 'bulk' && format !== 'csv') return bad(`unknown format [${format}]`); // prettier-ignore
  let query: unknown = null;
  let size: number;
  try {
    const qText = a.values.get('query') ?? (a.values.has('query-file') ? readFileSync(a.values.get('query-file')!, 'utf8') : null); // prettier-ignore
    if (qText !== null) {
      const q = JSON.parse(qText) as Record<string, unknown>;
      query = q && typeof q === 'object' && 'query' in q ? q.query : q;
    }
    size = intOption(a, 'size', 1000);
  } catch (e) {
    return bad(`bad query or size: ${(e as Error).message}`);
  }
  const user = a.values.get('user');
  const client = toolClient(
    a.values.get('url') ?? 'http://localhost:9200',
    user ? { user, password: await askPassword(user) } : null,
  );
  const output = a.values.get('output');
  const out = output && output !== '-' ? createWriteStream(output) : process.stdout;
  try {
    const r = await runExport(
      client,
      { index, query, format, fields: a.values.get('fields')?.split(',') ?? null, size },
      out,
      progress('export', process.stderr, a.flags.has('quiet')),
    );
    if (out !== process.stdout) {
      out.end();
      await once(out, 'finish');
    }
    process.stderr.write(
      `exported ${r.docs} documents from [${index}] in ${(r.elapsedMs / 1000).toFixed(1)}s (${Math.round(rate(r.docs, r.elapsedMs))} docs/s)${output ? ` to ${output}` : ''}\n`,
    );
    return 0;
  } catch (e) {
    process.stderr.write(`quarry export: ${(e as Error).message}\n`);
    return 1;
  } finally {
    client.close();
  }
}
