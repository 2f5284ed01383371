/** Listener lists and version waits shared by the coordinators. */
import { EsError } from '../../common/errors.js';
import type { ClusterState } from '../state.js';

export interface Listeners<A extends unknown[]> {
  add(fn: (...args: A) => void): () => void;
  /** Calls each listener; one that throws does not keep the others from the event. */
  emit(...args: A): void;
}

export function listeners<A extends unknown[]>(onError: (e: unknown) => void): Listeners<A> {
  const set = new Set<(...args: A) => void>();
  return {
    add(fn) {
      set.add(fn);
      return () => set.delete(fn);
    },
    emit(...args) {
      for (const fn of [...set])
        try {
          fn(...args);
        } catch (e) {
          onError(e);
        }
    },
  };
}

/** Resolves when `current()` reaches `version`, watching `onState`; rejects after `timeoutMs`. */
export function waitForVersion(
  current: () => ClusterState,
  onState: (fn: (prev: ClusterState, next: ClusterState) => void) => () => void,
  version: number,
  timeoutMs: number,
): Promise<ClusterState> {
  if (current().version >= version) return Promise.resolve(current());
  return new Promise((resolve, reject) => {
    const off = onState((_prev, next) => {
      if (next.version < version) return;
      clearTimeout(timer);
      off();
      resolve(next);
    });
    const timer = setTimeout(() => {
      off();
      reject(
        new EsError(
          'process_cluster_event_timeout_exception',
          `timed out after [${timeoutMs}ms] waiting for cluster state version [${version}], at [${current().version}]`,
          503,
        ),
      );
    }, timeoutMs);
  });
}
