/**
 * The writes that turn one cluster state into another (ES publishes diffs the same way): the
 * master computes the next state with pure functions (allocation, metadata changes), and this
 * lists the etcd changes — only the keys whose value differs — for one fenced transaction.
 */
import type { StateOp } from '../coordination/ops.js';
import type { ClusterState, IndexMetadata } from '../state.js';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function storedPart(m: IndexMetadata): Omit<IndexMetadata, 'terms'> {
  const { terms: _terms, ...rest } = m;
  return rest;
}

export function stateDiff(prev: ClusterState, next: ClusterState): StateOp[] {
  const ops: StateOp[] = [];
  const prevByUuid = new Map([...prev.metadata.indices.values()].map((m) => [m.uuid, m]));
  const nextByUuid = new Map([...next.metadata.indices.values()].map((m) => [m.uuid, m]));
  for (const uuid of prevByUuid.keys())
    if (!nextByUuid.has(uuid)) ops.push({ type: 'deleteIndex', uuid });
  for (const [uuid, meta] of nextByUuid) {
    const before = prevByUuid.get(uuid);
    if (!before || !same(storedPart(before), storedPart(meta)))
      ops.push({ type: 'putIndex', index: storedPart(meta) });
    meta.terms.forEach((terms, shard) => {
      if (!before || !same(before.terms[shard], terms))
        ops.push({ type: 'putTerms', indexUuid: uuid, shard, terms });
    });
    const table = next.routing.get(meta.name);
    const old = before ? prev.routing.get(before.name) : undefined;
    table?.shards.forEach((copies, shard) => {
      if (!old || !same(old.shards[shard], copies))
        ops.push({ type: 'putRouting', indexUuid: uuid, shard, copies });
    });
  }
  for (const [name, body] of next.metadata.templates)
    if (!same(prev.metadata.templates.get(name), body)) ops.push({ type: 'putTemplate', name, body }); // prettier-ignore
  for (const name of prev.metadata.templates.keys())
    if (!next.metadata.templates.has(name)) ops.push({ type: 'deleteTemplate', name });
  for (const [id, source] of next.metadata.scripts)
    if (!same(prev.metadata.scripts.get(id), source)) ops.push({ type: 'putScript', id, source });
  for (const id of prev.metadata.scripts.keys())
    if (!next.metadata.scripts.has(id)) ops.push({ type: 'deleteScript', id });
  const prevPipelines = prev.metadata.pipelines ?? new Map<string, unknown>();
  const nextPipelines = next.metadata.pipelines ?? new Map<string, unknown>();
  for (const [id, config] of nextPipelines)
    if (!same(prevPipelines.get(id), config)) ops.push({ type: 'putPipeline', id, config });
  for (const id of prevPipelines.keys())
    if (!nextPipelines.has(id)) ops.push({ type: 'deletePipeline', id });
  const prevRepos = prev.metadata.repositories ?? new Map<string, unknown>();
  const nextRepos = next.metadata.repositories ?? new Map<string, unknown>();
  for (const [name, repository] of nextRepos)
    if (!same(prevRepos.get(name), repository)) ops.push({ type: 'putRepository', name, repository }); // prettier-ignore
  for (const name of prevRepos.keys())
    if (!nextRepos.has(name)) ops.push({ type: 'deleteRepository', name });
  if (
    !same(prev.metadata.persistentSettings, next.metadata.persistentSettings) ||
    !same(prev.metadata.transientSettings, next.metadata.transientSettings)
  ) {
    ops.push({
      type: 'putSettings',
      persistent: next.metadata.persistentSettings,
      transient: next.metadata.transientSettings,
    });
  }
  return ops;
}
