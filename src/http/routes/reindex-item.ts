/**
 * The write `_reindex` makes of one scanned document (ES TransportReindexAction
 * AsyncIndexBySearchAction.buildRequest and ReindexScriptApplier): the destination index and type,
 * the routing kept, discarded or set, the destination's versioning, then the script on `ctx`,
 * which for reindex may move the document (`_index`, `_type`, `_id`, `_version`, `_routing`) or
 * turn it into a noop or a delete.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { MATCH_ANY } from '../../engine/versioning.js';
import type { ScanHit } from '../../dsl/search/scan.js';
import type { NodeContext } from '../../node-context.js';
import type { BulkItem, ReindexDest } from './by-query-worker.js';
import { applyBulkByScrollScript, checkNoExtraFields, opType } from './bulk-by-scroll-script.js';

/** ES copyRouting: the routing the destination write uses. */
function destRouting(dest: ReindexDest, docRouting: string | null): string | null {
  if (dest.routing === 'keep') return docRouting;
  if (dest.routing === 'discard') return null;
  return dest.routing.value;
}

const nullPointer = (what: string) => new EsError('null_pointer_exception', what, 500);

/** ES ScriptApplier's asLong for a changed `_version`. */
function asLong(v: unknown, name: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return Number(v);
  throw illegalArgument(`[${name}] may only be set to an int or a long but was [${String(v)}]`);
}

/**
 * The destination write of hit `h` whose source is `source`; 'noop' when the script said so
 * (the caller counts it).
 */
export function reindexItem(
  node: NodeContext,
  dest: ReindexDest,
  script: unknown,
  h: ScanHit,
  source: unknown,
): BulkItem | 'noop' {
  const item: BulkItem = {
    op: 'index',
    index: dest.index,
    type: dest.type ?? h.type,
    id: h.id,
    routing: destRouting(dest, h.routing),
    versionType: dest.versionType,
    // internal versioning overwrites; external carries the source document's version over
    version: dest.versionType === 'internal' ? MATCH_ANY : h.version,
    opType: dest.opType,
  };
  if (script === null) return { ...item, source: Buffer.from(JSON.stringify(source)) };
  const r = applyBulkByScrollScript(
    node,
    script,
    { _index: h.index, _type: h.type, _id: h.id, _version: h.version, _routing: h.routing },
    source,
  );
  const { _index: index, _type: type, _id: id, _version: version, _routing: routing } = r.fields;
  if (index !== h.index) {
    if (index === null) throw nullPointer("Can't reindex without a destination index!");
    item.index = String(index);
  }
  if (type !== h.type) {
    if (type === null) throw nullPointer("Can't reindex without a destination type!");
    item.type = String(type);
  }
  if (id !== h.id) item.id = id === null ? null : String(id);
  if (version !== h.version) {
    if (version === null) {
      item.version = MATCH_ANY;
      item.versionType = 'internal';
    } else item.version = asLong(version, '_version');
  }
  if (routing !== h.routing) item.routing = routing === null ? null : String(routing);
  const op = opType(r.op);
  if (op === 'noop') return 'noop';
  if (op === 'delete') {
    return {
      op: 'delete',
      index: item.index,
      type: item.type,
      id: item.id,
      routing: item.routing,
      version: item.version!,
      versionType: 'internal',
    };
  }
  checkNoExtraFields(r);
  return { ...item, source: Buffer.from(JSON.stringify(r.source)) };
}
