/**
 * completion field mappings (ES CompletionFieldMapper.TypeParser): analyzer (default `simple`),
 * search_analyzer, preserve_separators, preserve_position_increments, max_input_length, contexts
 * and multi-fields. The common field parameters are not accepted, as in ES.
 */
import { EsError } from '../common/errors.js';
import type { CompletionParams } from './types.js';
import { illegalArgument, mapperParsing } from './errors.js';
import { javaToString } from './java-numbers.js';
import { isMap } from './field-draft.js';
import type { Draft, Node, ParserCtx } from './field-draft.js';
import { parseMultiFields } from './parse-field-common.js';
import { parseContextDefs } from './completion-contexts.js';

function analyzer(pc: ParserCtx, v: unknown): string {
  const name = javaToString(v);
  if (name !== 'default' && !pc.ctx.analyzerExists(name)) {
    throw illegalArgument(`Can't find default or mapped analyzer with name [${name}]`);
  }
  return name;
}

export function parseCompletion(d: Draft, node: Node, pc: ParserCtx): void {
  let index: string | undefined;
  let search: string | undefined;
  const params: { -readonly [K in keyof CompletionParams]: CompletionParams[K] } = {
    preserveSeparators: true,
    preservePositionIncrements: true,
    maxInputLength: 50,
  };
  for (const [k, v] of [...node]) {
    switch (k) {
      case 'type':
        continue;
      case 'analyzer':
        index = analyzer(pc, v);
        break;
      case 'search_analyzer':
        search = analyzer(pc, v);
        break;
      case 'preserve_separators':
        params.preserveSeparators = javaToString(v).toLowerCase() === 'true'; // Boolean.parseBoolean
        break;
      case 'preserve_position_increments':
        params.preservePositionIncrements = javaToString(v).toLowerCase() === 'true';
        break;
      case 'max_input_length':
        params.maxInputLength = maxInputLength(v);
        break;
      case 'contexts':
        params.contexts = contexts(v);
        params.contextDefs = parseContextDefs(params.contexts);
        break;
      case 'fields':
        parseMultiFields(d, v, pc);
        break;
      default:
        continue;
    }
    node.delete(k);
  }
  if (index === undefined) {
    if (search !== undefined) {
      throw mapperParsing(
        `analyzer on completion field [${d.name}] must be set when search_analyzer is set`,
      );
    }
    index = search = 'simple';
  }
  d.core.analyzer = index;
  d.core.searchAnalyzer = search ?? index;
  d.core.completion = params;
}

function maxInputLength(v: unknown): number {
  const s = javaToString(v);
  const n = /^[+-]?\d+$/.test(s) ? Number(s) : NaN;
  if (!(n >= -2147483648 && n <= 2147483647)) {
    throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
  }
  return n;
}

/** ES ContextMappings.load: a list (or one) of `{name, type, …}` context mappings. */
function contexts(v: unknown): unknown[] {
  const list = Array.isArray(v) ? v : [v];
  for (const c of list) {
    if (!isMap(c))
      throw mapperParsing(`expected a map of context mappings but got [${javaToString(c)}]`);
    if (c.name === undefined) throw mapperParsing('field [name] is missing');
    if (c.type === undefined) throw mapperParsing('field [type] is missing');
    const type = javaToString(c.type);
    if (type !== 'category' && type !== 'geo')
      throw illegalArgument(`No context matching type [${type}]`);
  }
  return list;
}
