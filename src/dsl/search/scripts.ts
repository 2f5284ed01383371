/**
 * Scripts in searches: `script` queries and `script_score` get a per-segment doc-values view
 * (`doc['f'].value`) and `_score`; update scripts get `ctx` (`ctx._source`, `ctx.op`).
 */
import { lookupField } from '../../mapping/index.js';
import type { IndexService } from '../../engine/index-service.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import {
  compileScript,
  parseScriptSpec,
  SegmentDocLookup,
  type ScriptMethods,
} from '../script/index.js';
import { storedScript } from '../script/stored.js';
import type { CompiledScript as QueryScript } from '../query/lower/context.js';
import type { ScriptSpec } from '../query/nodes.js';

/**
 * A segment's per-doc `_source` reader: segments keep no geo_point / binary doc values, so
 * query-phase scripts read them from the document (the shard's latest copy, as aggs do).
 */
export function segmentSourceReader(
  idx: IndexService,
  ls: LiveSegment,
): ((doc: number) => unknown) | null {
  const shard = idx.shards.find((sh) =>
    sh.searcher().segments.some((x) => x.segment === ls.segment),
  );
  if (!shard) return null;
  return (doc) => {
    const rec = shard.read(ls.segment.ids[doc]!);
    return rec && rec.source.length > 0 ? JSON.parse(rec.source.toString('utf8')) : null;
  };
}

export function compileQueryScript(
  spec: ScriptSpec,
  idx: IndexService,
  methods: ScriptMethods | undefined,
  warnings: string[],
): QueryScript {
  // a stored script resolves when the query is built, as ES compiles it then
  const stored = spec.source === null ? storedScript(spec.id!) : null;
  const cs = compileScript(stored ? stored.source : spec.source!, {
    ...(stored ? { lang: stored.lang } : spec.lang ? { lang: spec.lang } : {}),
    params: { ...spec.params },
    ...(methods ? { methods } : {}),
    variables: ['_score'],
  });
  return {
    forSegment(ls: LiveSegment) {
      const lookup = new SegmentDocLookup(
        (path) => (idx.mapping ? lookupField(idx.mapping, path) : undefined),
        undefined,
        (m) => warnings.push(m),
      );
      lookup.setSegment(ls);
      lookup.setSourceReader(segmentSourceReader(idx, ls));
      return (doc: number, score: number) => {
        lookup.setDoc(doc);
        return cs.evaluate({ doc: lookup, _score: score });
      };
    },
  };
}

/** Runs an update script against `ctx` (ES UpdateHelper: `ctx._source`, `ctx.op`, `params`). */
export function runUpdateScript(
  json: unknown,
  ctx: Record<string, unknown>,
  methods?: ScriptMethods,
): Record<string, unknown> {
  const spec = parseScriptSpec(json);
  const cs = compileScript(spec.source, {
    lang: spec.lang,
    params: spec.params,
    ...(methods ? { methods } : {}),
    variables: ['ctx'],
  });
  cs.evaluate({ ctx });
  return ctx;
}
