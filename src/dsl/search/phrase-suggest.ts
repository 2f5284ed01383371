/**
 * The phrase suggester's noisy channel model (ES NoisyChannelSpellChecker, DirectCandidateGenerator,
 * MultiCandidateGeneratorWrapper, CandidateScorer, Correction): each unigram of the input gets
 * spelling candidates from one or more generators, every path with at most `max_errors`
 * corrections is scored by the language model, and the best paths scoring above
 * `confidence` × the input's own score are returned.
 */
import { EsError } from '../../common/errors.js';
import type { Candidate, WordScorer } from './phrase-model.js';
import { suggestSimilar, type ShardTermStats, type SpellSettings } from './spell.js';

export type { Candidate } from './phrase-model.js';

/** A token of the analyzed input: shingles are typed `shingle`, synonyms `SYNONYM`. */
export interface PhraseToken {
  readonly term: string;
  readonly type: string;
  readonly posInc: number;
}

/** A word of the input and its alternatives, strongest first. */
export interface CandidateSet {
  readonly original: Candidate;
  candidates: Candidate[];
}

export interface CandidateGenerator {
  /** Frequency of a user's word (after the pre filter). */
  frequency(term: string): number;
  createCandidate(term: string, frequency: number, channel: number, userInput: boolean): Candidate;
  drawCandidates(set: CandidateSet): void;
}

/** A token filter chain as a function: the terms and position increments it emits. */
export type TokenFilterFn = (text: string) => readonly { term: string; posInc: number }[];

export interface DirectGeneratorOptions {
  readonly stats: ShardTermStats;
  readonly spell: SpellSettings;
  /** Candidates drawn per word (ES `size`, 5). */
  readonly size: number;
  readonly realWordLikelihood: number;
  readonly preFilter: TokenFilterFn | null;
  readonly postFilter: TokenFilterFn | null;
}

const LOG_BASE = 5;

/** Candidate order: higher score first; on ties the earlier (aaa) term. */
const strongerFirst = (a: Candidate, b: Candidate) =>
  b.score - a.score || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);

/** ES DirectCandidateGenerator over one field of the shard. */
export function directGenerator(o: DirectGeneratorOptions): CandidateGenerator {
  const { stats, spell } = o;
  const useTtf = stats.sumTotalTermFreq !== -1;
  const dictSize = useTtf ? stats.sumTotalTermFreq : stats.maxDoc;
  const plateau =
    spell.minDocFreq >= 1 ? Math.trunc(spell.minDocFreq) : Math.trunc(dictSize * spell.minDocFreq);
  const internalFrequency = (t: string) =>
    stats.terms.has(t) ? (useTtf ? stats.totalTermFreq(t) : stats.terms.get(t)!) : 0;
  const score = (freq: number, distance: number) => distance * ((freq + 1) / (dictSize + 1));
  // the last token the pre filter emits replaces the term
  const preFilter = (t: string) => {
    if (!o.preFilter) return t;
    let out = '';
    for (const tok of o.preFilter(t)) out = tok.term;
    return out;
  };
  const thresholdFrequency = (f: number) =>
    f > 0
      ? Math.min(
          Math.max(0, Math.round(f * (Math.log10(f - plateau) * (1 / Math.log10(LOG_BASE))) + 1)),
          2147483647,
        )
      : 0;
  const createCandidate = (
    term: string,
    frequency: number,
    channel: number,
    userInput: boolean,
  ) => ({
    term,
    frequency,
    stringDistance: channel,
    score: score(frequency, channel),
    userInput,
  });
  return {
    frequency: (t) => internalFrequency(preFilter(t)),
    createCandidate,
    drawCandidates(set) {
      const original = set.original;
      const term = preFilter(original.term);
      const threshold = spell.suggestMode === 'always' ? 0 : thresholdFrequency(original.frequency);
      const words = suggestSimilar(term, o.size, stats, spell, spell.suggestMode, threshold);
      const drawn: Candidate[] = [];
      for (const w of words) {
        const c = createCandidate(w.string, internalFrequency(w.string), w.score, false);
        const fixedScore = score(w.freq, w.score);
        if (!o.postFilter) {
          drawn.push({ ...c, score: fixedScore });
          continue;
        }
        // a post filter that changes the word makes it a real word of unknown spelling
        for (const tok of o.postFilter(c.term)) {
          if (tok.posInc > 0 && tok.term === c.term)
            drawn.push({
              term: tok.term,
              frequency: internalFrequency(tok.term),
              stringDistance: c.stringDistance,
              score: score(c.frequency, c.stringDistance),
              userInput: false,
            });
          else
            drawn.push({
              term: tok.term,
              frequency: c.frequency,
              stringDistance: o.realWordLikelihood,
              score: score(c.frequency, c.stringDistance),
              userInput: false,
            });
        }
      }
      addCandidates(set, drawn);
    },
  };
}

/** CandidateSet.addCandidates: merged by term (a new one wins), strongest first. */
function addCandidates(set: CandidateSet, drawn: readonly Candidate[]): void {
  const byTerm = new Map<string, Candidate>();
  for (const c of drawn) if (!byTerm.has(c.term)) byTerm.set(c.term, c);
  for (const c of set.candidates) if (!byTerm.has(c.term)) byTerm.set(c.term, c);
  set.candidates = [...byTerm.values()].sort(strongerFirst);
}

/** MultiCandidateGeneratorWrapper: every generator draws; the set keeps the best `max`. */
export function multiGenerator(
  max: number,
  gens: readonly CandidateGenerator[],
): CandidateGenerator {
  const first = gens[0]!;
  return {
    frequency: (t) => first.frequency(t),
    createCandidate: (t, f, c, u) => first.createCandidate(t, f, c, u),
    drawCandidates(set) {
      for (const g of gens) g.drawCandidates(set);
      if (set.candidates.length > max) {
        // a stable sort by score alone, as Arrays.sort on objects
        set.candidates = [...set.candidates].sort((a, b) => b.score - a.score).slice(0, max);
      }
    },
  };
}

export interface NoisyChannelOptions {
  readonly realWordLikelihood: number;
  /** force_unigrams: shingles of the input are not words to correct. */
  readonly requireUnigram: boolean;
  readonly tokenLimit: number;
  readonly maxErrors: number;
  readonly numCorrections: number;
  readonly confidence: number;
  readonly gramSize: number;
}

/** One corrected phrase: its words and its probability. */
export interface Correction {
  readonly score: number;
  readonly path: readonly Candidate[];
}

/** NoisyChannelSpellChecker.getCorrections. */
export function phraseCorrections(
  tokens: readonly PhraseToken[],
  generator: CandidateGenerator,
  scorer: WordScorer,
  o: NoisyChannelOptions,
): { corrections: Correction[]; cutoffScore: number } {
  const sets: CandidateSet[] = [];
  let current: CandidateSet | null = null;
  let anyUnigram = false;
  for (const tok of tokens) {
    if (o.requireUnigram && tok.type === 'shingle') continue;
    anyUnigram = true;
    if (tok.posInc === 0 && tok.type === 'SYNONYM') {
      // a synonym is an alternative for the word at its position, if the index knows it
      const f = generator.frequency(tok.term);
      if (f > 0 && current)
        current.candidates.push(
          generator.createCandidate(tok.term, f, o.realWordLikelihood, false),
        );
    } else {
      if (current) sets.push(current);
      current = {
        original: generator.createCandidate(tok.term, generator.frequency(tok.term), 1, true),
        candidates: [],
      };
    }
  }
  if (current) sets.push(current);
  if (o.requireUnigram && !anyUnigram && tokens.length > 0)
    throw new EsError(
      'illegal_state_exception',
      'At least one unigram is required but all tokens were ngrams',
      500,
    );
  if (sets.length === 0 || sets.length >= o.tokenLimit)
    return { corrections: [], cutoffScore: Number.MIN_VALUE };
  for (const set of sets) generator.drawCandidates(set);

  const pathScore = (path: readonly Candidate[]) => {
    let sc = 0;
    for (let i = 0; i < path.length; i++) sc += scorer.score(path, i, o.gramSize);
    return Math.exp(sc);
  };
  let cutoffScore = Number.MIN_VALUE;
  if (o.confidence > 0) cutoffScore = pathScore(sets.map((s) => s.original)) * o.confidence;
  return { corrections: bestCorrections(sets, scorer, o, cutoffScore), cutoffScore };
}

/**
 * Whether correction `a` is weaker than (score, path): a lower score, or on equal scores a later
 * (zzz) word at the first difference, or a shorter path (ES Correction.compareTo).
 */
function weaker(a: Correction, score: number, path: readonly Candidate[]): boolean {
  if (a.score !== score) return a.score < score;
  const n = Math.min(a.path.length, path.length);
  for (let i = 0; i < n; i++) {
    const x = a.path[i]!.term;
    const y = path[i]!.term;
    if (x !== y) return x > y;
  }
  return a.path.length < path.length;
}

/** CandidateScorer.findBestCandiates: depth-first over paths with a bounded error budget. */
function bestCorrections(
  sets: readonly CandidateSet[],
  scorer: WordScorer,
  o: NoisyChannelOptions,
  cutoffScore: number,
): Correction[] {
  const max = o.numCorrections;
  const top: Correction[] = [];
  const update = (path: readonly Candidate[], logScore: number) => {
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
  const errors =
    o.maxErrors >= 1 ? Math.trunc(o.maxErrors) : Math.round(Math.fround(o.maxErrors * sets.length));
  const path: Candidate[] = new Array<Candidate>(sets.length);
  const find = (ord: number, left: number, score: number): void => {
    const cur = sets[ord]!;
    const last = ord === sets.length - 1;
    path[ord] = cur.original;
    const here = score + scorer.score(path, ord, o.gramSize);
    if (last) update(path, here);
    else find(ord + 1, left, here);
    if (left <= 0) return;
    for (const c of cur.candidates) {
      path[ord] = c;
      const s = score + scorer.score(path, ord, o.gramSize);
      if (last) update(path, s);
      else find(ord + 1, left - 1, s);
    }
  };
  find(0, Math.max(1, errors), 0);
  return top.sort((a, b) => (weaker(a, b.score, b.path) ? 1 : weaker(b, a.score, a.path) ? -1 : 0));
}

/** Correction.join: the words joined by a space, corrected runs wrapped in the tags. */
export function joinCorrection(
  c: Correction,
  tags: { readonly pre: string; readonly post: string } | null,
): string {
  return c.path
    .map((x, i) => {
      if (!tags || x.userInput) return x.term;
      const open = i === 0 || c.path[i - 1]!.userInput ? tags.pre : '';
      const close = i === c.path.length - 1 || c.path[i + 1]!.userInput ? tags.post : '';
      return open + x.term + close;
    })
    .join(' ');
}
