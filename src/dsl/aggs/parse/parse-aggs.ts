/**
 * Parses the `aggs` object of a search request into AggNode trees (ES
 * AggregatorFactories.parseAggregators), with ES 6.8's parse errors, then validates the tree
 * (leaf aggregations without sub-aggregations, placement rules, pipeline order and paths).
 */
import {
  aggregationsTooDeep,
  EsError,
  illegalArgument,
  MAX_AGGREGATIONS_DEPTH,
  parsingException,
} from '../../../common/errors.js';
import { AGGS, PIPELINES, type ParseContext } from '../registry.js';
import type { AggNode } from '../types.js';
import { isObj, tokenOf } from './object-parser.js';
import { resolvePipelineOrder } from './pipeline-order.js';

const VALID_NAME = /^[^[\]>]+$/;

export interface ParseOptions {
  warnings?: string[];
}

export function parseAggregations(json: unknown, opts: ParseOptions = {}): AggNode[] {
  if (!isObj(json)) {
    throw parsingException(`Unknown key for a ${tokenOf(json)} in [aggregations].`);
  }
  const pc: ParseContext = { warnings: opts.warnings };
  return parseLevel(json, pc, 1);
}

const validated = new WeakSet<AggNode[]>();

/**
 * The checks ES runs when building aggregators on each shard (AggregatorFactories.Builder.build):
 * placement rules, pipeline validation and pipeline dependency order. Errors here are shard
 * failures in ES (the executor wraps them in search_phase_execution_exception).
 */
export function validateAggregations(nodes: AggNode[]): void {
  if (validated.has(nodes)) return;
  validateLevel(nodes, []);
  splitTopLevel(nodes);
  validated.add(nodes);
}

function parseLevel(json: Record<string, unknown>, pc: ParseContext, depth: number): AggNode[] {
  if (depth > MAX_AGGREGATIONS_DEPTH && Object.keys(json).length > 0) throw aggregationsTooDeep();
  const out: AggNode[] = [];
  const regular: AggNode[] = [];
  const pipelines: AggNode[] = [];
  for (const [name, def] of Object.entries(json)) {
    if (!VALID_NAME.test(name)) {
      throw parsingException(
        `Invalid aggregation name [${name}]. Aggregation names must be alpha-numeric and can only contain '_' and '-'`,
      );
    }
    if (!isObj(def)) {
      throw parsingException(
        `Aggregation definition for [${name} starts with a [${tokenOf(def)}], expected a [START_OBJECT].`,
      );
    }
    let type: string | null = null;
    let params: unknown = null;
    let meta: Record<string, unknown> | null = null;
    let subJson: Record<string, unknown> | null = null;
    for (const [field, value] of Object.entries(def)) {
      if (!isObj(value)) {
        throw parsingException(
          `Expected [START_OBJECT] under [${field}], but got a [${tokenOf(value)}] in [${name}]`,
        );
      }
      if (field === 'meta') {
        meta = value;
      } else if (field === 'aggs' || field === 'aggregations') {
        if (subJson !== null)
          throw parsingException(`Found two sub aggregation definitions under [${name}]`);
        subJson = value;
      } else {
        if (type !== null) {
          throw parsingException(
            `Found two aggregation type definitions in [${name}]: [${type}] and [${field}]`,
          );
        }
        const spec = AGGS.get(field) ?? PIPELINES.get(field);
        if (!spec) {
          throw new EsError(
            'named_object_not_found_exception',
            `unable to parse BaseAggregationBuilder with name [${field}]: parser not found`,
            400,
          );
        }
        type = field;
        params = spec.parse(value, name, pc);
      }
    }
    if (type === null) throw parsingException(`Missing definition for aggregation [${name}]`);
    const sub = subJson !== null ? parseLevel(subJson, pc, depth + 1) : null;
    const spec = AGGS.get(type);
    if (sub !== null && (!spec || spec.leaf)) {
      throw new EsError(
        'aggregation_initialization_exception',
        `Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`,
        500,
      );
    }
    const subRegular = sub ? sub.filter((n) => AGGS.has(n.type)) : [];
    const subPipelines = sub ? sub.filter((n) => PIPELINES.has(n.type)) : [];
    const node: AggNode = {
      name,
      type,
      meta,
      params,
      subAggs: subRegular,
      pipelines: subPipelines,
    };
    if (PIPELINES.has(type)) pipelines.push(node);
    else {
      if (regular.some((r) => r.name === name)) {
        throw illegalArgument(`Two sibling aggregations cannot have the same name: [${name}]`);
      }
      regular.push(node);
    }
    out.push(node);
  }
  return out;
}

/** Validates one level: placement rules, pipeline checks and pipeline order. */
function validateLevel(nodes: AggNode[], ancestors: AggNode[]): void {
  const parent = ancestors.length ? ancestors[ancestors.length - 1]! : null;
  const regular = nodes.filter((n) => AGGS.has(n.type));
  const pipes = nodes.filter((n) => PIPELINES.has(n.type));
  for (const n of regular) {
    AGGS.get(n.type)!.validate?.(n, parent, ancestors);
    const children = [...n.subAggs, ...n.pipelines];
    validateLevel(children, [...ancestors, n]);
    (n as { pipelines: readonly AggNode[] }).pipelines = resolvePipelineOrder(
      n.pipelines,
      n.subAggs,
    );
  }
  for (const p of pipes) PIPELINES.get(p.type)!.validate?.(p, parent, regular);
}

/** The top level: regular aggregations, and pipelines in dependency order. */
export function splitTopLevel(nodes: AggNode[]): { aggs: AggNode[]; pipelines: AggNode[] } {
  const aggs = nodes.filter((n) => AGGS.has(n.type));
  const pipelines = resolvePipelineOrder(
    nodes.filter((n) => PIPELINES.has(n.type)),
    aggs,
  );
  return { aggs, pipelines };
}
