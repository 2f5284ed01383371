/**
 * The phrase suggester's `collate` (ES PhraseSuggester.innerExecute): each correction is put into
 * a mustache query template as `suggestion` (with the collate `params`), and the query is run on
 * the shard to see whether any document matches it.
 */
import { EsError } from '../../common/errors.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import { shardStats } from '../../search/query/stats.js';
import { createWeight } from '../../search/query/weights.js';
import { parseQuery, toSearchQuery, type IndexQueryContext } from '../query/index.js';
import { compileTemplate, renderTemplate } from '../template/index.js';
import type { PhraseCollate } from './suggest-parse.js';

/** Script.parse of the collate query: inline source (a string, or an object as its JSON). */
function templateSource(query: unknown): string {
  if (typeof query === 'string') return query;
  if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    const o = query as Record<string, unknown>;
    const src = o.source ?? o.inline;
    if (src !== undefined) return typeof src === 'string' ? src : JSON.stringify(src);
    if (o.id !== undefined)
      throw new EsError('illegal_argument_exception', 'stored collate templates are not supported', 400); // prettier-ignore
  }
  throw new EsError('parse_exception', 'must specify either [source] for an inline script or [id] for a stored script', 400); // prettier-ignore
}

/** A per-shard check: whether the collate query, rendered for a correction, matches a document. */
export function collateMatcher(
  collate: PhraseCollate,
  snapshot: ShardSnapshot,
  ctx: IndexQueryContext,
): (suggestion: string) => boolean {
  const template = compileTemplate(templateSource(collate.query));
  const stats = shardStats(snapshot);
  return (suggestion) => {
    const json = renderTemplate(template, { ...collate.params, suggestion }, 'json');
    const query = toSearchQuery(parseQuery(JSON.parse(json) as unknown, ['query']), ctx);
    const w = createWeight(query, { stats, needsScores: false });
    for (const ls of snapshot.segments) {
      const s = w.scorer(ls);
      if (!s) continue;
      for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) if (!ls.live || ls.live.get(d)) return true; // prettier-ignore
    }
    return false;
  };
}
