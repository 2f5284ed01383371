/**
 * What query lowering needs to know about one index (ES QueryShardContext): field lookup,
 * analyzers, normalizers, limits. Built once per index per request.
 */
import { expandFieldPattern, lookupField } from '../../mapping/index.js';
import { joinFieldOf } from '../../mapping/join.js';
import { parseDocument, parseMapping } from '../../mapping/index.js';
import { SegmentBuilder } from '../../search/index/segment-builder.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import type { IndexService } from '../../engine/index-service.js';
import type { FieldMapping } from '../../mapping/types.js';
import { getInt } from '../../engine/index-settings.js';
import { normalizeKeyword, searchAnalyzer } from '../../engine/analyzers.js';
import type { IndexQueryContext } from '../query/index.js';
import { compileQueryScript, segmentSourceReader } from './scripts.js';
import { geoPointsFromSource } from '../script/source-doc-values.js';

export interface RequestLimits {
  maxClauseCount: number;
  maxBuckets: number;
  /** Memory circuit breaker for aggregation buckets (the node's request breaker). */
  breaker?: (buckets: number) => void;
}

export interface ContextExtras {
  warnings?: string[];
  scriptMethods?: Record<string, (...a: unknown[]) => unknown>;
  termsLookup?: IndexQueryContext['termsLookup'];
}

export function indexQueryContext(
  idx: IndexService,
  now: number,
  limits: RequestLimits,
  extras: ContextExtras = {},
): IndexQueryContext {
  const warnings = extras.warnings ?? [];
  const s = idx.meta.settings;
  const df = s['index.query.default_field'];
  const m = mappingPart(idx);
  return {
    index: idx.name,
    indexUuid: idx.uuid,
    field: m.field,
    expandFields: m.expandFields,
    searchAnalyzer: m.searchAnalyzer,
    analyzer: m.analyzer,
    normalize: m.normalize,
    now,
    maxClauseCount: limits.maxClauseCount,
    defaultFields: Array.isArray(df) ? df : typeof df === 'string' ? [df] : ['*'],
    maxTermsCount: getInt(s, 'index.max_terms_count', 65536),
    maxRegexLength: getInt(s, 'index.max_regex_length', 1000),
    objectMapping: m.objectMapping,
    typeName: idx.typeName ?? '_doc',
    hasNested: m.hasNested,
    fieldNamesEnabled: idx.mapping?.fieldNamesEnabled ?? true,
    // every key in every context (undefined when absent): one object shape for the lowering code,
    // and no spread of a temporary object per optional key on each request
    joinField: m.joinField,
    percolateSegment: m.percolateSegment,
    queryStringLenient: s['index.query_string.lenient'] === 'true',
    deprecation: (msg) => warnings.push(msg),
    compileScript: (spec) => compileQueryScript(spec, idx, extras.scriptMethods, warnings),
    geoPoints: m.geoPoints,
    scriptMethods: extras.scriptMethods,
    termsLookup: extras.termsLookup,
  };
}

/** The part of an index's query context that only its mapping decides. */
interface MappingPart {
  readonly mapping: IndexService['mapping'];
  readonly field: IndexQueryContext['field'];
  readonly expandFields: IndexQueryContext['expandFields'];
  readonly searchAnalyzer: IndexQueryContext['searchAnalyzer'];
  readonly analyzer: IndexQueryContext['analyzer'];
  readonly normalize: IndexQueryContext['normalize'];
  readonly objectMapping: IndexQueryContext['objectMapping'];
  readonly hasNested: boolean;
  readonly joinField: FieldMapping | undefined;
  readonly percolateSegment: IndexQueryContext['percolateSegment'];
  readonly geoPoints: IndexQueryContext['geoPoints'];
}

/**
 * Kept per index while its mapping object stays the same (a mapping update replaces it): the
 * closures read the index when called, and a per-request copy of them was most of a small
 * request's context cost (every `_count` builds one).
 */
const mappingParts = new WeakMap<IndexService, MappingPart>();

function mappingPart(idx: IndexService): MappingPart {
  const kept = mappingParts.get(idx);
  if (kept !== undefined && kept.mapping === idx.mapping) return kept;
  const part: MappingPart = {
    mapping: idx.mapping,
    field: (path) => (idx.mapping ? lookupField(idx.mapping, path) : undefined),
    expandFields: (pattern) => (idx.mapping ? expandFieldPattern(idx.mapping, pattern) : []),
    searchAnalyzer: (field, quoted) => searchAnalyzer(idx, field, quoted),
    analyzer: (name) => idx.analysis.analyzer(name),
    normalize: (field, value) => normalizeKeyword(idx, field, value),
    objectMapping: (path) => idx.mapping?.objectsByPath.get(path),
    hasNested: idx.mapping
      ? [...idx.mapping.objectsByPath.values()].some((o) => o.type === 'nested')
      : false,
    joinField: joinFieldOf(idx.mapping) ?? undefined,
    percolateSegment: (docs) => memorySegment(idx, docs),
    geoPoints: (ls, field) => {
      const read = segmentSourceReader(idx, ls);
      return (doc) => {
        const src = read ? read(doc) : null;
        return src === null ? [] : geoPointsFromSource(src, field);
      };
    },
  };
  mappingParts.set(idx, part);
  return part;
}

/** Module percolator: the documents to percolate, parsed and indexed alone in memory. */
function memorySegment(
  idx: IndexService,
  docs: readonly Readonly<Record<string, unknown>>[],
): LiveSegment {
  const b = new SegmentBuilder(idx.analysisResolver);
  const ctx = idx.mappingContext();
  const mapping = idx.mapping ?? parseMapping(idx.typeName ?? '_doc', {}, ctx);
  docs.forEach((d, i) => b.add(String(i), parseDocument(mapping, d, ctx, String(i)), 0, 1));
  return { segment: b.build(), live: null, deleted: 0, docBase: 0 };
}
