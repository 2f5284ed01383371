/**
 * Suggesters (ES SuggestPhase / Suggest.reduce): `term` (DirectSpellChecker candidates per
 * analyzed token), `phrase` (noisy-channel corrections scored by a stupid-backoff language model)
 * and `completion` (prefix matches on a completion field's analyzed inputs, best weight first).
 * Each runs per shard; results are reduced as ES does, keyed by suggestion name in name order.
 */
import { illegalArgument } from '../../common/errors.js';
import type { FieldMapping } from '../../mapping/types.js';
import type { Analyzer } from '../../search/analysis/index.js';
import {
  completionForm,
  parseCompletionTerm,
  type TypedContext,
} from '../../search/index/completion-terms.js';
import { javaHashSetOrder } from '../../mapping/java-collections.js';
import type { CompletionContextDef } from '../../mapping/types.js';
import {
  contextScore,
  matchContexts,
  NO_CONTEXT_QUERY_WARNING,
  queryContexts,
} from './completion-contexts.js';
import { compileRegexp } from '../../search/automata/regexp.js';
import {
  EMPTY_PREFIX_AUTOMATON,
  fuzzyPrefixAutomaton,
  regexPrefixAutomaton,
} from '../../search/automata/prefix-automata.js';
import { prefixRange, walkPrefixes, type PrefixMatch } from '../../search/automata/prefix-walk.js';
import { RawJson } from '../../common/json.js';
import type { IndexService } from '../../engine/index-service.js';
import type { IndexQueryContext } from '../query/index.js';
import type { ShardTarget } from './execute.js';
import { shardTermStats, suggestSimilar } from './spell.js';
import {
  directGenerator,
  joinCorrection,
  multiGenerator,
  phraseCorrections,
  type PhraseToken,
  type TokenFilterFn,
} from './phrase-suggest.js';
import { DEFAULT_SMOOTHING, wordScorer } from './phrase-model.js';
import { collateMatcher } from './phrase-collate.js';
import { ChainAnalyzer } from '../../search/analysis/analyzer.js';
import {
  DEFAULT_SPELL,
  type CompletionSuggestNode,
  type PhraseSuggestNode,
  type SuggestNode,
} from './suggest-parse.js';

export { parseSuggest, DEFAULT_SPELL, type SuggestNode } from './suggest-parse.js';

// ---- execution ----------------------------------------------------------------------------------

export interface Option {
  text: string;
  score: number;
  freq?: number;
  highlighted?: string;
  /** phrase `collate` with prune: whether the collate query matched. */
  collateMatch?: boolean;
  /** completion hits: rendered hit fields and merge order. */
  hit?: Record<string, unknown>;
  order?: number;
}

export interface Entry {
  text: string;
  offset: number;
  length: number;
  options: Option[];
  cutoff?: number;
}

function fieldOf(ctx: IndexQueryContext, s: SuggestNode): FieldMapping {
  const f = ctx.field(s.field);
  if (!f) throw illegalArgument(`no mapping found for field [${s.field}]`);
  return f;
}

function analyzerOf(ctx: IndexQueryContext, s: SuggestNode, f: FieldMapping): Analyzer {
  if (s.analyzer !== null) {
    const a = ctx.analyzer(s.analyzer);
    if (!a) throw illegalArgument(`analyzer [${s.analyzer}] doesn't exists`);
    return a;
  }
  if (f.type === 'text' || f.type === 'completion') return ctx.searchAnalyzer(f, false);
  // keyword fields search with their normalizer; other types with Lucene's keyword analyzer
  return {
    name: 'keyword',
    positionIncrementGap: 0,
    analyze(text, sink) {
      const term = f.type === 'keyword' ? ctx.normalize(f, text) : text;
      sink(term, 0, 0, text.length, 'word');
      return 1;
    },
  };
}

interface Token {
  term: string;
  position: number;
  start: number;
  end: number;
}

function analyze(a: Analyzer, text: string): Token[] {
  const out: Token[] = [];
  a.analyze(text, (term, position, start, end) => {
    out.push({ term, position, start, end });
  });
  return out;
}

/** One suggestion's result on one shard: its entries, or what it threw. */
export type ShardSuggestion = { readonly entries: Entry[] } | { readonly error: unknown };

/** A shard's suggestions by name (ES SuggestPhase's output, carried in the query result). */
export type ShardSuggest = Readonly<Record<string, ShardSuggestion>>;

/** SuggestPhase on every queried shard, then Suggest.reduce; keys sorted by suggestion name. */
export function executeSuggest(
  nodes: SuggestNode[],
  targets: ShardTarget[],
  qctx: (idx: IndexService) => IndexQueryContext,
  typedKeys: boolean,
): Record<string, unknown> {
  return reduceSuggest(
    nodes,
    targets.map((t) => suggestShard(nodes, t, qctx(t.idx))),
    typedKeys,
  );
}

/** Every suggestion of the request on one shard; a failure is kept for the reduce to throw. */
export function suggestShard(
  nodes: SuggestNode[],
  t: ShardTarget,
  ctx: IndexQueryContext,
): ShardSuggest {
  const out: Record<string, ShardSuggestion> = {};
  for (const s of nodes) {
    try {
      out[s.name] = { entries: suggestOnShard(s, t, ctx) };
    } catch (error) {
      out[s.name] = { error };
    }
  }
  return out;
}

/**
 * The shard's suggest phase as ES runs it within the query phase: the first suggestion that
 * fails (SuggestBuilder.build walks a HashMap of the names) fails the shard, which the
 * coordinator reports as a shard failure (`search_phase_execution_exception` when all failed).
 */
export function suggestShardOrThrow(
  nodes: SuggestNode[],
  t: ShardTarget,
  ctx: IndexQueryContext,
): ShardSuggest {
  const out = suggestShard(nodes, t, ctx);
  for (const name of javaHashSetOrder(nodes.map((n) => n.name))) {
    const r = out[name];
    if (r && 'error' in r) throw r.error;
  }
  return out;
}

/**
 * Suggest.reduce over the shards' suggestions (in shard order): the first failure, by suggestion
 * name then shard, fails the request as a lone node's suggest phase would.
 */
export function reduceSuggest(
  nodes: SuggestNode[],
  perShard: readonly ShardSuggest[],
  typedKeys: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sorted = [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const s of sorted) {
    const entries = perShard.map((p) => {
      const r = p[s.name];
      if (!r) return [];
      if ('error' in r) throw r.error;
      return r.entries;
    });
    out[typedKeys ? `${s.type}#${s.name}` : s.name] = reduceEntries(s, entries).map(renderEntry);
  }
  return out;
}

function suggestOnShard(s: SuggestNode, t: ShardTarget, ctx: IndexQueryContext): Entry[] {
  const f = fieldOf(ctx, s);
  // SuggestionBuilder.populateCommonFields: the entry text is the text, else the prefix or regex
  const text = s.text ?? s.prefix ?? s.regex ?? '';
  const shardSize = s.shardSize ?? Math.max(s.size, 5);
  switch (s.type) {
    case 'term': {
      const stats = shardTermStats(t.snapshot, f.path);
      return analyze(analyzerOf(ctx, s, f), text).map((tok) => ({
        text: tok.term,
        offset: tok.start,
        length: tok.end - tok.start,
        options: suggestSimilar(tok.term, shardSize, stats, s.spell, s.spell.suggestMode).map(
          (w) => ({ text: w.string, score: w.score, freq: w.freq }),
        ),
      }));
    }
    case 'phrase':
      return [phraseOnShard(s, t, ctx, f, text, shardSize)];
    case 'completion':
      return [completionOnShard(s, t, ctx, f, text, shardSize)];
  }
}

function phraseOnShard(
  s: PhraseSuggestNode,
  t: ShardTarget,
  ctx: IndexQueryContext,
  f: FieldMapping,
  text: string,
  shardSize: number,
): Entry {
  const analyzer = analyzerOf(ctx, s, f);
  let gramSize = s.gramSize;
  let generators = s.generators;
  if (gramSize === null || generators.length === 0) {
    // PhraseSuggestionBuilder.build: a shingle filter in the analyzer sizes the model
    const shingle = analyzer instanceof ChainAnalyzer ? analyzer.shingle : undefined;
    if (gramSize === null && shingle) gramSize = shingle.max;
    if (generators.length === 0) {
      if (shingle && shingle.min > 1 && !shingle.outputUnigrams && s.forceUnigrams)
        throw illegalArgument(
          `The default candidate generator for phrase suggest can't operate on field: [${f.path}] since it doesn't emit unigrams. If this is intentional try to set the candidate generator field explicitly`,
        );
      generators = [
        { field: f.path, spell: DEFAULT_SPELL, size: 5, preFilter: null, postFilter: null },
      ];
    }
  }
  const entry: Entry = { text, offset: 0, length: text.length, options: [] };
  const filterFn = (name: string | null): TokenFilterFn | null => {
    if (name === null) return null;
    const a = ctx.analyzer(name);
    if (!a) throw illegalArgument(`Analyzer [${name}] doesn't exists`);
    return (x) => phraseTokens(a, x);
  };
  const gens = [];
  for (const g of generators) {
    const pre = filterFn(g.preFilter);
    const post = filterFn(g.postFilter);
    const stats = shardTermStats(t.snapshot, g.field);
    // a generator over a field this shard never indexed draws nothing (Terms is null)
    if (!stats.present) continue;
    gens.push(
      directGenerator({
        stats,
        spell: g.spell,
        size: g.size,
        realWordLikelihood: s.realWordErrorLikelihood,
        preFilter: pre,
        postFilter: post,
      }),
    );
  }
  const suggestStats = shardTermStats(t.snapshot, f.path);
  if (gens.length === 0 || !suggestStats.present) {
    entry.cutoff = Number.MIN_VALUE;
    return entry;
  }
  const useTtf = suggestStats.sumTotalTermFreq !== -1;
  const scorer = wordScorer(
    s.smoothing ?? DEFAULT_SMOOTHING,
    {
      frequency: (x) =>
        suggestStats.terms.has(x)
          ? useTtf
            ? suggestStats.totalTermFreq(x)
            : suggestStats.terms.get(x)!
          : 0,
      vocabularySize: useTtf ? suggestStats.sumTotalTermFreq : suggestStats.maxDoc,
      numTerms: suggestStats.numTerms,
    },
    s.realWordErrorLikelihood,
    s.separator,
  );
  const r = phraseCorrections(
    phraseTokens(analyzer, text),
    multiGenerator(shardSize, gens),
    scorer,
    {
      realWordLikelihood: s.realWordErrorLikelihood,
      requireUnigram: s.forceUnigrams,
      tokenLimit: s.tokenLimit,
      maxErrors: s.maxErrors,
      numCorrections: shardSize,
      confidence: s.confidence,
      gramSize: gramSize ?? 1,
    },
  );
  entry.cutoff = r.cutoffScore;
  const collate = s.collate ? collateMatcher(s.collate, t.snapshot, ctx) : null;
  for (const c of r.corrections) {
    const phrase = joinCorrection(c, null);
    const match = collate ? collate(phrase) : true;
    // without prune a correction no document matches is dropped; with it, it is marked
    if (!match && !s.collate?.prune) continue;
    const o: Option = { text: phrase, score: Math.fround(c.score) };
    if (s.highlight) o.highlighted = joinCorrection(c, s.highlight);
    if (s.collate?.prune) o.collateMatch = match;
    entry.options.push(o);
  }
  return entry;
}

/** The analyzed input with token types and position increments (shingles, synonyms). */
function phraseTokens(a: Analyzer, text: string): PhraseToken[] {
  const out: PhraseToken[] = [];
  let last = -1;
  a.analyze(text, (term, pos, _s, _e, type) => {
    out.push({ term, type: type ?? 'word', posInc: pos - last });
    last = pos;
  });
  return out;
}

function completionOnShard(
  s: CompletionSuggestNode,
  t: ShardTarget,
  ctx: IndexQueryContext,
  f: FieldMapping,
  text: string,
  shardSize: number,
): Entry {
  const entry: Entry = { text, offset: 0, length: text.length, options: [] };
  if (f.type !== 'completion')
    throw illegalArgument(`Field [${s.field}] is not a completion suggest field`);
  const defs = f.completion?.contextDefs;
  if (s.contexts !== null && !defs)
    throw illegalArgument(`suggester [${f.path}] doesn't expect any context`);
  const query = defs ? queryContexts(defs, s.contexts ?? {}) : [];
  if (defs && query.length === 0) ctx.deprecation?.(NO_CONTEXT_QUERY_WARNING);
  const matchTerms = completionMatcher(s, ctx, f);
  interface Best {
    input: string;
    score: number;
    order: number;
    seqNo: number;
    contexts: TypedContext[];
  }
  const best = new Map<string, Best>();
  for (const ls of t.snapshot.segments) {
    const inv = ls.segment.fields.get(f.path)?.inverted;
    if (!inv) continue;
    for (const range of matchTerms(inv.terms))
      for (let ti = range.from; ti < range.to; ti++) {
        const e = parseCompletionTerm(inv.terms[ti]!);
        const m = defs ? matchContexts(query, e.contexts ?? []) : { boost: 0, matched: [] };
        if (!m) continue;
        // the query's boost (fuzzy: the typed prefix kept) adds to the context's (ContextQuery)
        const score = Math.fround(contextScore(e.weight, m.boost + range.boost));
        for (let p = inv.termStart[ti]!; p < inv.termStart[ti + 1]!; p++) {
          const d = inv.docs[p]!;
          if (ls.live && !ls.live.get(d)) continue;
          const id = ls.segment.ids[d]!;
          const cur = best.get(id);
          // a document is suggested once, by its best input, with every context that matched
          if (!cur || score > cur.score) {
            best.set(id, {
              input: e.input,
              score,
              order: ls.docBase + d,
              seqNo: ls.segment.seqNos[d]!,
              contexts: [...(cur?.contexts ?? []), ...m.matched],
            });
          } else cur.contexts.push(...m.matched);
        }
      }
  }
  let ranked = [...best.entries()].sort(
    (a, b) => b[1].score - a[1].score || a[1].order - b[1].order,
  );
  if (s.skipDuplicates) {
    const seen = new Set<string>();
    ranked = ranked.filter(([, v]) => (seen.has(v.input) ? false : (seen.add(v.input), true)));
  }
  for (const [id, v] of ranked.slice(0, shardSize)) {
    const rec = t.shard.readAt(id, v.seqNo); // the version the suggester's view holds
    const hit: Record<string, unknown> = {
      _index: t.idx.name,
      _type: t.idx.typeName ?? '_doc',
      _id: id,
      _score: v.score,
    };
    if (rec) hit._source = new RawJson(rec.source.toString('utf8'));
    const named = defs ? namedContexts(defs, v.contexts) : null;
    if (named) hit.contexts = named;
    entry.options.push({
      text: v.input,
      score: v.score,
      hit,
      order: t.shardIndex * 2 ** 32 + v.order,
    });
  }
  return entry;
}

/**
 * CompletionSuggestionContext.toQuery: the ranges of a segment's completion terms the query
 * matches. A prefix (or text) wins over a regex; fuzzy options make the prefix fuzzy.
 */
function completionMatcher(
  s: CompletionSuggestNode,
  ctx: IndexQueryContext,
  f: FieldMapping,
): (terms: readonly string[]) => PrefixMatch[] {
  const prefix = s.prefix ?? s.text;
  if (prefix === null && s.regex !== null) {
    if (s.fuzzy !== null) throw illegalArgument("can not use 'fuzzy' options with 'regex");
    const o = s.regexOptions;
    // RegexCompletionQuery: the pattern is not analyzed; an empty one matches nothing
    const a =
      s.regex === ''
        ? EMPTY_PREFIX_AUTOMATON
        : regexPrefixAutomaton(compileRegexp(s.regex, o?.flags, o?.maxDeterminizedStates));
    return (terms) => walkPrefixes(terms, a);
  }
  // the prefix takes the form the inputs were indexed in (Lucene's CompletionAnalyzer)
  const analyzed = completionForm(analyze(analyzerOf(ctx, s, f), prefix ?? ''), f);
  if (s.fuzzy === null) return (terms) => [prefixRange(terms, analyzed)];
  const z = s.fuzzy;
  const a = fuzzyPrefixAutomaton(analyzed, {
    maxEdits: z.editDistance,
    transpositions: z.transpositions,
    nonFuzzyPrefix: z.prefixLength,
    minFuzzyLength: z.minLength,
    unicodeAware: z.unicodeAware,
  });
  return (terms) => walkPrefixes(terms, a);
}

/** ContextMappings.getNamedContexts: matched typed contexts by mapping name (null when none). */
function namedContexts(
  defs: readonly CompletionContextDef[],
  typed: readonly TypedContext[],
): Record<string, string[]> | null {
  if (typed.length === 0) return null;
  const byName = new Map<string, Set<string>>();
  for (const [typeId, value] of typed) {
    const name = defs[typeId]?.name;
    if (name === undefined) continue;
    let set = byName.get(name);
    if (!set) byName.set(name, (set = new Set()));
    set.add(value);
  }
  const out: Record<string, string[]> = {};
  for (const name of javaHashSetOrder([...byName.keys()]))
    out[name] = javaHashSetOrder([...byName.get(name)!]);
  return out;
}

/** Suggestion.reduce: entries merged position by position, options by text, then sorted. */
function reduceEntries(s: SuggestNode, perShard: Entry[][]): Entry[] {
  const first = perShard[0];
  if (!first) return [];
  const out: Entry[] = [];
  for (let i = 0; i < first.length; i++) {
    const leader: Entry = { ...first[i]!, options: [] };
    if (s.type === 'phrase') {
      let cutoff = -Infinity;
      for (const es of perShard)
        if (es[i]?.cutoff !== undefined) cutoff = Math.max(cutoff, es[i]!.cutoff!);
      leader.cutoff = cutoff;
    }
    const byText = new Map<string, Option>();
    for (const es of perShard) {
      const e = es[i];
      if (!e) continue;
      for (const o of e.options) {
        if (s.type === 'completion') {
          leader.options.push(o);
          continue;
        }
        const m = byText.get(o.text);
        if (!m) byText.set(o.text, { ...o });
        else {
          if (o.score > m.score) m.score = o.score;
          if (o.freq !== undefined) m.freq = (m.freq ?? 0) + o.freq;
        }
      }
    }
    if (s.type !== 'completion') leader.options = [...byText.values()];
    if (s.type === 'phrase' && leader.cutoff !== undefined)
      leader.options = leader.options.filter((o) => o.score > leader.cutoff!);
    leader.options.sort(optionComparator(s));
    if (s.type === 'completion' && s.skipDuplicates) {
      // shards dedupe their own suggestions; the reduce drops the same text from other shards
      const seen = new Set<string>();
      leader.options = leader.options.filter((o) =>
        seen.has(o.text) ? false : (seen.add(o.text), true),
      );
    }
    leader.options = leader.options.slice(0, s.size);
    out.push(leader);
  }
  return out;
}

function optionComparator(s: SuggestNode): (a: Option, b: Option) => number {
  const text = (a: Option, b: Option) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  if (s.type === 'term' && s.sort === 'frequency')
    return (a, b) => (b.freq ?? 0) - (a.freq ?? 0) || b.score - a.score || text(a, b);
  if (s.type === 'term')
    return (a, b) => b.score - a.score || (b.freq ?? 0) - (a.freq ?? 0) || text(a, b);
  if (s.type === 'completion')
    return (a, b) => b.score - a.score || (a.order ?? 0) - (b.order ?? 0);
  return (a, b) => b.score - a.score || text(a, b);
}

function renderEntry(e: Entry): Record<string, unknown> {
  return {
    text: e.text,
    offset: e.offset,
    length: e.length,
    options: e.options.map((o) => {
      if (o.hit) return { text: o.text, ...o.hit };
      const r: Record<string, unknown> = { text: o.text };
      if (o.highlighted !== undefined) r.highlighted = o.highlighted;
      r.score = o.score;
      if (o.freq !== undefined) r.freq = o.freq;
      if (o.collateMatch !== undefined) r.collate_match = o.collateMatch;
      return r;
    }),
  };
}
