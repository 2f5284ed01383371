/**
 * `quarry import <file> --index NAME [options]`: loads NDJSON, a JSON array, a `_bulk` file or
 * CSV into an index through `_bulk` (see importer.ts), with progress on stderr and a summary on
 * stdout. Ctrl-C stops reading, lets the bodies in flight finish and keeps the checkpoint for
 * `--resume`; a second Ctrl-C leaves at once. Exit status: 0, 1 when documents failed, 130 when
 * interrupted, 64 for bad arguments.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseByteSizeSimple } from '../byte-size.js';
import { toolClient } from '../http-client.js';
import { progress, rate } from '../progress.js';
import { intOption, parseToolArgs } from '../tool-args.js';
import { askPassword } from '../password-prompt.js';
import { mappingTypes } from './csv.js';
import { runImport } from './importer.js';
import { detectFormat, type ImportFormat } from './records.js';

export const IMPORT_USAGE = `Usage: quarry import FILE --index NAME [options]
Loads FILE into the index NAME through _bulk.
  --url URL            the server (default http://localhost:9200; user:password@ allowed)
  -u, --user USER      log in as USER (the password is asked, hidden)
  --format F           ndjson, json (an array), bulk (_bulk lines) or csv (header row);
                       default: by the file's extension and first line
  --mapping FILE       field types (a mapping's properties or {"field": "type"}): the index
                       is created with them when missing, CSV values are converted to them
  --id-field F         the field holding each document's id (default: made of the file's
                       name and the line number, so a re-run overwrites, never duplicates)
  --concurrency N      _bulk requests in flight (default 4)
  --batch-docs N       documents per _bulk request (default 5000)
  --batch-bytes SIZE   bytes per _bulk request (default 10mb)
  --resume             start after the last fully acknowledged request of an interrupted run
  --checkpoint FILE    where progress is kept (default .<file name>.import-checkpoint)
  --failures FILE      where malformed lines and refused documents go, with their line
                       numbers (default <file name>.failures.ndjson)
  --retries N          retries of a request answered 429 (default 10)
  --no-refresh         do not refresh the index at the end
  -q, --quiet          no progress display`;

export async function importMain(argv: string[]): Promise<number> {
  let a;
  try {
    a = parseToolArgs(argv, {
      values: ['url', 'user', 'format', 'mapping', 'id-field', 'concurrency', 'batch-docs', 'batch-bytes', 'checkpoint', 'failures', 'retries', 'index', 'backoff-ms'], // prettier-ignore
      flags: ['resume', 'no-refresh', 'quiet', 'help'],
      aliases: { '-u': '--user', '-q': '--quiet', '-h': '--help', '-i': '--index' },
    });
  } catch (e) {
    process.stderr.write(`quarry import: ${(e as Error).message}\n${IMPORT_USAGE}\n`);
    return 64;
  }
  if (a.flags.has('help')) {
    process.stdout.write(IMPORT_USAGE + '\n');
    return 0;
  }
  const file = a.positional[0];
  const index = a.values.get('index');
  const bad = (why: string) => {
    process.stderr.write(`quarry import: ${why}\n${IMPORT_USAGE}\n`);
    return 64;
  };
  if (!file || a.positional.length > 1) return bad('one FILE is needed');
  if (!index) return bad('--index is needed');
  if (!existsSync(file)) return bad(`no file [${file}]`);
  let options;
  try {
    const fmt = a.values.get('format') ?? 'auto';
    if (!['auto', 'ndjson', 'json', 'bulk', 'csv'].includes(fmt)) throw new Error(`unknown format [${fmt}]`); // prettier-ignore
    const format: ImportFormat = fmt === 'auto' ? detectFormat(file) : (fmt as ImportFormat);
    const mappingFile = a.values.get('mapping');
    const mapping = mappingFile ? mappingTypes(JSON.parse(readFileSync(mappingFile, 'utf8'))) : null; // prettier-ignore
    const name = basename(file);
    options = {
      file,
      index,
      format,
      concurrency: intOption(a, 'concurrency', 4),
      batchDocs: intOption(a, 'batch-docs', 5000),
      batchBytes: parseByteSizeSimple(a.values.get('batch-bytes') ?? '10mb', 'batch-bytes'),
      resume: a.flags.has('resume'),
      checkpointPath: resolve(a.values.get('checkpoint') ?? `.${name}.import-checkpoint`),
      failuresPath: resolve(a.values.get('failures') ?? `${name}.failures.ndjson`),
      idField: a.values.get('id-field') ?? null,
      types: mapping?.types ?? new Map<string, string>(),
      properties: mapping ? mapping.properties : null,
      refresh: !a.flags.has('no-refresh'),
      maxRetries: Number(a.values.get('retries') ?? 10),
      backoffMs: Number(a.values.get('backoff-ms') ?? 250),
    };
  } catch (e) {
    return bad((e as Error).message);
  }
  const user = a.values.get('user');
  const client = toolClient(
    a.values.get('url') ?? 'http://localhost:9200',
    user ? { user, password: await askPassword(user) } : null,
  );
  const stop = { requested: false };
  const onSigint = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    process.stderr.write('\nstopping: finishing the requests in flight (Ctrl-C again to leave now)\n'); // prettier-ignore
  };
  process.on('SIGINT', onSigint);
  try {
    const r = await runImport(client, options, {
      progress: progress('import', process.stderr, a.flags.has('quiet')),
      log: (l) => process.stderr.write(l + '\n'),
      stop,
    });
    const secs = (r.elapsedMs / 1000).toFixed(1);
    process.stdout.write(
      `${r.interrupted ? 'interrupted: ' : ''}imported ${r.imported} documents into [${index}] from [${file}] ` +
        `in ${secs}s (${Math.round(rate(r.imported, r.elapsedMs))} docs/s), ${r.failed} failed` +
        (r.retries > 0 ? `, ${r.retries} retries` : '') +
        (r.failuresPath ? `; failures in ${r.failuresPath}` : '') +
        (r.interrupted ? `; run again with --resume to go on` : '') +
        '\n',
    );
    return r.interrupted ? 130 : r.failed > 0 ? 1 : 0;
  } catch (e) {
    process.stderr.write(`quarry import: ${(e as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    client.close();
  }
}
