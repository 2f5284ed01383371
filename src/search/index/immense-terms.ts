/**
 * Lucene's limit on one indexed term: 32766 bytes of UTF-8 (DocumentsWriterPerThread
 * .MAX_TERM_LENGTH_UTF8). A longer keyword value, or a longer token from an analyzer that does
 * not split (keyword, pattern tokenizers), fails the whole document in DefaultIndexingChain; a
 * keyword kept only in doc values meets SortedSetDocValuesWriter's own check. Checked before a
 * document is written, since the segment buffer cannot take a document back.
 */
import { EsError } from '../../common/errors.js';
import type { ParsedDocument } from '../../mapping/types.js';
import type { AnalysisResolver } from './segment-builder.js';

export const MAX_TERM_BYTES = 32766;

/** DefaultIndexingChain's message: Java's Arrays.toString of the first 30 (signed) bytes. */
function immenseTerm(field: string, term: string): EsError {
  const bytes = Buffer.from(term, 'utf8');
  const prefix = [...bytes.subarray(0, 30)].map((b) => (b > 127 ? b - 256 : b)).join(', ');
  return new EsError(
    'illegal_argument_exception',
    `Document contains at least one immense term in field="${field}" (whose UTF8 encoding is longer than the max length ${MAX_TERM_BYTES}), all of which were skipped.  Please correct the analyzer to not produce such terms.  The prefix of the first immense term is: '[${prefix}]...', original message: bytes can be at most ${MAX_TERM_BYTES} in length; got ${bytes.length}`,
    400,
    {
      causedBy: new EsError(
        'max_bytes_length_exceeded_exception',
        `bytes can be at most ${MAX_TERM_BYTES} in length; got ${bytes.length}`,
        400,
      ),
    },
  );
}

/** A UTF-8 length bound from the UTF-16 length (3 bytes at most per unit), exact when needed. */
const tooLong = (s: string) => s.length * 3 > MAX_TERM_BYTES && Buffer.byteLength(s) > MAX_TERM_BYTES; // prettier-ignore

/** Throws ES's error for the first term of `doc` (nested documents included) Lucene refuses. */
export function checkTermLengths(analysis: AnalysisResolver, doc: ParsedDocument): void {
  const values = doc.values;
  for (let i = 0; i < values.length; i++) {
    const { field, value } = values[i]!;
    if (typeof value !== 'string' || !tooLong(value)) continue;
    if (field.type === 'keyword') {
      const term = analysis.normalize(field, value);
      if (!tooLong(term)) continue;
      if (field.index) throw immenseTerm(field.path, term);
      if (field.docValues)
        throw new EsError('illegal_argument_exception', `DocValuesField "${field.path}" is too large, must be <= ${MAX_TERM_BYTES}`, 400); // prettier-ignore
    } else if (field.type === 'text' && field.index) {
      let found: string | null = null;
      analysis.indexAnalyzer(field).analyze(value, (term) => {
        if (found === null && tooLong(term)) found = term;
      });
      if (found !== null) throw immenseTerm(field.path, found);
    }
  }
  const nested = doc.nested;
  for (let i = 0; i < nested.length; i++) checkTermLengths(analysis, nested[i]!.doc);
}
