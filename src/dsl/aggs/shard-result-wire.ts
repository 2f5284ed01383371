/**
 * Shard-level aggregation results as data that crosses nodes (ES InternalAggregation
 * writeTo/readFrom). v8 `serialize` keeps Maps, typed arrays, NaN and bigints but drops class
 * prototypes and cannot carry functions, so results are walked before and after it:
 * - `node` references to the request's AggNode become their position in the parsed tree and are
 *   re-attached from the receiver's own parse of the same request;
 * - DocFormats travel as their `wire` description;
 * - the sketches and digests (HLL, t-digest, HDR histograms) travel as their fields and get their
 *   prototype back;
 * - a histogram's empty-bucket rounding is rebuilt from its request node;
 * - sort keys lose their functions (the coordinator only compares values);
 * - `top_hits` hits are rendered on the shard (ES InternalTopHits carries full hits): each keeps
 *   its score, sort values and doc for the merge, plus its rendered JSON.
 * Anything else holding a function is refused, so a result is never silently incomplete.
 */
import { RawJson } from '../../common/json.js';
import { DoubleHistogram, IntHistogram } from './metrics/hdr-histogram.js';
import { HllSketch } from './metrics/hyperloglog.js';
import { TDigest } from './metrics/tdigest.js';
import { emptyBucketRounding } from './bucket/histogram.js';
import { docFormatFromWire, type DocFormatWire } from './support/doc-format.js';
import type { AggHit, AggNode, ShardAggResult, TopHitsOptions } from './types.js';

const TAG = '\u0000q';

const CLASSES: Record<string, { prototype: object }> = {
  HllSketch,
  TDigest,
  DoubleHistogram,
  IntHistogram,
};
const CLASS_NAMES = new Map<object, string>(
  Object.entries(CLASSES).map(([n, c]) => [c.prototype, n]),
);

/** A top_hits hit as it crosses nodes: what the merge compares, and the rendered hit. */
export interface WireAggHit extends AggHit {
  rendered: unknown;
}

/** Every node of a parsed aggregation tree by its position (`0/1`, `0/p0`, ...). */
function nodePositions(aggs: readonly AggNode[]): Map<string, AggNode> {
  const out = new Map<string, AggNode>();
  const walk = (list: readonly AggNode[], prefix: string, p: string) =>
    list.forEach((n, i) => {
      const at = `${prefix}${p}${i}`;
      out.set(at, n);
      walk(n.subAggs, `${at}/`, '');
      walk(n.pipelines, `${at}/`, 'p');
    });
  walk(aggs, '', '');
  return out;
}

const isDocFormat = (v: Record<string, unknown>) =>
  typeof v.format === 'function' && typeof v.parseTerm === 'function';
const isSortKey = (v: Record<string, unknown>) =>
  typeof v.kind === 'string' && 'order' in v && 'valueType' in v && 'missing' in v;

const cannotSerialize = (where: string) =>
  new Error(`aggregation result cannot cross nodes: a function at [${where}]`);

/**
 * Encodes one shard's aggregation result for v8 `serialize`. `renderTopHits` renders the hits of
 * a top_hits result on the shard that collected them.
 */
export function encodeShardAggs(
  result: ShardAggResult,
  aggs: readonly AggNode[],
  renderTopHits: (hits: AggHit[], o: TopHitsOptions) => unknown[],
): unknown {
  const positions = new Map<AggNode, string>();
  for (const [p, n] of nodePositions(aggs)) positions.set(n, p);
  const enc = (v: unknown, where: string): unknown => {
    if (typeof v === 'function') throw cannotSerialize(where);
    if (v === null || typeof v !== 'object') return v;
    // v8 serialize keeps these as they are
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date) return v;
    if (Array.isArray(v)) return v.map((x, i) => enc(x, `${where}[${i}]`));
    if (v instanceof Map)
      return new Map([...v].map(([k, x]) => [enc(k, where), enc(x, `${where}.${String(k)}`)]));
    if (v instanceof Set) return new Set([...v].map((x) => enc(x, where)));
    if (v instanceof RawJson) return { [TAG]: 'raw', t: v.text };
    const node = positions.get(v as AggNode);
    if (node !== undefined) return { [TAG]: 'node', p: node };
    const o = v as Record<string, unknown>;
    if (isDocFormat(o)) return { [TAG]: 'fmt', w: o.wire };
    const proto = Object.getPrototypeOf(v) as object | null;
    if (proto !== Object.prototype && proto !== null) {
      const name = CLASS_NAMES.get(proto);
      if (!name)
        throw new Error(`aggregation result cannot cross nodes: an instance at [${where}]`);
      return { [TAG]: 'cls', c: name, f: encFields(o, where) };
    }
    if (isSortKey(o)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(o)) if (typeof x !== 'function') out[k] = enc(x, k);
      return out;
    }
    if (o.spec === 'top_hits' && Array.isArray(o.hits)) {
      const hits = o.hits as AggHit[];
      const rendered = hits.length > 0 ? renderTopHits(hits, o.opts as TopHitsOptions) : [];
      const wireHits = hits.map((h, i) => ({
        score: h.score,
        sort: h.sort,
        globalDoc: h.globalDoc,
        doc: h.doc,
        rendered: rendered[i],
      }));
      return encFields({ ...o, hits: wireHits }, where);
    }
    if (typeof o.next === 'function' && typeof o.round === 'function') {
      const { next: _n, round: _r, ...rest } = o;
      return { [TAG]: 'empty', f: encFields(rest, where) };
    }
    return encFields(o, where);
  };
  const encFields = (o: Record<string, unknown>, where: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = enc(x, `${where}.${k}`);
    return out;
  };
  return enc(result, 'aggregations');
}

/**
 * The inverse of `encodeShardAggs` over the receiver's parse of the same request; `origin` is
 * the receiver's identity of the shard (top_hits ties and the reduce's shard order).
 */
export function decodeShardAggs(
  data: unknown,
  aggs: readonly AggNode[],
  origin: object,
): ShardAggResult {
  const nodes = nodePositions(aggs);
  const dec = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date) return v;
    if (Array.isArray(v)) return v.map(dec);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [dec(k), dec(x)]));
    if (v instanceof Set) return new Set([...v].map(dec));
    const o = v as Record<string, unknown>;
    switch (o[TAG]) {
      case 'raw':
        return new RawJson(o.t as string);
      case 'node': {
        const n = nodes.get(o.p as string);
        if (!n) throw new Error(`shard aggregation result names an unknown node [${String(o.p)}]`);
        return n;
      }
      case 'fmt':
        return docFormatFromWire(o.w as DocFormatWire);
      case 'cls':
        return Object.setPrototypeOf(decFields(o.f as Record<string, unknown>), CLASSES[o.c as string]!.prototype) as unknown; // prettier-ignore
      case 'empty':
        // completed by the histogram holding it (its node gives the rounding)
        return { [TAG]: 'empty', ...decFields(o.f as Record<string, unknown>) };
    }
    const out = decFields(o);
    const empty = out.empty as Record<string, unknown> | null | undefined;
    if (empty && empty[TAG] === 'empty') {
      delete empty[TAG];
      Object.assign(empty, emptyBucketRounding(out.node as AggNode));
    }
    if (out.spec === 'top_hits' && Array.isArray(out.hits))
      for (const h of out.hits as AggHit[]) h.origin = origin;
    return out;
  };
  const decFields = (o: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = dec(x);
    return out;
  };
  return dec(data) as ShardAggResult;
}

/** A hit of a decoded top_hits result carries its rendered JSON (rendered on its shard). */
export function isRenderedAggHit(h: unknown): h is WireAggHit {
  return typeof h === 'object' && h !== null && 'rendered' in h;
}
