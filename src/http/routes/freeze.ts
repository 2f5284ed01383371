/**
 * Frozen indices (x-pack 6.6+ RestFreezeIndexAction / TransportFreezeIndexAction):
 * `POST /{index}/_freeze` and `/_unfreeze` flip `index.frozen` and `index.search.throttled` and
 * the write block. Searches then skip the index unless `ignore_throttled=false`; other APIs
 * (get, _cat/indices, settings) still see it.
 */
import { resourceNotFound } from '../../common/errors.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { FlatSettings } from '../../engine/index-settings.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

const PARAMS = [
  'ignore_unavailable',
  'allow_no_indices',
  'expand_wildcards',
  'timeout',
  'master_timeout',
  'wait_for_active_shards',
];

export function registerFreezeRoutes(router: Router<Handler>, node: NodeContext): void {
  const toggle =
    (freeze: boolean): Handler =>
    async (req) => {
      checkParams(req, PARAMS);
      const expr = req.params.index ?? '';
      // FreezeRequest defaults to IndicesOptions.strictExpandOpen()
      const opts = indicesOptionsFrom(STRICT_EXPAND_OPEN, (n) => param(req, n));
      // only indices not already in the requested state go through the cycle
      const targets = node.indices.resolve(expr, opts).filter((i) => i.frozen !== freeze);
      if (targets.length === 0 && !opts.allowNoIndices)
        throw resourceNotFound(`no index found to ${freeze ? 'freeze' : 'unfreeze'}`);
      if (targets.length > 0) {
        // through the master in a cluster, so every node takes the new settings
        // a null value removes the setting (as in PUT _settings)
        const update = {
          'index.frozen': String(freeze),
          'index.search.throttled': String(freeze),
          'index.blocks.write': freeze ? 'true' : null,
        } as unknown as FlatSettings;
        await node.metadata.putSettings(targets, update, false);
        // ES closes the index and opens it again with the new settings: the reopened shards
        // search everything written before, as after a refresh (every copy, in a cluster)
        await node.broadcast.run('refresh', targets);
        await node.store.durable();
      }
      return { status: 200, body: { acknowledged: true, shards_acknowledged: true } };
    };
  router.add('POST', '/{index}/_freeze', toggle(true));
  router.add('POST', '/{index}/_unfreeze', toggle(false));
}
