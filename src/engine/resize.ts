/**
 * The checks and settings of `_shrink` and `_split` (ES 6.8 TransportResizeAction and
 * MetaDataCreateIndexService's resize validation): which target shard counts a source allows,
 * what the target's settings are, and which target shard a source shard's documents go to.
 * Pure: the route creates the target and copies the documents.
 */
import { EsError, illegalArgument, illegalState } from '../common/errors.js';
import { blockedException } from './index-blocks.js';
import type { FlatSettings } from './index-settings.js';

export type ResizeType = 'shrink' | 'split';

export interface ResizeSource {
  readonly name: string;
  readonly uuid: string;
  readonly numberOfShards: number;
  /** `index.number_of_routing_shards`, the number of shards otherwise (ES 6.x default). */
  readonly routingNumShards: number;
  readonly settings: Readonly<FlatSettings>;
}

/**
 * ES IndexMetaData.getRoutingFactor: how many source shards make one target shard (shrink) or
 * how many target shards one source shard splits into.
 */
export function routingFactor(sourceShards: number, targetShards: number): number {
  if (sourceShards < targetShards) {
    const factor = Math.floor(targetShards / sourceShards);
    if (factor * sourceShards !== targetShards || factor <= 1)
      throw illegalArgument(`the number of source shards [${sourceShards}] must be a factor of [${targetShards}]`); // prettier-ignore
    return factor;
  }
  if (sourceShards > targetShards) {
    const factor = Math.floor(sourceShards / targetShards);
    if (factor * targetShards !== sourceShards || factor <= 1)
      // (sic: ES's message repeats "must be a")
      throw illegalArgument(`the number of source shards [${sourceShards}] must be a must be a multiple of [${targetShards}]`); // prettier-ignore
    return factor;
  }
  return 1;
}

/** ES ResizeRequest.validate: a split names its number of shards. */
export function validateResizeRequest(type: ResizeType, settings: Readonly<FlatSettings>): void {
  if (type === 'split' && settings['index.number_of_shards'] === undefined)
    throw new EsError(
      'action_request_validation_exception',
      'Validation Failed: 1: index.number_of_shards is required for split operations;',
      400,
    );
}

/**
 * The target's number of shards after every check ES makes before and while creating the target
 * (TransportResizeAction.prepareCreateIndexRequest, then validateResize): shard counts, routing
 * shards, the source's write block, no mappings. `settings` are the request's, flat.
 */
export function validateResize(
  type: ResizeType,
  source: ResizeSource,
  settings: Readonly<FlatSettings>,
  hasMappings: boolean,
  checkTarget: () => void = () => {},
): number {
  validateResizeRequest(type, settings);
  const given = settings['index.number_of_shards'];
  const numShards = given === undefined ? 1 : Number(given);
  // (ES checks each target shard; they all pass or fail the same checks)
  if (type === 'shrink') {
    if (source.numberOfShards < numShards)
      throw illegalArgument(`the number of target shards [${numShards}] must be less that the number of source shards [${source.numberOfShards}]`); // prettier-ignore
    routingFactor(source.numberOfShards, numShards);
  } else {
    routingFactor(source.numberOfShards, numShards);
    if (source.numberOfShards > numShards)
      throw illegalArgument(`the number of source shards [${source.numberOfShards}] must be less that the number of target shards [${numShards}]`); // prettier-ignore
    if (source.routingNumShards % numShards !== 0)
      throw illegalState(`the number of routing shards [${source.routingNumShards}] must be a multiple of the target shards [${numShards}]`); // prettier-ignore
  }
  if (settings['index.routing_partition_size'] !== undefined)
    throw illegalArgument('cannot provide a routing partition size value when resizing an index');
  if (settings['index.number_of_routing_shards'] !== undefined)
    throw illegalArgument('cannot provide index.number_of_routing_shards on resize');
  // the target's name and existence, then the source (ES validateIndexName, then validateResize)
  checkTarget();
  if (!blockedException(source.settings, 'write'))
    throw illegalState(`index ${source.name} must be read-only to resize index. use "index.blocks.write=true"`); // prettier-ignore
  if (hasMappings)
    throw illegalArgument('mappings are not allowed when resizing indices, all mappings are copied from the source index'); // prettier-ignore
  return numShards;
}

/** Source settings a resize never copies: the index's identity and ES's NotCopyableOnResize ones. */
const NOT_COPIED = new Set([
  'index.uuid',
  'index.creation_date',
  'index.provided_name',
  'index.version.upgraded',
  'index.resize.source.name',
  'index.resize.source.uuid',
  'index.allocation.max_retries',
  'index.number_of_routing_shards',
]);

/** Copied even without `copy_settings`: what the copied segments need to be read the same way. */
const ALWAYS_COPIED = ['index.similarity.', 'index.analysis.', 'index.sort.'];

/**
 * The target's settings (ES prepareResizeIndexSettings): the request's, then the source's (every
 * copyable one with `copy_settings`, only analysis, similarity and sort without), the source's
 * routing partition size and its name and uuid. The routing shards are the source's, so each
 * document's target shard derives from its source shard (ES keeps them in the index metadata;
 * here they are the setting routing reads).
 */
export function resizedSettings(
  type: ResizeType,
  source: ResizeSource,
  request: Readonly<FlatSettings>,
  numShards: number,
  copySettings: boolean,
): FlatSettings {
  const out: FlatSettings = { ...request, 'index.number_of_shards': String(numShards) };
  for (const [k, v] of Object.entries(source.settings)) {
    if (k in request || NOT_COPIED.has(k)) continue;
    if (copySettings || ALWAYS_COPIED.some((p) => k.startsWith(p))) out[k] = v;
  }
  out['index.routing_partition_size'] = String(source.settings['index.routing_partition_size'] ?? '1'); // prettier-ignore
  out['index.resize.source.name'] = source.name;
  out['index.resize.source.uuid'] = source.uuid;
  // a shrunk index is allocated once, not retried (ES sets it with the initial recovery node)
  if (type === 'shrink') out['index.allocation.max_retries'] = '1';
  // (only where it differs from the target's shards, the default ES does not list either)
  if (source.routingNumShards !== numShards)
    out['index.number_of_routing_shards'] = String(source.routingNumShards);
  return out;
}

/**
 * The target shard the documents of a source shard land in (ES IndexMetaData.selectShrinkShards
 * and selectSplitShard, inverted for shrink): a shrink merges `factor` neighbouring shards, a
 * split spreads one shard over `factor` neighbours, one of which each document's routing picks.
 */
export function targetShardsOf(
  sourceShard: number,
  sourceShards: number,
  targetShards: number,
): number[] {
  // prettier-ignore
  const factor = routingFactor(sourceShards, targetShards);
  if (sourceShards >= targetShards) return [Math.floor(sourceShard / factor)];
  return Array.from({ length: factor }, (_, i) => sourceShard * factor + i);
}
