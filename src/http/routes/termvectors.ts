/**
 * Term vector APIs (ES RestTermVectorsAction, RestMultiTermVectorsAction, TermVectorsRequest
 * .parseRequest, MultiTermVectorsRequest.add): requests read from the URI and the body, each
 * answered on a copy of its document's shard through `node.termVectors`.
 */
import { EsError } from '../../common/errors.js';
import { shardForRouting } from '../../common/murmur3.js';
import { parseFilterSettings, type TermVectorsRequest } from '../../dsl/search/term-vectors.js';
import { indexNotFoundFor } from '../../engine/documents.js';
import { STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { parseVersionType } from '../../engine/versioning.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams, preferenceWarning } from '../params.js';
import { bodyObject, boolParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';

const TV_PARAMS = [
  'term_statistics',
  'termStatistics',
  'field_statistics',
  'fieldStatistics',
  'fields',
  'offsets',
  'positions',
  'payloads',
  'preference',
  'routing',
  'parent',
  'realtime',
  'version',
  'version_type',
];

/** A request being built: the URI's template, then each body's fields over it. */
interface Draft {
  index?: string;
  type?: string;
  id: string | null;
  doc: Record<string, unknown> | null;
  routing: string | null;
  parent: string | null;
  realtime: boolean;
  version?: number;
  versionType?: string;
  fields: string[] | null;
  offsets: boolean;
  positions: boolean;
  payloads: boolean;
  termStatistics: boolean;
  fieldStatistics: boolean;
  perFieldAnalyzer: Record<string, string> | null;
  filter: TermVectorsRequest['filter'];
  preference?: string;
}

const parseError = (reason: string) => new EsError('parse_exception', reason, 400);

const asBool = (k: string, v: unknown): boolean => {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw parseError(`failed to parse term vectors request. [${k}] must be a boolean`);
};

/** ParseField names that are deprecated: the name ES expects instead. */
const DEPRECATED: Readonly<Record<string, string>> = {
  _routing: 'routing',
  _parent: 'parent',
  _version: 'version',
  _version_type: 'version_type',
  _versionType: 'version_type',
  versionType: 'version_type',
};

/** TermVectorsRequest.parseRequest: a body's fields over the draft. */
function parseBody(d: Draft, body: Record<string, unknown>, warnings: string[]): void {
  for (const [k, v] of Object.entries(body)) {
    const name = DEPRECATED[k];
    if (name !== undefined) warnings.push(`Deprecated field [${k}] used, expected [${name}] instead`); // prettier-ignore
    switch (name ?? k) {
      case 'fields':
        if (!Array.isArray(v))
          throw parseError('failed to parse term vectors request. field [fields] must be an array');
        d.fields = [...(d.fields ?? []), ...v.map(String)];
        break;
      case 'offsets':
        d.offsets = asBool(k, v);
        break;
      case 'positions':
        d.positions = asBool(k, v);
        break;
      case 'payloads':
        d.payloads = asBool(k, v);
        break;
      case 'term_statistics':
      case 'termStatistics':
        d.termStatistics = asBool(k, v);
        break;
      case 'field_statistics':
      case 'fieldStatistics':
        d.fieldStatistics = asBool(k, v);
        break;
      case 'dfs':
        throw new EsError(
          'illegal_argument_exception',
          'distributed frequencies is not supported anymore for term vectors',
          400,
        );
      case 'per_field_analyzer':
      case 'perFieldAnalyzer': {
        const m: Record<string, string> = {};
        for (const [f, a] of Object.entries((v ?? {}) as Record<string, unknown>)) {
          if (typeof a !== 'string')
            throw parseError(`expecting the analyzer at [${f}] to be a String, but found [${typeof a}] instead`); // prettier-ignore
          m[f] = a;
        }
        d.perFieldAnalyzer = m;
        break;
      }
      case 'filter':
        d.filter = parseFilterSettings((v ?? {}) as Record<string, unknown>);
        break;
      case '_index':
        d.index = String(v);
        break;
      case '_type':
        d.type = String(v);
        break;
      case '_id':
        if (d.doc !== null)
          throw parseError('failed to parse term vectors request. either [id] or [doc] can be specified, but not both!'); // prettier-ignore
        d.id = String(v);
        break;
      case 'doc':
        if (d.id !== null)
          throw parseError('failed to parse term vectors request. either [id] or [doc] can be specified, but not both!'); // prettier-ignore
        d.doc = (v ?? {}) as Record<string, unknown>;
        break;
      case 'routing':
        d.routing = String(v);
        break;
      case 'parent':
        d.parent = String(v);
        break;
      case 'version':
        d.version = Number(v);
        break;
      case 'version_type':
        d.versionType = String(v);
        break;
      default:
        throw parseError(`failed to parse term vectors request. unknown field [${k}]`);
    }
  }
}

/** RestTermVectorsAction.readURIParameters over the draft. */
function readUri(d: Draft, req: RestRequest): void {
  const fields = param(req, 'fields');
  if (fields !== undefined) {
    const set = new Set(d.fields ?? []);
    for (const f of fields.split(',')) if (f.trim() !== '') set.add(f.replace(/\s/g, ''));
    d.fields = [...set];
  }
  d.offsets = boolParam(req, 'offsets', d.offsets);
  d.positions = boolParam(req, 'positions', d.positions);
  d.payloads = boolParam(req, 'payloads', d.payloads);
  const routing = param(req, 'routing');
  if (routing !== undefined) d.routing = routing;
  d.realtime = boolParam(req, 'realtime', d.realtime);
  const version = param(req, 'version');
  if (version !== undefined) d.version = Number(version);
  const vt = param(req, 'version_type');
  if (vt !== undefined) d.versionType = vt;
  const parent = param(req, 'parent');
  if (parent !== undefined) d.parent = parent;
  const pref = param(req, 'preference');
  if (pref !== undefined) d.preference = pref;
  d.termStatistics = boolParam(req, 'termStatistics', d.termStatistics);
  d.termStatistics = boolParam(req, 'term_statistics', d.termStatistics);
  d.fieldStatistics = boolParam(req, 'fieldStatistics', d.fieldStatistics);
  d.fieldStatistics = boolParam(req, 'field_statistics', d.fieldStatistics);
}

function freshDraft(req: RestRequest): Draft {
  return {
    ...(req.params.index !== undefined ? { index: req.params.index } : {}),
    ...(req.params.type !== undefined ? { type: req.params.type } : {}),
    id: req.params.id ?? null,
    doc: null,
    routing: null,
    parent: null,
    realtime: true,
    fields: null,
    offsets: true,
    positions: true,
    payloads: true,
    termStatistics: false,
    fieldStatistics: true,
    perFieldAnalyzer: null,
    filter: null,
  };
}

export function registerTermVectorsRoutes(router: Router<Handler>, node: NodeContext): void {
  const { indices } = node;

  const singleIndex = (index: string): IndexService => {
    const resolved = indices.resolve(index, STRICT_EXPAND_OPEN);
    if (resolved.length > 1)
      throw new EsError('illegal_argument_exception', `Alias [${index}] has more than one indices associated with it [[${resolved.map((i) => i.name).join(', ')}]], can't execute a single index op`, 400); // prettier-ignore
    if (!resolved[0]) throw indexNotFoundFor(index);
    return resolved[0];
  };

  /** TransportTermVectorsAction: the document's shard (an artificial one without routing: the first). */
  const run = async (d: Draft): Promise<Record<string, unknown>> => {
    const idx = singleIndex(d.index!);
    const given = d.routing ?? d.parent;
    const routing = indices.resolveIndexRouting(d.index!, given);
    const shard =
      d.doc !== null && routing === null
        ? 0
        : shardForRouting(routing ?? d.id ?? '', idx.numberOfShards, idx.routingNumShards);
    const tv: TermVectorsRequest = {
      type: d.type!,
      id: d.doc !== null ? null : d.id,
      doc: d.doc,
      realtime: d.realtime,
      ...(d.version !== undefined ? { version: d.version } : {}),
      ...(d.versionType !== undefined ? { versionType: parseVersionType(d.versionType) } : {}),
      fields: d.fields,
      offsets: d.offsets,
      positions: d.positions,
      payloads: d.payloads,
      termStatistics: d.termStatistics,
      fieldStatistics: d.fieldStatistics,
      perFieldAnalyzer: d.perFieldAnalyzer,
      filter: d.filter,
      ...(d.preference !== undefined ? { preference: d.preference } : {}),
    };
    return node.termVectors.termVectors(idx, shard, tv);
  };

  const validate = (d: Draft, i?: number): string[] => {
    const at = i === undefined ? '' : ` for doc ${i}`;
    const out: string[] = [];
    if (d.index === undefined) out.push(`index is missing${at}`);
    if (d.type === undefined) out.push(`type is missing${at}`);
    if (d.id === null && d.doc === null) out.push(`id or doc is missing${at}`);
    return out;
  };

  const single: Handler = async (req) => {
    checkParams(req, TV_PARAMS);
    preferenceWarning(req);
    const d = freshDraft(req);
    const body = bodyObject(req);
    if (body) parseBody(d, body, req.warnings);
    readUri(d, req);
    const problems = validate(d);
    if (problems.length)
      throw new EsError('action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`, 400); // prettier-ignore
    return { status: 200, body: await run(d) };
  };
  router.add(['GET', 'POST'], '/{index}/{type}/_termvectors', single);
  router.add(['GET', 'POST'], '/{index}/{type}/{id}/_termvectors', single);

  const multi: Handler = async (req) => {
    checkParams(req, [...TV_PARAMS, 'ids']);
    preferenceWarning(req);
    const template = freshDraft(req);
    readUri(template, req);
    const drafts: Draft[] = [];
    const ids: string[] = [];
    const idsParam = param(req, 'ids');
    if (idsParam !== undefined) for (const id of idsParam.split(',')) if (id !== '') ids.push(id);
    const body = bodyObject(req);
    if (body) {
      for (const [k, v] of Object.entries(body)) {
        if (k === 'docs' && Array.isArray(v)) {
          for (const doc of v) {
            if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
              throw new EsError('illegal_argument_exception', 'docs array element should include an object', 400); // prettier-ignore
            const d: Draft = { ...template, fields: template.fields && [...template.fields] };
            parseBody(d, doc as Record<string, unknown>, req.warnings);
            drafts.push(d);
          }
        } else if (k === 'ids' && Array.isArray(v)) {
          for (const id of v) {
            if (id !== null && typeof id === 'object')
              throw new EsError('illegal_argument_exception', 'ids array element should only contain ids', 400); // prettier-ignore
            ids.push(String(id));
          }
        } else if (k === 'parameters' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
          parseBody(template, v as Record<string, unknown>, req.warnings);
        } else if (Array.isArray(v)) {
          throw parseError(`no parameter named [${k}] and type ARRAY`);
        } else if (v !== null && typeof v === 'object') {
          throw parseError(`no parameter named [${k}] and type OBJECT`);
        } else throw parseError(`_mtermvectors: Parameter [${k}] not supported`);
      }
    }
    for (const id of ids) drafts.push({ ...template, id });
    if (drafts.length === 0)
      throw new EsError('action_request_validation_exception', 'Validation Failed: 1: multi term vectors: no documents requested;', 400); // prettier-ignore
    const problems = drafts.flatMap((d, i) => validate(d, i));
    if (problems.length)
      throw new EsError('action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`, 400); // prettier-ignore
    const docs = await Promise.all(
      drafts.map(async (d) => {
        try {
          return await run(d);
        } catch (e) {
          const err = e instanceof EsError ? e : new EsError('exception', String(e), 500);
          return { _index: d.index, _type: d.type, _id: d.id, error: err.toErrorObject() };
        }
      }),
    );
    return { status: 200, body: { docs } };
  };
  router.add(['GET', 'POST'], '/_mtermvectors', multi);
  router.add(['GET', 'POST'], '/{index}/_mtermvectors', multi);
  router.add(['GET', 'POST'], '/{index}/{type}/_mtermvectors', multi);
}
