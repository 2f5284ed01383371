/**
 * CST -> AST for Quarry's query clauses beyond Elasticsearch SQL (issue 16): `UNION [ALL]`,
 * `OFFSET n [ROWS]` and `FETCH {FIRST | NEXT} [n] {ROW | ROWS} ONLY` (a LIMIT by another name).
 */
import type {
  QueryNoWithCstNode,
  QueryTermCstNode,
  SetQuantifierCstNode,
} from '../../../grammar/sql/sql-cst.js';
import { locOf } from './build-context.js';
import type { BuildContext } from './build-context.js';
import { numberFormatError, parsingError } from './errors.js';
import { limit as limitNode } from './nodes.js';
import type { Limit, Offset, QueryNoWith, QuerySpecification, UnionBranch } from './nodes.js';

export interface QueryExtensions {
  readonly unions: readonly UnionBranch[];
  /** The LIMIT, or FETCH FIRST as a LIMIT. */
  readonly limit: Limit | null;
  readonly offset: Offset | null;
}

// Integer.parseInt, as LIMIT is read
function parseInt32(image: string): number {
  const value = BigInt(image);
  if (value > 2147483647n) throw numberFormatError(image);
  return Number(value);
}

const isDistinct = (q: SetQuantifierCstNode[] | undefined) =>
  q !== undefined && q[0]!.children.Distinct !== undefined;

export function buildQueryExtensions(
  ctx: BuildContext,
  node: QueryNoWithCstNode,
  limit: Limit | null,
  buildTerm: (t: QueryTermCstNode) => QuerySpecification | QueryNoWith,
): QueryExtensions {
  const c = node.children;
  const unions = (c.unionClause ?? []).map((u): UnionBranch => ({
    kind: 'UnionBranch',
    // UNION alone is UNION DISTINCT
    all: u.children.setQuantifier !== undefined && !isDistinct(u.children.setQuantifier),
    term: buildTerm(u.children.queryTerm[0]!),
    loc: locOf(ctx, u),
  }));
  const offsetNode = c.offsetClause?.[0];
  const offset: Offset | null = offsetNode
    ? {
        kind: 'Offset',
        count: parseInt32(offsetNode.children.IntegerValue[0]!.image),
        loc: locOf(ctx, offsetNode),
      }
    : null;
  const fetchNode = c.fetchClause?.[0];
  if (fetchNode === undefined) return { unions, limit, offset };
  if (limit !== null) {
    throw parsingError(
      locOf(ctx, fetchNode),
      'LIMIT and FETCH FIRST are not allowed in the same query - use one or the other',
    );
  }
  const count = fetchNode.children.IntegerValue?.[0];
  return {
    unions,
    limit: limitNode({ count: count ? parseInt32(count.image) : 1, loc: locOf(ctx, fetchNode) }),
    offset,
  };
}
