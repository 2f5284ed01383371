/**
 * The Painless execute API (ES 6.8 PainlessExecuteAction): runs one inline script in the
 * `painless_test` context (the result as Java's Objects.toString), or in the `filter` / `score`
 * context against `context_setup.document` parsed with the mapping of `context_setup.index`
 * into a one-document segment (ES builds an in-memory Lucene index the same way).
 */
import {
  actionRequestValidation,
  EsError,
  illegalArgument,
  parsingException,
} from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { lookupField, parseDocument } from '../../mapping/index.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { SegmentBuilder } from '../../search/index/segment-builder.js';
import { shardStats } from '../../search/query/stats.js';
import { createWeight } from '../../search/query/weights.js';
import { lowerQuery, parseQuery } from '../query/index.js';
import { indexQueryContext } from '../search/index-context.js';
import { SegmentDocLookup } from './doc-values.js';
import { compileScript, parseScriptSpec, type ScriptSpec } from './index.js';
import { classCast, runtimeErrorToEs } from './errors.js';
import { javaString, typeName } from './runtime.js';

export type ExecuteContext = 'painless_test' | 'filter' | 'score';

export interface ContextSetup {
  readonly index: string | null;
  readonly document: Record<string, unknown> | null;
  /** For `score`: the script's `_score` is the document's score for this query. */
  readonly query: unknown;
}

export interface PainlessExecuteRequest {
  readonly script: ScriptSpec;
  readonly context: ExecuteContext;
  readonly setup: ContextSetup | null;
}

const CONTEXTS: ReadonlySet<string> = new Set(['painless_test', 'filter', 'score']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** PainlessExecuteAction.Request.parse and validate. */
export function parsePainlessExecuteRequest(body: unknown): PainlessExecuteRequest {
  if (!isObject(body)) throw parsingException('request body is required');
  let script: ScriptSpec | null = null;
  let stored = false;
  let context: ExecuteContext = 'painless_test';
  let setup: ContextSetup | null = null;
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'script':
        if (!isObject(v)) throw parsingException('[painless_execute_request] failed to parse field [script]'); // prettier-ignore
        stored = typeof v.id === 'string';
        script = stored ? { source: '', lang: 'painless', params: {} } : parseScriptSpec(v);
        break;
      case 'context':
        if (typeof v !== 'string') throw parsingException('[painless_execute_request] context doesn\'t support values of type: ' + typeof v); // prettier-ignore
        if (!CONTEXTS.has(v))
          throw new EsError(
            'unsupported_operation_exception',
            `unsupported script context name [${v}]`,
            500,
          );
        context = v as ExecuteContext;
        break;
      case 'context_setup':
        if (!isObject(v)) throw parsingException('[painless_execute_request] failed to parse field [context_setup]'); // prettier-ignore
        setup = parseContextSetup(v);
        break;
      default:
        throw parsingException(`[painless_execute_request] unknown field [${k}], parser not found`);
    }
  }
  if (script === null) throw illegalArgument('Required [script]');
  const problems: string[] = [];
  if (stored) problems.push('only inline scripts are supported');
  if (context !== 'painless_test') {
    if (setup?.index == null) problems.push('index is a required parameter for current context');
    if (setup?.document == null)
      problems.push('document is a required parameter for current context');
  }
  if (problems.length > 0) throw actionRequestValidation(problems);
  return { script, context, setup };
}

function parseContextSetup(o: Record<string, unknown>): ContextSetup {
  let index: string | null = null;
  let document: Record<string, unknown> | null = null;
  let query: unknown = undefined;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'index') {
      if (typeof v !== 'string') throw parsingException('[execute_script_context] index doesn\'t support values of type: ' + typeof v); // prettier-ignore
      index = v;
    } else if (k === 'document') {
      if (!isObject(v)) throw parsingException('[execute_script_context] failed to parse field [document]'); // prettier-ignore
      document = v;
    } else if (k === 'query') query = v;
    else throw parsingException(`[execute_script_context] unknown field [${k}], parser not found`);
  }
  return { index, document, query };
}

/**
 * Runs the request. `idx` is the index `context_setup.index` resolved to (required by `filter`
 * and `score`); `onDeprecation` receives the doc-values deprecation warnings.
 */
export function executePainless(
  req: PainlessExecuteRequest,
  idx: IndexService | null,
  onDeprecation?: (msg: string) => void,
): unknown {
  const { source, lang, params } = req.script;
  const script = compileScript(source, { lang, params });
  if (req.context === 'painless_test') return javaString(script.evaluate({ params }));
  if (!idx) throw illegalArgument('index is a required parameter for current context');
  const mapping = idx.mapping;
  const doc = new SegmentDocLookup(
    (path) => (mapping ? lookupField(mapping, path) : undefined),
    undefined,
    onDeprecation,
  );
  const ls = oneDocSegment(idx, req.setup!.document!);
  doc.setSegment(ls);
  doc.setDoc(0);
  // score: `_score` is the document's score for context_setup.query (none: 0)
  const query = req.context === 'score' ? req.setup?.query : undefined;
  const score = query === undefined ? 0 : queryScore(idx, ls, query, onDeprecation);
  const r = script.evaluate({ params, doc, _score: score });
  if (req.context === 'filter') {
    if (typeof r !== 'boolean') throw classCastError(r, 'boolean', source, lang);
    return r;
  }
  if (typeof r !== 'number' && !(r instanceof Number)) throw classCastError(r, 'double', source, lang); // prettier-ignore
  return Number(r);
}

/** The document as the index's mapping parses it, alone in a segment (doc 0). */
function oneDocSegment(idx: IndexService, document: Record<string, unknown>): LiveSegment {
  if (!idx.mapping) throw illegalArgument(`index [${idx.name}] has no mapping to parse the document with`); // prettier-ignore
  const parsed = parseDocument(idx.mapping, document, idx.mappingContext(), '_id');
  const b = new SegmentBuilder(idx.analysisResolver);
  b.add('_id', parsed, 0, 1);
  return { segment: b.build(), live: null, deleted: 0, docBase: 0 };
}

/** The score of the lone document for `query` (0 when it does not match), as the shard would. */
function queryScore(
  idx: IndexService,
  ls: LiveSegment,
  query: unknown,
  onDeprecation?: (msg: string) => void,
): number {
  const warnings: string[] = [];
  const ctx = indexQueryContext(idx, Date.now(), { maxClauseCount: 1024, maxBuckets: 10000 }, { warnings }); // prettier-ignore
  const q = lowerQuery(parseQuery(query), ctx).query;
  for (const w of warnings) onDeprecation?.(w);
  const stats = shardStats({ generation: 0, segments: [ls], maxDoc: 1, numDocs: 1 });
  const scorer = createWeight(q, { stats, needsScores: true, segments: [ls] }).scorer(ls);
  return scorer !== null && scorer.next() === 0 ? scorer.score() : 0;
}

/** The script's result does not fit the context's return type: a runtime script error. */
function classCastError(r: unknown, to: string, source: string, lang: string): EsError {
  return runtimeErrorToEs(classCast(`Cannot cast ${typeName(r)} to ${to}`), source, lang);
}
