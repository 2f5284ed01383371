/**
 * How completion field inputs are indexed (a sorted stand-in for Lucene's NRT suggester FST): one
 * term per input, `analyzed \0 input \0 weight`, so a prefix of the analyzed form is a range of
 * the field's sorted terms and each term carries the surface form and weight ES returns.
 */
import type { FieldMapping } from '../../mapping/types.js';
import type { Analyzer } from '../analysis/index.js';

const SEP = '\u0000';

/** The analyzed form of a completion input: its tokens, joined by a space (preserve_separators). */
export function analyzeCompletion(analyzer: Analyzer, field: FieldMapping, text: string): string {
  const tokens: string[] = [];
  analyzer.analyze(text, (t) => {
    tokens.push(t);
  });
  const joiner = field.completion?.preserveSeparators === false ? '' : ' ';
  return tokens.join(joiner);
}

export function completionTerm(analyzed: string, input: string, weight: number): string {
  return `${analyzed}${SEP}${input}${SEP}${weight}`;
}

export interface CompletionEntry {
  analyzed: string;
  input: string;
  weight: number;
}

export function parseCompletionTerm(term: string): CompletionEntry {
  const a = term.indexOf(SEP);
  const b = term.lastIndexOf(SEP);
  return {
    analyzed: term.slice(0, a),
    input: term.slice(a + 1, b),
    weight: Number(term.slice(b + 1)),
  };
}
