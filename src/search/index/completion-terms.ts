/**
 * How completion field inputs are indexed (a sorted stand-in for Lucene's NRT suggester FST): one
 * term per input, `analyzed \0 input \0 weight`, so a prefix of the analyzed form is a range of
 * the field's sorted terms and each term carries the surface form and weight ES returns. Fields
 * with context mappings append `\0` and the input's typed contexts as JSON (ES files a suggestion
 * under each context, prefixed by the id of its context mapping).
 */
import type { CompletionValue, FieldMapping } from '../../mapping/types.js';
import type { Analyzer } from '../analysis/index.js';

const SEP = '\u0000';

/** A context a suggestion is filed under: the index of its context mapping, and its value. */
export type TypedContext = readonly [typeId: number, value: string];

/** Lucene's completion token separator (CompletionAnalyzer.SEP_LABEL). */
export const TOKEN_SEPARATOR = '\u001f';

/**
 * Lucene CompletionTokenStream: the form an input's tokens take in the suggester, which prefixes
 * match byte for byte. With `preserve_separators` a 0x1F separator goes between tokens (so a
 * space inside one token, as the keyword analyzer keeps it, is not a separator), without it the
 * tokens run together; with `preserve_position_increments` each position a removed token
 * (a stop word) leaves empty adds a separator too (the hole itself is dropped). Of tokens at one
 * position (synonyms) the first is kept: Lucene indexes each path of that graph, this one path.
 */
export function completionForm(
  tokens: ReadonlyArray<{ readonly term: string; readonly position: number }>,
  field: FieldMapping,
): string {
  const preserveSep = field.completion?.preserveSeparators !== false;
  const keepGaps = field.completion?.preservePositionIncrements !== false;
  let out = '';
  let last = -1;
  tokens.forEach((t, i) => {
    const inc = t.position - last;
    if (i > 0 && inc <= 0) return;
    last = t.position;
    // the first token follows the start, the others a separator; holes add one each
    const seps = i === 0 ? (keepGaps ? Math.max(0, inc - 1) : 0) : keepGaps ? inc : Math.min(inc, 1); // prettier-ignore
    if (preserveSep) out += TOKEN_SEPARATOR.repeat(seps);
    out += t.term;
  });
  return out;
}

/** The analyzed form of a completion input (completionForm of its tokens). */
export function analyzeCompletion(analyzer: Analyzer, field: FieldMapping, text: string): string {
  const tokens: Array<{ term: string; position: number }> = [];
  analyzer.analyze(text, (term, position) => {
    tokens.push({ term, position });
  });
  return completionForm(tokens, field);
}

export function completionTerm(
  analyzed: string,
  input: string,
  weight: number,
  contexts?: readonly TypedContext[],
): string {
  const base = `${analyzed}${SEP}${input}${SEP}${weight}`;
  return contexts === undefined ? base : `${base}${SEP}${JSON.stringify(contexts)}`;
}

/** ContextMappings.TypedContextField.contexts: each mapping's values, deduplicated, by type id. */
export function typedContexts(field: FieldMapping, value: CompletionValue): TypedContext[] {
  const out: TypedContext[] = [];
  const defs = field.completion?.contextDefs ?? [];
  defs.forEach((def, typeId) => {
    for (const v of new Set(value.contexts?.[def.name] ?? [])) out.push([typeId, v]);
  });
  return out;
}

export interface CompletionEntry {
  analyzed: string;
  input: string;
  weight: number;
  /** Present on fields with context mappings (empty when the input has none). */
  contexts?: TypedContext[];
}

export function parseCompletionTerm(term: string): CompletionEntry {
  const a = term.indexOf(SEP);
  let b = term.lastIndexOf(SEP);
  let contexts: TypedContext[] | undefined;
  // a weight is digits, so a JSON array after the last separator can only be contexts
  if (term.charCodeAt(b + 1) === 0x5b) {
    contexts = JSON.parse(term.slice(b + 1)) as TypedContext[];
    const end = b;
    b = term.lastIndexOf(SEP, end - 1);
    return {
      analyzed: term.slice(0, a),
      input: term.slice(a + 1, b),
      weight: Number(term.slice(b + 1, end)),
      contexts,
    };
  }
  return {
    analyzed: term.slice(0, a),
    input: term.slice(a + 1, b),
    weight: Number(term.slice(b + 1)),
  };
}
