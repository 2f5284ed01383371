/**
 * The one wiring point: a node with `discovery.etcd.endpoints` coordinates through etcd, a node
 * without runs alone (LocalCoordinator), with the same interface either way.
 */
import type { Coordinator } from './coordinator.js';
import { etcdCoordinator, etcdSettings, type EtcdCoordinatorOptions } from './etcd-coordinator.js';
import { localCoordinator, type LocalCoordinatorOptions } from './local.js';

export function coordinatorFor(
  flatSettings: Readonly<Record<string, unknown>>,
  lone: Omit<LocalCoordinatorOptions, 'clusterName'> = {},
  opts: EtcdCoordinatorOptions = {},
): Coordinator {
  const etcd = etcdSettings(flatSettings);
  if (etcd) return etcdCoordinator(etcd, opts);
  return localCoordinator({
    clusterName: String(flatSettings['cluster.name'] ?? 'elasticsearch'),
    ...lone,
    ...(opts.onListenerError ? { onListenerError: opts.onListenerError } : {}),
  });
}
