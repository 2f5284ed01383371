/**
 * Terms lookups read before a request's shards run (ES rewrites a `terms` lookup on the
 * coordinating node: TermsQueryBuilder.doRewrite): each lookup document is read through
 * `node.reads` — this node's shard, or the node of a started copy in a cluster — and the
 * outcomes travel with the request to whichever nodes hold its shards, so a shard never reads a
 * lookup document that its own node may not hold.
 */
import { RawJson } from '../common/json.js';
import { EsError } from '../common/errors.js';
import { valueAtPath } from '../engine/documents.js';
import { STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../engine/index-names.js';
import { lookupKey, termsLookupsIn, type LookupOutcome } from '../dsl/query/terms-lookup-once.js';
import type { TermsLookupSpec } from '../dsl/query/index.js';
import type { NodeContext } from '../node-context.js';

/**
 * The values at `path` of a lookup document's `_source` (none for a missing or null one); the
 * source itself for the empty path.
 */
export function lookupValues(src: unknown, path: string): unknown[] {
  const parsed = src instanceof RawJson ? JSON.parse(src.text) : src;
  // the empty path asks for the whole document (more_like_this items)
  if (path === '') return parsed === null || parsed === undefined ? [] : [parsed];
  const v = valueAtPath(parsed, path);
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** Reads every lookup under `roots` (parsed query parts), by lookupKey; failures are outcomes. */
export function readTermsLookups(
  node: NodeContext,
  roots: readonly unknown[],
  defaultIndices: readonly string[] = [],
): Promise<Array<[string, LookupOutcome]>> {
  return readLookupSpecs(node, termsLookupsIn(roots, defaultIndices));
}

/** Reads the lookups `specs` (termsLookupsIn), by lookupKey; failures are outcomes. */
export async function readLookupSpecs(
  node: NodeContext,
  specs: readonly TermsLookupSpec[],
): Promise<Array<[string, LookupOutcome]>> {
  const out: Array<[string, LookupOutcome]> = [];
  for (const l of specs) {
    try {
      const idx = node.indices.resolve(l.index, STRICT_EXPAND_OPEN_FORBID_CLOSED)[0];
      let values: unknown[] | null = null;
      if (idx) {
        const r = await node.reads.get(idx, l.type, l.id, l.routing, {
          source: { includes: [], excludes: [] },
        });
        if (r.found) values = lookupValues(r.body._source, l.path);
      }
      // a percolated document that is not there fails the request (ES: the coordinating rewrite)
      if (l.path === '' && (values === null || values.length === 0))
        throw new EsError(
          'resource_not_found_exception',
          `indexed document [${l.index}/${l.type}/${l.id}] couldn't be found`,
          404,
        );
      out.push([lookupKey(l), { values }]);
    } catch (error) {
      if (l.path === '') throw error;
      out.push([lookupKey(l), { error }]);
    }
  }
  return out;
}
