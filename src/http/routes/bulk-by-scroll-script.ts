/**
 * ES AbstractAsyncBulkByScrollAction.ScriptApplier, shared by update-by-query and reindex: the
 * script runs on a `ctx` holding the scanned document's metadata, `_source` and `op: index`; then
 * each entry is taken back out as Java's `Map.remove` does (a missing key reads as null), and
 * whatever the script added is left for the caller's "Invalid fields added to context" check.
 * What a changed field means (refused for update-by-query, a moved document for reindex) is
 * the caller's.
 */
import { illegalArgument } from '../../common/errors.js';
import type { NodeContext } from '../../node-context.js';

export interface ScriptedDoc {
  readonly _index: string;
  readonly _type: string;
  readonly _id: string;
  readonly _version: number;
  readonly _routing: string | null;
}

export const SCRIPTED_FIELDS = ['_index', '_type', '_id', '_version', '_parent', '_routing'] as const; // prettier-ignore

export interface ScriptResult {
  /** `op` as the script left it, lower-cased; checked by `opType` after the fields (ES order). */
  readonly op: string;
  readonly source: unknown;
  /** Each metadata field as the script left it (null when it removed it). */
  readonly fields: Readonly<Record<(typeof SCRIPTED_FIELDS)[number], unknown>>;
  /** Keys the script added to `ctx`. */
  readonly extra: readonly string[];
}

export function applyBulkByScrollScript(
  node: NodeContext,
  script: unknown,
  doc: ScriptedDoc,
  source: unknown,
): ScriptResult {
  if (!node.runUpdateScript) throw illegalArgument('scripts are not supported');
  // key order as ES builds it: metadata, then _source, then op
  const ctx: Record<string, unknown> = {
    _index: doc._index,
    _type: doc._type,
    _id: doc._id,
    _version: doc._version,
    _parent: null,
    _routing: doc._routing,
    _source: source,
    op: 'index',
  };
  node.runUpdateScript(script, ctx);
  const take = (k: string): unknown => {
    const v = ctx[k];
    delete ctx[k];
    return v === undefined ? null : v;
  };
  const newOp = take('op');
  if (newOp === null) throw illegalArgument('Script cleared operation type');
  const newSource = take('_source');
  const fields = Object.fromEntries(SCRIPTED_FIELDS.map((k) => [k, take(k)])) as ScriptResult['fields']; // prettier-ignore
  return { op: String(newOp).toLowerCase(), source: newSource, fields, extra: Object.keys(ctx) };
}

/** ES OpType.fromString: the three operations a script may ask for. */
export function opType(op: string): 'noop' | 'index' | 'delete' {
  if (op === 'noop' || op === 'index' || op === 'delete') return op;
  throw illegalArgument(
    `Operation type [${op}] not allowed, only [noop, index, delete] are allowed`,
  );
}

/** ES's check once the operation stays `index`: the script may add nothing to `ctx`. */
export function checkNoExtraFields(r: ScriptResult): void {
  if (r.extra.length)
    throw illegalArgument(`Invalid fields added to context [${r.extra.join(',')}]`);
}
