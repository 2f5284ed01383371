/**
 * `_termvectors` on one shard (ES TermVectorsService, TermVectorsFilter, TermVectorsResponse):
 * the terms of a document's fields with their frequency, positions, offsets and payloads, and
 * the shard's term and field statistics. Quarry keeps no term vectors on disk, so a document's
 * fields are analyzed again from its source — with the mapping's term_vector options deciding
 * what stored vectors would hold — as ES generates them for fields without stored vectors and
 * for artificial documents. The seam `TermVectorsReader` says where it runs: a lone node on its
 * own shard; a node in a cluster on a started copy of the document's shard
 * (src/cluster/reads/cluster-termvectors.ts). Requests and responses are plain JSON.
 */
import { EsError, versionConflict } from '../../common/errors.js';
import { indexAnalyzer } from '../../engine/analyzers.js';
import type { IndexService } from '../../engine/index-service.js';
import { readConflict, type VersionType } from '../../engine/versioning.js';
import { parseDocument } from '../../mapping/document-parser.js';
import type { FieldMapping, ParsedValue } from '../../mapping/types.js';
import { ChainAnalyzer } from '../../search/analysis/analyzer.js';
import type { Analyzer } from '../../search/analysis/index.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import { findTerm, totalTermFreq, type InvertedField } from '../../search/index/segment.js';
import { simpleMatch } from '../../mapping/dynamic-templates.js';

/** TermVectorsFilter settings (`filter`). */
export interface TermVectorsFilterSettings {
  readonly maxNumTerms: number;
  readonly minTermFreq: number;
  readonly maxTermFreq: number;
  readonly minDocFreq: number;
  readonly maxDocFreq: number;
  readonly minWordLength: number;
  readonly maxWordLength: number;
}

export interface TermVectorsRequest {
  /** The type as asked (shown back in `_type`). */
  readonly type: string;
  /** null with an artificial document. */
  readonly id: string | null;
  /** An artificial document (`doc`), analyzed as the mapping would index it. */
  readonly doc: Record<string, unknown> | null;
  readonly realtime: boolean;
  readonly version?: number;
  readonly versionType?: VersionType;
  /** `fields` (wildcards allowed); null: the fields with stored term vectors. */
  readonly fields: readonly string[] | null;
  readonly offsets: boolean;
  readonly positions: boolean;
  readonly payloads: boolean;
  readonly termStatistics: boolean;
  readonly fieldStatistics: boolean;
  readonly perFieldAnalyzer: Readonly<Record<string, string>> | null;
  readonly filter: TermVectorsFilterSettings | null;
  /** Which copy answers in a cluster (`preference`). */
  readonly preference?: string;
}

export interface TermVectorsReader {
  termVectors(
    idx: IndexService,
    shard: number,
    req: TermVectorsRequest,
  ): Promise<Record<string, unknown>>;
}

export function localTermVectors(): TermVectorsReader {
  return { termVectors: async (idx, shard, req) => termVectorsOnShard(idx, shard, req) };
}

/** One occurrence of a term in a field. */
interface Occurrence {
  position: number;
  start: number;
  end: number;
  payload: Uint8Array | null;
}

/** What a field's vectors hold (stored ones per its mapping; generated ones as ES's MemoryIndex). */
interface FieldVector {
  readonly positions: boolean;
  readonly offsets: boolean;
  readonly payloads: boolean;
  readonly terms: Map<string, Occurrence[]>;
}

/** TermVectorsService.getTermVectors. */
export function termVectorsOnShard(
  idx: IndexService,
  shardNum: number,
  req: TermVectorsRequest,
): Record<string, unknown> {
  const t0 = Date.now();
  const shard = idx.shard(shardNum);
  const snapshot = shard.searcher();
  const out: Record<string, unknown> = { _index: idx.name, _type: req.type };
  if (req.id !== null) out._id = req.id;
  let values: readonly ParsedValue[] | null = null;
  let version = 0;
  let generateAll = false;
  let unrefreshed = false;
  if (req.doc !== null) {
    values = parse(idx, req.doc);
    generateAll = true;
  } else {
    let rec = shard.read(req.id!);
    // a realtime=false read sees only what the last refresh published
    if (rec && !req.realtime && !shard.searcherHas(req.id!, rec.seqNo)) rec = null;
    if (rec && req.version !== undefined) {
      const c = readConflict(req.versionType ?? 'internal', rec.version, req.version);
      if (c) throw versionConflict(idx.typeName ?? req.type, req.id!, c, idx.name, idx.uuid, shardNum); // prettier-ignore
    }
    if (rec) {
      values = parse(idx, JSON.parse(rec.source.toString('utf8')) as Record<string, unknown>);
      version = rec.version;
      // ES refreshes its internal reader for a realtime read: the document counts in the stats
      unrefreshed = !shard.searcherHas(req.id!, rec.seqNo);
    }
  }
  out._version = version;
  out.found = values !== null;
  if (values === null) {
    out.took = Date.now() - t0;
    return out;
  }
  let selected = req.fields === null ? null : expandFields(idx, values, req.fields);
  const byField = new Map<string, { field: FieldMapping; values: unknown[] }>();
  for (const v of values) {
    const e = byField.get(v.field.path);
    if (e) e.values.push(v.value);
    else byField.set(v.field.path, { field: v.field, values: [v.value] });
  }
  const overridden = (path: string) => req.perFieldAnalyzer?.[path] !== undefined;
  // without `fields`, an analyzer override selects the stored fields it names (and only those)
  if (selected === null && req.perFieldAnalyzer !== null && !generateAll)
    selected = new Set(
      [...byField].filter(([p, e]) => storesTermVectors(e.field) && overridden(p)).map(([p]) => p),
    );
  const vectors = new Map<string, FieldVector>();
  for (const [path, { field, values: vals }] of byField) {
    if (!isValidField(field)) continue;
    if (selected !== null && !selected.has(path)) continue;
    // stored vectors (as the mapping keeps them), else generated ones for the fields asked for
    const stored = !generateAll && storesTermVectors(field) && !overridden(path);
    if (!stored && !generateAll && selected === null) continue;
    const analyzer = analyzerFor(idx, field, req.perFieldAnalyzer?.[path]);
    const opts = stored
      ? { positions: hasPositions(field), offsets: hasOffsets(field), payloads: hasPayloads(field) } // prettier-ignore
      : { positions: true, offsets: req.offsets, payloads: false };
    vectors.set(path, { ...opts, terms: analyzeValues(analyzer, vals.map(String)) });
  }
  const tv: Record<string, unknown> = {};
  for (const path of [...vectors.keys()].sort()) {
    tv[path] = renderField(path, vectors.get(path)!, snapshot, req, unrefreshed);
  }
  out.took = Date.now() - t0;
  out.term_vectors = tv;
  return out;
}

function parse(idx: IndexService, source: Record<string, unknown>): readonly ParsedValue[] {
  if (!idx.mapping) return [];
  return parseDocument(idx.mapping, source, idx.mappingContext(), '_id_for_tv_api').values;
}

/** TermVectorsService.isValidField: indexed keyword and text fields. */
function isValidField(f: FieldMapping): boolean {
  return (f.type === 'text' || f.type === 'keyword') && f.index !== false;
}

const storesTermVectors = (f: FieldMapping) => f.termVector !== undefined && f.termVector !== 'no';
const hasPositions = (f: FieldMapping) => f.termVector?.includes('positions') === true;
const hasOffsets = (f: FieldMapping) => f.termVector?.includes('offsets') === true;
const hasPayloads = (f: FieldMapping) => f.termVector?.includes('payloads') === true;

/** handleFieldWildcards: patterns matched against the mapped field names. */
function expandFields(
  idx: IndexService,
  values: readonly ParsedValue[],
  patterns: readonly string[],
): Set<string> {
  const names = new Set<string>([
    ...(idx.mapping ? idx.mapping.fieldsByPath.keys() : []),
    ...values.map((v) => v.field.path),
  ]);
  const out = new Set<string>();
  for (const p of patterns) {
    if (!p.includes('*')) out.add(p);
    else for (const n of names) if (simpleMatch(p, n)) out.add(n);
  }
  return out;
}

/** getAnalyzerAtField: the per-field override, the keyword normalizer, or the index analyzer. */
function analyzerFor(idx: IndexService, f: FieldMapping, override: string | undefined): Analyzer {
  if (override !== undefined) {
    const a = idx.analysis.analyzer(override);
    if (a) return a;
    return idx.analysis.defaultAnalyzer();
  }
  if (f.type === 'keyword') {
    const n = f.normalizer ? idx.analysis.normalizer(f.normalizer) : undefined;
    return {
      name: 'keyword',
      positionIncrementGap: 0,
      analyze(text, sink, positionBase = 0, offsetBase = 0) {
        sink(n ? n.normalize(text) : text, positionBase, offsetBase, offsetBase + text.length, 'word'); // prettier-ignore
        return positionBase + 1;
      },
    };
  }
  return indexAnalyzer(idx, f);
}

/**
 * The occurrences of each term over a field's values: positions continue across values after
 * the analyzer's position gap, offsets after each value's length plus one (Lucene's offset gap).
 */
export function analyzeValues(a: Analyzer, texts: readonly string[]): Map<string, Occurrence[]> {
  const terms = new Map<string, Occurrence[]>();
  const add = (term: string, o: Occurrence) => {
    const list = terms.get(term);
    if (list) list.push(o);
    else terms.set(term, [o]);
  };
  let pos = 0;
  let offset = 0;
  texts.forEach((text, i) => {
    const base = i === 0 ? 0 : pos + a.positionIncrementGap;
    if (a instanceof ChainAnalyzer) {
      // the chain's own tokens carry payloads
      pos = a.visit(
        text,
        (t, p) => {
          add(t.term, {
            position: p,
            start: offset + t.startOffset,
            end: offset + t.endOffset,
            payload: t.payload,
          });
        },
        base,
      );
    } else {
      pos = a.analyze(
        text,
        (term, p, s, e) => add(term, { position: p, start: s, end: e, payload: null }),
        base,
        offset,
      );
    }
    offset += text.length + 1;
  });
  return terms;
}

/** Shard-wide statistics of a field: what Lucene's top-level Terms reports. */
interface TopLevel {
  docFreq(term: string): number;
  ttf(term: string): number;
  readonly docCount: number;
  readonly sumDocFreq: number;
  readonly sumTtf: number;
  readonly present: boolean;
}

function topLevel(snapshot: ShardSnapshot, field: string): TopLevel {
  const inv = snapshot.segments
    .map((ls) => ls.segment.fields.get(field)?.inverted)
    .filter((x): x is InvertedField => x !== undefined && x !== null);
  const withFreqs = inv.some((i) => i.freqs !== null);
  let docCount = 0;
  let sumDocFreq = 0;
  let sumTtf = 0;
  for (const i of inv) {
    docCount += i.docCount;
    sumDocFreq += i.sumDocFreq;
    sumTtf += i.sumTotalTermFreq;
  }
  return {
    docFreq(term) {
      let n = 0;
      for (const i of inv) {
        const t = findTerm(i.terms, term);
        if (t >= 0) n += i.termStart[t + 1]! - i.termStart[t]!;
      }
      return n;
    },
    ttf(term) {
      if (!withFreqs) return -1;
      let n = 0;
      for (const i of inv) {
        const t = findTerm(i.terms, term);
        if (t >= 0) n += totalTermFreq(i, t);
      }
      return n;
    },
    docCount,
    sumDocFreq,
    // Lucene reports -1 for fields indexed without frequencies
    sumTtf: withFreqs ? sumTtf : -1,
    present: inv.length > 0,
  };
}

/** The statistics of the document's own vector (an artificial document on an empty shard). */
function ownStats(v: FieldVector): TopLevel {
  let sumTtf = 0;
  for (const o of v.terms.values()) sumTtf += o.length;
  return {
    docFreq: (t) => (v.terms.has(t) ? 1 : 0),
    ttf: (t) => v.terms.get(t)?.length ?? 0,
    docCount: 1,
    sumDocFreq: v.terms.size,
    sumTtf,
    present: true,
  };
}

/** The shard's statistics with one more document (`own`) counted in. */
function withOwn(a: TopLevel, own: TopLevel): TopLevel {
  return {
    docFreq: (t) => a.docFreq(t) + own.docFreq(t),
    ttf: (t) => (a.sumTtf === -1 ? -1 : a.ttf(t) + own.ttf(t)),
    docCount: a.docCount + 1,
    sumDocFreq: a.sumDocFreq + own.sumDocFreq,
    sumTtf: a.sumTtf === -1 ? -1 : a.sumTtf + own.sumTtf,
    present: true,
  };
}

/** ClassicSimilarity.idf, as TermVectorsFilter scores terms. */
const idf = (docFreq: number, docCount: number) =>
  Math.fround(Math.log((docCount + 1) / (docFreq + 1)) + 1);

function renderField(
  path: string,
  v: FieldVector,
  snapshot: ShardSnapshot,
  req: TermVectorsRequest,
  unrefreshed: boolean,
): Record<string, unknown> {
  let stats = topLevel(snapshot, path);
  if (!stats.present) stats = ownStats(v);
  else if (unrefreshed) stats = withOwn(stats, ownStats(v));
  const out: Record<string, unknown> = {};
  if (req.fieldStatistics)
    out.field_statistics = {
      sum_doc_freq: stats.sumDocFreq,
      doc_count: stats.docCount,
      sum_ttf: stats.sumTtf,
    };
  let keep: Map<string, number> | null = null;
  if (req.filter) keep = bestTerms(v, stats, req.filter);
  const terms: Record<string, unknown> = {};
  const sorted = [...v.terms.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const positions = v.positions && req.positions;
  const offsets = v.offsets && req.offsets;
  const payloads = v.payloads && req.payloads;
  for (const term of sorted) {
    if (keep && !keep.has(term)) continue;
    const occ = v.terms.get(term)!;
    const t: Record<string, unknown> = {};
    if (req.termStatistics) {
      const df = stats.docFreq(term);
      if (df > 0) {
        t.doc_freq = df;
        t.ttf = stats.ttf(term);
      }
    }
    t.term_freq = occ.length;
    if (positions || offsets || payloads) {
      t.tokens = occ.map((o) => {
        const tok: Record<string, unknown> = {};
        if (positions) tok.position = o.position;
        if (offsets) {
          tok.start_offset = o.start;
          tok.end_offset = o.end;
        }
        if (payloads && o.payload && o.payload.length > 0)
          tok.payload = Buffer.from(o.payload).toString('base64');
        return tok;
      });
    }
    if (keep) t.score = keep.get(term);
    terms[term] = t;
  }
  out.terms = terms;
  return out;
}

/** TermVectorsFilter.selectBestTerms: the top terms of a field by tf × idf. */
function bestTerms(
  v: FieldVector,
  stats: TopLevel,
  f: TermVectorsFilterSettings,
): Map<string, number> {
  const scored: Array<{ term: string; score: number }> = [];
  for (const [term, occ] of v.terms) {
    const freq = occ.length;
    const len = term.length;
    if (f.minWordLength > 0 && len < f.minWordLength) continue;
    if (f.maxWordLength > 0 && len > f.maxWordLength) continue;
    if (f.minTermFreq > 0 && freq < f.minTermFreq) continue;
    if (freq > f.maxTermFreq) continue;
    const df = stats.docFreq(term);
    if (f.minDocFreq > 0 && df < f.minDocFreq) continue;
    if (df > f.maxDocFreq || df === 0) continue;
    scored.push({ term, score: Math.fround(freq * idf(df, stats.docCount)) });
  }
  scored.sort((a, b) => b.score - a.score);
  return new Map(scored.slice(0, f.maxNumTerms).map((s) => [s.term, s.score]));
}

/** TermVectorsRequest.readFilterSettings. */
export function parseFilterSettings(o: Record<string, unknown>): TermVectorsFilterSettings {
  const n = (k: string, d: number) => {
    const v = o[k];
    if (v === undefined) return d;
    const x = Number(v);
    if (!Number.isFinite(x))
      throw new EsError('parse_exception', `failed to parse term vectors request. [${k}]`, 400);
    return Math.trunc(x);
  };
  for (const k of Object.keys(o))
    if (
      ![
        'max_num_terms',
        'min_term_freq',
        'max_term_freq',
        'min_doc_freq',
        'max_doc_freq',
        'min_word_length',
        'max_word_length',
      ].includes(k)
    )
      throw new EsError(
        'illegal_argument_exception',
        `The parameter ${k} is not valid for filter parameter for term vector request`,
        400,
      );
  return {
    maxNumTerms: n('max_num_terms', 25),
    minTermFreq: n('min_term_freq', 0),
    maxTermFreq: n('max_term_freq', 2147483647),
    minDocFreq: n('min_doc_freq', 0),
    maxDocFreq: n('max_doc_freq', 2147483647),
    minWordLength: n('min_word_length', 0),
    maxWordLength: n('max_word_length', 0),
  };
}
