/**
 * The parameters many field types share, as ES TypeParsers parses them: parseField (store, index,
 * doc_values, boost, index_options, similarity, copy_to, multi-fields), norms, and for text the
 * analyzers and term vectors. Handled parameters are removed from `node`.
 */
import type { IndexOptions } from './model.js';
import { NUMBER_TYPES } from './model.js';
import { illegalArgument, mapperParsing, parseException } from './errors.js';
import { fieldBooleanValue, nodeFloatValue } from './node-values.js';
import { javaToString } from './java-numbers.js';
import { checkNoRemaining, javaClassName } from './parse-util.js';
import { OPT_RANK, isFieldType, isMap } from './field-draft.js';
import type { Draft, Node, ParserCtx } from './field-draft.js';

const BUILTIN_SIMILARITIES = new Set(['BM25', 'classic', 'boolean']);

/** ES TypeParsers.nodeIndexOptionValue. */
function indexOptionValue(v: unknown): IndexOptions {
  const s = javaToString(v).toLowerCase();
  if (s === 'offsets' || s === 'positions' || s === 'freqs' || s === 'docs') return s;
  throw parseException(`failed to parse index option [${javaToString(v)}]`);
}

export function setIndex(d: Draft, index: boolean): void {
  if (!index) {
    d.opts = 'none';
  } else if (d.opts === 'none') {
    if (d.defaultOpts === 'none') {
      throw illegalArgument(
        `mapper [${d.name}] has different [index] values from other types of the same index`,
      );
    }
    d.opts = d.defaultOpts;
  }
}

function setIndexOptions(d: Draft, o: IndexOptions): void {
  if (d.type === 'keyword' && OPT_RANK[o] > OPT_RANK.freqs) {
    throw illegalArgument(
      `The [keyword] field does not support positions, got [index_options]=${o}`,
    );
  }
  d.opts = o;
}

/** ES TypeParsers.parseField: the parameters every field type shares. */
export function parseCommon(d: Draft, node: Node, pc: ParserCtx): void {
  const name = d.name;
  for (const [prop, v] of [...node]) {
    if (prop !== 'null_value' && v === null) {
      throw mapperParsing(`[${prop}] must not have a [null] value`);
    }
    switch (prop) {
      case 'store':
        d.store = fieldBooleanValue(name, 'store', v);
        break;
      case 'index':
        setIndex(d, fieldBooleanValue(name, 'index', v));
        break;
      case 'doc_values': {
        const dv = fieldBooleanValue(name, 'doc_values', v);
        if (dv && d.type === 'text')
          throw illegalArgument('[text] fields do not support doc values');
        d.docValues = dv;
        break;
      }
      case 'boost':
        d.boost = nodeFloatValue(v);
        break;
      case 'index_options':
        // numbers: deprecated and ignored (NumberFieldMapper.Builder.allowsIndexOptions)
        if (!NUMBER_TYPES.has(d.type) && d.type !== 'scaled_float')
          setIndexOptions(d, indexOptionValue(v));
        break;
      case 'include_in_all':
        if (pc.withinMultiField) {
          throw mapperParsing(
            `include_in_all in multi fields is not allowed. Found the include_in_all in field [${name}] which is within a multi field.`,
          );
        }
        throw mapperParsing(
          '[include_in_all] is not allowed for indices created on or after version 6.0.0 as [_all] is deprecated. As a replacement, you can use an [copy_to] on mapping fields to create your own catch all field.',
        );
      case 'similarity': {
        const s = javaToString(v);
        const exists = BUILTIN_SIMILARITIES.has(s) || (pc.ctx.similarityExists?.(s) ?? false);
        if (!exists) throw mapperParsing(`Unknown Similarity type [${s}] for field [${name}]`);
        d.similarity = s;
        break;
      }
      case 'fields':
        parseMultiFields(d, v, pc);
        break;
      case 'copy_to':
        if (pc.withinMultiField) {
          throw mapperParsing(
            `copy_to in multi fields is not allowed. Found the copy_to in field [${name}] which is within a multi field.`,
          );
        }
        d.copyTo = Array.isArray(v) ? v.map((x) => javaToString(x)) : [javaToString(v)];
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
}

/** ES TypeParsers.parseMultiField. */
export function parseMultiFields(d: Draft, v: unknown, pc: ParserCtx): void {
  let entries: [string, unknown][];
  if (Array.isArray(v) && v.length === 0) entries = [];
  else if (isMap(v)) entries = Object.entries(v);
  else {
    throw mapperParsing(
      `expected map for property [fields] on field [${javaToString(v)}] or [fields] but got a ${javaClassName(v)}`,
    );
  }
  const mpc: ParserCtx = { ...pc, withinMultiField: true };
  for (const [mfName, mfNode] of entries) {
    if (mfName.includes('.')) {
      throw mapperParsing(
        `Field name [${mfName}] which is a multi field of [${d.name}] cannot contain '.'`,
      );
    }
    if (!isMap(mfNode)) {
      throw mapperParsing(`illegal field [${mfName}], only fields can be specified inside fields`);
    }
    const node: Node = new Map(Object.entries(mfNode));
    const typeNode = node.get('type');
    if (typeNode === undefined || typeNode === null) {
      throw mapperParsing(`no type specified for property [${mfName}]`);
    }
    const type = javaToString(typeNode);
    if (type === 'object' || type === 'nested' || type === 'alias') {
      throw mapperParsing(`Type [${type}] cannot be used in multi field`);
    }
    if (!isFieldType(type)) {
      throw mapperParsing(`no handler for type [${type}] declared on field [${mfName}]`);
    }
    const def = pc.parseMultiField(mfName, node, mpc);
    node.delete('type');
    if (!pc.lenient) checkNoRemaining('fields', node);
    d.multi.set(mfName, def);
  }
}

/** ES TypeParsers.parseTermVector. */
function parseTermVector(d: Draft, v: string): void {
  const tv = d.tv;
  const on = (k: 'positions' | 'offsets' | 'payloads') => {
    tv[k] = true;
    tv.vectors = true;
  };
  switch (v) {
    case 'no':
      tv.vectors = false;
      break;
    case 'yes':
      tv.vectors = true;
      break;
    case 'with_offsets':
      on('offsets');
      break;
    case 'with_positions':
      on('positions');
      break;
    case 'with_positions_offsets':
      on('positions');
      on('offsets');
      break;
    case 'with_positions_payloads':
      on('positions');
      on('payloads');
      break;
    case 'with_positions_offsets_payloads':
      on('positions');
      on('offsets');
      on('payloads');
      break;
    default:
      throw mapperParsing(`wrong value for termVector [${v}] for field [${d.name}]`);
  }
}

/** ES TypeParsers.parseNorms; returns true when `prop` was a norms parameter. */
export function parseNorms(d: Draft, prop: string, v: unknown): boolean {
  if (prop === 'norms') {
    if (isMap(v)) {
      const m: Node = new Map(Object.entries(v));
      for (const [k, x] of [...m]) {
        if (k === 'enabled') {
          d.omitNorms = !fieldBooleanValue(d.name, 'enabled', x);
          m.delete(k);
        } else if (k === 'loading') m.delete(k);
      }
      checkNoRemaining('norms', m);
    } else {
      d.omitNorms = !fieldBooleanValue(d.name, 'norms', v);
    }
    return true;
  }
  if (prop === 'omit_norms') {
    d.omitNorms = fieldBooleanValue(d.name, 'norms', v);
    return true;
  }
  return false;
}

export function analyzerName(pc: ParserCtx, v: unknown, field: string, capital = false): string {
  const n = javaToString(v);
  if (n !== 'default' && !pc.ctx.analyzerExists(n)) {
    throw mapperParsing(
      `${capital ? 'Analyzer' : 'analyzer'} [${n}] not found for field [${field}]`,
    );
  }
  return n;
}

/** ES TypeParsers.parseAnalyzersAndTermVectors (text only). */
export function parseAnalyzers(d: Draft, node: Node, pc: ParserCtx): void {
  let index: string | undefined;
  let search: string | undefined;
  let quote: string | undefined;
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'term_vector':
        parseTermVector(d, javaToString(v));
        break;
      case 'store_term_vectors':
        d.tv.vectors = fieldBooleanValue(d.name, 'store_term_vectors', v);
        break;
      case 'store_term_vector_offsets':
      case 'store_term_vector_positions':
      case 'store_term_vector_payloads': {
        const on = fieldBooleanValue(d.name, prop, v);
        const k = prop.slice('store_term_vector_'.length) as 'offsets' | 'positions' | 'payloads';
        if (on) d.tv.vectors = true;
        d.tv[k] = on;
        break;
      }
      case 'analyzer':
        index = analyzerName(pc, v, d.name);
        break;
      case 'search_analyzer':
        search = analyzerName(pc, v, d.name);
        break;
      case 'search_quote_analyzer':
        quote = analyzerName(pc, v, d.name);
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
  if (index === undefined && search !== undefined) {
    throw mapperParsing(`analyzer on field [${d.name}] must be set when search_analyzer is set`);
  }
  if (search === undefined && quote !== undefined) {
    throw mapperParsing(
      `analyzer and search_analyzer on field [${d.name}] must be set when search_quote_analyzer is set`,
    );
  }
  search ??= index;
  quote ??= search;
  d.core.analyzer = index ?? 'default';
  d.core.searchAnalyzer = search ?? 'default';
  d.core.searchQuoteAnalyzer = quote ?? 'default';
}
