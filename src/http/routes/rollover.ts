/**
 * `POST /{alias}/_rollover[/{new_index}]` (ES RestRolloverIndexAction): when no condition is
 * given or one holds, creates the next index and moves the alias onto it.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { validateIndexName } from '../../engine/index-names.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import { evaluateConditions, nextRolloverName, parseConditions } from '../../engine/rollover.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyObject, boolParam, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import { validateAliasFilter } from './aliases.js';

export function registerRolloverRoutes(router: Router<Handler>, node: NodeContext): void {
  const { indices } = node;
  const rollover: Handler = async (req) => {
    checkParams(req, [
      'dry_run',
      'include_type_name',
      'wait_for_active_shards',
      'timeout',
      'master_timeout',
    ]);
    // the router names the first segment `index` on every path
    const alias = req.params.index!;
    const body = bodyObject(req) ?? {};
    const conditions = parseConditions(body.conditions);
    const dryRun = boolParam(req, 'dry_run', false);
    const includeTypeName = boolParam(req, 'include_type_name', true);
    const m = body.mappings;
    if (
      !includeTypeName &&
      m &&
      typeof m === 'object' &&
      Object.keys(m).length === 1 &&
      Object.keys(m)[0] === '_doc'
    )
      // ES parses the request body first: the mapping's refusal comes wrapped in a parse error
      throw new EsError(
        'x_content_parse_exception',
        '[rollover] failed to parse field [mappings]',
        400,
        {
          causedBy: illegalArgument(
            'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.',
          ),
        },
      );
    if (indices.get(alias)) throw illegalArgument('source alias is a concrete index');
    const holders = indices.all().filter((i) => i.meta.aliases[alias] !== undefined);
    if (holders.length === 0) throw illegalArgument('source alias does not exist');
    const writers = holders.filter((i) => i.meta.aliases[alias]!.is_write_index === true);
    const source = holders.length === 1 ? holders[0]! : writers[0];
    if (!source)
      throw illegalArgument(
        `Rollover alias [${alias}] can point to multiple indices, found duplicated alias [[${alias}]] in index template`,
      );
    const newName = req.params.new_index ?? nextRolloverName(source.name);
    validateIndexName(newName);
    if (indices.get(newName))
      throw new EsError(
        'resource_already_exists_exception',
        `index [${newName}/${indices.get(newName)!.uuid}] already exists`,
        400,
        { meta: { index_uuid: indices.get(newName)!.uuid, index: newName } },
      );
    const created = Number(source.meta.settings['index.creation_date'] ?? Date.now());
    const { results, roll } = evaluateConditions(conditions, {
      ageMs: Date.now() - created,
      ...(await node.summaries.primaryFacts(source)),
    });
    const response = (rolledOver: boolean, shardsAcknowledged = rolledOver) => ({
      status: 200,
      body: {
        acknowledged: rolledOver,
        shards_acknowledged: shardsAcknowledged,
        old_index: source.name,
        new_index: newName,
        rolled_over: rolledOver,
        dry_run: dryRun,
        conditions: results,
      },
    });
    if (dryRun || !roll) return response(false);
    const createBody: Record<string, unknown> = {};
    for (const k of ['settings', 'mappings', 'aliases'] as const)
      if (body[k] !== undefined) createBody[k] = body[k];
    const target = await indices.create(newName, createBody, {
      includeTypeName,
      checkAlias: (index, a, def) => validateAliasFilter(node, a, def, [index]),
    });
    // ES MetaDataRolloverService: an explicit write alias stays on the old index, no longer the
    // write index; otherwise the alias moves. New objects, not changed in place: the published
    // state may share the ones they replace.
    const def = source.meta.aliases[alias]!;
    target.meta.aliases = { ...target.meta.aliases, [alias]: { ...def } };
    const { [alias]: _moved, ...others } = source.meta.aliases;
    source.meta.aliases = def.is_write_index === true ? { ...others, [alias]: { ...def, is_write_index: false } } : others; // prettier-ignore
    // in a cluster this runs on the master (master-forward.ts), which publishes the new index and
    // the old one's alias change in one state, as ES's rollover is one cluster state update
    const w = req.query.get('wait_for_active_shards');
    const t = req.query.get('timeout');
    const waitMs = w === '0' ? 0 : t !== undefined ? parseTimeValueMs(t, 'timeout') : 30_000;
    const published = await node.metadata.indexCreated(target, waitMs, [source]);
    await node.metadata.indicesChanged([source, target]);
    await node.store.durable();
    return response(true, published.shardsAcknowledged);
  };
  router.add('POST', '/{index}/_rollover', rollover);
  router.add('POST', '/{index}/_rollover/{new_index}', rollover);
}
