/**
 * The SQL session (ES SqlSession + PlanExecutor + TransportSqlQueryAction): parses a statement with
 * its parameters, runs metadata commands, plans queries, executes them locally or through the DSL
 * executor, and pages results with cursors (`fetch_size`, default 1000). `translate` stops before
 * execution and returns the `_search` body.
 */
import { guardStack, parseSql, stackOverflowAsParsingError, type SqlParam } from '../parse.js';
import { tokenizeSql } from '../../../grammar/sql/lexer.js';
import type * as A from '../ast/nodes.js';
import { zoneOf } from '../../functions/datetime/zones.js';
import { DATA_TYPES, type DataTypeName } from '../../functions/data-types.js';
import type { EvalContext } from '../functions/definition.js';
import { planQuery, type QueryContainer, type QueryPlan } from '../translate/index.js';
import { combineUnion, MAX_UNION_ROWS, tooManyUnionRows } from './union.js';
import { drainRows } from './offset.js';
import { queryPhases } from '../translate/phases.js';
import { explainUnion } from './explain-union.js';
import { joinSearchSource } from '../translate/join.js';
import { runJoin } from './hash-join.js';
import { runWindows } from './window.js';
import { windowSearchSource } from '../translate/window.js';
import { PlanCache, type PlanningTrace } from './plan-cache.js';
import {
  bindLiterals,
  liftLiterals,
  samePlan,
  sentinelStatement,
  substitute,
  type HotSites,
  type Lifted,
  type Substitution,
} from './literal-templates.js';
import { planText } from '../plan/explain.js';
import { toSearchSource } from '../translate/to-search-source.js';
import type { Json } from '../translate/query-dsl.js';
import { mergeIndices, type EsIndex } from '../analyze/es-index.js';
import type { Catalog } from '../analyze/relations.js';
import { runCommand, type CommandCatalog, type TableInfo } from './commands.js';
import { CursorService, type ColumnMeta, type CursorState } from './cursors.js';
import { executeLocal } from './local.js';
import { listPage, nextHitsPage, runQuery, type FirstPage } from './query-runner.js';
import { clearScroll, resolveIndices, type SqlNode } from './search.js';
import { simpleMatch } from '../../engine/index-names.js';
import { formatMessage, sqlIllegalArgument } from '../../functions/errors.js';
import { actionRequestValidation, EsError } from '../../common/errors.js';

export const DEFAULT_FETCH_SIZE = 1000;

/** ES PlanningException (a client error, 400): what `_sql/translate` answers for a statement
 *  that runs without a search (ES PlanExecutor.searchSource). */
const planningException = (message: string, sql: string) =>
  new EsError('planning_exception', formatMessage(`${message}, sql statement: [{}]`, sql), 400);
export const DEFAULT_PAGE_TIMEOUT_MS = 45_000;

export interface SqlRequest {
  readonly query?: string | null;
  readonly cursor?: string | null;
  readonly params?: readonly SqlParam[];
  /** `time_zone` (ZoneId text); default UTC (`Z`). */
  readonly timeZone?: string | null;
  readonly fetchSize?: number | null;
  /** A Query DSL object ANDed with the WHERE clause. */
  readonly filter?: unknown;
  readonly fieldMultiValueLeniency?: boolean;
  readonly pageTimeoutMs?: number | null;
  readonly mode?: string | null;
  /** `index_include_frozen`: frozen indices are visible to every statement. */
  readonly includeFrozen?: boolean;
}

export interface SqlPage {
  /** Null on cursor pages (ES sends columns on the first page only). */
  readonly columns: readonly ColumnMeta[] | null;
  readonly rows: unknown[][];
  readonly cursor: string | null;
}

/** A statement shape's template (literal-templates.ts). */
interface Template {
  /** The sentinel plan its statements share, or null (none can). */
  readonly plan: QueryPlan | null;
  /** Where the plan holds a sentinel (the only places substitution visits). */
  readonly hot: HotSites;
  /** The sentinels the plan was made with. */
  readonly subs: readonly Substitution[];
  readonly trace: PlanningTrace;
}

/**
 * The first statement of a shape, which the shape's template is checked against. Its plan is not
 * kept: most shapes never come back, and keeping a plan per one-off shape made every new plan
 * survive young collections; a shape that does come back plans its first statement again.
 */
interface FirstOfShape {
  readonly lifted: Lifted;
}

/**
 * The request's clock for planning: reading it tells the trace (then the plan is not reused). A
 * class, where an object literal with a getter is built through the runtime on every statement.
 */
class TracedNow {
  constructor(
    private readonly trace: PlanningTrace,
    private readonly at: number,
  ) {}

  get millis(): number {
    this.trace.clockRead = true;
    return this.at;
  }
}

export class SqlService {
  readonly cursors: CursorService;
  /** Merged mappings per index pattern (ES resolves them per statement; they rarely change). */
  private readonly merged = new Map<
    string,
    { sources: Array<{ name: string; mapping: unknown }>; index: ReturnType<typeof mergeIndices> }
  >();

  /** Plans by statement (see PlanCache for what a plan depends on). */
  readonly plans = new PlanCache<QueryPlan>();
  /** Per statement shape: the sentinel plan its statements share, or null (none can). */
  private readonly templates = new PlanCache<Template>();
  /** Statements planned from a template (for tests and diagnostics). */
  templatedCount = 0;
  /** Shapes planned once without a template, with that statement (oldest first). */
  private readonly shapes = new Map<string, FirstOfShape>();

  constructor(private readonly node: SqlNode) {
    this.cursors = new CursorService(node.nodeId);
  }

  /** `trace` learns whether planning read the request's clock (then the plan is not reused). */
  private config(req: SqlRequest, trace?: PlanningTrace): EvalContext & { zoneId: string } {
    const zone = zoneOf(req.timeZone ?? 'Z');
    const millis = this.node.wallClock?.() ?? Date.now();
    return {
      zone,
      zoneId: zone.id,
      now: trace ? new TracedNow(trace, millis) : { millis },
      clusterName: this.node.clusterName,
      username: null,
    };
  }

  /** ES IndexResolver for analysis: the merged mapping of an index pattern. */
  catalog(includeFrozen = false): Catalog {
    return {
      resolveIndex: (pattern, frozen) => {
        const indices = resolveIndices(this.node, pattern, frozen || includeFrozen);
        if (indices.length === 0) return null;
        // Mappings are replaced, never changed in place, on updates: same objects, same result.
        const hit = this.merged.get(pattern);
        if (
          hit &&
          hit.sources.length === indices.length &&
          hit.sources.every(
            (x, i) => x.name === indices[i]!.name && x.mapping === indices[i]!.mapping,
          )
        )
          return hit.index;
        const sources = indices.map((i) => ({ name: i.name, mapping: i.mapping }));
        const index = mergeIndices(pattern, sources);
        if (this.merged.size > 256) this.merged.clear();
        this.merged.set(pattern, { sources, index });
        return index;
      },
    };
  }

  private commandCatalog(includeFrozen: boolean): CommandCatalog {
    return {
      clusterName: this.node.clusterName,
      includeFrozen,
      tables: (expression, frozen) => this.tables(expression, frozen),
      mergedIndex: (expression, frozen) => this.catalog().resolveIndex(expression, frozen),
      // ES IndexResolver.resolveAsSeparateMappings: every index and every alias (the merged
      // mapping of its indices), by name
      separateIndices: (expression, frozen) =>
        this.tables(expression, frozen).flatMap((t): EsIndex[] => {
          const sources = resolveIndices(this.node, t.name, frozen).map((i) => ({
            name: i.name,
            mapping: i.mapping,
          }));
          return sources.length === 0 ? [] : [mergeIndices(t.name, sources)];
        }),
    };
  }

  /** Indices and aliases matching `a*,-b` (ES IndexResolver.resolveNames), sorted by name. */
  private tables(expression: string, includeFrozen: boolean): TableInfo[] {
    // ES Strings.commaDelimitedListToStringArray: names are not trimmed ("fz\n" is no fz)
    const parts = expression.split(',').filter((p) => p.length > 0);
    const all = this.node.indices.all();
    const names = new Map<string, TableInfo>();
    const aliases = new Set<string>();
    for (const i of all) for (const a of Object.keys(i.meta.aliases)) aliases.add(a);
    let sawWildcard = false;
    for (const part of parts) {
      const exclude = part.startsWith('-') && sawWildcard;
      const p = exclude ? part.slice(1) : part;
      if (p.includes('*')) sawWildcard = true;
      const matches = (n: string) => (p === '*' || p === '_all' ? true : simpleMatch(p, n));
      for (const i of all) {
        if (i.closed || i.name.startsWith('.')) continue;
        // the index request ignores throttled (frozen) indices unless they are asked for
        if (i.searchThrottled && !includeFrozen) continue;
        if (matches(i.name)) {
          if (exclude) names.delete(i.name);
          else
            names.set(i.name, {
              name: i.name,
              type: includeFrozen && i.frozen ? 'FROZEN TABLE' : 'TABLE',
            });
        }
      }
      for (const a of aliases) {
        if (matches(a)) {
          if (exclude) names.delete(a);
          else names.set(a, { name: a, type: 'VIEW' });
        }
      }
    }
    return [...names.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** `POST /_sql/translate`. */
  translate(req: SqlRequest): Record<string, Json> {
    // ES SqlTranslateRequest.validate: Strings.hasText(query)
    if (!req.query?.trim()) throw actionRequestValidation(['query is required']);
    const text = req.query;
    return guardStack(text, () => this.translateStatement(text, req));
  }

  /**
   * EXTENSION: `POST /_sql/translate?phases`: the statement's Query DSL requests (one per UNION
   * branch), the clauses each carries and what runs in memory after them (translate/phases.ts).
   */
  translatePhases(req: SqlRequest): Record<string, Json> {
    if (!req.query?.trim()) throw actionRequestValidation(['query is required']);
    const text = req.query;
    return guardStack(text, () => {
      const planned = this.planStatement(text, req);
      if (planned.kind === 'command')
        throw planningException(
          'Cannot generate a query DSL for a special SQL command (e.g.: DESCRIBE, SHOW)',
          text,
        );
      return queryPhases(
        planned.plan,
        (req.filter as Json) ?? null,
        req.fetchSize ?? DEFAULT_FETCH_SIZE,
      );
    });
  }

  private translateStatement(text: string, req: SqlRequest): Record<string, Json> {
    const planned = this.planStatement(text, req);
    if (planned.kind === 'query' && planned.plan.union !== undefined)
      return this.translatePhases(req);
    if (planned.kind === 'command')
      throw planningException(
        'Cannot generate a query DSL for a special SQL command (e.g.: DESCRIBE, SHOW)',
        text,
      );
    if (planned.plan.window)
      return windowSearchSource(planned.plan.window, (req.filter as Json) ?? null);
    if (planned.plan.join)
      return joinSearchSource(
        planned.plan.join,
        (req.filter as Json) ?? null,
        this.node.joinMaxRows,
      );
    const c = planned.plan.container;
    if (c === null)
      throw planningException(
        "Cannot generate a query DSL for an SQL query that either its WHERE clause evaluates to FALSE or doesn't operate on a table (missing a FROM clause)",
        text,
      );
    return toSearchSource(c, (req.filter as Json) ?? null, req.fetchSize ?? DEFAULT_FETCH_SIZE);
  }

  /** `POST /_sql`: a query's first page, or the next page of a cursor. */
  async execute(req: SqlRequest): Promise<SqlPage> {
    if (req.cursor) return this.nextPage(req.cursor);
    // ES SqlQueryRequest.validate
    if (!req.query?.trim())
      throw actionRequestValidation(['one of [query] or [cursor] is required']);
    const text = req.query;
    try {
      return await this.executeStatement(text, req);
    } catch (e) {
      throw stackOverflowAsParsingError(text, e);
    }
  }

  private async executeStatement(text: string, req: SqlRequest): Promise<SqlPage> {
    const fetchSize = req.fetchSize ?? DEFAULT_FETCH_SIZE;
    const timeoutMs = req.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
    const planned = this.planStatement(text, req);
    if (planned.kind === 'command') {
      const r = this.command(planned.stmt, req, planned.cfg);
      return this.finish(r.columns, listPage(r.rows, fetchSize), timeoutMs);
    }
    const { plan, cfg } = planned;
    if (plan.union !== undefined) {
      // EXTENSION: each branch its own request, combined in memory (execute/union.ts)
      const union = plan.union;
      const branchRows: unknown[][][] = [];
      for (const b of union.branches) branchRows.push(await this.allRows(b, req, cfg));
      const columns = union.columns.map((col) => ({ name: col.name, type: col.dataType }));
      const rows = combineUnion(union, branchRows);
      return this.finish(columns, listPage(rows, fetchSize), timeoutMs);
    }
    if (plan.join || plan.window) {
      const r = await this.runInMemory(plan, req, cfg);
      const columns = r.output.map((a) => ({ name: a.name, type: a.dataType }));
      return this.finish(columns, listPage(r.rows, fetchSize), timeoutMs);
    }
    if (plan.container === null) {
      const local = executeLocal(plan.optimized, cfg);
      const columns = local.output.map((a) => ({ name: a.name, type: a.dataType }));
      return this.finish(columns, listPage(local.rows, fetchSize), timeoutMs);
    }
    const first = await this.runContainer(plan.container, req, cfg);
    const columns = plan.container.columns.map((col) => ({ name: col.name, type: col.dataType }));
    return this.finish(columns, first, timeoutMs);
  }

  /** A JOIN or window query: its searches run to the end, the rest computed in memory. */
  private runInMemory(plan: QueryPlan, req: SqlRequest, cfg: EvalContext & { zoneId: string }) {
    const o = {
      cfg,
      lenient: req.fieldMultiValueLeniency === true,
      filter: (req.filter as Json) ?? null,
      pageTimeoutMs: req.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
      ...(this.node.joinMaxRows !== undefined ? { maxRows: this.node.joinMaxRows } : {}),
      resolve: (c: QueryContainer) => {
        const indices = this.searchIndices(c, req);
        return { indices, aliasFilters: this.node.indices.aliasFilters(c.pattern, indices) };
      },
    };
    return plan.join ? runJoin(this.node, plan.join, o) : runWindows(this.node, plan.window!, o);
  }

  /** Every row of a planned query (a UNION branch), all pages read. */
  private async allRows(
    plan: QueryPlan,
    req: SqlRequest,
    cfg: EvalContext & { zoneId: string },
  ): Promise<unknown[][]> {
    if (plan.join || plan.window) return (await this.runInMemory(plan, req, cfg)).rows;
    if (plan.container === null) return executeLocal(plan.optimized, cfg).rows;
    const first = await this.runContainer(plan.container, req, cfg);
    const timeoutMs = req.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
    return drainRows(this.node, first, timeoutMs, MAX_UNION_ROWS, tooManyUnionRows);
  }

  /** The first page of a folded query, through the DSL executor. */
  private runContainer(
    c: QueryContainer,
    req: SqlRequest,
    cfg: EvalContext & { zoneId: string },
  ): Promise<FirstPage> {
    const fetchSize = req.fetchSize ?? DEFAULT_FETCH_SIZE;
    const timeoutMs = req.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
    const indices = this.searchIndices(c, req);
    return runQuery(this.node, indices, c, {
      // ES SQL searches the FROM expression as written: its filtering aliases apply
      aliasFilters: this.node.indices.aliasFilters(c.pattern, indices),
      fetchSize,
      filter: (req.filter as Json) ?? null,
      extract: { cfg, lenient: req.fieldMultiValueLeniency === true },
      pageTimeoutMs: timeoutMs,
    });
  }

  /** The concrete indices a folded query searches. */
  private searchIndices(c: QueryContainer, req: SqlRequest) {
    return this.node.indices.resolve(c.indices.join(','), {
      ignoreUnavailable: true,
      allowNoIndices: true,
      expandOpen: true,
      expandClosed: false,
      forbidClosed: false,
      // FROM FROZEN / index_include_frozen search frozen indices too
      ignoreThrottled: !(c.includeFrozen || req.includeFrozen === true),
    });
  }

  /**
   * Parses and plans a statement, or reuses the plan of an identical earlier one. Commands are
   * not cached (they read the cluster state when they run).
   */
  private planStatement(
    text: string,
    req: SqlRequest,
  ):
    | { kind: 'command'; stmt: A.Command; cfg: EvalContext & { zoneId: string } }
    | { kind: 'query'; plan: QueryPlan; cfg: EvalContext & { zoneId: string } } {
    const frozen = req.includeFrozen === true;
    const params = req.params ?? [];
    const zoneId = zoneOf(req.timeZone ?? 'Z').id;
    const key = this.plans.key(text, params, zoneId, frozen);
    const catalog = this.catalog(frozen);
    const cached = key === null ? null : this.plans.get(key, catalog);
    if (cached !== null) return { kind: 'query', plan: cached, cfg: this.config(req) };
    // a statement differing from an earlier one only in lifted literals: its template's plan
    // one lexing serves both the lifting and, when the statement is planned, the parser
    const lexed = key !== null && params.length === 0 ? tokenizeSql(text) : null;
    const lifted = lexed !== null ? liftLiterals(text, lexed) : null;
    const shapeKey = lifted && this.templates.key(lifted.shape, params, zoneId, frozen);
    let template = shapeKey ? this.templates.get(shapeKey, catalog) : null;
    // the shape's second statement makes its template, checked against the first one's plan
    const first = shapeKey && template === null ? this.takeFirstOfShape(shapeKey) : undefined;
    if (first && shapeKey) template = this.makeTemplate(first, shapeKey, req, catalog, zoneId);
    if (key !== null && lifted && template?.plan) {
      const plan = substitute(template.plan, bindLiterals(template.subs, lifted), template.hot);
      if (plan !== null) {
        this.templatedCount++;
        this.plans.put(key, plan, template.trace);
        return { kind: 'query', plan, cfg: this.config(req) };
      }
    }
    const stmt = parseSql(text, params, lexed?.tokens);
    if (stmt.kind !== 'Query') return { kind: 'command', stmt, cfg: this.config(req) };
    const trace = this.plans.trace(catalog);
    const cfg = this.config(req, trace);
    const plan = planQuery(stmt, { catalog: trace.catalog, cfg, sql: text, zoneId: cfg.zoneId });
    if (key !== null) this.plans.put(key, plan, trace);
    // a template costs a planning of its own: made when a shape comes back, not for one-offs
    if (lifted && shapeKey && template === null && !trace.clockRead)
      this.rememberFirstOfShape(shapeKey, lifted);
    return { kind: 'query', plan, cfg };
  }

  /** The first statement of a shape without a template yet, forgotten once taken. */
  private takeFirstOfShape(shapeKey: string): FirstOfShape | undefined {
    const first = this.shapes.get(shapeKey);
    if (first !== undefined) this.shapes.delete(shapeKey);
    return first;
  }

  /** Remembers a shape's first statement (the latest shapes, oldest dropped first). */
  private rememberFirstOfShape(shapeKey: string, lifted: Lifted): void {
    if (this.shapes.size >= 1024) this.shapes.delete(this.shapes.keys().next().value!);
    const { shape, literals, intSentinels, text } = lifted;
    this.shapes.set(shapeKey, { lifted: { shape, literals, intSentinels, text, tokens: [] } });
  }

  /**
   * Plans the sentinel form of a shape's first statement (literal-templates.ts) and keeps it as
   * the shape's template when it gives back exactly that statement's plan; otherwise the shape
   * is remembered as one without a template.
   */
  private makeTemplate(
    first: FirstOfShape,
    shapeKey: string,
    req: SqlRequest,
    catalog: Catalog,
    zoneId: string,
  ): Template {
    const trace = this.templates.trace(catalog);
    let template: QueryPlan | null = null;
    const hot = new Map<object, Array<string | number>>();
    const sentinels = sentinelStatement(first.lifted);
    try {
      const stmt = parseSql(sentinels.text, []);
      const firstStmt = parseSql(first.lifted.text, []);
      if (stmt.kind === 'Query' && firstStmt.kind === 'Query') {
        const cfg = this.config(req, trace);
        const sql = sentinels.text;
        const p = planQuery(stmt, { catalog: trace.catalog, cfg, sql, zoneId });
        const made = substitute(p, sentinels.subs, null, hot);
        // the first statement planned again, now, against the same mappings as the sentinels
        const opts = { catalog: trace.catalog, cfg, sql: first.lifted.text, zoneId };
        if (made !== null && samePlan(made, planQuery(firstStmt, opts)) && !trace.clockRead)
          template = p;
      }
    } catch {
      // the sentinels do not plan (a literal the planner parses): no template
    }
    const made = { plan: template, hot, trace, subs: sentinels.subs };
    this.templates.put(shapeKey, made, { ...trace, clockRead: false });
    return made;
  }

  private command(stmt: A.Command, req: SqlRequest, cfg: EvalContext & { zoneId: string }) {
    if (stmt.kind === 'Explain' || stmt.kind === 'Debug') {
      return {
        columns: [{ name: 'plan', type: 'KEYWORD' }],
        rows: [[this.explain(stmt, req, cfg)]],
      };
    }
    return runCommand(stmt, this.commandCatalog(req.includeFrozen === true), req.mode ?? 'plain');
  }

  private explain(
    stmt: A.Explain | A.Debug,
    req: SqlRequest,
    cfg: EvalContext & { zoneId: string },
  ): string {
    const inner = stmt.statement;
    if (inner.kind !== 'Query') return inner.kind;
    const sql = req.query ?? '';
    const p = planQuery(inner, {
      catalog: this.catalog(req.includeFrozen === true),
      cfg,
      sql,
      zoneId: cfg.zoneId,
    });
    const type = stmt.type ?? 'ALL';
    // EXTENSION: a UNION explains its requests and in-memory steps
    if (p.union !== undefined) return explainUnion(p, type, req.fetchSize ?? DEFAULT_FETCH_SIZE);
    const body = p.join
      ? JSON.stringify(joinSearchSource(p.join, null, this.node.joinMaxRows), null, 2)
      : p.window
        ? JSON.stringify(windowSearchSource(p.window, null), null, 2)
        : p.container
          ? JSON.stringify(toSearchSource(p.container, null, null), null, 2)
          : planText(p.optimized);
    switch (type) {
      case 'PARSED':
      case 'ANALYZED':
        return planText(p.analyzed);
      case 'OPTIMIZED':
        return planText(p.optimized);
      case 'MAPPED':
      case 'EXECUTABLE':
        return body;
      default:
        return `Analyzed\n--------\n${planText(p.analyzed)}\nOptimized\n---------\n${planText(p.optimized)}\nExecutable\n----------\n${body}`;
    }
  }

  private finish(columns: readonly ColumnMeta[], page: FirstPage, timeoutMs: number): SqlPage {
    if (page.next === null) return { columns, rows: page.rows, cursor: null };
    const state = {
      ...page.next,
      columns,
      expiresAt: Date.now() + timeoutMs,
      timeoutMs,
    } as CursorState;
    return { columns, rows: page.rows, cursor: this.cursors.open(state) };
  }

  private async nextPage(cursor: string): Promise<SqlPage> {
    const s = this.cursors.get(cursor);
    let rows: unknown[][];
    let done: boolean;
    switch (s.kind) {
      case 'scroll': {
        const r = await nextHitsPage(this.node, s);
        rows = r.rows;
        // ES (SearchHitRowSet, ScrollCursor.nextPage) ends a scroll cursor only on an empty page or
        // once LIMIT is reached: a shorter page still hands out a cursor, whose next page is empty.
        done = rows.length === 0 || s.remaining === 0;
        if (done) await clearScroll(this.node, s.scrollId);
        break;
      }
      case 'composite': {
        const r = await s.next(s.afterKey);
        rows = r.rows;
        if (s.remaining >= 0) {
          rows = rows.slice(0, s.remaining);
          s.remaining -= rows.length;
        }
        done = r.afterKey === null || s.remaining === 0;
        if (r.afterKey !== null) s.afterKey = r.afterKey;
        break;
      }
      case 'list': {
        rows = s.rows.slice(s.pos, s.pos + s.pageSize) as unknown[][];
        s.pos += rows.length;
        done = s.pos >= s.rows.length;
        break;
      }
    }
    if (done) this.cursors.close(cursor);
    return { columns: null, rows, cursor: done ? null : cursor };
  }

  /** `POST /_sql/close`: true when the cursor existed. */
  async close(cursor: string): Promise<boolean> {
    const s = this.cursors.close(cursor);
    if (s === null) return false;
    if (s.kind === 'scroll') await clearScroll(this.node, s.scrollId);
    return true;
  }
}

/** The `/_sql` type name of a column (`datetime`, `keyword`). */
export const typeName = (t: string): string =>
  DATA_TYPES[t as DataTypeName]?.typeName ?? t.toLowerCase();
