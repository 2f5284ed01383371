/**
 * Spelling candidates as Lucene 7's DirectSpellChecker finds them over one shard's terms: fuzzy
 * matches (Damerau edits, first try one edit, then up to max_edits) sharing a prefix, scored
 * 1 - edits / min(length), filtered by accuracy, document frequency and suggest mode.
 */
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import { editDistance } from '../../search/query/fuzzy.js';

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
  /** term → docFreq and totalTermFreq, over the shard's segments. */
  terms: Map<string, { df: number; ttf: number }>;
  maxDoc: number;
  /** Terms.getSumTotalTermFreq (-1 when the field omits frequencies, as Lucene 7 reports). */
  sumTotalTermFreq: number;
  /** Terms.size (-1 over several segments, as MultiTerms reports). */
  numTerms: number;
}

export function shardTermStats(snapshot: ShardSnapshot, field: string): ShardTermStats {
  const terms = new Map<string, { df: number; ttf: number }>();
  let withFreqs = false;
  let sumTtf = 0;
  let segs = 0;
  for (const ls of snapshot.segments) {
    const inv = ls.segment.fields.get(field)?.inverted;
    if (!inv) continue;
    segs++;
    if (inv.freqs) withFreqs = true;
    sumTtf += inv.sumTotalTermFreq;
    for (let t = 0; t < inv.terms.length; t++) {
      const df = inv.termStart[t + 1]! - inv.termStart[t]!;
      let ttf = df;
      if (inv.freqs) {
        ttf = 0;
        for (let p = inv.termStart[t]!; p < inv.termStart[t + 1]!; p++) ttf += inv.freqs[p]!;
      }
      const cur = terms.get(inv.terms[t]!);
      if (cur) {
        cur.df += df;
        cur.ttf += ttf;
      } else terms.set(inv.terms[t]!, { df, ttf });
    }
  }
  return {
    terms,
    maxDoc: snapshot.maxDoc,
    sumTotalTermFreq: withFreqs ? sumTtf : -1,
    numTerms: segs === 1 ? terms.size : -1,
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
  let docfreq = stats.terms.get(text)?.df ?? 0;
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
  for (const [term, st] of stats.terms) {
    if (term === text) continue;
    const tc = codePoints(term);
    let ok = tc.length >= prefixCps.length;
    for (let i = 0; ok && i < prefixCps.length; i++) ok = tc[i] === prefixCps[i];
    if (!ok) continue;
    // FuzzyTermsEnum: the edits after the common prefix, boost 1 - ed / min(len)
    const ed = editDistance(cps.slice(prefix), tc.slice(prefix), maxEdits, true);
    if (ed > maxEdits) continue;
    const score = Math.fround(1 - ed / Math.min(tc.length, cps.length));
    if (st.df <= docfreq || score < s.accuracy) continue;
    queue.push({ string: term, score, freq: st.df });
  }
  // the PriorityQueue keeps the numSug best by boost (ties: the smaller term)
  queue.sort((a, b) => b.score - a.score || (a.string < b.string ? -1 : 1));
  return queue.slice(0, numSug);
}
