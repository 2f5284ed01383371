/**
 * Runs an import: records read from the file are cut into `_bulk` bodies (by documents and
 * bytes), `concurrency` of them in flight; a 429 answer, or items refused with 429, are sent again
 * after an exponential backoff; other refused items and unreadable records go to the failures
 * file with their line numbers. The checkpoint follows the longest run of acknowledged bodies
 * from the start, so an interrupted import resumes after the last one fully acknowledged.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorReason, type ToolClient } from '../http-client.js';
import type { Progress } from '../progress.js';
import {
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
  type Checkpoint,
} from './checkpoint.js';
import { readRecords, type ImportFormat, type ImportRecord } from './records.js';

type DocRecord = Extract<ImportRecord, { kind: 'doc' }>;

export interface ImportOptions {
  readonly file: string;
  readonly index: string;
  readonly format: ImportFormat;
  readonly concurrency: number;
  readonly batchDocs: number;
  readonly batchBytes: number;
  readonly resume: boolean;
  readonly checkpointPath: string;
  readonly failuresPath: string;
  readonly idField: string | null;
  readonly types: ReadonlyMap<string, string>;
  /** Mapping properties to create the index with when it does not exist. */
  readonly properties: Record<string, unknown> | null;
  readonly refresh: boolean;
  readonly maxRetries: number;
  /** First backoff; doubled at each retry of the same body, capped at 30 s. */
  readonly backoffMs: number;
}

export interface ImportResult {
  readonly imported: number;
  /** Documents the server refused and records that could not be read. */
  readonly failed: number;
  readonly retries: number;
  readonly elapsedMs: number;
  readonly interrupted: boolean;
  /** The line the import started at (1, or after a checkpoint). */
  readonly startLine: number;
  readonly failuresPath: string | null;
}

export interface ImportIo {
  readonly progress: Progress;
  /** A line for the user (stderr). */
  log(line: string): void;
  /** Set when the user asks to stop (Ctrl-C): reading stops, bodies in flight finish. */
  readonly stop: { requested: boolean };
}

interface Batch {
  readonly seq: number;
  readonly docs: DocRecord[];
  readonly end: number;
  readonly next: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ALL_OK = /^\{"took":\d+,"errors":false,/;

export async function runImport(
  client: ToolClient,
  o: ImportOptions,
  io: ImportIo,
): Promise<ImportResult> {
  const t0 = performance.now();
  const file = resolve(o.file);
  const size = statSync(file).size;
  let start = 0;
  let startLine = 1;
  let imported = 0;
  let failed = 0;
  let retries = 0;
  const cp = o.resume ? readCheckpoint(o.checkpointPath) : null;
  if (o.resume && cp) {
    if (cp.file !== file || cp.index !== o.index || cp.size > size)
      throw new Error(`the checkpoint [${o.checkpointPath}] is for another import (${cp.file} into [${cp.index}])`); // prettier-ignore
    start = cp.offset;
    startLine = cp.nextLine;
    imported = cp.imported;
    failed = cp.failed;
    io.log(`resuming at line ${startLine} (byte ${start}): ${imported} documents imported before`);
  } else if (o.resume) io.log(`no checkpoint at ${o.checkpointPath}: starting at the beginning`);

  await ensureIndex(client, o);

  // failures: opened on the first one
  let failFd: number | null = null;
  let shownFailures = 0;
  const fail = (line: number, reason: string, text: string) => {
    failed++;
    failFd ??= openSync(o.failuresPath, o.resume && cp ? 'a' : 'w');
    writeSync(failFd, JSON.stringify({ line, reason, text: text.slice(0, 1000) }) + '\n');
    if (shownFailures++ < 10) io.log(`line ${line}: ${reason}`);
    else if (shownFailures === 11) io.log(`(more failures in ${o.failuresPath})`);
  };

  // the checkpoint: bodies acknowledged out of order wait for those before them
  const acked = new Map<number, Batch>();
  let nextToCommit = 0;
  let committed: Checkpoint | null = null;
  const commit = () => {
    let advanced = false;
    for (let b = acked.get(nextToCommit); b; b = acked.get(nextToCommit)) {
      acked.delete(nextToCommit++);
      committed = { file, size, index: o.index, offset: b.end, nextLine: b.next, imported, failed }; // prettier-ignore
      advanced = true;
    }
    if (advanced && committed) writeCheckpoint(o.checkpointPath, committed);
  };

  const path = `/${encodeURIComponent(o.index)}/_doc/_bulk`;
  const send = async (batch: Batch): Promise<void> => {
    let todo = batch.docs;
    for (let attempt = 0; todo.length > 0; attempt++) {
      const body = todo.map((r) => (r.source === null ? `${r.action}\n` : `${r.action}\n${r.source}\n`)).join(''); // prettier-ignore
      let again: DocRecord[] = [];
      let whole: string | null = null; // why the whole body failed
      try {
        const a = await client.send('POST', path, body, 'application/x-ndjson');
        if (a.status === 429 || a.status === 503) {
          again = todo;
          whole = `HTTP ${a.status}: ${errorReason(a)}`;
        } else if (a.status !== 200) {
          for (const r of todo) fail(r.line, `HTTP ${a.status}: ${errorReason(a)}`, r.source ?? r.action); // prettier-ignore
          return;
        } else if (ALL_OK.test(a.text)) imported += todo.length;
        else {
          const items = (JSON.parse(a.text) as { items?: Array<Record<string, BulkItem>> }).items ?? []; // prettier-ignore
          if (items.length !== todo.length) {
            for (const r of todo) fail(r.line, `${items.length} answers for ${todo.length} documents`, r.source ?? r.action); // prettier-ignore
            return;
          }
          items.forEach((it, i) => {
            const [op, r] = Object.entries(it)[0] ?? ['', undefined];
            const rec = todo[i]!;
            if (!r) fail(rec.line, 'no answer', rec.source ?? rec.action);
            else if (r.status < 300 || (op === 'delete' && r.status === 404)) imported++;
            else if (r.status === 429) again.push(rec);
            else fail(rec.line, `${r.error?.type ?? r.status}: ${r.error?.reason ?? ''}`, rec.source ?? rec.action); // prettier-ignore
          });
          whole = again.length > 0 ? `${again.length} documents refused with 429` : null;
        }
      } catch (e) {
        again = todo;
        whole = (e as Error).message;
      }
      if (again.length === 0) return;
      if (attempt >= o.maxRetries) {
        for (const r of again) fail(r.line, `gave up after ${attempt + 1} attempts: ${whole}`, r.source ?? r.action); // prettier-ignore
        return;
      }
      retries++;
      const wait = Math.min(30_000, o.backoffMs * 2 ** attempt);
      io.log(`retrying ${again.length} documents in ${wait} ms (${whole})`);
      await sleep(wait);
      todo = again;
    }
  };

  const inflight = new Set<Promise<void>>();
  let seq = 0;
  let consumed = start;
  let ackedEnd = start;
  let docs: DocRecord[] = [];
  let bytes = 0;
  let lastEnd = start;
  let lastNext = startLine;
  const dispatch = async () => {
    while (inflight.size >= o.concurrency) await Promise.race(inflight);
    const batch: Batch = { seq: seq++, docs, end: lastEnd, next: lastNext };
    docs = [];
    bytes = 0;
    const p = send(batch).then(() => {
      acked.set(batch.seq, batch);
      commit();
      ackedEnd = Math.max(ackedEnd, batch.end);
      io.progress.update(ackedEnd / Math.max(1, size), imported);
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  let interrupted = false;
  reading: for await (const chunk of readRecords({
    path: file,
    format: o.format,
    start,
    firstLine: startLine,
    idField: o.idField,
    types: o.types,
  })) {
    // prettier-ignore
    for (const r of chunk) {
      if (io.stop.requested) {
        interrupted = true;
        break reading;
      }
      if (r.kind === 'bad') fail(r.line, `malformed: ${r.reason}`, r.text);
      else {
        docs.push(r);
        bytes += r.action.length + (r.source?.length ?? 0) + 2;
      }
      if (r.end > 0) {
        lastEnd = r.end;
        lastNext = r.next;
        consumed = r.end;
      }
      if (docs.length >= o.batchDocs || bytes >= o.batchBytes) await dispatch();
    }
  }
  if (io.stop.requested) interrupted = true;
  if (!interrupted && (docs.length > 0 || lastEnd > start)) await dispatch();
  await Promise.all(inflight);
  if (failFd !== null) closeSync(failFd);
  io.progress.update(interrupted ? consumed / Math.max(1, size) : 1, imported);
  io.progress.done();

  if (interrupted) {
    if (committed) writeCheckpoint(o.checkpointPath, { ...(committed as Checkpoint), imported, failed }); // prettier-ignore
  } else {
    removeCheckpoint(o.checkpointPath);
    if (o.refresh) await client.send('POST', `/${encodeURIComponent(o.index)}/_refresh`);
  }
  return {
    imported,
    failed,
    retries,
    elapsedMs: performance.now() - t0,
    interrupted,
    startLine,
    failuresPath: failFd !== null ? o.failuresPath : null,
  };
}

interface BulkItem {
  status: number;
  error?: { type?: string; reason?: string };
}

/** Creates the index with the mapping file's properties when it does not exist yet. */
async function ensureIndex(client: ToolClient, o: ImportOptions): Promise<void> {
  if (!o.properties) return;
  const idx = encodeURIComponent(o.index);
  const head = await client.send('HEAD', `/${idx}`);
  if (head.status === 200) return;
  const a = await client.send('PUT', `/${idx}`, JSON.stringify({ mappings: { _doc: { properties: o.properties } } })); // prettier-ignore
  if (a.status !== 200 && !/resource_already_exists/.test(a.text))
    throw new Error(`could not create the index [${o.index}]: ${errorReason(a)}`);
}
