/**
 * `_cluster/reroute` commands (ES AllocationCommands and its five commands): parsing the ES 6.8
 * body, and applying the commands to a state with ES's checks, error texts and, on request, its
 * `explanations`. Manual commands bypass `*.allocation.enable`; a normal reroute follows them.
 */
import {
  EsError,
  illegalArgument,
  indexNotFoundNoRes,
  parseException,
} from '../../common/errors.js';
import type { ClusterState, DiscoveryNode, ShardRouting } from '../state.js';
import type { AllocationContext } from './context.js';
import type { RerouteCommand } from '../../engine/routing-view.js';
import { canAllocate, combined, decisionsToString, type Decision } from './deciders.js';
import { hostOf, nodeToString } from './describe.js';
import { failShard } from './fail.js';
import { simpleMatch } from '../../engine/index-names.js';
import { relocate, rerouteWork } from './reroute.js';
import {
  allCopies,
  bumpTerm,
  closeWork,
  FORCED_ALLOCATION_ID,
  initialized,
  openWork,
  replace,
  setInSync,
  termsOf,
  unassignedInfo,
  type Work,
} from './work.js';

export type { RerouteCommand };

// --- parsing ---------------------------------------------------------------------------------

/** ES wraps errors from a declared field's parser this way (ObjectParser.parseValue). */
const wrapField = (cause: EsError) =>
  new EsError(
    'x_content_parse_exception',
    '[cluster_reroute] failed to parse field [commands]',
    400,
    {
      causedBy: cause,
    },
  );

const isScalar = (v: unknown) =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function tokenName(v: unknown): string {
  return Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT';
}

function asText(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

function asInt(name: string, field: string, v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n))
    throw new EsError(
      'x_content_parse_exception',
      `[${name}] failed to parse field [${field}]`,
      400,
    );
  return Math.trunc(n);
}

function asBool(name: string, field: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new EsError('x_content_parse_exception', `[${name}] failed to parse field [${field}]`, 400);
}

/** Move and cancel read their fields by hand in ES (ElasticsearchParseException texts). */
function parseHandRolled(name: 'move' | 'cancel', body: Record<string, unknown>): RerouteCommand {
  let index: string | null = null;
  let shard = -1;
  let from: string | null = null;
  let to: string | null = null;
  let node: string | null = null;
  let allowPrimary = false;
  for (const [k, v] of Object.entries(body)) {
    if (!isScalar(v))
      throw parseException(
        `[${name}] command does not support complex json tokens [${tokenName(v)}]`,
      );
    if (k === 'index') index = asText(v);
    else if (k === 'shard') shard = asInt(name, k, v);
    else if (name === 'move' && (k === 'from_node' || k === 'fromNode')) from = asText(v);
    else if (name === 'move' && (k === 'to_node' || k === 'toNode')) to = asText(v);
    else if (name === 'cancel' && k === 'node') node = asText(v);
    else if (name === 'cancel' && (k === 'allow_primary' || k === 'allowPrimary'))
      allowPrimary = asBool(name, k, v);
    else throw parseException(`[${name}] command does not support field [${k}]`);
  }
  if (index === null) throw parseException(`[${name}] command missing the index parameter`);
  if (shard === -1) throw parseException(`[${name}] command missing the shard parameter`);
  if (name === 'move') {
    if (from === null) throw parseException(`[move] command missing the from_node parameter`);
    if (to === null) throw parseException(`[move] command missing the to_node parameter`);
    return { kind: 'move', index, shard, fromNode: from, toNode: to };
  }
  if (node === null) throw parseException(`[cancel] command missing the node parameter`);
  return { kind: 'cancel', index, shard, node, allowPrimary };
}

/** The allocate commands use an ObjectParser, then validate (ES AbstractAllocateAllocationCommand.Builder). */
function parseAllocate(
  name: 'allocate_replica' | 'allocate_stale_primary' | 'allocate_empty_primary',
  body: Record<string, unknown>,
): RerouteCommand {
  let index: string | null = null;
  let shard = -1;
  let node: string | null = null;
  let accept = false;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'index') index = asText(v);
    else if (k === 'shard') shard = asInt(name, k, v);
    else if (k === 'node') node = asText(v);
    else if (k === 'accept_data_loss' && name !== 'allocate_replica') accept = asBool(name, k, v);
    else
      throw new EsError(
        'x_content_parse_exception',
        `[${name}] unknown field [${k}], parser not found`,
        400,
      );
  }
  if (index === null) throw illegalArgument('Argument [index] must be defined');
  if (shard < 0) throw illegalArgument('Argument [shard] must be defined and non-negative');
  if (node === null) throw illegalArgument('Argument [node] must be defined');
  if (name === 'allocate_replica') return { kind: name, index, shard, node };
  return { kind: name, index, shard, node, acceptDataLoss: accept };
}

/** ES ClusterRerouteRequest body: `{"commands": [ {"<name>": {...}}, ... ], "dry_run": bool}`. */
export function parseRerouteCommands(body: unknown): {
  commands: RerouteCommand[];
  dryRun?: boolean;
} {
  if (body === undefined || body === null) return { commands: [] };
  if (typeof body !== 'object' || Array.isArray(body))
    throw parseException('request body is required'); // the REST layer refuses non-objects first
  const out: { commands: RerouteCommand[]; dryRun?: boolean } = { commands: [] };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'dry_run') {
      out.dryRun = asBool('cluster_reroute', key, value);
      continue;
    }
    if (key !== 'commands')
      throw new EsError(
        'x_content_parse_exception',
        `[cluster_reroute] unknown field [${key}], parser not found`,
        400,
      );
    if (!Array.isArray(value))
      throw wrapField(parseException('commands should follow with an array element'));
    for (const entry of value) {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
        throw wrapField(
          parseException(
            `allocation command is malformed, got [${Array.isArray(entry) ? 'START_ARRAY' : 'VALUE_STRING'}] instead`,
          ),
        );
      const names = Object.keys(entry);
      if (names.length !== 1)
        throw wrapField(
          parseException(
            "allocation command is malformed, done parsing a command, but didn't get END_OBJECT, got [FIELD_NAME] instead",
          ),
        );
      const name = names[0]!;
      const params = (entry as Record<string, unknown>)[name];
      if (params === null || typeof params !== 'object' || Array.isArray(params))
        throw wrapField(parseException(`[${name}] command does not support complex json tokens`));
      try {
        if (name === 'move' || name === 'cancel')
          out.commands.push(parseHandRolled(name, params as Record<string, unknown>));
        else if (
          name === 'allocate_replica' ||
          name === 'allocate_stale_primary' ||
          name === 'allocate_empty_primary'
        )
          out.commands.push(parseAllocate(name, params as Record<string, unknown>));
        else
          throw new EsError(
            'named_object_not_found_exception',
            `unable to parse AllocationCommand with name [${name}]: parser not found`,
            400,
          );
      } catch (e) {
        if (e instanceof EsError) throw wrapField(e);
        throw e;
      }
    }
  }
  return out;
}

// --- applying ----------------------------------------------------------------------------------

export interface RerouteExplanation {
  readonly command: string;
  readonly parameters: Record<string, unknown>;
  readonly decisions: { decider: string; decision: string; explanation: string }[];
}

export interface ApplyOptions {
  readonly dryRun?: boolean;
  readonly explain?: boolean;
  readonly retryFailed?: boolean;
}

export interface ApplyResult {
  /** The state after the commands and the reroute that follows them (computed on dry runs too, as ES does). */
  readonly state: ClusterState;
  /** False on a dry run: the caller must not publish `state`. */
  readonly apply: boolean;
  /** ES `explanations`, present when `explain` was asked. */
  readonly explanations?: RerouteExplanation[];
}

function parametersOf(c: RerouteCommand): Record<string, unknown> {
  switch (c.kind) {
    case 'move':
      return { index: c.index, shard: c.shard, from_node: c.fromNode, to_node: c.toNode };
    case 'cancel':
      return { index: c.index, shard: c.shard, node: c.node, allow_primary: c.allowPrimary };
    case 'allocate_replica':
      return { index: c.index, shard: c.shard, node: c.node };
    default:
      return { index: c.index, shard: c.shard, node: c.node, accept_data_loss: c.acceptDataLoss };
  }
}

const toXContent = (ds: readonly Decision[]) =>
  ds.map((d) => ({ decider: d.decider, decision: d.decision, explanation: d.explanation }));

/** ES DiscoveryNodes.resolveNode: an id, `_master`, `_all`, a name/address pattern, or `attr:value`. */
export function resolveNode(state: ClusterState, name: string): DiscoveryNode {
  const ids = new Set<string>();
  if (name === '_master' || name === '_local') {
    if (state.masterNodeId !== null) ids.add(state.masterNodeId);
  } else if (state.nodes.has(name)) ids.add(name);
  else {
    for (const n of state.nodes.values())
      if (
        name === '_all' ||
        simpleMatch(name, n.name) ||
        simpleMatch(name, hostOf(n.transportAddress))
      )
        ids.add(n.id);
    const colon = name.indexOf(':');
    if (colon !== -1) {
      const attr = name.slice(0, colon);
      const value = name.slice(colon + 1);
      for (const n of state.nodes.values())
        for (const [k, v] of Object.entries(n.attributes))
          if (simpleMatch(attr, k) && simpleMatch(value, v)) ids.add(n.id);
    }
  }
  if (ids.size > 1)
    throw illegalArgument(
      `resolved [${name}] into [${ids.size}] nodes, where expected to be resolved to a single node`,
    );
  if (ids.size === 0) throw illegalArgument(`failed to resolve [${name}], no matching nodes`);
  return state.nodes.get([...ids][0]!)!;
}

/** A command's decisions; `rejected` when, in explain mode, ES reports a NO instead of failing. */
interface Outcome {
  readonly rejected: boolean;
  readonly decisions: Decision[];
}

const rejected = (decisions: Decision[]): Outcome => ({ rejected: true, decisions });
const done = (decisions: Decision[]): Outcome => ({ rejected: false, decisions });

function rejectOrThrow(explain: boolean, decider: string, reason: string, error: EsError): Outcome {
  if (explain) return rejected([{ decider, decision: 'NO', explanation: reason }]);
  throw error;
}

/** ES RoutingTable.shardRoutingTable: index_not_found or shard_not_found. */
function shardGroup(work: Work, index: string, shard: number): ShardRouting[] {
  const groups = work.tables.get(index);
  if (!groups) throw indexNotFoundNoRes(index);
  const g = groups[shard];
  if (!g) {
    const uuid = work.base.routing.get(index)!.indexUuid;
    throw new EsError('shard_not_found_exception', 'no such shard', 404, {
      meta: { index_uuid: uuid, shard: String(shard), index },
    });
  }
  return g;
}

function executeAllocate(
  work: Work,
  ctx: AllocationContext,
  c: Extract<RerouteCommand, { kind: `allocate_${string}` }>,
  explain: boolean,
): Outcome {
  const label = `${c.kind} (allocation command)`;
  const reject = (reason: string) =>
    rejectOrThrow(explain, label, reason, illegalArgument(`[${c.kind}] ${reason}`));
  const rethrow = (e: unknown) => {
    if (e instanceof EsError && explain)
      return rejected([{ decider: label, decision: 'NO', explanation: e.reason ?? e.type }]);
    throw e;
  };
  let node: DiscoveryNode;
  try {
    node = resolveNode(work.base, c.node);
  } catch (e) {
    return rethrow(e);
  }
  if (!node.roles.includes('data'))
    return reject(`allocation can only be done on data nodes, not [${c.node}]`);
  let group: ShardRouting[];
  try {
    group = shardGroup(work, c.index, c.shard);
  } catch (e) {
    return rethrow(e);
  }
  const primary = group.find((x) => x.primary)!;
  const shardName = `[${c.index}][${c.shard}]`;

  if (c.kind === 'allocate_replica') {
    if (primary.state === 'UNASSIGNED')
      return reject(
        `trying to allocate a replica shard ${shardName}, while corresponding primary shard is still unassigned`,
      );
    const replica = group.find((x) => !x.primary && x.state === 'UNASSIGNED');
    if (!replica)
      return reject(
        `all copies of ${shardName} are already assigned. Use the move allocation command instead`,
      );
    const ds = canAllocate(work, replica, node);
    if (combined(ds) === 'NO') {
      if (explain) return rejected(ds);
      throw illegalArgument(
        `[allocate_replica] allocation of ${shardName} on node ${nodeToString(node)} is not allowed, reason: ${decisionsToString(ds)}`,
      );
    }
    replace(work, replica, initialized(replica, node.id, ctx.newAllocationId(), { type: 'PEER' }));
    return done(ds);
  }

  if (primary.state !== 'UNASSIGNED') return reject(`primary ${shardName} is already assigned`);
  const dataLoss = `allocating an empty primary for ${shardName} can result in data loss. Please confirm by setting the accept_data_loss parameter to true`;
  const info = primary.unassignedInfo!;
  if (c.kind === 'allocate_empty_primary') {
    if (primary.recoverySource?.type !== 'EMPTY_STORE' && !c.acceptDataLoss)
      return reject(dataLoss);
    const forcedInfo =
      info.reason === 'FORCED_EMPTY_PRIMARY'
        ? info
        : unassignedInfo('FORCED_EMPTY_PRIMARY', work.now, {
            details: `force empty allocation from previous reason ${info.reason}, ${info.details ?? 'null'}`,
            lastAllocationStatus: info.lastAllocationStatus,
          });
    const next = initialized(
      { ...primary, unassignedInfo: forcedInfo },
      node.id,
      ctx.newAllocationId(),
      { type: 'EMPTY_STORE' },
    );
    replace(work, primary, next);
    // An empty primary starts a new history: nothing else is in sync with it.
    if (termsOf(work, c.index, c.shard).inSync.length > 0) setInSync(work, c.index, c.shard, []);
  } else {
    // ES's own text says "empty primary" here too.
    if (!c.acceptDataLoss) return reject(dataLoss);
    if (primary.recoverySource?.type !== 'EXISTING_STORE')
      return reject(
        `trying to allocate an existing primary shard ${shardName}, while no such shard has ever been active`,
      );
    // Quarry refuses a node without any copy (ES would let the recovery fail on the node).
    if (!ctx.copies(primary.indexUuid, c.shard).has(node.id))
      return reject(
        `trying to allocate a stale primary shard ${shardName} on node ${nodeToString(node)}, which holds no copy of it`,
      );
    const next = initialized(primary, node.id, ctx.newAllocationId(), {
      type: 'EXISTING_STORE',
      bootstrapNewHistory: true,
    });
    replace(work, primary, next);
    // Until it starts, no copy is in sync (ES's placeholder allocation id).
    setInSync(work, c.index, c.shard, [FORCED_ALLOCATION_ID]);
  }
  bumpTerm(work, c.index, c.shard);
  return done([{ decider: label, decision: 'YES', explanation: 'ignore deciders' }]);
}

function executeMove(
  work: Work,
  ctx: AllocationContext,
  c: Extract<RerouteCommand, { kind: 'move' }>,
  explain: boolean,
): Outcome {
  const from = resolveNode(work.base, c.fromNode);
  const to = resolveNode(work.base, c.toNode);
  const header = `[move_allocation] can't move [${c.index}][${c.shard}] from ${nodeToString(from)} to ${nodeToString(to)}`;
  if (!from.roles.includes('data'))
    throw illegalArgument(`${header}: source [${from.name}] is not a data node.`);
  if (!to.roles.includes('data'))
    throw illegalArgument(`${header}: source [${to.name}] is not a data node.`);
  const copy = [...allCopies(work)].find(
    (x) => x.index === c.index && x.shard === c.shard && x.nodeId === from.id,
  );
  if (!copy)
    return rejectOrThrow(
      explain,
      'move_allocation_command',
      `shard ${c.shard} not found`,
      illegalArgument(
        `[move_allocation] can't move ${c.shard}, failed to find it on node ${nodeToString(from)}`,
      ),
    );
  if (copy.state !== 'STARTED')
    return rejectOrThrow(
      explain,
      'move_allocation_command',
      `shard ${c.shard} has not been started`,
      illegalArgument(
        `[move_allocation] can't move ${c.shard}, shard is not started (state = ${copy.state}]`,
      ),
    );
  const ds = canAllocate(work, copy, to);
  if (combined(ds) === 'NO') {
    if (explain) return rejected(ds);
    throw illegalArgument(
      `[move_allocation] can't move ${c.shard}, from ${nodeToString(from)}, to ${nodeToString(to)}, since its not allowed, reason: ${decisionsToString(ds)}`,
    );
  }
  // A THROTTLE is overridden: the user asked for it.
  relocate(work, ctx, copy, to);
  return done(ds);
}

function executeCancel(
  work: Work,
  c: Extract<RerouteCommand, { kind: 'cancel' }>,
  explain: boolean,
): Outcome {
  const node = resolveNode(work.base, c.node);
  if (!work.base.metadata.indices.has(c.index)) throw indexNotFoundNoRes(c.index);
  const copy = [...allCopies(work)].find(
    (x) => x.index === c.index && x.shard === c.shard && x.nodeId === node.id,
  );
  const where = `${c.shard} on node ${nodeToString(node)}`;
  if (!copy)
    return rejectOrThrow(
      explain,
      'cancel_allocation_command',
      `can't cancel ${c.shard}, failed to find it on node ${nodeToString(node)}`,
      illegalArgument(
        `[cancel_allocation] can't cancel ${c.shard}, failed to find it on node ${nodeToString(node)}`,
      ),
    );
  if (
    copy.primary &&
    !c.allowPrimary &&
    !(copy.state === 'INITIALIZING' && copy.relocatingNodeId !== null)
  ) {
    const reason = `can't cancel ${where}, shard is primary and ${copy.state.toLowerCase()}`;
    return rejectOrThrow(
      explain,
      'cancel_allocation_command',
      reason,
      illegalArgument(`[cancel_allocation] ${reason}`),
    );
  }
  failShard(work, copy, unassignedInfo('REROUTE_CANCELLED', work.now));
  const t = termsOf(work, c.index, c.shard);
  const id = copy.allocationId!.id;
  if (t.inSync.includes(id) && t.inSync.length > 1)
    setInSync(
      work,
      c.index,
      c.shard,
      t.inSync.filter((x) => x !== id),
    );
  return done([
    {
      decider: 'cancel_allocation_command',
      decision: 'YES',
      explanation: `shard ${where} can be cancelled`,
    },
  ]);
}

/** ES AllocationService.reroute(state, commands, explain, retryFailed). */
export function applyRerouteCommands(
  state: ClusterState,
  commands: readonly RerouteCommand[],
  ctx: AllocationContext,
  opts: ApplyOptions = {},
): ApplyResult {
  const explain = opts.explain === true;
  const work = openWork(state, ctx.settings, ctx.now);
  work.ignoreDisable = true;
  const explanations: RerouteExplanation[] = [];
  for (const c of commands) {
    const outcome =
      c.kind === 'move'
        ? executeMove(work, ctx, c, explain)
        : c.kind === 'cancel'
          ? executeCancel(work, c, explain)
          : executeAllocate(work, ctx, c, explain);
    explanations.push({
      command: c.kind,
      parameters: parametersOf(c),
      decisions: toXContent(outcome.decisions),
    });
  }
  work.ignoreDisable = false;
  if (opts.retryFailed) {
    for (const copy of [...allCopies(work)]) {
      const info = copy.unassignedInfo;
      if (copy.state !== 'UNASSIGNED' || !info) continue;
      replace(work, copy, {
        ...copy,
        unassignedInfo: {
          ...info,
          reason: info.failedAttempts > 0 ? 'MANUAL_ALLOCATION' : info.reason,
          failedAttempts: 0,
        },
      });
    }
  }
  rerouteWork(work, ctx);
  return {
    state: closeWork(work),
    apply: opts.dryRun !== true,
    ...(explain ? { explanations } : {}),
  };
}
