/**
 * Lowering of the parent-join queries (ES 6.8 HasChildQueryBuilder, HasParentQueryBuilder,
 * ParentIdQueryBuilder .doToQuery): each becomes a term filter on the join field plus, for
 * has_child / has_parent, a shard-wide join on the `<join>#<parent>` key field.
 */
import { joinChildrenOf, joinParentOf, parentIdFieldName } from '../../../mapping/join.js';
import type { FieldMapping } from '../../../mapping/types.js';
import { boolQuery, type Query } from '../../../search/query/query.js';
import type { HasChildNode, HasParentNode, ParentIdNode } from '../nodes.js';
import { matchNone } from './build.js';
import type { LowerState } from './context.js';
import { shardError } from './fields.js';
import { rawTerm } from './term-queries.js';

type Lower = (node: HasChildNode['query'], st: LowerState) => Query | null;

/** The join field, or null (match nothing) when it is missing and `ignoreUnmapped`. */
function joinField(st: LowerState, name: string, ignoreUnmapped: boolean): FieldMapping | null {
  const jf = st.ctx.joinField;
  if (jf) return jf;
  if (ignoreUnmapped) return null;
  throw shardError(st, `[${name}] no join field has been configured`);
}

const relationTerm = (jf: FieldMapping, name: string): Query => rawTerm(jf.path, name);

export function lowerHasChild(node: HasChildNode, st: LowerState, lower: Lower): Query {
  const jf = joinField(st, 'has_child', node.ignoreUnmapped);
  if (!jf) return matchNone();
  const parent = joinParentOf(jf, node.childType);
  if (parent === undefined) {
    if (node.ignoreUnmapped) return matchNone();
    throw shardError(
      st,
      `[has_child] join field [${jf.path}] doesn't hold [${node.childType}] as a child`,
    );
  }
  const inner = lower(node.query, st) ?? matchNone();
  return {
    kind: 'Join',
    from: boolQuery({ must: [inner], filter: [relationTerm(jf, node.childType)] }),
    to: relationTerm(jf, parent),
    field: parentIdFieldName(jf.path, parent),
    scoreMode: node.scoreMode,
    minMatches: Math.max(1, node.minChildren),
    maxMatches: node.maxChildren,
    boost: 1,
  };
}

export function lowerHasParent(node: HasParentNode, st: LowerState, lower: Lower): Query {
  const jf = joinField(st, 'has_parent', node.ignoreUnmapped);
  if (!jf) return matchNone();
  const children = joinChildrenOf(jf, node.parentType);
  if (children === undefined) {
    if (node.ignoreUnmapped) return matchNone();
    throw shardError(
      st,
      `[has_parent] join field [${jf.path}] doesn't hold [${node.parentType}] as a parent`,
    );
  }
  const inner = lower(node.query, st) ?? matchNone();
  const to: Query =
    children.length === 1
      ? relationTerm(jf, children[0]!)
      : { kind: 'TermSet', field: jf.path, terms: [...children].sort(), boost: 1 };
  return {
    kind: 'Join',
    from: boolQuery({ must: [inner], filter: [relationTerm(jf, node.parentType)] }),
    to,
    field: parentIdFieldName(jf.path, node.parentType),
    scoreMode: node.score ? 'max' : 'none',
    minMatches: 1,
    maxMatches: Number.MAX_SAFE_INTEGER,
    boost: 1,
  };
}

export function lowerParentId(node: ParentIdNode, st: LowerState): Query {
  const jf = joinField(st, 'parent_id', node.ignoreUnmapped);
  if (!jf) return matchNone();
  const parent = joinParentOf(jf, node.childType);
  if (parent === undefined) {
    if (node.ignoreUnmapped) return matchNone();
    throw shardError(
      st,
      `[parent_id] join field [${jf.path}] doesn't hold [${node.childType}] as a child`,
    );
  }
  return boolQuery({
    must: [rawTerm(parentIdFieldName(jf.path, parent), node.id)],
    filter: [relationTerm(jf, node.childType)],
  });
}
