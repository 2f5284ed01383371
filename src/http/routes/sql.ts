/**
 * The SQL REST API (ES RestSqlQueryAction, RestSqlTranslateAction, RestSqlClearCursorAction):
 * `/_sql` and `/_xpack/sql` (+ `/translate`, `/close`), GET or POST. The body carries the query or
 * cursor and options; the response format comes from `format`, then `Accept` (json by default;
 * txt, csv with `delimiter`, tsv, yaml). Text formats send the cursor in the `Cursor` header and
 * keep txt column widths inside it. Handlers only parse, call SqlService and format.
 */
import { sqlJoinMaxRows } from '../search-settings.js';
import { EsError } from '../../common/errors.js';
import type { NodeContext } from '../../node-context.js';
import { SqlService, type SqlRequest } from '../../sql/execute/session.js';
import { cursorNode } from '../../sql/execute/cursors.js';
import { relayToMaster } from '../master-forward.js';
import { clusterSqlSearch } from '../sql-cluster-search.js';
import { localSqlSearch, type SqlNode, type SqlSearchBackend } from '../../sql/execute/search.js';
import { systemClock } from '../../search/deadline.js';
import {
  csvDelimiter,
  csvHasHeader,
  deserializeTextFormatter,
  formatCsv,
  formatTextPage,
  formatTsv,
  formatWithoutHeader,
  responseContentType,
  selectFormat,
  serializeTextFormatter,
  toJsonText,
  toYamlText,
  type ColumnInfo,
  type FormatName,
} from '../../sql/format/index.js';
import type { SqlParam } from '../../sql/parse.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import { zoneOf } from '../../functions/datetime/zones.js';
import { tokenName } from '../../dsl/search/request-values.js';
import { bodyJson, param, requireBodyOrSource, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { searchLimits } from './search.js';
import { checkParams } from '../params.js';

const QUERY_FIELDS = new Set([
  'query',
  'cursor',
  'fetch_size',
  'filter',
  'params',
  'time_zone',
  'columnar',
  'field_multi_value_leniency',
  'request_timeout',
  'page_timeout',
  'mode',
  'client_id',
  'binary_format',
  'index_include_frozen',
  'keep_alive',
  'keep_on_completion',
  'wait_for_completion_timeout',
]);

const parseError = (msg: string) => new EsError('x_content_parse_exception', msg, 400);

function str(body: Record<string, unknown>, key: string): string | null {
  const v = body[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string')
    throw parseError(
      `[sql/query] ${key} doesn't support values of type: ${typeof v === 'number' ? 'VALUE_NUMBER' : 'START_OBJECT'}`,
    );
  return v;
}

/**
 * A field whose value ES converts inside its ObjectParser (ZoneId.of, TimeValue.parseTimeValue):
 * a conversion failure is wrapped as `[sql/query] failed to parse field [key]` (400), caused by it.
 */
function converted<T>(what: string, key: string, convert: () => T): T {
  try {
    return convert();
  } catch (e) {
    if (!(e instanceof EsError) || e.type === 'x_content_parse_exception') throw e;
    throw new EsError(
      'x_content_parse_exception',
      `[${what}] failed to parse field [${key}]`,
      400,
      {
        causedBy: e,
      },
    );
  }
}

function timeMs(body: Record<string, unknown>, key: string, what: string): number | null {
  const v = str(body, key);
  return v === null ? null : converted(what, key, () => parseTimeValueMs(v, key));
}

function timeZone(body: Record<string, unknown>, what: string): string | null {
  const v = str(body, 'time_zone');
  if (v !== null) converted(what, 'time_zone', () => zoneOf(v));
  return v;
}

/** The request body as SqlRequest (ES SqlQueryRequest.fromXContent). */
export function parseSqlBody(raw: unknown, what = 'sql/query'): SqlRequest & { columnar: boolean } {
  // ES ObjectParser.parse; a body of white space has no token at all
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw parseError(`[${what}] Expected START_OBJECT but was: ${raw === undefined ? 'null' : tokenName(raw)}`); // prettier-ignore
  const body = raw as Record<string, unknown>;
  for (const k of Object.keys(body)) {
    if (!QUERY_FIELDS.has(k)) throw parseError(`[${what}] unknown field [${k}]`);
  }
  const fetch = body.fetch_size;
  if (fetch !== undefined && (typeof fetch !== 'number' || !Number.isInteger(fetch))) {
    throw parseError(`[${what}] failed to parse field [fetch_size]`);
  }
  if (typeof fetch === 'number' && fetch <= 0) {
    throw new EsError(
      'action_request_validation_exception',
      'Validation Failed: 1: [fetch_size] must be greater than 0;',
      400,
    );
  }
  const params = parseParams(body.params, str(body, 'mode'), what);
  timeMs(body, 'request_timeout', what); // parsed as ES parses it; searches have no time limit yet
  return {
    query: str(body, 'query'),
    cursor: str(body, 'cursor'),
    params,
    timeZone: timeZone(body, what),
    fetchSize: (fetch as number | undefined) ?? null,
    filter: body.filter ?? null,
    fieldMultiValueLeniency: body.field_multi_value_leniency === true,
    includeFrozen: body.index_include_frozen === true,
    pageTimeoutMs: timeMs(body, 'page_timeout', what),
    mode: str(body, 'mode'),
    columnar: body.columnar === true,
  };
}

/** The Java type Jackson reads a bare JSON value as (AbstractSqlQueryRequest.parseParams). */
function inferredParam(v: unknown): SqlParam {
  if (v === null) return { type: 'null', value: null };
  if (typeof v === 'string') return { type: 'keyword', value: v };
  if (typeof v === 'boolean') return { type: 'boolean', value: v };
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return { type: 'double', value: v };
    return { type: v >= -(2 ** 31) && v < 2 ** 31 ? 'integer' : 'long', value: v };
  }
  throw parseError(`Failed to parse object: unexpected token [START_ARRAY] found`);
}

/**
 * `params`: `{"type", "value"}` objects for the drivers (jdbc, odbc), bare values with inferred
 * types otherwise (ES validateParams).
 */
function parseParams(raw: unknown, mode: string | null, what: string): SqlParam[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw parseError(`[${what}] failed to parse field [params]`);
  const driver = mode !== null && ['jdbc', 'odbc'].includes(mode.toLowerCase());
  return raw.map((p) => {
    const explicit = p !== null && typeof p === 'object' && !Array.isArray(p);
    if (driver && !explicit)
      throw parseError(
        '[params] must be an array where each entry is an object with a value/type pair',
      );
    if (!driver && explicit)
      throw parseError(
        '[params] must be an array where each entry is a single field (no objects supported)',
      );
    if (!explicit) return inferredParam(p);
    const o = p as Record<string, unknown>;
    if (typeof o.type !== 'string' || !('value' in o))
      throw parseError(`[params] failed to parse field [type]`);
    return { type: o.type, value: o.value };
  });
}

/** The cursor of a text page carries the txt widths: `<cursor>~<formatter state>`. */
function splitCursor(cursor: string): { id: string; widths: string | null } {
  const i = cursor.lastIndexOf('~');
  return i < 0
    ? { id: cursor, widths: null }
    : { id: cursor.slice(0, i), widths: cursor.slice(i + 1) };
}

export function sqlNodeOf(node: NodeContext): SqlNode {
  const local = localSqlSearch(node.nodeId, node.scrolls);
  let cluster: SqlSearchBackend | null = null;
  return {
    indices: node.indices,
    // a node joins its cluster after its routes exist: chosen per search
    get searches() {
      if (!node.clusterSearch) return local;
      cluster ??= clusterSqlSearch(node.clusterSearch);
      return cluster;
    },
    nodeId: node.nodeId,
    clusterName: node.clusterName,
    ...(node.scriptMethods ? { scriptMethods: node.scriptMethods } : {}),
    limits: () => searchLimits(node),
    // a dynamic cluster setting: read per statement
    get joinMaxRows() {
      return sqlJoinMaxRows(node);
    },
    // read per search: tests inject the clock after the node started
    clock: () => (node.searchClock ?? systemClock)(),
  };
}

export function registerSqlRoutes(router: Router<Handler>, node: NodeContext): void {
  const sql = new SqlService(sqlNodeOf(node));

  /** The HTTP address of the other node of the cluster that opened a cursor, if any. */
  const cursorOwner = (id: string): string | null => {
    const owner = cursorNode(id);
    return owner === null ? null : node.routing.peerUrl(owner);
  };

  const query: Handler = async (req) => {
    checkParams(req, ['format', 'delimiter', 'header']);
    requireBodyOrSource(req); // ES RestSqlQueryAction: request.contentOrSourceParamParser()
    const body = parseSqlBody(bodyJson(req));
    const format = selectFormat({
      format: param(req, 'format') ?? null,
      accept: header(req, 'accept'),
      contentType: header(req, 'content-type'),
      columnar: body.columnar,
    });
    let widths: string | null = null;
    let request: SqlRequest = body;
    if (body.cursor) {
      const c = splitCursor(body.cursor);
      const owner = cursorOwner(c.id);
      if (owner) return relayToMaster(owner, req.method, req.uri, req.headers, req.body);
      widths = c.widths;
      request = { ...body, cursor: c.id };
    }
    const page = await sql.execute(request);
    return respond(req, format, page, widths, body.columnar);
  };

  const respond = (
    req: RestRequest,
    format: FormatName,
    page: Awaited<ReturnType<SqlService['execute']>>,
    widths: string | null,
    columnar: boolean,
  ) => {
    const columns: ColumnInfo[] | null = page.columns
      ? page.columns.map((c) => ({ name: c.name, type: c.type.toLowerCase() }))
      : null;
    const contentType = responseContentType(format, {
      headerParam: param(req, 'header') ?? null,
      acceptHeaders: [header(req, 'accept') ?? ''],
    });
    switch (format) {
      case 'txt': {
        let text: string;
        let state = widths;
        if (columns) {
          const first = formatTextPage(columns, page.rows);
          text = first.text;
          state = serializeTextFormatter(first.state);
        } else {
          text = formatWithoutHeader(deserializeTextFormatter(widths ?? 't'), page.rows);
        }
        const headers: Record<string, string> = {};
        if (page.cursor) headers.Cursor = `${page.cursor}~${state}`;
        return { status: 200, body: text, contentType, headers };
      }
      case 'csv':
      case 'tsv': {
        const text =
          format === 'csv'
            ? formatCsv(columns, page.rows, {
                delimiter: csvDelimiter(param(req, 'delimiter') ?? null),
                header:
                  columns !== null &&
                  csvHasHeader(param(req, 'header') ?? null, [header(req, 'accept') ?? '']),
              })
            : formatTsv(columns, page.rows, columns !== null);
        const headers: Record<string, string> = {};
        if (page.cursor) headers.Cursor = page.cursor;
        return { status: 200, body: text, contentType, headers };
      }
      case 'yaml':
        return {
          status: 200,
          body: toYamlText({ columns, rows: page.rows, cursor: page.cursor, columnar }),
          contentType,
        };
      case 'json':
        return {
          status: 200,
          body: toJsonText({ columns, rows: page.rows, cursor: page.cursor, columnar }),
          contentType,
        };
      default:
        throw new EsError('illegal_argument_exception', `unsupported format [${format}]`, 400);
    }
  };

  const translate: Handler = (req) => {
    // EXTENSION: `phases` shows the requests and the in-memory steps (translate/phases.ts)
    checkParams(req, ['phases']);
    requireBodyOrSource(req);
    const body = parseSqlBody(bodyJson(req), 'sql/query');
    const phases = param(req, 'phases');
    if (phases !== undefined && phases !== 'false')
      return { status: 200, body: sql.translatePhases(body) };
    return { status: 200, body: sql.translate(body) };
  };

  const close: Handler = async (req) => {
    checkParams(req, []);
    const raw = (bodyJson(req) ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(raw)) {
      if (k !== 'cursor') throw parseError(`[clear_cursor] unknown field [${k}]`);
    }
    const cursor = raw.cursor;
    if (typeof cursor !== 'string' || cursor.length === 0) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: cursor is required;',
        400,
      );
    }
    const id = splitCursor(cursor).id;
    const owner = cursorOwner(id);
    if (owner) return relayToMaster(owner, req.method, req.uri, req.headers, req.body);
    return { status: 200, body: { succeeded: await sql.close(id) } };
  };

  for (const base of ['/_sql', '/_xpack/sql']) {
    router.add(['GET', 'POST'], base, query);
    router.add(['GET', 'POST'], `${base}/translate`, translate);
    router.add(['POST'], `${base}/close`, close);
  }
}

function header(req: RestRequest, name: string): string | null {
  const v = req.headers[name];
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? null) : v;
}
