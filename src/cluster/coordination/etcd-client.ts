/**
 * The etcd client with the fault handling coordination needs. etcd3's default host policy refuses
 * a host for 5 s after three failures and its global policy retries calls: a restarted etcd would
 * stay unusable for seconds, and a retried transaction whose first try may have committed would
 * apply twice. Here a host that failed is skipped for a short while (so calls go to the other
 * members), and nothing is retried: the coordinator's loops and the callers of its transactions
 * decide that.
 */
import { Etcd3, GRPCUnavailableError, type IOptions } from 'etcd3';

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;
type PolicyFn = (ctx: { signal: AbortSignal }) => unknown;

const HOST_DOWN_MS = 500;

function policy(run: (fn: PolicyFn, signal: AbortSignal) => Promise<unknown>): Policy {
  // etcd3 only calls execute() on its policies.
  return {
    execute: (fn: PolicyFn, signal?: AbortSignal) =>
      run(fn, signal ?? new AbortController().signal),
  } as unknown as Policy;
}

const passThrough = policy(async (fn, signal) => fn({ signal }));

/**
 * Calls straight through, marking the host down for a moment after it was unreachable (not after
 * any error: a stream we cancel ourselves fails with CANCELLED, which says nothing of the host).
 */
function hostPolicy(): Policy {
  let downUntil = 0;
  return policy(async (fn, signal) => {
    if (Date.now() < downUntil) throw new Error('etcd member marked down');
    try {
      return await fn({ signal });
    } catch (e) {
      if (e instanceof GRPCUnavailableError) downUntil = Date.now() + HOST_DOWN_MS;
      throw e;
    }
  });
}

export function etcdClient(endpoints: readonly string[], callTimeoutMs: number): Etcd3 {
  return new Etcd3({
    hosts: [...endpoints],
    dialTimeout: callTimeoutMs,
    faultHandling: {
      // With one member there is no other to turn to: always try it.
      host: () => (endpoints.length > 1 ? hostPolicy() : passThrough),
      global: passThrough,
    },
    // Unary calls get a deadline; streams (watch, keep-alive) live on.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + callTimeoutMs }),
  });
}
