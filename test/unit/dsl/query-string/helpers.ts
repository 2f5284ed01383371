/**
 * Shorthands for expected query-string ASTs in tests: T(text, field, extra), P(...), B(...clauses)
 * with sh/mu/mn clause builders (should/must/must_not).
 */
import type { QsClause, QsNode } from '../../../../src/dsl/query-string/ast.js';
import { isEsError } from '../../../../src/common/errors.js';

export const T = (text: string, field: string | null = null, extra: object = {}): QsNode =>
  ({ kind: 'Term', field, text, ...extra }) as QsNode;
export const F = (text: string, edits: number | 'AUTO', field: string | null = null): QsNode => ({
  kind: 'Term',
  field,
  text,
  fuzzy: { edits },
});
export const P = (text: string, field: string | null = null, extra: object = {}): QsNode =>
  ({ kind: 'Phrase', field, text, ...extra }) as QsNode;
export const PFX = (text: string, field: string | null = null, extra: object = {}): QsNode =>
  ({ kind: 'Prefix', field, text, ...extra }) as QsNode;
export const W = (text: string, field: string | null = null, extra: object = {}): QsNode =>
  ({ kind: 'Wildcard', field, text, ...extra }) as QsNode;
export const RE = (text: string, field: string | null = null, extra: object = {}): QsNode =>
  ({ kind: 'Regexp', field, text, ...extra }) as QsNode;
export const R = (
  field: string | null,
  lower: string | null,
  upper: string | null,
  includeLower = true,
  includeUpper = true,
  extra: object = {},
): QsNode =>
  ({ kind: 'Range', field, lower, upper, includeLower, includeUpper, ...extra }) as QsNode;
export const B = (...clauses: QsClause[]): QsNode => ({ kind: 'Bool', clauses });
export const BB = (boost: number, ...clauses: QsClause[]): QsNode => ({
  kind: 'Bool',
  clauses,
  boost,
});
export const sh = (node: QsNode): QsClause => ({ occur: 'should', node });
export const mu = (node: QsNode): QsClause => ({ occur: 'must', node });
export const mn = (node: QsNode): QsClause => ({ occur: 'must_not', node });
export const spl = (occur: QsClause['occur'], node: QsNode): QsClause => ({
  occur,
  node,
  splice: true,
});
export const ALL: QsNode = { kind: 'MatchAll' };
export const NONE: QsNode = { kind: 'MatchNone' };
/** The clause ES's fixNegativeQueryIfNeeded appends to a purely negative query. */
export const FIX = mu(ALL);

/** Runs `f` and returns the thrown EsError's body `error` object. */
export function errorOf(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    if (isEsError(e)) return e.toErrorObject();
    throw e;
  }
  throw new Error('expected an error');
}
