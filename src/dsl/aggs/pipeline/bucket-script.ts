/**
 * Per-bucket parent pipelines (ES BucketScript-, BucketSelector-, BucketSortPipelineAggregator):
 * bucket_script adds a computed simple value to each bucket, bucket_selector keeps buckets whose
 * script returns true (how SQL's HAVING lowers), bucket_sort sorts and truncates buckets. Script
 * variables are the resolved buckets_path values, merged into `params`.
 */
import { EsError, illegalArgument, parsingException } from '../../../common/errors.js';
import {
  compileScript,
  parseScriptSpec,
  type CompiledScript,
  type ScriptSpec,
} from '../../script/index.js';
import { isObj, tokenOf, toLong } from '../parse/object-parser.js';
import { resolveBucketValue, type GapPolicy } from '../reduce/property.js';
import { registerPipeline } from '../registry.js';
import type { AggNode, InternalAgg, MultiBucketInternal, ReduceContext } from '../types.js';
import {
  parseGapPolicy,
  pipelineFormat,
  simpleValue,
  validateNotTopLevel,
  withAgg,
} from './common.js';

interface ScriptParams {
  paths: Record<string, string>;
  script: ScriptSpec;
  format: string | null;
  gapPolicy: GapPolicy;
}

function parseScriptPipeline(type: string, json: unknown, name: string): ScriptParams {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let paths: Record<string, string> | null = null;
  let script: ScriptSpec | null = null;
  let format: string | null = null;
  let gapPolicy: GapPolicy = 'skip';
  for (const [k, v] of Object.entries(json)) {
    const tok = tokenOf(v);
    if (tok === 'VALUE_STRING') {
      if (k === 'format' && type === 'bucket_script') format = v as string;
      else if (k === 'buckets_path') paths = { _value: v as string };
      else if (k === 'gap_policy') gapPolicy = parseGapPolicy(v as string);
      else if (k === 'script') script = parseScriptSpec(v);
      else throw parsingException(`Unknown key for a ${tok} in [${name}]: [${k}].`);
    } else if (tok === 'START_ARRAY') {
      if (k !== 'buckets_path')
        throw parsingException(`Unknown key for a ${tok} in [${name}]: [${k}].`);
      paths = {};
      (v as unknown[]).forEach((x, i) => (paths![`_value${i}`] = String(x)));
    } else if (tok === 'START_OBJECT') {
      if (k === 'script') script = parseScriptSpec(v);
      else if (k === 'buckets_path') {
        paths = {};
        for (const [pk, pv] of Object.entries(v as Record<string, unknown>)) paths[pk] = String(pv);
      } else throw parsingException(`Unknown key for a ${tok} in [${name}]: [${k}].`);
    } else throw parsingException(`Unexpected token ${tok} in [${name}].`);
  }
  if (!paths)
    throw parsingException(
      `Missing required field [buckets_path] for ${type === 'bucket_script' ? 'series_arithmetic' : 'bucket_selector'} aggregation [${name}]`,
    );
  if (!script)
    throw parsingException(
      `Missing required field [script] for ${type === 'bucket_script' ? 'series_arithmetic' : 'bucket_selector'} aggregation [${name}]`,
    );
  return { paths, script, format, gapPolicy };
}

const compiled = new WeakMap<AggNode, CompiledScript>();

function scriptOf(node: AggNode, rc: ReduceContext): CompiledScript {
  let s = compiled.get(node);
  if (!s) {
    const p = node.params as ScriptParams;
    s = compileScript(p.script.source, {
      lang: p.script.lang,
      params: p.script.params,
      methods: rc.scriptMethods,
    });
    compiled.set(node, s);
  }
  return s;
}

function multi(agg: InternalAgg): MultiBucketInternal {
  const m = agg as MultiBucketInternal;
  if (!Array.isArray(m.buckets)) {
    throw new EsError(
      'class_cast_exception',
      `${agg.node.type} aggregation [${agg.name}] is not a multi-bucket aggregation`,
      500,
    );
  }
  return m;
}

function bucketScript(node: AggNode, agg: InternalAgg, rc: ReduceContext): InternalAgg {
  const p = node.params as ScriptParams;
  const h = multi(agg);
  const script = scriptOf(node, rc);
  const format = pipelineFormat(p.format);
  const buckets = h.buckets.map((b) => {
    const vars: Record<string, unknown> = { ...p.script.params };
    for (const [varName, path] of Object.entries(p.paths)) {
      const v = resolveBucketValue(h, b, path, p.gapPolicy);
      if (p.gapPolicy === 'skip' && Number.isNaN(v)) return b;
      vars[varName] = v;
    }
    const r = script.evaluate({ params: vars });
    if (r === null || r === undefined) return b;
    if (typeof r !== 'number') {
      throw new EsError('class_cast_exception', `cannot cast ${typeof r} to java.lang.Number`, 500);
    }
    return withAgg(b, simpleValue(node, r, format));
  });
  return { ...h, buckets } as InternalAgg;
}

function bucketSelector(node: AggNode, agg: InternalAgg, rc: ReduceContext): InternalAgg {
  const p = node.params as ScriptParams;
  const h = multi(agg);
  const script = scriptOf(node, rc);
  const buckets = h.buckets.filter((b) => {
    const vars: Record<string, unknown> = { ...p.script.params };
    for (const [varName, path] of Object.entries(p.paths))
      vars[varName] = resolveBucketValue(h, b, path, p.gapPolicy);
    const r = script.evaluate({ params: vars });
    if (typeof r !== 'boolean') {
      throw new EsError(
        'class_cast_exception',
        `Cannot cast ${r === null ? 'null' : typeof r} to boolean`,
        500,
      );
    }
    return r;
  });
  return { ...h, buckets } as InternalAgg;
}

for (const type of ['bucket_script', 'bucket_selector'] as const) {
  registerPipeline<ScriptParams>({
    type,
    category: 'pipeline',
    kind: 'parent',
    parse: (json, name) => parseScriptPipeline(type, json, name),
    bucketsPaths: (p) => Object.values(p.paths),
    validate: (node, parent) => validateNotTopLevel(parent, node),
    applyToParent: type === 'bucket_script' ? bucketScript : bucketSelector,
  });
}

// ---- bucket_sort --------------------------------------------------------------------------------

interface SortParams {
  sorts: Array<{ field: string; asc: boolean }>;
  from: number;
  size: number | null;
  gapPolicy: GapPolicy;
}

function parseBucketSort(json: unknown, name: string): SortParams {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  const p: SortParams = { sorts: [], from: 0, size: null, gapPolicy: 'skip' };
  for (const [k, v] of Object.entries(json)) {
    switch (k) {
      case 'sort': {
        const items = Array.isArray(v) ? v : [v];
        p.sorts = items.map((it) => {
          if (typeof it === 'string') {
            if (it === '_score')
              throw illegalArgument(
                `[bucket_sort] only supports field based sorting; incompatible sort: [{"_score":{"order":"desc"}}]`,
              );
            return { field: it, asc: true };
          }
          if (!isObj(it)) throw parsingException(`[bucket_sort] failed to parse field [sort]`);
          const [field, spec] = Object.entries(it)[0]!;
          let order = 'asc';
          if (typeof spec === 'string') order = spec;
          else if (isObj(spec) && typeof spec.order === 'string') order = spec.order;
          order = order.toLowerCase();
          if (order !== 'asc' && order !== 'desc')
            throw illegalArgument(`No sort order for [${order}]`);
          return { field, asc: order === 'asc' };
        });
        break;
      }
      case 'from':
        p.from = toLong(v);
        if (p.from < 0) throw illegalArgument(`[from] must be a non-negative integer: [${p.from}]`);
        break;
      case 'size':
        p.size = toLong(v);
        if (p.size < 1) throw illegalArgument(`[size] must be a positive integer: [${p.size}]`);
        break;
      case 'gap_policy':
        if (typeof v !== 'string') throw illegalArgument(`Unsupported token [${tokenOf(v)}]`);
        p.gapPolicy = parseGapPolicy(v.toLowerCase());
        break;
      default:
        throw new EsError(
          'x_content_parse_exception',
          `[bucket_sort] unknown field [${k}], parser not found`,
          400,
        );
    }
  }
  if (p.sorts.length === 0 && p.size === null && p.from === 0) {
    throw new EsError(
      'illegal_state_exception',
      `[${name}] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort`,
      500,
    );
  }
  return p;
}

function bucketSort(node: AggNode, agg: InternalAgg): InternalAgg {
  const p = node.params as SortParams;
  const h = multi(agg);
  const n = h.buckets.length;
  const size = p.size ?? n;
  if (p.from >= n) return { ...h, buckets: [] } as InternalAgg;
  if (p.sorts.length === 0)
    return { ...h, buckets: h.buckets.slice(p.from, Math.min(p.from + size, n)) } as InternalAgg;
  const rows: Array<{ b: (typeof h.buckets)[number]; vals: Array<unknown> }> = [];
  for (const b of h.buckets) {
    const vals: unknown[] = [];
    let any = false;
    for (const s of p.sorts) {
      if (s.field === '_key') {
        vals.push(b.key instanceof Date ? b.key.getTime() : b.key);
        any = true;
        continue;
      }
      const v = resolveBucketValue(h, b, s.field, p.gapPolicy);
      if (p.gapPolicy === 'skip' && Number.isNaN(v)) {
        vals.push(undefined);
        continue;
      }
      vals.push(v);
      any = true;
    }
    if (any) rows.push({ b, vals });
  }
  rows.sort((x, y) => {
    for (let i = 0; i < p.sorts.length; i++) {
      const a = x.vals[i];
      const b = y.vals[i];
      if (a === undefined && b === undefined) continue;
      if (a === undefined) return 1;
      if (b === undefined) return -1;
      const c = (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
      if (c !== 0) return p.sorts[i]!.asc ? c : -c;
    }
    return 0;
  });
  const limit = Math.min(p.from + size, rows.length);
  return { ...h, buckets: rows.slice(p.from, limit).map((r) => r.b) } as InternalAgg;
}

registerPipeline<SortParams>({
  type: 'bucket_sort',
  category: 'pipeline',
  kind: 'parent',
  parse: parseBucketSort,
  bucketsPaths: (p) => p.sorts.map((s) => s.field),
  validate: (node, parent) => validateNotTopLevel(parent, node),
  applyToParent: bucketSort,
});
