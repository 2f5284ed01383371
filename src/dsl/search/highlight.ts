/**
 * Highlighting (ES unified/plain highlighters): the query's terms per field are found by
 * re-analysing the stored text; the unified highlighter forms and ranks passages as Lucene does
 * (unified-passages.ts), the others take fragments of `fragment_size` chars around matches;
 * matches are wrapped in `pre_tags`/`post_tags`.
 */
import { lookupField } from '../../mapping/index.js';
import type { IndexService } from '../../engine/index-service.js';
import { simpleMatch } from '../../engine/index-names.js';
import type { Query } from '../../search/query/query.js';
import {
  parseQuery,
  toSearchQuery,
  type IndexQueryContext,
  type QueryNode,
} from '../query/index.js';
import type { FieldMapping } from '../../mapping/types.js';
import { illegalArgument, type EsError } from '../../common/errors.js';
import type { HighlightSpec } from './request.js';
import { valueAtPath } from './fetch.js';
import { indexAnalyzer, normalizeKeyword } from '../../engine/analyzers.js';
import {
  formatPassage,
  unifiedPassages,
  VALUE_SEPARATOR,
  type PassageMatch,
} from './unified-passages.js';

/** Terms (and phrases as term lists) a query looks for, per field. */
export function queryTerms(
  q: Query,
  out = new Map<string, Set<string>>(),
): Map<string, Set<string>> {
  const add = (f: string, t: string) => {
    let s = out.get(f);
    if (!s) out.set(f, (s = new Set()));
    s.add(t);
  };
  switch (q.kind) {
    case 'Term':
      add(q.field, q.term);
      break;
    case 'Synonym':
      for (const t of q.terms) add(q.field, t);
      break;
    case 'Phrase':
      for (const p of q.terms) for (const t of p) add(q.field, t);
      break;
    case 'TermSet':
      for (const t of q.terms) add(q.field, t);
      break;
    case 'Bool':
      for (const c of [...q.must, ...q.should, ...q.filter]) queryTerms(c, out);
      break;
    case 'ConstantScore':
    case 'FunctionScore':
      queryTerms(q.inner, out);
      break;
    case 'DisMax':
      for (const c of q.queries) queryTerms(c, out);
      break;
    case 'Boosting':
      queryTerms(q.positive, out);
      break;
    case 'SpanTerm':
      add(q.field, q.term);
      break;
    case 'SpanNear':
    case 'SpanOr':
      for (const c of q.clauses) queryTerms(c, out);
      break;
    case 'SpanNot':
      queryTerms(q.include, out);
      break;
    case 'SpanFirst':
      queryTerms(q.match, out);
      break;
    case 'SpanContaining':
    case 'SpanWithin':
      queryTerms(q.big, out);
      queryTerms(q.little, out);
      break;
    case 'SpanMask':
      queryTerms(q.inner, out);
      break;
    default:
      break;
  }
  return out;
}

/** What a query looks for in one field: exact terms, and term tests (prefix, wildcard...). */
interface FieldMatcher {
  readonly terms: Set<string>;
  readonly tests: Array<(term: string) => boolean>;
}

/** Per field, the terms and multi-term tests of a query (ES highlighters' query extraction). */
export function queryMatchers(q: Query): Map<string, FieldMatcher> {
  const out = new Map<string, FieldMatcher>();
  const of = (f: string): FieldMatcher => {
    let m = out.get(f);
    if (!m) out.set(f, (m = { terms: new Set(), tests: [] }));
    return m;
  };
  for (const [f, ts] of queryTerms(q)) for (const t of ts) of(f).terms.add(t);
  const walk = (x: Query): void => {
    switch (x.kind) {
      case 'MultiTerm': {
        const matcher = x.matcher;
        of(x.field).tests.push((t) => t.startsWith(matcher.prefix) && matcher.test(t));
        break;
      }
      case 'TermRange': {
        const { lo, hi, includeLo, includeHi } = x;
        of(x.field).tests.push(
          (t) =>
            (lo === null || (includeLo ? t >= lo : t > lo)) &&
            (hi === null || (includeHi ? t <= hi : t < hi)),
        );
        break;
      }
      case 'PhrasePrefix': {
        const m = of(x.field);
        x.terms.forEach((ts, i) => {
          if (i < x.terms.length - 1) for (const t of ts) m.terms.add(t);
          else for (const t of ts) m.tests.push((term) => term.startsWith(t));
        });
        break;
      }
      case 'Bool':
        for (const c of [...x.must, ...x.should, ...x.filter]) walk(c);
        break;
      case 'ConstantScore':
      case 'FunctionScore':
        walk(x.inner);
        break;
      case 'DisMax':
        for (const c of x.queries) walk(c);
        break;
      case 'Boosting':
        walk(x.positive);
        break;
      default:
        break;
    }
  };
  walk(q);
  return out;
}

/** ES UnifiedHighlighter.getOffsetSource: where the highlighter finds offsets. */
function offsetSource(f: FieldMapping): 'postings' | 'term_vectors' | 'analysis' {
  if (f.indexOptions === 'offsets') return 'postings';
  if (f.termVector && f.termVector !== 'no') return 'term_vectors';
  return 'analysis';
}

/** index.highlight.max_analyzed_offset (-1: unlimited). */
function maxAnalyzedOffset(idx: IndexService): number {
  const v = idx.meta.settings['index.highlight.max_analyzed_offset'];
  return typeof v === 'string' ? Number(v) : -1;
}

function tooLong(
  length: number,
  field: string,
  id: string,
  idx: IndexService,
  max: number,
  plain: boolean,
): EsError {
  return illegalArgument(
    `The length [${length}] of [${field}] field of [${id}] doc of [${idx.name}] index has exceeded [${max}] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. ${plain ? 'For large texts, indexing with offsets or term vectors, and highlighting with unified or fvh highlighter is recommended!' : 'For large texts, indexing with offsets or term vectors is recommended!'}`,
  );
}

/** Overlapping matches become one (what the highlighters' passages show). */
function mergeSpans(spans: Array<[number, number]>): Array<[number, number]> {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

export function highlightHit(
  spec: HighlightSpec,
  idx: IndexService,
  source: unknown,
  query: QueryNode,
  qctx: IndexQueryContext,
  docId = '',
): Record<string, string[]> | null {
  const g = spec.global;
  const matchersOf = (hq: unknown): Map<string, FieldMatcher> =>
    queryMatchers(toSearchQuery(hq !== undefined && hq !== null ? parseQuery(hq) : query, qctx));
  let mainMatchers: Map<string, FieldMatcher> | null = null;
  const out: Record<string, string[]> = {};
  const maxOffset = maxAnalyzedOffset(idx);
  for (const { name, opts } of spec.fields) {
    const o = { ...g, ...opts };
    const type = String(o.type ?? 'unified');
    const matchers =
      o.highlight_query !== undefined && o.highlight_query !== null
        ? matchersOf(o.highlight_query)
        : (mainMatchers ??= matchersOf(null));
    const pre = (o.pre_tags as string[] | undefined)?.[0] ?? '<em>';
    const post = (o.post_tags as string[] | undefined)?.[0] ?? '</em>';
    const fragSize = Number(o.fragment_size ?? 100);
    const numFrags = Number(o.number_of_fragments ?? 5);
    const requireMatch = o.require_field_match !== false;
    const wildcard = name.includes('*');
    const paths =
      wildcard && idx.mapping
        ? [...idx.mapping.fieldsByPath.keys()].filter((p) => simpleMatch(name, p))
        : [name];
    for (const path of paths) {
      const field = idx.mapping ? lookupField(idx.mapping, path) : undefined;
      if (!field || (field.type !== 'text' && field.type !== 'keyword')) continue;
      let m = matchers.get(field.path);
      if (!requireMatch) {
        const all: FieldMatcher = { terms: new Set(), tests: [] };
        for (const x of matchers.values()) {
          for (const t of x.terms) all.terms.add(t);
          all.tests.push(...x.tests);
        }
        m = all;
      }
      if (
        type === 'fvh' &&
        field.termVector !== 'with_positions_offsets' &&
        field.termVector !== 'with_positions_offsets_payloads'
      ) {
        if (wildcard) continue;
        throw illegalArgument(`the field [${path}] should be indexed with term vector with position offsets to be used with fast vector highlighter`); // prettier-ignore
      }
      if (!m || (m.terms.size === 0 && m.tests.length === 0)) continue;
      const raw = valueAtPath(source, field.parentField ?? field.path);
      if (raw === undefined || raw === null) continue;
      const texts = (Array.isArray(raw) ? raw : [raw]).map(String);
      // the highlighters analyze the stored text unless offsets are indexed
      if (maxOffset > 0) {
        if (type === 'plain') {
          for (const t of texts) if (t.length > maxOffset) throw tooLong(t.length, path, docId, idx, maxOffset, true); // prettier-ignore
        } else if (type === 'unified' && offsetSource(field) === 'analysis') {
          const merged = texts.reduce((n, t) => n + t.length, 0) + texts.length - 1;
          if (merged > maxOffset) throw tooLong(merged, path, docId, idx, maxOffset, false);
        }
      }
      const hit = (term: string) => m!.terms.has(term) || m!.tests.some((t) => t(term));
      const spansOf = (text: string, base: number, out: PassageMatch[]) => {
        if (field.type === 'keyword') {
          const term = normalizeKeyword(idx, field, text);
          if (hit(term)) out.push({ start: base, end: base + text.length, term });
        } else {
          indexAnalyzer(idx, field).analyze(text, (term, _p, s, e) => {
            if (hit(term)) out.push({ start: base + s, end: base + e, term });
          });
        }
      };
      if (type === 'unified') {
        const frags = unifiedFragments(texts, spansOf, fragSize, numFrags, pre, post, o.order === 'score'); // prettier-ignore
        if (frags.length) out[path] = frags;
        continue;
      }
      const frags: string[] = [];
      for (const text of texts) {
        const spans: Array<[number, number]> = [];
        if (field.type === 'keyword') {
          if (hit(normalizeKeyword(idx, field, text))) spans.push([0, text.length]);
        } else {
          indexAnalyzer(idx, field).analyze(text, (term, _p, s, e) => {
            if (hit(term)) spans.push([s, e]);
          });
        }
        if (!spans.length) continue;
        frags.push(...fragments(text, mergeSpans(spans), fragSize, numFrags, pre, post));
      }
      if (frags.length) out[path] = numFrags === 0 ? frags : frags.slice(0, numFrags);
    }
  }
  return out;
}

/**
 * ES UnifiedHighlighter: the values joined by the value separator, highlighted as one text in
 * passages (unified-passages.ts), best first with `order: score`; empty snippets dropped.
 */
function unifiedFragments(
  texts: readonly string[],
  spansOf: (text: string, base: number, out: PassageMatch[]) => void,
  fragSize: number,
  numFrags: number,
  pre: string,
  post: string,
  byScore: boolean,
): string[] {
  const text = texts.join(VALUE_SEPARATOR);
  const matches: PassageMatch[] = [];
  let base = 0;
  for (const t of texts) {
    spansOf(t, base, matches);
    base += t.length + 1;
  }
  if (matches.length === 0) return [];
  const passages = unifiedPassages(text, matches, fragSize, numFrags);
  // CollectionUtil.introSort by descending score (ties keep text order here)
  if (byScore) passages.sort((a, b) => b.score - a.score);
  return passages.map((p) => formatPassage(text, p, pre, post)).filter((s) => s.trim() !== '');
}

function fragments(
  text: string,
  spans: Array<[number, number]>,
  size: number,
  max: number,
  pre: string,
  post: string,
): string[] {
  const wrap = (from: number, to: number) => {
    let s = '';
    let pos = from;
    for (const [a, b] of spans) {
      if (b <= from || a >= to) continue;
      s +=
        text.slice(pos, Math.max(a, from)) +
        pre +
        text.slice(Math.max(a, from), Math.min(b, to)) +
        post;
      pos = Math.min(b, to);
    }
    return s + text.slice(pos, to);
  };
  if (max === 0 || text.length <= size) return [wrap(0, text.length)];
  const out: string[] = [];
  let i = 0;
  while (i < spans.length && out.length < max) {
    const start = Math.max(
      0,
      wordStart(text, spans[i]![0] - Math.floor((size - (spans[i]![1] - spans[i]![0])) / 2)),
    );
    const end = Math.min(text.length, wordEnd(text, start + size));
    out.push(wrap(start, end).trim());
    while (i < spans.length && spans[i]![0] < end) i++;
  }
  return out;
}

function wordStart(text: string, i: number): number {
  if (i <= 0) return 0;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}
function wordEnd(text: string, i: number): number {
  while (i < text.length && !/\s/.test(text[i]!)) i++;
  return i;
}
