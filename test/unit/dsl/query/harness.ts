/**
 * A one-index test bench for the Query DSL: a real mapping, the analysis registry, documents
 * parsed and indexed into ShardIndex shards (routing by `_id` like ES), and search through
 * parseQuery → toSearchQuery → createWeight → collectTopDocs, per shard or merged.
 */
import { EsError } from '../../../../src/common/errors.js';
import { shardForRouting } from '../../../../src/common/murmur3.js';
import {
  expandFieldPattern,
  lookupField,
  mergeMapping,
  parseDocument,
  parseMapping,
  type MappingContext,
  type RootMapping,
} from '../../../../src/mapping/index.js';
import { AnalysisRegistry } from '../../../../src/search/analysis/index.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import type { Query } from '../../../../src/search/query/query.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import {
  describeQuery,
  lowerQuery,
  parseQuery,
  type IndexQueryContext,
} from '../../../../src/dsl/query/index.js';
import { collectOptions } from '../../../helpers/collect-options.js';

export interface Hit {
  id: string;
  score: number;
}

export interface BenchOptions {
  shards?: number;
  analysis?: Record<string, unknown>;
  index?: string;
  type?: string;
  now?: number;
  context?: Partial<IndexQueryContext>;
}

export class Bench {
  readonly registry: AnalysisRegistry;
  readonly mapping: RootMapping;
  readonly shards: ShardIndex[];
  readonly ctx: IndexQueryContext;
  readonly warnings: string[] = [];
  private readonly mctx: MappingContext;
  private seq = 0;

  constructor(mappingJson: unknown, opts: BenchOptions = {}) {
    this.registry = opts.analysis
      ? AnalysisRegistry.fromIndexSettings(opts.analysis)
      : AnalysisRegistry.fromIndexSettings({});
    const reg = this.registry;
    this.mctx = {
      indexName: opts.index ?? 'test',
      analyzerExists: (n) => reg.analyzer(n) !== undefined,
      normalizerExists: (n) => reg.normalizer(n) !== undefined,
    };
    const type = opts.type ?? '_doc';
    this.mapping = mergeMapping(null, parseMapping(type, mappingJson, this.mctx), this.mctx);
    const resolver = {
      indexAnalyzer: (f: { analyzer?: string }) =>
        reg.analyzer(f.analyzer ?? 'default') ?? reg.defaultAnalyzer(),
      normalize: (f: { normalizer?: string }, v: string) =>
        f.normalizer ? (reg.normalizer(f.normalizer)?.normalize(v) ?? v) : v,
    };
    this.shards = Array.from({ length: opts.shards ?? 1 }, () => new ShardIndex(resolver));
    const root = this.mapping;
    this.ctx = {
      index: opts.index ?? 'test',
      indexUuid: 'uuid',
      field: (p) => lookupField(root, p),
      expandFields: (pattern) => expandFieldPattern(root, pattern),
      searchAnalyzer: (f, quoted) => {
        const name =
          (quoted ? f.searchQuoteAnalyzer : undefined) ??
          f.searchAnalyzer ??
          f.analyzer ??
          'default';
        return reg.analyzer(name) ?? reg.defaultAnalyzer();
      },
      analyzer: (n) => reg.analyzer(n),
      normalize: resolver.normalize,
      now: opts.now ?? Date.UTC(2020, 0, 15, 12, 0, 0),
      maxClauseCount: 1024,
      defaultFields: ['*'],
      maxTermsCount: 65536,
      maxRegexLength: 1000,
      objectMapping: (p) => root.objectsByPath.get(p),
      typeName: type,
      deprecation: (m) => this.warnings.push(m),
      ...opts.context,
    };
  }

  /** Indexes documents (ids in order unless given) and refreshes. */
  index(
    docs: Array<Record<string, unknown> | [string, Record<string, unknown>]>,
    routing?: string,
  ): this {
    for (const d of docs) {
      const [id, src] = Array.isArray(d) ? d : [String(this.seq), d];
      const parsed = parseDocument(this.mapping, src, this.mctx, id);
      const shard = shardForRouting(routing ?? id, this.shards.length);
      this.shards[shard]!.add(id, parsed, this.seq++, 1, routing ?? null);
    }
    for (const s of this.shards) s.refresh();
    return this;
  }

  lower(json: unknown, filter = false): Query {
    return lowerQuery(parseQuery(json), this.ctx, { filter }).query;
  }

  describe(json: unknown): string {
    return describeQuery(this.lower(json));
  }

  /** Hits of one shard, best first. */
  searchShard(shard: number, json: unknown, size = 100): { total: number; hits: Hit[] } {
    const q = this.lower(json);
    const snap = this.shards[shard]!.searcher();
    const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
    const r = collectTopDocs(snap, w, collectOptions(size));
    return {
      total: r.totalHits,
      hits: r.hits.map((h) => ({ id: h.segment.segment.ids[h.doc]!, score: h.score })),
    };
  }

  /** query_then_fetch over all shards: per-shard scores, merged by score then shard order. */
  search(json: unknown, size = 100): { total: number; hits: Hit[] } {
    let total = 0;
    const all: Array<Hit & { shard: number; rank: number }> = [];
    this.shards.forEach((_, i) => {
      const r = this.searchShard(i, json, size);
      total += r.total;
      r.hits.forEach((h, rank) => all.push({ ...h, shard: i, rank }));
    });
    all.sort((a, b) => b.score - a.score || a.shard - b.shard || a.rank - b.rank);
    return { total, hits: all.slice(0, size).map(({ id, score }) => ({ id, score })) };
  }

  ids(json: unknown): string[] {
    return this.search(json).hits.map((h) => h.id);
  }

  /** The error lowering or searching raises. */
  error(json: unknown): EsError {
    try {
      this.search(json);
    } catch (e) {
      if (e instanceof EsError) return e;
      throw e;
    }
    throw new Error('expected an error');
  }
}

/** `{type, reason}` of an error and its causes, outermost first. */
export function chain(e: EsError): Array<[string, string | null]> {
  const out: Array<[string, string | null]> = [];
  for (let c: EsError | undefined = e; c; c = c.causedBy) out.push([c.type, c.reason]);
  return out;
}
