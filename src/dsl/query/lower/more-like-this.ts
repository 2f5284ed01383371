/**
 * `more_like_this` lowering (ES MoreLikeThisQueryBuilder.doToQuery + MoreLikeThisQuery): the
 * liked texts analyzed for the first field, the liked and unliked documents turned into term
 * vectors (their text and keyword fields' values analyzed as indexed; artificial documents
 * likewise), unliked terms skipped, and the liked documents themselves excluded unless
 * `include`. The terms are chosen per shard (search/query/more-like-this.ts).
 */
import type { FieldMapping } from '../../../mapping/types.js';
import type { Analyzer } from '../../../search/analysis/index.js';
import type { MltParams, TermFreqs } from '../../../search/query/more-like-this.js';
import type { Query } from '../../../search/query/query.js';
import { minShouldMatch } from '../../min-should-match.js';
import { JavaHashMap } from '../java-hash-map.js';
import type { MltItem, MoreLikeThisNode } from '../nodes.js';
import { illegalArgument } from '../errors.js';
import { withDisplay } from './build.js';
import type { IndexQueryContext, LowerState } from './context.js';
import { fieldMapper } from './fields.js';
import { mltItemType } from '../terms-lookup-once.js';

/** Term → frequency in insertion-visited order of a Java HashMap. */
class Freqs {
  private readonly map = new JavaHashMap<number>();
  add(term: string, n: number): void {
    this.map.set(term, (this.map.get(term) ?? 0) + n);
  }
  get size(): number {
    return this.map.size;
  }
  entries(): TermFreqs {
    return this.map.keys().map((k) => [k, this.map.get(k)!] as const);
  }
}

const isStringField = (f: FieldMapping | undefined): f is FieldMapping =>
  f !== undefined && (f.type === 'text' || f.type === 'keyword');

/** The analyzer a text field is indexed with. */
function indexAnalyzer(ctx: IndexQueryContext, f: FieldMapping): Analyzer {
  return (
    (f.analyzer ? ctx.analyzer(f.analyzer) : undefined) ??
    ctx.analyzer('default') ??
    ctx.searchAnalyzer(f, false)
  );
}

/** Term frequencies of one field's values, as its term vector would hold them. */
function fieldTerms(
  ctx: IndexQueryContext,
  f: FieldMapping,
  values: unknown[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of values) {
    if (v === null || typeof v === 'object') continue;
    const text = String(v);
    if (f.type === 'keyword') {
      if (f.ignoreAbove !== undefined && text.length > f.ignoreAbove) continue;
      const t = ctx.normalize(f, text);
      out.set(t, (out.get(t) ?? 0) + 1);
    } else {
      indexAnalyzer(ctx, f).analyze(text, (t) => void out.set(t, (out.get(t) ?? 0) + 1));
    }
  }
  return out;
}

/** The source values a field is indexed from (a multi-field reads its parent's). */
function sourceValues(src: Record<string, unknown>, f: FieldMapping): unknown[] {
  const path = f.parentField ?? f.path;
  let cur: unknown[] = [src];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const c of cur) {
      if (c === null || typeof c !== 'object') continue;
      const v = (c as Record<string, unknown>)[part];
      if (v === undefined) continue;
      if (Array.isArray(v)) next.push(...v);
      else next.push(v);
    }
    cur = next;
  }
  return cur;
}

/** Term vectors of one item: per field (sorted), its terms (sorted) and frequencies. */
function itemVectors(
  st: LowerState,
  item: MltItem,
  moreLikeFields: readonly string[],
  useDefault: boolean,
): Array<[string, Array<[string, number]>]> | null {
  const ctx = st.ctx;
  let src: Record<string, unknown> | null = item.doc;
  if (src === null) {
    if (!ctx.termsLookup) throw illegalArgument('more_like_this documents cannot be read here');
    const got = ctx.termsLookup(
      item.index ?? ctx.index,
      mltItemType(item),
      item.id!,
      '',
      item.routing,
    );
    if (got === null || got.length === 0) return null;
    src = got[0] as Record<string, unknown>;
  }
  const patterns =
    item.fields && item.fields.length > 0
      ? item.fields
      : item.doc !== null
        ? ['*']
        : useDefault
          ? ['*']
          : moreLikeFields;
  const names = new Set<string>();
  for (const p of patterns) {
    if (p.includes('*')) for (const n of ctx.expandFields(p)) names.add(n);
    else names.add(p);
  }
  const out: Array<[string, Array<[string, number]>]> = [];
  for (const name of [...names].sort()) {
    const f = ctx.field(name);
    if (!isStringField(f) || !f.index) continue;
    const values = sourceValues(src, f);
    if (values.length === 0) continue;
    const terms = [...fieldTerms(ctx, f, values)].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    if (terms.length > 0) out.push([f.path, terms]);
  }
  return out;
}

export function lowerMoreLikeThis(node: MoreLikeThisNode, st: LowerState): Query | null {
  const ctx = st.ctx;
  const useDefault = node.fields === null;
  const fields: string[] = [];
  if (useDefault) fields.push(...ctx.defaultFields);
  else {
    for (const name of node.fields!) {
      const f = fieldMapper(ctx, name);
      if (f && !(f.mapping && (f.mapping.type === 'text' || f.mapping.type === 'keyword'))) {
        if (node.failOnUnsupportedField) {
          throw illegalArgument(`more_like_this only supports text/keyword fields: [${name}]`);
        }
        continue;
      }
      fields.push(f ? f.name : name);
    }
  }
  if (fields.length === 0) return null;
  const stop = node.stopWords ? new Set(node.stopWords) : null;
  const noise = (t: string) =>
    (node.minWordLength > 0 && t.length < node.minWordLength) ||
    (node.maxWordLength > 0 && t.length > node.maxWordLength) ||
    (stop !== null && stop.has(t));
  const textAnalyzer = (field: string): Analyzer => {
    const named = node.analyzer !== null ? ctx.analyzer(node.analyzer) : undefined;
    if (named) return named;
    const f = ctx.field(field);
    return f
      ? ctx.searchAnalyzer(f, false)
      : (ctx.analyzer('default') ?? ctx.analyzer('standard')!);
  };
  // unliked terms, by field
  const skip = new Set<string>();
  const key = (field: string, term: string) => `${field}\u0000${term}`;
  for (const text of node.unlikeTexts) {
    textAnalyzer(fields[0]!).analyze(text, (t) => void skip.add(key(fields[0]!, t)));
  }
  for (const item of node.unlikeItems) {
    for (const [field, terms] of itemVectors(st, item, fields, useDefault) ?? [])
      for (const [t] of terms) skip.add(key(field, t));
  }
  // liked texts: the first field's analysis
  let textTerms: TermFreqs | null = null;
  if (node.likeTexts.length > 0) {
    const freqs = new Freqs();
    const f0 = fields[0]!;
    for (const text of node.likeTexts) {
      textAnalyzer(f0).analyze(text, (t) => {
        if (!noise(t) && !skip.has(key(f0, t))) freqs.add(t, 1);
      });
    }
    textTerms = freqs.entries();
  }
  // liked documents: their fields' terms, per field
  let fieldTerms: Array<{ field: string; terms: TermFreqs }> | null = null;
  const exclude: string[] = [];
  if (node.likeItems.length > 0) {
    const perField = new JavaHashMap<Freqs>();
    for (const item of node.likeItems) {
      if (item.doc === null && item.id !== null) exclude.push(item.id);
      for (const [field, terms] of itemVectors(st, item, fields, useDefault) ?? []) {
        let fq = perField.get(field);
        if (!fq) perField.set(field, (fq = new Freqs()));
        for (const [t, n] of terms) if (!noise(t) && !skip.has(key(field, t))) fq.add(t, n);
      }
    }
    fieldTerms = perField.keys().map((field) => ({ field, terms: perField.get(field)!.entries() }));
  }
  const spec = node.minimumShouldMatch;
  const params: MltParams = {
    maxQueryTerms: node.maxQueryTerms,
    minTermFreq: node.minTermFreq,
    minDocFreq: node.minDocFreq,
    maxDocFreq: node.maxDocFreq,
    boostTerms: node.boostTerms,
    minShouldMatch: (n) => minShouldMatch(spec, n),
  };
  const mlt: Query = withDisplay(
    {
      kind: 'MoreLikeThis',
      spec: { fieldTerms, textTerms, textFields: fields, params },
      boost: 1,
    },
    `like:${[...node.likeTexts].join(',')}`,
  );
  if (node.likeItems.length === 0) return mlt;
  const mustNot: Query[] =
    !node.include && exclude.length > 0
      ? [
          withDisplay(
            { kind: 'Ids', ids: [...new Set(exclude)], boost: 1 },
            `_id:(${[...new Set(exclude)].sort().join(' ')})`,
          ),
        ]
      : [];
  return { kind: 'Bool', must: [], should: [mlt], mustNot, filter: [], minShouldMatch: 0, boost: 1 }; // prettier-ignore
}
