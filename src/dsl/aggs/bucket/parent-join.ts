/**
 * The `children` and `parent` aggregations of module parent-join (ES 6.8 ParentJoinAggregator
 * with ParentToChildrenAggregator / ChildrenToParentAggregator): a bucket's docs of the "in"
 * relation yield their join keys (the `<join>#<parent>` value), then, once the query's docs are
 * collected, every live doc of the shard of the "out" relation whose key was yielded falls in
 * that bucket, once per bucket. Children are routed to their parent's shard, so the join stays
 * within the shard. A relation the join field does not hold, or an index without a join field,
 * is ES's unmapped case: an empty bucket.
 */
import { parsingException } from '../../../common/errors.js';
import { joinParentOf, parentIdFieldName } from '../../../mapping/join.js';
import { isLive } from '../../../search/index/live-segment.js';
import type { Segment } from '../../../search/index/segment.js';
import { joinKeyOf } from '../../../search/query/join.js';
import type { Aggregator, AggSegment } from '../collect/aggregator.js';
import { createSubAggregators, ROOT_SPACE, rootSegment } from '../collect/shard-aggregator.js';
import { isObj, tokenOf } from '../parse/object-parser.js';
import { registerAgg } from '../registry.js';
import type { AggNode, ShardAggContext } from '../types.js';
import { SingleBucketAggregator } from './single-bucket.js';

/** Which docs feed keys (`from`), which are bucketed (`to`), and the key field between them. */
interface JoinSides {
  readonly relationField: string;
  readonly from: string;
  readonly to: string;
  readonly keyField: string;
}

class ParentJoinAggregator extends SingleBucketAggregator {
  private seg: Segment | null = null;
  /** Join keys yielded per owning bucket ordinal. */
  private readonly keys = new Map<number, Set<string>>();

  constructor(
    node: AggNode,
    subs: Aggregator[],
    kind: 'children' | 'parent',
    private readonly shard: ShardAggContext,
    private readonly sides: JoinSides | null,
  ) {
    super(node, subs, kind);
  }

  override setSegment(seg: AggSegment): void {
    // the sub-aggregators see the joined docs in finish(), not the query's
    this.seg = seg.path === null ? seg.ls.segment : null;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number): void {
    const sd = this.sides;
    const seg = this.seg;
    if (!sd || !seg) return;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      if (joinKeyOf(seg, sd.relationField, doc) !== sd.from) continue;
      const key = joinKeyOf(seg, sd.keyField, doc);
      if (key === null) continue;
      const ord = ords[i]!;
      let set = this.keys.get(ord);
      if (!set) this.keys.set(ord, (set = new Set()));
      set.add(key);
    }
  }

  finish(): void {
    const sd = this.sides;
    if (!sd || this.keys.size === 0) return;
    const ordsOfKey = new Map<string, number[]>();
    for (const [ord, set] of [...this.keys].sort((a, b) => a[0] - b[0]))
      for (const k of set) {
        const list = ordsOfKey.get(k);
        if (list) list.push(ord);
        else ordsOfKey.set(k, [ord]);
      }
    const dl = this.shard.deadline ?? null;
    for (const ls of this.shard.snapshot.segments) {
      dl?.check();
      super.setSegment(rootSegment(ls));
      const seg = ls.segment;
      for (let d = 0; d < seg.maxDoc; d++) {
        if (!isLive(ls, d) || joinKeyOf(seg, sd.relationField, d) !== sd.to) continue;
        const key = joinKeyOf(seg, sd.keyField, d);
        const ords = key === null ? undefined : ordsOfKey.get(key);
        if (ords) for (const o of ords) this.collectBucket(d, o, 1);
      }
      this.sub.flush();
    }
  }
}

/** ChildrenAggregationBuilder / ParentAggregationBuilder.parse: a single string `type`. */
function parseJoinAgg(kind: 'children' | 'parent', json: unknown, name: string): string {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let type: string | null = null;
  for (const [k, v] of Object.entries(json)) {
    if (typeof v !== 'string')
      throw parsingException(`Unexpected token ${tokenOf(v)} in [${name}].`);
    if (k !== 'type')
      throw parsingException(`Unknown key for a VALUE_STRING in [${name}]: [${k}].`);
    type = v;
  }
  if (type === null)
    throw parsingException(`Missing [child_type] field for ${kind} aggregation [${name}]`);
  return type;
}

/** The join sides for a child relation name, null in ES's unmapped case. */
function joinSides(
  kind: 'children' | 'parent',
  shard: ShardAggContext,
  childType: string,
): JoinSides | null {
  const jf = shard.joinField?.();
  const parent = jf ? joinParentOf(jf, childType) : undefined;
  if (!jf || parent === undefined) return null;
  const keyField = parentIdFieldName(jf.path, parent);
  return kind === 'children'
    ? { relationField: jf.path, from: parent, to: childType, keyField }
    : { relationField: jf.path, from: childType, to: parent, keyField };
}

for (const [kind, factoryName] of [
  ['children', 'ChildrenAggregatorFactory'],
  ['parent', 'ParentAggregatorFactory'],
] as const) {
  registerAgg<{ type: string }>({
    type: kind,
    category: 'bucket',
    leaf: false,
    factoryName,
    parse: (json, name) => ({ type: parseJoinAgg(kind, json, name) }),
    create: (node, ac) => {
      const sides = joinSides(kind, ac.shard, (node.params as { type: string }).type);
      // the joined docs are root docs, wherever the aggregation sits
      const subs = createSubAggregators(node, ac, ROOT_SPACE);
      return new ParentJoinAggregator(node, subs, kind, ac.shard, sides);
    },
  });
}
