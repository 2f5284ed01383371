/**
 * `PUT|POST /{index}/_shrink/{target}` and `/{index}/_split/{target}` (ES 6.8 RestShrinkIndexAction,
 * RestSplitIndexAction, TransportResizeAction). The target is created with the source's mappings
 * and the resized settings, published like any new index (in a cluster this runs on the master,
 * master-forward.ts), then every document of the source is read from its shards (node.scans: each
 * shard on its primary's node in a cluster) and written into the target (node.writes) with its
 * version: routing with the source's routing shards puts it in the target shard ES's copied
 * segments would hold it in. The target's write blocks (copied ones) are set once it is filled.
 */
import {
  EsError,
  illegalArgument,
  indexNotFound,
  resourceAlreadyExists,
  xContentParse,
} from '../../common/errors.js';
import { validateIndexName } from '../../engine/index-names.js';
import { parseSearch } from '../../dsl/search/execute.js';
import { parseSearchBody } from '../../dsl/search/request.js';
import type { IndexService } from '../../engine/index-service.js';
import { flattenSettings, type FlatSettings } from '../../engine/index-settings.js';
import { resizedSettings, validateResize, type ResizeType } from '../../engine/resize.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import { defaultWriteBase, type IndexRequest } from '../../engine/write-request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyObject, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { validateAliasFilter } from './aliases.js';

const COPY_SETTINGS_WARNING =
  'resize operations without copying settings is deprecated; set parameter [copy_settings] to [true] for future default behavior';

const BATCH = 500;

/** ES RestResizeHandler: `copy_settings` may only be true; absent, it is deprecated false. */
function copySettingsParam(req: RestRequest): boolean {
  const raw = param(req, 'copy_settings');
  if (raw === undefined) {
    req.warnings.push(COPY_SETTINGS_WARNING);
    return false;
  }
  if (raw === '' || raw === 'true') return true;
  if (raw === 'false')
    throw illegalArgument('parameter [copy_settings] can not be explicitly set to [false]');
  throw illegalArgument(`Failed to parse value [${raw}] as only [true] or [false] are allowed.`);
}

/** ES ResizeRequest's parser: `settings` and `aliases`, nothing else. */
function parseBody(body: Record<string, unknown>): { settings: FlatSettings; aliases?: unknown } {
  for (const k of Object.keys(body))
    if (k !== 'settings' && k !== 'aliases')
      throw xContentParse(`[resize_request] unknown field [${k}], parser not found`);
  return {
    settings: flattenSettings(body.settings ?? {}),
    ...(body.aliases !== undefined ? { aliases: body.aliases } : {}),
  };
}

export function registerResizeRoutes(router: Router<Handler>, node: NodeContext): void {
  const resize =
    (type: ResizeType): Handler =>
    async (req) => {
      checkParams(req, ['copy_settings', 'wait_for_active_shards', 'timeout', 'master_timeout']);
      const copy = copySettingsParam(req);
      const { settings: requested, aliases } = parseBody(bodyObject(req) ?? {});
      const name = req.params.index!;
      const source = node.indices.get(name);
      if (!source) throw indexNotFound(name);
      if (source.closed)
        throw new EsError('index_closed_exception', 'closed', 400, { meta: { index_uuid: source.uuid, index: source.name } }); // prettier-ignore
      const facts = {
        name: source.name,
        uuid: source.uuid,
        numberOfShards: source.numberOfShards,
        routingNumShards: source.routingNumShards,
        settings: source.meta.settings,
      };
      const targetName = req.params.target!;
      const numShards = validateResize(type, facts, requested, false, () => {
        if (targetName.startsWith('<')) return; // a date math name is checked as it is created
        validateIndexName(targetName);
        const existing = node.indices.get(targetName);
        if (existing) throw resourceAlreadyExists(targetName, existing.uuid);
      });
      const settings = resizedSettings(type, facts, requested, numShards, copy);
      // the target's write blocks would refuse its own filling: they are set once it is full
      const blocks: FlatSettings = {};
      const initial: FlatSettings = {};
      for (const [k, v] of Object.entries(settings))
        (k.startsWith('index.blocks.') ? blocks : initial)[k] = v;
      const m = source.meta.mapping;
      // the source's mappings, not the templates' (ES does not apply templates to a resize target)
      const target = await node.indices.create(
        targetName,
        {
          settings: initial,
          ...(m ? { mappings: { [m.type]: structuredClone(m.json) } } : {}),
          ...(aliases !== undefined ? { aliases } : {}),
        },
        {
          published: true,
          checkAlias: (index, a, def) => validateAliasFilter(node, a, def, [index]),
        },
      );
      const w = param(req, 'wait_for_active_shards');
      const t = param(req, 'timeout');
      const waitMs = w === '0' ? 0 : t !== undefined ? parseTimeValueMs(t, 'timeout') : 30_000;
      const created = await node.metadata.indexCreated(target, waitMs);
      await copyDocuments(node, source, target);
      if (Object.keys(blocks).length > 0) await node.metadata.putSettings([target], blocks, false);
      await node.store.durable();
      return {
        status: 200,
        body: {
          acknowledged: true,
          shards_acknowledged: created.shardsAcknowledged,
          index: target.name,
        },
      };
    };
  for (const type of ['shrink', 'split'] as const)
    router.add(['PUT', 'POST'], `/{index}/_${type}/{target}`, resize(type));
}

/**
 * Every live document of `source`, read where its shards are, written into `target` with an
 * external version equal to its own, so it keeps its `_version` as ES's copied segments do.
 */
async function copyDocuments(
  node: NodeContext,
  source: IndexService,
  target: IndexService,
): Promise<void> {
  await node.broadcast.run('refresh', [source]);
  const search = parseSearchBody({ query: { match_all: {} } });
  const out = await node.scans.scan({ targets: [source], search, parsed: parseSearch(search), sources: true }); // prettier-ignore
  if (out.failures.length > 0)
    throw new EsError('elasticsearch_exception', `[${source.name}] a shard could not be read: ${JSON.stringify(out.failures[0])}`, 500); // prettier-ignore
  let batch: IndexRequest[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const r = await node.writes.run(batch, { policy: 'false' });
    const failed = r.items.find((i) => i.error);
    if (failed?.error) throw failed.error;
    batch = [];
  };
  for (const h of out.hits) {
    const doc = h.readSource();
    if (doc === null) continue;
    batch.push({
      ...defaultWriteBase(target.name, h.type, h.id),
      routing: h.routing,
      version: h.version,
      versionType: 'external',
      kind: 'index',
      opType: 'index',
      source: doc,
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  await node.broadcast.run('refresh', [target]);
}
