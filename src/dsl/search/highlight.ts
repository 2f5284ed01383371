/**
 * Highlighting (ES unified/plain highlighters, simplified): the query's terms per field are found
 * by re-analysing the stored text; fragments of `fragment_size` chars around matches, best first,
 * wrapped in `pre_tags`/`post_tags`.
 */
import { lookupField } from '../../mapping/index.js';
import type { IndexService } from '../../engine/index-service.js';
import { simpleMatch } from '../../engine/index-names.js';
import type { Query } from '../../search/query/query.js';
import { toSearchQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';
import type { HighlightSpec } from './request.js';
import { valueAtPath } from './fetch.js';
import { searchAnalyzer } from '../../engine/analyzers.js';

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

export function highlightHit(
  spec: HighlightSpec,
  idx: IndexService,
  source: unknown,
  query: QueryNode,
  qctx: IndexQueryContext,
): Record<string, string[]> | null {
  const g = spec.global;
  const hq = g.highlight_query ? null : query;
  const q = toSearchQuery(hq ?? query, qctx);
  const terms = queryTerms(q);
  const out: Record<string, string[]> = {};
  for (const { name, opts } of spec.fields) {
    const o = { ...g, ...opts };
    const pre = (o.pre_tags as string[] | undefined)?.[0] ?? '<em>';
    const post = (o.post_tags as string[] | undefined)?.[0] ?? '</em>';
    const fragSize = Number(o.fragment_size ?? 100);
    const numFrags = Number(o.number_of_fragments ?? 5);
    const requireMatch = o.require_field_match !== false;
    const paths =
      name.includes('*') && idx.mapping
        ? [...idx.mapping.fieldsByPath.keys()].filter((p) => simpleMatch(name, p))
        : [name];
    for (const path of paths) {
      const field = idx.mapping ? lookupField(idx.mapping, path) : undefined;
      if (!field || (field.type !== 'text' && field.type !== 'keyword')) continue;
      let wanted = terms.get(field.path);
      if (!requireMatch) {
        wanted = new Set();
        for (const s of terms.values()) for (const t of s) wanted.add(t);
      }
      if (!wanted || wanted.size === 0) continue;
      const raw = valueAtPath(source, path.endsWith('.keyword') ? path.slice(0, -8) : path);
      if (raw === undefined || raw === null) continue;
      const texts = (Array.isArray(raw) ? raw : [raw]).map(String);
      const frags: string[] = [];
      for (const text of texts) {
        const spans: Array<[number, number]> = [];
        if (field.type === 'keyword') {
          if (wanted.has(text)) spans.push([0, text.length]);
        } else {
          searchAnalyzer(idx, field, false).analyze(text, (term, _p, s, e) => {
            if (wanted!.has(term)) spans.push([s, e]);
          });
        }
        if (!spans.length) continue;
        frags.push(...fragments(text, spans, fragSize, numFrags, pre, post));
      }
      if (frags.length) out[path] = numFrags === 0 ? frags : frags.slice(0, numFrags);
    }
  }
  return out;
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
