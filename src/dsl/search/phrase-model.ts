/**
 * The phrase suggester's language models (ES WordScorer, StupidBackoffScorer, LaplaceScorer,
 * LinearInterpolatingScorer): the log10 probability of a word given the one or two before it,
 * from the frequencies of unigrams and shingles (joined by the separator) in the suggest field,
 * times the channel likelihood that the user meant that word.
 */

/** A word of a correction path (ES DirectCandidateGenerator.Candidate). */
export interface Candidate {
  readonly term: string;
  /** Its frequency in the generator's field (total term freq, or doc freq without freqs). */
  readonly frequency: number;
  /** 1 for the user's own word, else the spelling similarity (or the real word likelihood). */
  readonly stringDistance: number;
  /** The candidate's own rank: stringDistance × (frequency + 1) / (dictionary size + 1). */
  readonly score: number;
  readonly userInput: boolean;
}

export type SmoothingModel =
  | { readonly kind: 'stupid_backoff'; readonly discount: number }
  | { readonly kind: 'laplace'; readonly alpha: number }
  | {
      readonly kind: 'linear_interpolation';
      readonly trigramLambda: number;
      readonly bigramLambda: number;
      readonly unigramLambda: number;
    };

/** PhraseSuggestionContext.DEFAULT_SCORER. */
export const DEFAULT_SMOOTHING: SmoothingModel = { kind: 'stupid_backoff', discount: 0.4 };

/** What a language model reads from the suggest field. */
export interface NgramCounts {
  /** Frequency of a term or shingle (total term freq, or doc freq when freqs are omitted). */
  frequency(term: string): number;
  /** Terms.getSumTotalTermFreq, or maxDoc when the field omits frequencies. */
  readonly vocabularySize: number;
  /** Terms.size (-1 over several segments). */
  readonly numTerms: number;
}

export interface WordScorer {
  /** log10 of channel × language model probability of path[at] (ES WordScorer.score). */
  score(path: readonly Candidate[], at: number, gramSize: number): number;
}

export function wordScorer(
  model: SmoothingModel,
  counts: NgramCounts,
  realWordLikelihood: number,
  separator: string,
): WordScorer {
  const vocab = counts.vocabularySize;
  // -1 (several segments) would divide by zero when the vocabulary has one word
  const numTerms = vocab + counts.numTerms > 1 ? counts.numTerms : 0;
  const freq = (...terms: string[]) => counts.frequency(terms.join(separator));
  const unigram = (w: Candidate) => (1 + freq(w.term)) / (vocab + numTerms);
  let bigram: (w: Candidate, w1: Candidate) => number;
  let trigram: (w: Candidate, w1: Candidate, w2: Candidate) => number;
  switch (model.kind) {
    case 'stupid_backoff': {
      const d = model.discount;
      bigram = (w, w1) => {
        const count = freq(w1.term, w.term);
        return count < 1 ? d * unigram(w) : count / (w1.frequency + 0.00000000001);
      };
      trigram = (w, w1, w2) => {
        // without the bigram the trigram cannot exist: skip its lookup
        const bi = freq(w1.term, w.term);
        if (bi < 1) return d * unigram(w);
        const tri = freq(w2.term, w1.term, w.term);
        if (tri < 1) return d * (bi / (w1.frequency + 0.00000000001));
        return tri / (bi + 0.00000000001);
      };
      break;
    }
    case 'laplace': {
      const a = model.alpha;
      bigram = (w, w1) => (a + freq(w1.term, w.term)) / (a + w1.frequency + vocab);
      trigram = (w, w1, w2) =>
        (a + freq(w2.term, w1.term, w.term)) / (a + freq(w1.term, w.term) + vocab);
      break;
    }
    case 'linear_interpolation': {
      const sum = model.unigramLambda + model.bigramLambda + model.trigramLambda;
      const uni = model.unigramLambda / sum;
      const bi = model.bigramLambda / sum;
      const tri = model.trigramLambda / sum;
      bigram = (w, w1) => {
        const count = freq(w1.term, w.term);
        if (count < 1) return uni * unigram(w);
        return bi * (count / (0.5 + w1.frequency)) + uni * unigram(w);
      };
      trigram = (w, w1, w2) => {
        // ES joins this trigram newest word first (and its bigram likewise); kept for parity
        const count = freq(w.term, w1.term, w2.term);
        if (count < 1) return bigram(w, w1);
        return tri * (count / (1 + freq(w.term, w1.term))) + bigram(w, w1);
      };
      break;
    }
  }
  const channel = (c: Candidate) =>
    c.stringDistance === 1 ? realWordLikelihood : c.stringDistance;
  return {
    score(path, at, gramSize) {
      const w = path[at]!;
      if (at === 0 || gramSize === 1) return Math.log10(channel(w) * unigram(w));
      if (at === 1 || gramSize === 2) return Math.log10(channel(w) * bigram(w, path[at - 1]!));
      return Math.log10(channel(w) * trigram(w, path[at - 1]!, path[at - 2]!));
    },
  };
}
