/**
 * UNION [ALL] (EXTENSION, issue 16, not Elasticsearch SQL): a query whose SELECT branches are
 * planned each on its own (one Query DSL request, or a local plan, per branch) and combined in
 * memory: concatenated in order, deduplicated for UNION, then ORDER BY (output names or ordinals),
 * OFFSET and LIMIT. This module holds the combined plan and its verification.
 */
import type * as A from '../ast/nodes.js';
import type { DataTypeName } from '../../functions/data-types.js';
import { areCompatible, commonType } from '../types/common-type.js';
import type { Src } from '../expression/nodes.js';
import { verificationException, type Failure } from '../analyze/verifier.js';

export interface UnionColumn {
  readonly name: string;
  readonly dataType: DataTypeName;
}

export interface UnionOrder {
  /** Index of the output column. */
  readonly index: number;
  readonly direction: 'ASC' | 'DESC';
  readonly nulls: 'FIRST' | 'LAST';
}

/** The in-memory part of a UNION; `B` is how one branch is planned. */
export interface UnionPlan<B> {
  readonly branches: readonly B[];
  /** Per branch after the first: UNION ALL (true) or UNION (false: deduplicate so far). */
  readonly all: readonly boolean[];
  readonly columns: readonly UnionColumn[];
  readonly orders: readonly UnionOrder[];
  /** -1: no LIMIT. */
  readonly limit: number;
  readonly offset: number;
}

const srcOf = (loc: A.Loc, text: string): Src => ({
  text,
  line: loc.line,
  column: loc.column,
});

/** Output columns of the union: the first branch's names, the common type per position. */
export function unionColumns(
  branches: ReadonlyArray<{ readonly columns: readonly UnionColumn[]; readonly loc: A.Loc }>,
): UnionColumn[] {
  const failures: Failure[] = [];
  const first = branches[0]!;
  const types = first.columns.map((c) => c.dataType);
  branches.slice(1).forEach((b, i) => {
    const src = srcOf(b.loc, 'UNION');
    if (b.columns.length !== first.columns.length) {
      failures.push({
        src,
        message: `UNION branches must have the same number of columns; branch [1] has [${first.columns.length}], branch [${i + 2}] has [${b.columns.length}]`,
      });
      return;
    }
    b.columns.forEach((c, k) => {
      const t = types[k]!;
      const common = areCompatible(t, c.dataType) ? commonType(t, c.dataType) : null;
      if (common === null) {
        failures.push({
          src,
          message: `UNION column [${k + 1}] ([${first.columns[k]!.name}]) has incompatible types [${t}] and [${c.dataType}]`,
        });
      } else types[k] = common;
    });
  });
  if (failures.length > 0) throw verificationException(failures);
  return first.columns.map((c, k) => ({ name: c.name, dataType: types[k]! }));
}

/** ORDER BY over a union: output column names or 1-based ordinals. */
export function unionOrders(
  orders: readonly A.OrderBy[],
  columns: readonly UnionColumn[],
): UnionOrder[] {
  const failures: Failure[] = [];
  const out: UnionOrder[] = [];
  for (const o of orders) {
    const e = o.expression;
    let index = -1;
    if (e.kind === 'Column') {
      index = columns.findIndex((c) => c.name === e.name);
      if (index < 0)
        index = columns.findIndex((c) => c.name.toLowerCase() === e.name.toLowerCase());
    } else if (e.kind === 'Literal' && typeof e.value === 'number' && Number.isInteger(e.value)) {
      index = e.value >= 1 && e.value <= columns.length ? e.value - 1 : -1;
    }
    if (index < 0) {
      failures.push({
        src: srcOf(o.loc, ''),
        message: `ORDER BY over UNION takes output column names or ordinals (1 to ${columns.length}); found [${sourceOf(e)}]`,
      });
      continue;
    }
    const nulls = o.nulls ?? (o.direction === 'ASC' ? 'LAST' : 'FIRST');
    out.push({ index, direction: o.direction, nulls });
  }
  if (failures.length > 0) throw verificationException(failures);
  return out;
}

const sourceOf = (e: A.Expression): string =>
  'sourceText' in e && typeof e.sourceText === 'string'
    ? e.sourceText
    : e.kind === 'Column'
      ? e.name
      : e.kind;

/** UNION inside a sub-select, WITH query or parenthesised term is not planned (yet). */
export function unionNotTopLevel(loc: A.Loc): Error {
  return verificationException([
    { src: srcOf(loc, 'UNION'), message: 'UNION is only supported at the top level of a query' },
  ]);
}
