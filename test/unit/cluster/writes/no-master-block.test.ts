import { expect, it } from 'vitest';
import { executeOnPrimary, type PrimaryDeps } from '../../../../src/cluster/writes/primary-bulk.js';

it('a primary whose node lost its lease refuses writes before running them (no master block)', async () => {
  let touched = false;
  const deps = new Proxy({ writesBlocked: () => true } as Partial<PrimaryDeps>, {
    get(target, key) {
      if (key in target) return target[key as keyof PrimaryDeps];
      touched = true;
      return undefined;
    },
  }) as PrimaryDeps;
  const req = { index: 'i', uuid: 'u', shard: 0, policy: 'false' as const, items: [] };
  await expect(executeOnPrimary(deps, req)).rejects.toMatchObject({
    type: 'cluster_block_exception',
    status: 503,
    reason: 'blocked by: [SERVICE_UNAVAILABLE/2/no master];',
  });
  expect(touched).toBe(false);
});
