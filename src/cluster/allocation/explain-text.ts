/** ES AllocateUnassignedDecision.getExplanation. */
import { formatTimeValue } from '../../common/units.js';
import type { UnassignedDecision } from './decide.js';

export function explanationOf(d: UnassignedDecision): string {
  switch (d.decision) {
    case 'yes':
      return 'can allocate the shard';
    case 'throttled':
      return 'allocation temporarily throttled';
    case 'no_valid_shard_copy':
      return d.nodes.some((n) => n.store?.allocationId !== undefined)
        ? 'cannot allocate because all found copies of the shard are either stale or corrupt'
        : 'cannot allocate because a previous copy of the primary shard existed but can no longer be found on the nodes in the cluster';
    case 'allocation_delayed':
      return (
        `cannot allocate because the cluster is still waiting ${formatTimeValue(d.remainingDelay ?? 0)} for the departed node holding a replica to rejoin` +
        (d.nodes.some((n) => n.decision === 'yes')
          ? ', despite being allowed to allocate the shard to at least one other node'
          : '')
      );
    case 'no':
      return d.reuseStore
        ? 'cannot allocate because allocation is not permitted to any of the nodes that hold an in-sync shard copy'
        : 'cannot allocate because allocation is not permitted to any of the nodes';
  }
}
