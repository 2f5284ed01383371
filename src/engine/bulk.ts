/**
 * `_bulk`: parses the NDJSON body into write requests (ES BulkRequest.add, line by line with
 * `indexOf`, so large bodies cost linear time) and executes them in order. A malformed action line
 * fails the whole request; a failing item only fails itself.
 */
import { isUtf8 } from 'node:buffer';
import { actionRequestValidation, EsError, illegalArgument, toEsError } from '../common/errors.js';
import { parseJson, parseJsonBytes } from '../common/json.js';
import { decodeJson } from '../common/json-bytes.js';
import type { DocumentService, WriteOutcome } from './documents.js';
import { MATCH_ANY, parseVersionType } from './versioning.js';
import {
  validateWrite,
  type IndexRequest,
  type WriteBase,
  type WriteRequest,
} from './write-request.js';

export interface BulkDefaults {
  index?: string;
  type?: string;
  routing?: string;
  pipeline?: string;
  fetchSource?: { includes: string[]; excludes: string[] } | null;
}

const ACTION_KEYS = new Set([
  '_index',
  'index',
  '_type',
  'type',
  '_id',
  'id',
  '_routing',
  'routing',
  '_parent',
  'parent',
  'op_type',
  '_version',
  'version',
  '_version_type',
  'version_type',
  'if_seq_no',
  'if_primary_term',
  '_retry_on_conflict',
  'retry_on_conflict',
  'pipeline',
  'fields',
  '_source',
]);

function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  switch (typeof v) {
    case 'object':
      return 'START_OBJECT';
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
  }
  return 'VALUE_EMBEDDED_OBJECT';
}

/** Underscored action-line keys ES 6.8 still accepts with a deprecation warning. */
const DEPRECATED_KEYS: Record<string, string> = {
  _routing: 'routing',
  _parent: 'parent',
  _version: 'version',
  _version_type: 'version_type',
  _retry_on_conflict: 'retry_on_conflict',
};

/** What one action line says, computed once per distinct line (bulks repeat the same one). */
interface ActionMeta {
  verb: string;
  base: WriteBase;
  opType: string | undefined;
  retryOnConflict: number;
  pipeline: string | undefined;
  fetchSource: { includes: string[]; excludes: string[] } | null;
  /** Deprecation warnings the line gives each time it is used. */
  warnings: string[];
}

/** Parses a bulk body into requests; throws for malformed action lines (whole request fails). */
export function parseBulk(body: Buffer, d: BulkDefaults, warnings: string[] = []): WriteRequest[] {
  const out: WriteRequest[] = [];
  let line = 0;
  let from = 0;
  const len = body.length;
  // A valid UTF-8 body is decoded once: each line's text is then a slice of it, found by
  // walking its newlines in step with the bytes' (a newline is one byte and one unit in both),
  // and not a decoding per line. Other bodies are decoded line by line, as Jackson would.
  const text = isUtf8(body) ? body.toString('utf8') : null;
  let at = 0; // where the current line starts in `text`
  // The previous action line's bytes and meaning: an identical line is not decoded again.
  let lastFrom = 0;
  let lastEnd = -1;
  let last: ActionMeta | null = null;
  while (from < len) {
    const nl = body.indexOf(10, from);
    if (nl < 0) break; // ES 6.8 ignores a last line without a newline
    const nlAt = text === null ? 0 : text.indexOf('\n', at);
    line++;
    let meta: ActionMeta;
    if (
      last !== null &&
      nl - from === lastEnd - lastFrom &&
      body.compare(body, lastFrom, lastEnd, from, nl) === 0
    ) {
      meta = last;
      from = nl + 1;
      at = nlAt + 1;
    } else {
      // String#trim also drops the byte order marks decodeJson skips
      const lineText = (text === null ? decodeJson(body, from, nl) : text.slice(at, nlAt)).trim();
      const lineFrom = from;
      from = nl + 1;
      at = nlAt + 1;
      if (lineText.length === 0) continue;
      meta = parseActionLine(lineText, line, d);
      last = meta;
      lastFrom = lineFrom;
      lastEnd = nl;
    }
    for (const w of meta.warnings) warnings.push(w);
    const verb = meta.verb;
    if (verb === 'delete') {
      out.push({ kind: 'delete', ...meta.base });
      continue;
    }
    const nl2 = body.indexOf(10, from);
    if (nl2 < 0) break;
    const nl2At = text === null ? 0 : text.indexOf('\n', at);
    line++;
    let end = nl2;
    let endAt = nl2At;
    if (end > from && body[end - 1] === 13) {
      end--;
      endAt--;
    }
    const source = body.subarray(from, end);
    const sourceAt = at;
    from = nl2 + 1;
    at = nl2At + 1;
    if (verb === 'index' || verb === 'create') {
      const b = meta.base;
      const req: IndexRequest = {
        kind: 'index',
        index: b.index,
        type: b.type,
        id: b.id,
        routing: b.routing,
        version: b.version,
        versionType: b.versionType,
        opType: verb === 'create' || meta.opType === 'create' ? 'create' : 'index',
        source,
        // set below; named here so that setting it does not give each request a second block
        // for the properties added after its literal
        decoded: undefined,
      };
      if (b.ifSeqNo !== undefined) req.ifSeqNo = b.ifSeqNo;
      if (b.ifPrimaryTerm !== undefined) req.ifPrimaryTerm = b.ifPrimaryTerm;
      if (meta.pipeline !== undefined) req.pipeline = meta.pipeline;
      // a leading byte order mark is the document parser's to skip (or refuse, when doubled)
      if (text !== null && text.charCodeAt(sourceAt) !== 0xfeff)
        req.decoded = { of: source, text: text.slice(sourceAt, endAt) };
      out.push(req);
    } else if (verb === 'update') {
      const ub = parseJsonBytes(source);
      if (ub === null || typeof ub !== 'object' || Array.isArray(ub)) {
        throw new EsError('parse_exception', 'Failed to derive xcontent', 400);
      }
      const ubo = ub as Record<string, unknown>;
      const fetchSource =
        ubo._source !== undefined ? fetchSourceFrom(ubo._source) : meta.fetchSource;
      out.push({
        kind: 'update',
        ...meta.base,
        body: ubo,
        retryOnConflict: meta.retryOnConflict,
        fetchSource,
      });
    } else {
      throw illegalArgument(
        `Malformed action/metadata line [${line - 1}], expected field [create], [delete], [index] or [update] but found [${verb}]`,
      );
    }
  }
  return out;
}

/** Decodes and checks one action/metadata line (ES BulkRequest.add). */
function parseActionLine(text: string, line: number, d: BulkDefaults): ActionMeta {
  const action = parseJson(text);
  if (action === null || typeof action !== 'object' || Array.isArray(action)) {
    throw illegalArgument(
      `Malformed action/metadata line [${line}], expected START_OBJECT but found [${tokenName(action)}]`,
    );
  }
  const keys = Object.keys(action);
  if (keys.length === 0) {
    throw illegalArgument(
      `Malformed action/metadata line [${line}], expected FIELD_NAME but found [END_OBJECT]`,
    );
  }
  const verb = keys[0]!;
  const params = (action as Record<string, unknown>)[verb];
  if (params !== null && (typeof params !== 'object' || Array.isArray(params))) {
    throw illegalArgument(
      `Malformed action/metadata line [${line}], expected START_OBJECT or END_OBJECT but found [${tokenName(params)}]`,
    );
  }
  const warnings: string[] = [];
  let index = d.index;
  let type = d.type;
  let id: string | null = null;
  let routing: string | null = d.routing ?? null;
  let opType: string | undefined;
  let version = MATCH_ANY;
  let versionType = parseVersionType(undefined);
  let ifSeqNo: number | undefined;
  let ifPrimaryTerm: number | undefined;
  let retryOnConflict = 0;
  let pipeline = d.pipeline;
  let fetchSource = d.fetchSource ?? null;
  for (const [k, v] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    if (!ACTION_KEYS.has(k)) {
      throw illegalArgument(`Action/metadata line [${line}] contains an unknown parameter [${k}]`);
    }
    if (v === null) continue;
    const modern = DEPRECATED_KEYS[k];
    if (modern) warnings.push(`Deprecated field [${k}] used, expected [${modern}] instead`);
    if (k === 'fields') {
      if (!Array.isArray(v)) {
        throw illegalArgument(
          `Action/metadata line [${line}] contains a simple value for parameter [fields] while a list is expected`,
        );
      }
      continue;
    }
    if (k === '_source') {
      fetchSource = fetchSourceFrom(v);
      continue;
    }
    if (typeof v === 'object') {
      throw illegalArgument(
        `Malformed action/metadata line [${line}], expected a simple value for field [${k}] but found [${tokenName(v)}]`,
      );
    }
    const s = String(v);
    switch (k) {
      case '_index':
      case 'index':
        index = s;
        break;
      case '_type':
      case 'type':
        type = s;
        break;
      case '_id':
      case 'id':
        id = s;
        break;
      case '_routing':
      case 'routing':
        routing = s;
        break;
      case 'op_type':
        opType = s;
        break;
      case '_version':
      case 'version':
        version = Number(s);
        break;
      case '_version_type':
      case 'version_type':
        versionType = parseVersionType(s);
        break;
      case 'if_seq_no':
        ifSeqNo = Number(s);
        break;
      case 'if_primary_term':
        ifPrimaryTerm = Number(s);
        break;
      case '_retry_on_conflict':
      case 'retry_on_conflict':
        retryOnConflict = Number(s);
        break;
      case 'pipeline':
        pipeline = s;
        break;
    }
  }
  const base: WriteBase = {
    index: index ?? '',
    type: type ?? '',
    id,
    routing,
    version,
    versionType,
    ...(ifSeqNo !== undefined ? { ifSeqNo } : {}),
    ...(ifPrimaryTerm !== undefined ? { ifPrimaryTerm } : {}),
  };
  return { verb, base, opType, retryOnConflict, pipeline, fetchSource, warnings };
}

function fetchSourceFrom(v: unknown): { includes: string[]; excludes: string[] } | null {
  if (v === false) return null;
  if (v === true) return { includes: [], excludes: [] };
  if (typeof v === 'string') return { includes: [v], excludes: [] };
  if (Array.isArray(v)) return { includes: v.map(String), excludes: [] };
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const list = (x: unknown) =>
      x === undefined ? [] : Array.isArray(x) ? x.map(String) : [String(x)];
    return { includes: list(o.includes ?? o.include), excludes: list(o.excludes ?? o.exclude) };
  }
  return null;
}

/** ES BulkRequest.validate: every item is validated up front; any problem fails the request. */
export function validateBulk(reqs: WriteRequest[]): void {
  const problems: string[] = [];
  if (reqs.length === 0) problems.push('no requests added');
  for (const r of reqs) {
    if (!r.type) problems.push('type is missing');
    if (!r.index) problems.push('index is missing');
    problems.push(...validateWrite(r));
  }
  if (problems.length) throw actionRequestValidation(problems);
}

export interface BulkItem {
  verb: 'index' | 'create' | 'delete' | 'update';
  outcome: WriteOutcome | null;
  error: EsError | null;
  req: WriteRequest;
}

/** Executes parsed requests in order; each item succeeds or fails on its own. */
export function executeBulk(
  docs: DocumentService,
  reqs: readonly WriteRequest[],
  prepare?: (req: WriteRequest) => WriteRequest | WriteOutcome,
): BulkItem[] {
  const items: BulkItem[] = [];
  for (const original of reqs) {
    let req = original;
    const verb = req.kind === 'index' ? (req.opType === 'create' ? 'create' : 'index') : req.kind;
    try {
      // an ingest pipeline may rewrite the request, or drop it (a finished outcome)
      const prepared = prepare ? prepare(req) : req;
      if (!('kind' in prepared)) {
        items.push({ verb, outcome: prepared, error: null, req });
        continue;
      }
      req = prepared;
      const outcome =
        req.kind === 'index'
          ? docs.index(req)
          : req.kind === 'delete'
            ? docs.delete(req)
            : docs.update(req);
      items.push({ verb, outcome, error: null, req });
    } catch (e) {
      items.push({ verb, outcome: null, error: toEsError(e), req });
    }
    // the source's text was for the parse: the request is kept until the bulk is answered, its
    // text need not be (a retried write decodes the bytes again)
    if (original.kind === 'index' && original.decoded !== undefined) original.decoded = undefined;
  }
  return items;
}

export function bulkItemBody(item: BulkItem): Record<string, unknown> {
  if (item.outcome) {
    // `status` goes last, as in ES's bulk item; the body is not shared, so it is extended in place.
    const body = item.outcome.body;
    body.status = item.outcome.status;
    // literal keys: a computed one makes each wrapper a slower object for the serializer
    switch (item.verb) {
      case 'index':
        return { index: body };
      case 'create':
        return { create: body };
      case 'update':
        return { update: body };
      default:
        return { delete: body };
    }
  }
  const e = item.error!;
  const idx = typeof e.meta.index === 'string' ? e.meta.index : item.req.index;
  return {
    [item.verb]: {
      _index: idx,
      _type: item.req.type,
      _id: item.req.id,
      status: e.status,
      error: e.toInner(),
    },
  };
}
