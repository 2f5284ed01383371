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
  noMatchPassage,
  unifiedPassages,
  type PassageScanner,
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
      // a one-position phrase is a term query (Lucene rewrites it); longer ones match by position
      if (q.terms.length === 1) for (const t of q.terms[0]!) add(q.field, t);
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

/** A phrase the highlighter matches by position (Lucene PhraseHelper, highlight phrases strictly). */
export interface PhraseMatcher {
  /** Per phrase position, whether a term fills it. */
  readonly clauses: ReadonlyArray<(term: string) => boolean>;
  readonly positions: readonly number[];
  readonly slop: number;
}

/**
 * What a query looks for in one field: exact terms, term tests (prefix, wildcard...), and
 * phrases, whose terms are highlighted only where the phrase matches.
 */
interface FieldMatcher {
  readonly terms: Set<string>;
  readonly tests: Array<(term: string) => boolean>;
  readonly phrases: PhraseMatcher[];
}

const isEmptyMatcher = (m: FieldMatcher) =>
  m.terms.size === 0 && m.tests.length === 0 && m.phrases.length === 0;

/** Per field, the terms and multi-term tests of a query (ES highlighters' query extraction). */
export function queryMatchers(q: Query): Map<string, FieldMatcher> {
  const out = new Map<string, FieldMatcher>();
  const of = (f: string): FieldMatcher => {
    let m = out.get(f);
    if (!m) out.set(f, (m = { terms: new Set(), tests: [], phrases: [] }));
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
      case 'Phrase':
        if (x.terms.length > 1) of(x.field).phrases.push(phraseOf(x.terms, x.positions, x.slop));
        break;
      case 'PhrasePrefix': {
        // ES CustomUnifiedHighlighter: a span near whose last clause is a prefix
        const last = x.terms.length - 1;
        const clauses = x.terms.map((ts, i) =>
          i < last ? (t: string) => ts.includes(t) : (t: string) => ts.some((p) => t.startsWith(p)),
        );
        const m = of(x.field);
        if (clauses.length === 1) m.tests.push(clauses[0]!);
        else m.phrases.push({ clauses, positions: x.positions, slop: x.slop });
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

function phraseOf(terms: string[][], positions: number[], slop: number): PhraseMatcher {
  return { clauses: terms.map((ts) => (t: string) => ts.includes(t)), positions, slop };
}

/** One analysed token of a value. */
interface Token {
  readonly term: string;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The tokens where a phrase matches, as Lucene's PhraseHelper finds them with a span near
 * query: in order at the phrase's relative positions when slop is 0; otherwise in any order
 * within `slop` (plus the phrase's own position gaps) extra positions.
 */
export function phraseTokens(tokens: readonly Token[], phrase: PhraseMatcher): Set<Token> {
  const out = new Set<Token>();
  const n = phrase.clauses.length;
  const rel = phrase.positions.map((p) => p - phrase.positions[0]!);
  const byClause = phrase.clauses.map((c) => tokens.filter((t) => c(t.term)));
  if (byClause.some((ts) => ts.length === 0)) return out;
  if (phrase.slop === 0) {
    const atPos = new Map<number, Token[]>();
    for (const t of tokens) {
      const l = atPos.get(t.pos);
      if (l) l.push(t);
      else atPos.set(t.pos, [t]);
    }
    for (const first of byClause[0]!) {
      const picks: Token[] = [];
      for (let i = 0; i < n; i++) {
        const hit = (atPos.get(first.pos + rel[i]!) ?? []).find((t) => phrase.clauses[i]!(t.term));
        if (!hit) break;
        picks.push(hit);
      }
      if (picks.length === n) for (const t of picks) out.add(t);
    }
    return out;
  }
  const gaps = Math.max(0, rel[n - 1]! - (n - 1));
  const allowed = phrase.slop + gaps;
  const starts = [...new Set(byClause.flat().map((t) => t.pos))].sort((a, b) => a - b);
  for (const from of starts) {
    const picks: Token[] = [];
    const used = new Set<Token>();
    for (const ts of byClause) {
      const hit = ts.find((t) => t.pos >= from && !used.has(t));
      if (!hit) break;
      used.add(hit);
      picks.push(hit);
    }
    if (picks.length < n) continue;
    const last = Math.max(...picks.map((t) => t.pos));
    if (last - from + 1 - n <= allowed) for (const t of picks) out.add(t);
  }
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
        const all: FieldMatcher = { terms: new Set(), tests: [], phrases: [] };
        for (const x of matchers.values()) {
          for (const t of x.terms) all.terms.add(t);
          all.tests.push(...x.tests);
          all.phrases.push(...x.phrases);
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
      const noMatchSize = Number(o.no_match_size ?? 0);
      if ((!m || isEmptyMatcher(m)) && !(noMatchSize > 0)) continue;
      const fm: FieldMatcher = m ?? { terms: new Set(), tests: [], phrases: [] };
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
      const hit = (term: string) => fm.terms.has(term) || fm.tests.some((t) => t(term));
      /** The matched tokens of one value: query terms anywhere, phrase terms where the phrase matches. */
      const matchedTokens = (text: string): Token[] => {
        if (field.type === 'keyword') {
          const term = normalizeKeyword(idx, field, text);
          return hit(term) ? [{ term, pos: 0, start: 0, end: text.length }] : [];
        }
        const tokens: Token[] = [];
        indexAnalyzer(idx, field).analyze(text, (term, pos, start, end) => {
          tokens.push({ term, pos, start, end });
        });
        const inPhrase = new Set<Token>();
        for (const ph of fm.phrases) for (const t of phraseTokens(tokens, ph)) inPhrase.add(t);
        return tokens.filter((t) => hit(t.term) || inPhrase.has(t));
      };
      const spansOf = (text: string, base: number, out: PassageMatch[]) => {
        for (const t of matchedTokens(text))
          out.push({ start: base + t.start, end: base + t.end, term: t.term });
      };
      if (type === 'unified') {
        const scanner = unifiedScanner(o, fragSize);
        const frags = unifiedFragments(texts, spansOf, scanner, numFrags, pre, post, o.order === 'score', noMatchSize); // prettier-ignore
        if (frags.length) out[path] = frags;
        continue;
      }
      const frags: string[] = [];
      for (const text of texts) {
        const spans = matchedTokens(text).map((t): [number, number] => [t.start, t.end]);
        if (!spans.length) continue;
        frags.push(...fragments(text, mergeSpans(spans), fragSize, numFrags, pre, post));
      }
      if (frags.length) out[path] = numFrags === 0 ? frags : frags.slice(0, numFrags);
      else if (noMatchSize > 0 && texts.length > 0) {
        const first = texts[0]!;
        const end = field.type === 'keyword' ? Math.min(noMatchSize, first.length) : plainNoMatchEnd(idx, field, first, noMatchSize); // prettier-ignore
        if (end > 0) out[path] = [first.slice(0, end)];
      }
    }
  }
  return out;
}

/**
 * ES PlainHighlighter's no-match excerpt: up to the end of the last token that ends within
 * `noMatchSize` chars (-1 when even the first token ends past it).
 */
function plainNoMatchEnd(
  idx: IndexService,
  field: FieldMapping,
  text: string,
  noMatchSize: number,
): number {
  let end = -1;
  let done = false;
  indexAnalyzer(idx, field).analyze(text, (_t, _p, _s, e) => {
    if (done) return;
    if (e >= noMatchSize) {
      if (e === noMatchSize) end = noMatchSize;
      done = true;
      return;
    }
    end = e;
  });
  return end;
}

/**
 * ES UnifiedHighlighter.getBreakIterator: `sentence` (the default; bounded by fragment_size when
 * it is positive) or `word`; `chars` is the fvh's alone. 0 fragments take each value whole
 * (unifiedPassages, through `numFrags`).
 */
function unifiedScanner(o: Record<string, unknown>, fragSize: number): PassageScanner {
  const type = String(o.boundary_scanner ?? 'sentence').toLowerCase();
  // BoundaryScannerType.fromString (Enum.valueOf), then the unified highlighter's own check
  if (type !== 'sentence' && type !== 'word' && type !== 'chars')
    throw illegalArgument(`No enum constant org.elasticsearch.search.fetch.subphase.highlight.HighlightBuilder.BoundaryScannerType.${type.toUpperCase()}`); // prettier-ignore
  if (type === 'chars') throw illegalArgument(`Invalid boundary scanner type: ${type}`);
  return type === 'word' ? { kind: 'word' } : { kind: 'sentence', maxLen: fragSize };
}

/**
 * ES UnifiedHighlighter: the values joined by the value separator, highlighted as one text in
 * passages (unified-passages.ts), best first with `order: score`; empty snippets dropped.
 */
function unifiedFragments(
  texts: readonly string[],
  spansOf: (text: string, base: number, out: PassageMatch[]) => void,
  scanner: PassageScanner,
  numFrags: number,
  pre: string,
  post: string,
  byScore: boolean,
  noMatchSize: number,
): string[] {
  const text = texts.join(VALUE_SEPARATOR);
  const matches: PassageMatch[] = [];
  let base = 0;
  for (const t of texts) {
    spansOf(t, base, matches);
    base += t.length + 1;
  }
  if (matches.length === 0) {
    const p = noMatchPassage(text, noMatchSize);
    return p ? [formatPassage(text, p, pre, post)].filter((s) => s.trim() !== '') : [];
  }
  const passages = unifiedPassages(text, matches, scanner, numFrags);
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
