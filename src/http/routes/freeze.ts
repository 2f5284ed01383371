/**
 * Frozen indices (x-pack 6.6+ RestFreezeIndexAction / TransportFreezeIndexAction):
 * `POST /{index}/_freeze` and `/_unfreeze` flip `index.frozen` and `index.search.throttled` and
 * the write block. Searches then skip the index unless `ignore_throttled=false`; other APIs
 * (get, _cat/indices, settings) still see it.
 */
import { resourceNotFound } from '../../common/errors.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
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
      for (const idx of targets) {
        const s = idx.meta.settings;
        s['index.frozen'] = String(freeze);
        s['index.search.throttled'] = String(freeze);
        if (freeze) s['index.blocks.write'] = 'true';
        else delete s['index.blocks.write'];
        idx.meta.version++;
        idx.settingsChanged();
        // ES closes the index and opens it again with the new settings: the reopened shards
        // search everything written before, as after a refresh
        idx.refresh();
        await idx.persist();
      }
      if (targets.length > 0) await node.store.durable();
      return { status: 200, body: { acknowledged: true, shards_acknowledged: true } };
    };
  router.add('POST', '/{index}/_freeze', toggle(true));
  router.add('POST', '/{index}/_unfreeze', toggle(false));
}
