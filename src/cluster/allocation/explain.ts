/**
 * `_cluster/allocation/explain` (ES TransportClusterAllocationExplainAction and
 * ClusterAllocationExplanation): which copy to explain, and the body ES 6.8 renders for it —
 * why an unassigned copy is not placed, or whether an assigned one may stay and rebalance.
 */
import {
  actionRequestValidation,
  EsError,
  illegalArgument,
  indexNotFoundNoRes,
} from '../../common/errors.js';
import type { ClusterState, DiscoveryNode, ShardRouting } from '../state.js';
import type { AllocationContext } from './context.js';
import type { ExplainRequest } from '../../engine/routing-view.js';
import { weigher, withinThreshold } from './balance.js';
import { resolveNode } from './commands.js';
import {
  canAllocate,
  canRebalanceShard,
  canRemain,
  combined,
  type Decision,
  type DecisionType,
} from './deciders.js';
import {
  decideUnassigned,
  fromType,
  sortNodeResults,
  type AllocationDecisionName,
  type NodeResult,
} from './decide.js';
import { isoDate } from './describe.js';
import { explanationOf } from './explain-text.js';
import { openWork, type Work } from './work.js';

export type { ExplainRequest };

/** ES ClusterAllocationExplainRequest's body parser (index, shard, primary, current_node). */
export function parseExplainRequest(
  body: unknown,
): Pick<ExplainRequest, 'index' | 'shard' | 'primary' | 'currentNode'> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new EsError(
      'x_content_parse_exception',
      '[cluster/allocation/explain] expected START_OBJECT',
      400,
    );
  const out: { index?: string; shard?: number; primary?: boolean; currentNode?: string } = {};
  const bad = (k: string) =>
    new EsError(
      'x_content_parse_exception',
      `[cluster/allocation/explain] failed to parse field [${k}]`,
      400,
    );
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (k === 'index' || k === 'current_node') {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw bad(k);
      if (k === 'index') out.index = String(v);
      else out.currentNode = String(v);
    } else if (k === 'shard') {
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
      if (!Number.isInteger(n)) throw bad(k);
      out.shard = n;
    } else if (k === 'primary') {
      if (v === true || v === 'true') out.primary = true;
      else if (v === false || v === 'false') out.primary = false;
      else throw bad(k);
    } else
      throw new EsError(
        'x_content_parse_exception',
        `[cluster/allocation/explain] unknown field [${k}], parser not found`,
        400,
      );
  }
  return out;
}

const useAny = (r: ExplainRequest) =>
  r.index === undefined &&
  r.shard === undefined &&
  r.primary === undefined &&
  r.currentNode === undefined;

/** ES ClusterAllocationExplainRequest.toString. */
function requestToString(r: ExplainRequest): string {
  let s = 'ClusterAllocationExplainRequest[';
  if (useAny(r)) s += 'useAnyUnassignedShard=true';
  else {
    s += `index=${r.index},shard=${r.shard},primary?=${r.primary}`;
    if (r.currentNode !== undefined) s += `,currentNode=${r.currentNode}`;
  }
  return s + `,includeYesDecisions?=${r.includeYesDecisions === true}`;
}

/** ES findShardToExplain. */
function findCopy(work: Work, r: ExplainRequest): ShardRouting {
  if (useAny(r)) {
    for (const groups of work.tables.values())
      for (const g of groups) for (const c of g) if (c.state === 'UNASSIGNED') return c;
    throw illegalArgument(
      `unable to find any unassigned shards to explain [${requestToString(r)}]`,
    );
  }
  const problems: string[] = [];
  if (r.index === undefined) problems.push('index must be specified');
  if (r.shard === undefined) problems.push('shard must be specified');
  if (r.primary === undefined) problems.push('primary must be specified');
  if (problems.length > 0) throw actionRequestValidation(problems);
  const index = r.index!;
  const shard = r.shard!;
  const groups = work.tables.get(index);
  if (!groups) throw indexNotFoundNoRes(index);
  const group = groups[shard];
  if (!group)
    throw new EsError('shard_not_found_exception', 'no such shard', 404, {
      meta: { index_uuid: work.base.routing.get(index)!.indexUuid, shard: String(shard), index },
    });
  let found: ShardRouting | undefined;
  if (r.primary) {
    found = group.find(
      (c) => c.primary && !(c.state === 'INITIALIZING' && c.relocatingNodeId !== null),
    );
    if (r.currentNode !== undefined && found) {
      const node = resolveNode(work.base, r.currentNode);
      if (node.id !== found.nodeId)
        throw illegalArgument(`unable to find primary shard assigned to node [${r.currentNode}]`);
    }
  } else {
    const replicas = group.filter(
      (c) => !c.primary && !(c.state === 'INITIALIZING' && c.relocatingNodeId !== null),
    );
    if (r.currentNode !== undefined) {
      const node = resolveNode(work.base, r.currentNode);
      found = replicas.find((c) => c.nodeId === node.id);
      if (!found)
        throw illegalArgument(`unable to find a replica shard assigned to node [${r.currentNode}]`);
    } else if (replicas.length > 0) {
      found = replicas[0];
      for (const c of replicas) {
        if (c.state === 'UNASSIGNED') {
          found = c;
          break;
        }
        if (
          c.state === 'STARTED' &&
          (found!.state === 'INITIALIZING' || found!.state === 'RELOCATING')
        )
          found = c;
      }
    }
  }
  if (!found)
    throw illegalArgument(
      `unable to find any shards to explain [${requestToString(r)}] in the routing table`,
    );
  return found;
}

// --- rendering -------------------------------------------------------------------------------

function nodeFields(n: DiscoveryNode, outer: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [outer ? 'id' : 'node_id']: n.id,
    [outer ? 'name' : 'node_name']: n.name,
    transport_address: n.transportAddress,
  };
  if (Object.keys(n.attributes).length > 0)
    out[outer ? 'attributes' : 'node_attributes'] = { ...n.attributes };
  return out;
}

const deciderList = (ds: readonly Decision[], includeYes: boolean) =>
  ds
    .filter((d) => includeYes || d.decision !== 'YES')
    .map((d) => ({ decider: d.decider, decision: d.decision, explanation: d.explanation }));

function renderNodes(
  results: readonly NodeResult[],
  includeYes: boolean,
): Record<string, unknown>[] {
  return sortNodeResults(results).map((r) => {
    const out = nodeFields(r.node, false);
    out.node_decision = r.decision;
    if (r.store) {
      const store: Record<string, unknown> = {};
      if (r.store.allocationId === undefined) store.found = false;
      else {
        store.in_sync = r.store.inSync === true;
        store.allocation_id = r.store.allocationId;
      }
      out.store = store;
    }
    if (r.weightRanking > 0) out.weight_ranking = r.weightRanking;
    const ds = deciderList(r.deciders, includeYes);
    if (ds.length > 0) out.deciders = ds;
    return out;
  });
}

/** ES AllocationDecision.fromAllocationStatus. */
function statusAsDecision(status: string): AllocationDecisionName {
  switch (status) {
    case 'deciders_throttled':
      return 'throttled';
    case 'fetching_shard_data':
      return 'awaiting_info';
    case 'delayed_allocation':
      return 'allocation_delayed';
    case 'no_valid_shard_copy':
      return 'no_valid_shard_copy';
    case 'no_attempt':
      return 'no_attempt';
    default:
      return 'no';
  }
}

function unassignedInfoBody(c: ShardRouting): Record<string, unknown> {
  const u = c.unassignedInfo!;
  const out: Record<string, unknown> = { reason: u.reason, at: isoDate(u.at) };
  if (u.failedAttempts > 0) out.failed_allocation_attempts = u.failedAttempts;
  if (u.details !== undefined) out.details = u.details;
  out.last_allocation_status = statusAsDecision(u.lastAllocationStatus);
  return out;
}

interface MoveBody {
  readonly currentRanking: number;
  readonly fields: Record<string, unknown>;
}

/** ES decideMove + decideRebalance for a started copy. */
function explainStarted(work: Work, copy: ShardRouting, includeYes: boolean): MoveBody {
  const current = work.base.nodes.get(copy.nodeId!)!;
  const w = weigher(work);
  const others = work.dataNodes
    .filter((n) => n.id !== current.id)
    .map((n) => ({ node: n, weight: w.weight(n.id, copy.index) }))
    .sort((a, b) => a.weight - b.weight);
  const remain = canRemain(work, copy, current);
  if (combined(remain) === 'NO') {
    let target: DiscoveryNode | undefined;
    let best: DecisionType = 'NO';
    const results: NodeResult[] = others.map((o, i) => {
      const ds = canAllocate(work, copy, o.node);
      const t = combined(ds);
      if (t === 'YES' && best !== 'YES') {
        best = 'YES';
        target = o.node;
      } else if (t === 'THROTTLE' && best === 'NO') best = 'THROTTLE';
      return { node: o.node, decision: fromType(t), deciders: ds, weightRanking: i + 1 };
    });
    const decision = fromType(best);
    const fields: Record<string, unknown> = {};
    if (target) fields.target_node = nodeFields(target, true);
    fields.can_remain_on_current_node = 'no';
    const rd = deciderList(remain, includeYes);
    if (rd.length > 0) fields.can_remain_decisions = rd;
    fields.can_move_to_other_node = decision === 'yes' ? 'yes' : 'no';
    fields.move_explanation =
      decision === 'yes'
        ? 'shard cannot remain on this node and is force-moved to another node'
        : decision === 'throttled'
          ? 'shard cannot remain on this node but is throttled on moving to another node'
          : 'cannot move shard to another node, even though it is not allowed to remain on its current node';
    fields.node_allocation_decisions = renderNodes(results, includeYes);
    return { currentRanking: 0, fields };
  }

  const rebalance = canRebalanceShard(work, copy);
  const currentWeight = w.weight(current.id, copy.index);
  const better: NodeResult[] = [];
  const same: { node: DiscoveryNode; ds: Decision[] }[] = [];
  const worse: { node: DiscoveryNode; ds: Decision[] }[] = [];
  let typeOfBest: DecisionType = 'NO';
  let target: DiscoveryNode | undefined;
  const rank = (t: DecisionType) => (t === 'YES' ? 2 : t === 'THROTTLE' ? 1 : 0);
  for (const o of others) {
    const ds = canAllocate(work, copy, o.node);
    const t = combined(ds);
    const betterWeight = o.weight <= currentWeight;
    let met = false;
    if (betterWeight) {
      const delta = Math.abs(o.weight - currentWeight);
      const proposed = w.weight(o.node.id, copy.index, 1) - w.weight(current.id, copy.index, -1);
      met = !withinThreshold(delta, w.threshold) && proposed < delta;
      if (met && rank(t) > rank(typeOfBest)) {
        typeOfBest = t;
        target = o.node;
      }
    }
    if (met)
      better.push({
        node: o.node,
        decision: fromType(t),
        deciders: ds,
        weightRanking: better.length + 1,
      });
    else if (betterWeight) same.push({ node: o.node, ds });
    else worse.push({ node: o.node, ds });
  }
  const currentRanking = better.length + 1;
  const results: NodeResult[] = [...better];
  for (const s of same)
    results.push({
      node: s.node,
      decision: combined(s.ds) === 'NO' ? 'no' : 'worse_balance',
      deciders: s.ds,
      weightRanking: currentRanking,
    });
  let next = currentRanking;
  for (const s of worse)
    results.push({
      node: s.node,
      decision: combined(s.ds) === 'NO' ? 'no' : 'worse_balance',
      deciders: s.ds,
      weightRanking: ++next,
    });

  const clusterType = combined(rebalance);
  const fields: Record<string, unknown> = {};
  let toOther: AllocationDecisionName;
  let explanation: string;
  if (clusterType !== 'YES') {
    toOther = fromType(clusterType);
    explanation =
      clusterType === 'THROTTLE'
        ? 'rebalancing is throttled'
        : 'rebalancing is not allowed' +
          (results.some((r) => r.decision === 'yes')
            ? ', even though there is at least one node on which the shard can be allocated'
            : '');
    target = undefined;
  } else {
    toOther = fromType(typeOfBest);
    explanation = target
      ? toOther === 'throttled'
        ? 'shard rebalancing throttled'
        : 'can rebalance shard'
      : 'cannot rebalance as no target node exists that can both allocate this shard and improve the cluster balance';
  }
  if (target) fields.target_node = nodeFields(target, true);
  fields.can_remain_on_current_node = 'yes';
  fields.can_rebalance_cluster = fromType(clusterType);
  if (clusterType !== 'YES') {
    const cd = deciderList(rebalance, includeYes);
    if (cd.length > 0) fields.can_rebalance_cluster_decisions = cd;
  }
  fields.can_rebalance_to_other_node = toOther;
  fields.rebalance_explanation = explanation;
  if (results.length > 0) fields.node_allocation_decisions = renderNodes(results, includeYes);
  return { currentRanking, fields };
}

/** The `_cluster/allocation/explain` response body. */
export function explainAllocation(
  state: ClusterState,
  ctx: AllocationContext,
  request: ExplainRequest = {},
): Record<string, unknown> {
  const work = openWork(state, ctx.settings, ctx.now);
  const includeYes = request.includeYesDecisions === true;
  const copy = findCopy(work, request);
  const body: Record<string, unknown> = {
    index: copy.index,
    shard: copy.shard,
    primary: copy.primary,
    current_state: copy.state.toLowerCase(),
  };
  if (copy.unassignedInfo) body.unassigned_info = unassignedInfoBody(copy);
  const currentNode = copy.nodeId === null ? undefined : state.nodes.get(copy.nodeId);
  const diskInfo = () => {
    if (request.includeDiskInfo)
      body.cluster_info = { nodes: {}, shard_sizes: {}, shard_paths: {} };
  };

  if (copy.state === 'UNASSIGNED') {
    diskInfo();
    const d = decideUnassigned(work, ctx, copy, weigher(work));
    body.can_allocate = d.decision;
    body.allocate_explanation = explanationOf(d);
    if (d.decision === 'yes' && d.node) body.target_node = nodeFields(d.node, true);
    if (d.decision === 'yes' && d.allocationId !== undefined) body.allocation_id = d.allocationId;
    if (d.decision === 'allocation_delayed') {
      body.configured_delay_in_millis = d.configuredDelay ?? 0;
      body.remaining_delay_in_millis = d.remainingDelay ?? 0;
    }
    if (d.nodes.length > 0) body.node_allocation_decisions = renderNodes(d.nodes, includeYes);
    return body;
  }

  if (copy.state === 'STARTED' && currentNode) {
    const move = explainStarted(work, copy, includeYes);
    const cur = nodeFields(currentNode, true);
    if (move.currentRanking > 0) cur.weight_ranking = move.currentRanking;
    body.current_node = cur;
    diskInfo();
    Object.assign(body, move.fields);
    return body;
  }

  if (currentNode) body.current_node = nodeFields(currentNode, true);
  diskInfo();
  if (copy.state === 'RELOCATING') {
    const to = state.nodes.get(copy.relocatingNodeId!);
    body.explanation = `the shard is in the process of relocating from node [${currentNode?.name}] to node [${to?.name}], wait until relocation has completed`;
  } else
    body.explanation = `the shard is in the process of initializing on node [${currentNode?.name}], wait until initialization has completed`;
  return body;
}
