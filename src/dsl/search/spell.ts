/**
 * Spelling candidates as Lucene 7's DirectSpellChecker finds them over one shard's terms: fuzzy
 * matches (Damerau edits, first try one edit, then up to max_edits) sharing a prefix, scored
 * 1 - edits / min(length), filtered by accuracy, document frequency and suggest mode.
 */
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import { editDistance } from '../../search/query/fuzzy.js';
import { findTerm, totalTermFreq, type InvertedField } from '../../search/index/segment.js';

export interface SpellSettings {
  suggestMode: 'missing' | 'popular' | 'always';
  accuracy: number;
  maxEdits: number;
  maxInspections: number;
  maxTermFreq: number;
  prefixLength: number;
  minWordLength: number;
  /** ES min_doc_freq (Lucene thresholdFrequency). */
  minDocFreq: number;
}

export interface ShardTermStats {
  /** term → docFreq over the shard's segments. */
  terms: Map<string, number>;
  /** totalTermFreq of a term (docFreq when the field omits frequencies). */
  totalTermFreq(term: string): number;
  maxDoc: number;
  /** Terms.getSumTotalTermFreq (-1 when the field omits frequencies, as Lucene 7 reports). */
  sumTotalTermFreq: number;
  /** Terms.size (-1 over several segments, as MultiTerms reports). */
  numTerms: number;
  /** Whether any segment indexed the field (Lucene's Terms is null otherwise). */
  present: boolean;
}

export function shardTermStats(snapshot: ShardSnapshot, field: string): ShardTermStats {
  const terms = new Map<string, number>();
  const fields: InvertedField[] = [];
  let withFreqs = false;
  let sumTtf = 0;
  for (const ls of snapshot.segments) {
    const inv = ls.segment.fields.get(field)?.inverted;
    if (!inv) continue;
    fields.push(inv);
    if (inv.freqs) withFreqs = true;
    sumTtf += inv.sumTotalTermFreq;
    for (let t = 0; t < inv.terms.length; t++) {
      const term = inv.terms[t]!;
      terms.set(term, (terms.get(term) ?? 0) + inv.termStart[t + 1]! - inv.termStart[t]!);
    }
  }
  return {
    terms,
    // summed lazily: only the phrase suggester's language model reads it, for a few terms
    totalTermFreq(term) {
      let n = 0;
      for (const inv of fields) {
        const t = findTerm(inv.terms, term);
        if (t >= 0) n += totalTermFreq(inv, t);
      }
      return n;
    },
    maxDoc: snapshot.maxDoc,
    sumTotalTermFreq: withFreqs ? sumTtf : -1,
    numTerms: fields.length === 1 ? terms.size : -1,
    present: fields.length > 0,
  };
}

export interface SuggestWord {
  string: string;
  score: number;
  freq: number;
}

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/** DirectSpellChecker.suggestSimilar(term, numSug, reader, suggestMode). */
export function suggestSimilar(
  text: string,
  numSug: number,
  stats: ShardTermStats,
  s: SpellSettings,
  mode: SpellSettings['suggestMode'],
  thresholdFrequency = s.minDocFreq,
): SuggestWord[] {
  const cps = codePoints(text);
  if (cps.length < s.minWordLength) return [];
  let docfreq = stats.terms.get(text) ?? 0;
  if (mode === 'missing' && docfreq > 0) return [];
  const maxDoc = stats.maxDoc;
  if (s.maxTermFreq >= 1 && docfreq > s.maxTermFreq) return [];
  if (s.maxTermFreq < 1 && docfreq > Math.ceil(Math.fround(s.maxTermFreq * maxDoc))) return [];
  if (mode !== 'popular') docfreq = 0;
  if (thresholdFrequency >= 1) docfreq = Math.max(docfreq, Math.trunc(thresholdFrequency));
  else if (thresholdFrequency > 0)
    docfreq = Math.max(docfreq, Math.trunc(Math.fround(thresholdFrequency * maxDoc)) - 1);
  const inspections = numSug * s.maxInspections;
  const found = new Map<string, SuggestWord>();
  for (const w of fuzzyCandidates(cps, text, inspections, stats, docfreq, 1, s))
    found.set(w.string, w);
  if (s.maxEdits > 1 && found.size < inspections)
    for (const w of fuzzyCandidates(cps, text, inspections, stats, docfreq, s.maxEdits, s))
      found.set(w.string, w);
  // SuggestWordScoreComparator, best first: score, then freq, then text
  const out = [...found.values()].sort(
    (a, b) =>
      b.score - a.score ||
      b.freq - a.freq ||
      (a.string < b.string ? -1 : a.string > b.string ? 1 : 0),
  );
  return out.slice(0, numSug);
}

function fuzzyCandidates(
  cps: number[],
  text: string,
  numSug: number,
  stats: ShardTermStats,
  docfreq: number,
  maxEdits: number,
  s: SpellSettings,
): SuggestWord[] {
  const prefix = Math.max(s.prefixLength, maxEdits - 1);
  const prefixCps = cps.slice(0, prefix);
  const queue: SuggestWord[] = [];
  for (const [term, df] of stats.terms) {
    if (term === text) continue;
    const tc = codePoints(term);
    let ok = tc.length >= prefixCps.length;
    for (let i = 0; ok && i < prefixCps.length; i++) ok = tc[i] === prefixCps[i];
    if (!ok) continue;
    // FuzzyTermsEnum: the edits after the common prefix, boost 1 - ed / min(len)
    const ed = editDistance(cps.slice(prefix), tc.slice(prefix), maxEdits, true);
    if (ed > maxEdits) continue;
    const score = Math.fround(1 - ed / Math.min(tc.length, cps.length));
    if (df <= docfreq || score < s.accuracy) continue;
    queue.push({ string: term, score, freq: df });
  }
  // the PriorityQueue keeps the numSug best by boost (ties: the smaller term)
  queue.sort((a, b) => b.score - a.score || (a.string < b.string ? -1 : 1));
  return queue.slice(0, numSug);
}
