/**
 * Query rescoring (ES QueryRescorerBuilder / QueryRescorer / RescorePhase): the top `window_size`
 * hits of each shard are scored again by a second query and the two scores combined by
 * `score_mode`; hits past the window keep `query_weight` × their score. Also the explanation ES
 * builds for a rescored hit (QueryRescorer.explain).
 */
import { illegalArgument, parsingException, xContentParse } from '../../common/errors.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { expl, type Explanation } from '../../search/query/explanation.js';
import type { Scorer } from '../../search/query/scorer.js';
import type { Weight } from '../../search/query/weights.js';

export type RescoreMode = 'avg' | 'max' | 'min' | 'total' | 'multiply';

export interface RescoreSpec {
  /** null: RescorerBuilder.DEFAULT_WINDOW_SIZE (10). */
  windowSize: number | null;
  /** The `rescore_query` JSON (parsed by the query DSL when the search is parsed). */
  query: unknown;
  queryWeight: number;
  rescoreQueryWeight: number;
  scoreMode: RescoreMode;
}

export const DEFAULT_WINDOW_SIZE = 10;

const MODES: Record<string, RescoreMode> = {
  avg: 'avg',
  max: 'max',
  min: 'min',
  total: 'total',
  multiply: 'multiply',
};

/** QueryRescoreMode.toString: the word used in explanations. */
const MODE_NAME: Record<RescoreMode, string> = {
  avg: 'avg',
  max: 'max',
  min: 'min',
  total: 'sum',
  multiply: 'product',
};

const f = Math.fround;

/** QueryRescoreMode.combine (float arithmetic). */
export function combineScores(mode: RescoreMode, primary: number, secondary: number): number {
  switch (mode) {
    case 'avg':
      return f(f(primary + secondary) / 2);
    case 'max':
      return Math.max(primary, secondary);
    case 'min':
      return Math.min(primary, secondary);
    case 'total':
      return f(primary + secondary);
    case 'multiply':
      return f(primary * secondary);
  }
}

function floatValue(name: string, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw xContentParse(`[query] failed to parse field [${name}]`);
  return f(n);
}

/** SearchSourceBuilder `rescore`: one rescorer object or an array of them. */
export function parseRescore(v: unknown): RescoreSpec[] {
  if (Array.isArray(v)) {
    return v.map((x) => {
      if (!x || typeof x !== 'object' || Array.isArray(x))
        throw parsingException(`Unexpected token in rescore array`);
      return parseRescorer(x as Record<string, unknown>);
    });
  }
  if (v && typeof v === 'object') return [parseRescorer(v as Record<string, unknown>)];
  throw parsingException(
    `Unknown key for a ${Array.isArray(v) ? 'START_ARRAY' : 'VALUE'} in [rescore].`,
  );
}

/** RescorerBuilder.parseFromXContent. */
function parseRescorer(o: Record<string, unknown>): RescoreSpec {
  let windowSize: number | null = null;
  let spec: RescoreSpec | null = null;
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      if (k !== 'query') throw parsingException(`unknown rescorer [${k}]`);
      spec = parseQueryRescorer(v as Record<string, unknown>);
    } else if (v !== null && !Array.isArray(v)) {
      if (k !== 'window_size') throw parsingException(`rescore doesn't support [${k}]`);
      const n = typeof v === 'string' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n))
        throw xContentParse(`[rescore] failed to parse field [window_size]`);
      windowSize = Math.trunc(n);
    } else {
      throw parsingException(
        `unexpected token [${Array.isArray(v) ? 'START_ARRAY' : 'VALUE_NULL'}] after [${k}]`,
      );
    }
  }
  if (!spec) throw parsingException('missing rescore type');
  if (windowSize !== null) {
    if (windowSize < 0) throw illegalArgument('[window_size] must be greater than or equal to 0');
    spec.windowSize = windowSize;
  }
  return spec;
}

/** QueryRescorerBuilder.fromXContent. */
function parseQueryRescorer(o: Record<string, unknown>): RescoreSpec {
  const spec: RescoreSpec = {
    windowSize: null,
    query: null,
    queryWeight: 1,
    rescoreQueryWeight: 1,
    scoreMode: 'total',
  };
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'rescore_query':
        if (!v || typeof v !== 'object' || Array.isArray(v))
          throw xContentParse(`[query] rescore_query doesn't support values of type: VALUE`);
        spec.query = v;
        break;
      case 'query_weight':
        spec.queryWeight = floatValue(k, v);
        break;
      case 'rescore_query_weight':
        spec.rescoreQueryWeight = floatValue(k, v);
        break;
      case 'score_mode': {
        const m = MODES[String(v).toLowerCase()];
        if (!m) throw illegalArgument(`illegal score_mode [${String(v)}]`);
        spec.scoreMode = m;
        break;
      }
      default:
        throw xContentParse(`[query] unknown field [${k}], parser not found`);
    }
  }
  if (spec.query === null) throw illegalArgument('rescore_query cannot be null');
  return spec;
}

export interface ShardRescorer {
  spec: RescoreSpec;
  weight: Weight;
}

/** Per rescorer, the hits (by shard doc id) it rescored: QueryRescoreContext.isRescored. */
export type RescoredDocs = Array<Set<number>>;

const byScoreThenDoc = (a: CollectedHit, b: CollectedHit) =>
  a.score !== b.score ? b.score - a.score : a.globalDoc - b.globalDoc;

/**
 * RescorePhase over one shard's top hits (sorted by score). Returns the re-sorted hits and, per
 * rescorer, the docs that were in its window.
 */
export function rescoreShardHits(
  hits: CollectedHit[],
  rescorers: readonly ShardRescorer[],
): { hits: CollectedHit[]; rescored: RescoredDocs } {
  let cur = hits;
  const rescored: RescoredDocs = [];
  for (const r of rescorers) {
    const window = Math.min(r.spec.windowSize ?? DEFAULT_WINDOW_SIZE, cur.length);
    const top = cur.slice(0, window);
    rescored.push(new Set(top.map((h) => h.globalDoc)));
    // Lucene QueryRescorer: visit the window in doc order, one scorer per segment
    const inDocOrder = [...top].sort((a, b) => a.globalDoc - b.globalDoc);
    let seg: LiveSegment | null = null;
    let scorer: Scorer | null = null;
    for (const h of inDocOrder) {
      if (h.segment !== seg) {
        seg = h.segment;
        scorer = r.weight.scorer(seg);
      }
      const first = f(h.score * r.spec.queryWeight);
      const matched =
        scorer !== null && (scorer.doc < h.doc ? scorer.advance(h.doc) : scorer.doc) === h.doc;
      h.score = matched
        ? combineScores(r.spec.scoreMode, first, f(scorer!.score() * r.spec.rescoreQueryWeight))
        : first;
    }
    top.sort(byScoreThenDoc);
    // ES QueryRescorer.combine: hits past the window count as rescored without a match
    const rest = cur.slice(window);
    for (const h of rest) h.score = f(h.score * r.spec.queryWeight);
    cur = rest.length > 0 ? [...top, ...rest].sort(byScoreThenDoc) : top;
  }
  return { hits: cur, rescored };
}

/** QueryRescorer.explain, applied once per rescorer over the query's explanation. */
export function explainRescore(
  source: Explanation,
  spec: RescoreSpec,
  wasRescored: boolean,
  secondPass: { matched: boolean; explanation: Explanation } | null,
): Explanation {
  const prim = expl(f(source.value * spec.queryWeight), 'product of:', [
    source,
    expl(spec.queryWeight, 'primaryWeight'),
  ]);
  if (wasRescored && secondPass && secondPass.matched) {
    const sec = expl(f(secondPass.explanation.value * spec.rescoreQueryWeight), 'product of:', [
      secondPass.explanation,
      expl(spec.rescoreQueryWeight, 'secondaryWeight'),
    ]);
    return expl(
      combineScores(spec.scoreMode, prim.value, sec.value),
      `${MODE_NAME[spec.scoreMode]} of:`,
      [prim, sec],
    );
  }
  return prim;
}
