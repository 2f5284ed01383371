/**
 * The phrase suggester's noisy channel model (ES NoisyChannelSpellChecker, DirectCandidateGenerator,
 * CandidateScorer, StupidBackoffScorer): each token gets spelling candidates, every path with at
 * most `max_errors` corrections is scored as the product of channel likelihood × language model
 * probability, and corrections scoring above `confidence` × the input's own score are returned.
 */
import { suggestSimilar, type ShardTermStats, type SpellSettings } from './spell.js';

export interface PhraseSettings extends SpellSettings {
  realWordLikelihood: number;
  maxErrors: number;
  numCorrections: number;
  confidence: number;
  gramSize: number;
  tokenLimit: number;
  discount: number;
  separator: string;
}

interface Candidate {
  term: string;
  frequency: number;
  stringDistance: number;
  score: number;
  userInput: boolean;
}

interface CandidateSet {
  original: Candidate;
  candidates: Candidate[];
}

export interface Correction {
  score: number;
  terms: string[];
  highlight(separator: string, pre: string, post: string): string;
}

const LOG_BASE = 5;

/** Candidate order: higher score first; on ties the earlier (aaa) term. */
const strongerFirst = (a: Candidate, b: Candidate) =>
  b.score - a.score || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);

export function phraseCorrections(
  tokens: string[],
  stats: ShardTermStats,
  s: PhraseSettings,
): { corrections: Correction[]; cutoffScore: number } {
  const empty = { corrections: [], cutoffScore: Number.MIN_VALUE };
  if (tokens.length === 0 || tokens.length >= s.tokenLimit) return empty;
  const useTtf = stats.sumTotalTermFreq !== -1;
  const dictSize = useTtf ? stats.sumTotalTermFreq : stats.maxDoc;
  const freq = (t: string) => {
    const df = stats.terms.get(t);
    return df === undefined ? 0 : useTtf ? stats.totalTermFreq(t) : df;
  };
  const numTerms = dictSize + stats.numTerms > 1 ? stats.numTerms : 0;
  const channelScore = (c: Candidate) =>
    c.stringDistance === 1 ? s.realWordLikelihood : c.stringDistance;
  const unigram = (c: Candidate) => (1 + freq(c.term)) / (dictSize + numTerms);
  const bigram = (w: Candidate, w1: Candidate) => {
    const count = freq(w1.term + s.separator + w.term);
    return count < 1 ? s.discount * unigram(w) : count / (w1.frequency + 0.00000000001);
  };
  const trigram = (w: Candidate, w1: Candidate, w2: Candidate) => {
    const bi = freq(w1.term + s.separator + w.term);
    if (bi < 1) return s.discount * unigram(w);
    const tri = freq(w2.term + s.separator + w1.term + s.separator + w.term);
    if (tri < 1) return s.discount * (bi / (w1.frequency + 0.00000000001));
    return tri / (bi + 0.00000000001);
  };
  // WordScorer.score: log10(channel × LM)
  const wordScore = (path: Candidate[], sets: CandidateSet[], at: number) => {
    const ch = channelScore(path[at]!);
    if (at === 0 || s.gramSize === 1) return Math.log10(ch * unigram(path[at]!));
    if (at === 1 || s.gramSize === 2) return Math.log10(ch * bigram(path[at]!, path[at - 1]!));
    void sets;
    return Math.log10(ch * trigram(path[at]!, path[at - 1]!, path[at - 2]!));
  };
  const candScore = (f: number, dist: number) => dist * ((f + 1) / (dictSize + 1));
  const sets: CandidateSet[] = tokens.map((t) => {
    const f = freq(t);
    return {
      original: {
        term: t,
        frequency: f,
        stringDistance: 1,
        score: candScore(f, 1),
        userInput: true,
      },
      candidates: [],
    };
  });
  for (const set of sets) drawCandidates(set, stats, s, dictSize, freq, candScore);

  let cutoffScore = Number.MIN_VALUE;
  if (s.confidence > 0) {
    const path = sets.map((x) => x.original);
    let sc = 0;
    for (let i = 0; i < sets.length; i++) sc += wordScore(path, sets, i);
    cutoffScore = Math.exp(sc) * s.confidence;
  }
  // CandidateScorer.findBestCandiates
  const max = s.numCorrections;
  const top: Array<{ score: number; path: Candidate[] }> = [];
  const weaker = (a: { score: number; path: Candidate[] }, score: number, path: Candidate[]) => {
    if (a.score !== score) return a.score < score;
    for (let i = 0; i < Math.min(a.path.length, path.length); i++) {
      if (a.path[i]!.term !== path[i]!.term) return a.path[i]!.term > path[i]!.term;
    }
    return a.path.length < path.length;
  };
  const update = (path: Candidate[], logScore: number) => {
    const score = Math.exp(logScore);
    if (score <= cutoffScore) return;
    if (top.length < max) {
      top.push({ score, path: [...path] });
      return;
    }
    let wi = 0;
    for (let i = 1; i < top.length; i++) if (weaker(top[i]!, top[wi]!.score, top[wi]!.path)) wi = i;
    if (weaker(top[wi]!, score, path)) top[wi] = { score, path: [...path] };
  };
  const errors = s.maxErrors >= 1 ? Math.trunc(s.maxErrors) : Math.round(s.maxErrors * sets.length);
  const path: Candidate[] = new Array(sets.length);
  const find = (ord: number, left: number, pathScore: number): void => {
    const cur = sets[ord]!;
    if (ord === sets.length - 1) {
      path[ord] = cur.original;
      update(path, pathScore + wordScore(path, sets, ord));
      if (left > 0) {
        for (const c of cur.candidates) {
          path[ord] = c;
          update(path, pathScore + wordScore(path, sets, ord));
        }
      }
      return;
    }
    path[ord] = cur.original;
    find(ord + 1, left, pathScore + wordScore(path, sets, ord));
    if (left > 0) {
      for (const c of cur.candidates) {
        path[ord] = c;
        find(ord + 1, left - 1, pathScore + wordScore(path, sets, ord));
      }
    }
  };
  find(0, Math.max(1, errors), 0);
  top.sort((a, b) => (weaker(a, b.score, b.path) ? 1 : weaker(b, a.score, a.path) ? -1 : 0));
  return {
    cutoffScore,
    corrections: top.map((c) => ({
      score: c.score,
      terms: c.path.map((x) => x.term),
      highlight: (sep, pre, post) =>
        c.path
          .map((x, i) => {
            if (x.userInput) return x.term;
            const open = i === 0 || c.path[i - 1]!.userInput ? pre : '';
            const close = i === c.path.length - 1 || c.path[i + 1]!.userInput ? post : '';
            return open + x.term + close;
          })
          .join(sep),
    })),
  };
}

/** DirectCandidateGenerator.drawCandidates. */
function drawCandidates(
  set: CandidateSet,
  stats: ShardTermStats,
  s: PhraseSettings,
  dictSize: number,
  freq: (t: string) => number,
  candScore: (f: number, dist: number) => number,
): void {
  const f = set.original.frequency;
  const plateau =
    s.minDocFreq >= 1 ? Math.trunc(s.minDocFreq) : Math.trunc(dictSize * s.minDocFreq);
  let threshold = 0;
  if (s.suggestMode !== 'always' && f > 0) {
    threshold = Math.min(
      Math.max(0, Math.round(f * (Math.log10(f - plateau) * (1 / Math.log10(LOG_BASE))) + 1)),
      2147483647,
    );
  }
  const words = suggestSimilar(set.original.term, 5, stats, s, s.suggestMode, threshold);
  const seen = new Map<string, Candidate>();
  for (const w of words) {
    seen.set(w.string, {
      term: w.string,
      frequency: freq(w.string),
      stringDistance: w.score,
      score: candScore(w.freq, w.score),
      userInput: false,
    });
  }
  set.candidates = [...seen.values()].sort(strongerFirst);
}
