/**
 * completion values (ES CompletionFieldMapper.parse, which takes whole arrays): strings or
 * `{input, weight, contexts}` objects, deduplicated by input keeping the highest weight, truncated
 * to max_input_length; blank inputs are recorded as ignored. Errors are not wrapped per field
 * (the mapper overrides FieldMapper.parse), so the document parser reports "failed to parse".
 */
import { EsError } from '../common/errors.js';
import type { CompletionValue } from './types.js';
import type { FieldNode } from './build.js';
import { illegalArgument } from './errors.js';
import { javaDoubleToString, javaToString, tryParseJavaLong } from './java-numbers.js';
import { javaHashSetOrder } from './java-collections.js';
import type { ValueSink } from './value-sink.js';
import { contextDefNamed, parseDocContext } from './completion-contexts.js';

export type MultiFieldParser = (f: FieldNode, v: unknown, sink: ValueSink) => void;

const ALLOWED = javaHashSetOrder(['input', 'weight', 'contexts']);

/** XContentParser.Token names (ES's own token enum, not Jackson's). */
function xToken(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT';
}

export function parseCompletionValue(
  f: FieldNode,
  v: unknown,
  sink: ValueSink,
  multi: MultiFieldParser,
): void {
  if (v === null) return;
  const inputs = new Map<string, CompletionValue>();
  if (Array.isArray(v)) for (const el of v) readOne(f, el, inputs);
  else readOne(f, v, inputs);
  addCompletionInputs(f, inputs.values(), sink);
  // ES hands multi-fields the whole input (weight and contexts too); non-completion ones read
  // its text
  for (const value of inputs.values())
    for (const mf of f.multi) {
      if (mf.type === 'completion') addCompletionInputs(mf, [value], sink);
      else multi(mf, value.input, sink);
    }
}

/** Indexes parsed inputs: blank ones are recorded as ignored, long ones truncated. */
function addCompletionInputs(
  f: FieldNode,
  values: Iterable<CompletionValue>,
  sink: ValueSink,
): void {
  const max = f.completion!.maxInputLength;
  const kept = new Map<string, CompletionValue>();
  for (const value of values) {
    let input = value.input;
    if (input.trim().length === 0) {
      sink.ignore(f.path);
      continue;
    }
    if (input.length > max) {
      let len = max;
      const c = input.charCodeAt(len - 1);
      if (c >= 0xd800 && c <= 0xdbff) len += 1; // keep surrogate pairs whole
      input = input.slice(0, len);
    }
    kept.set(value.input, input === value.input ? value : { ...value, input });
  }
  // ES builds the suggest fields walking its HashMap of inputs: the first bad one fails
  const order = kept.size > 1 ? javaHashSetOrder([...kept.keys()]) : [...kept.keys()];
  for (const key of order) checkReserved(kept.get(key)!.input, !!f.completion!.contexts);
  for (const value of kept.values()) sink.add(f, value);
}

/**
 * Lucene SuggestField: the FST's token separator (0x1F), hole (0x1E) and end byte (0x00) cannot
 * be in an input; ContextSuggestField also reserves its context separator (0x1D).
 */
function checkReserved(input: string, hasContexts: boolean): void {
  const reserved = (c: number) => c === 0x1f || c === 0x1e || c === 0x00;
  const at = (test: (c: number) => boolean) => {
    for (let i = 0; i < input.length; i++) if (test(input.charCodeAt(i))) return i;
    return -1;
  };
  const bad = (what: string, i: number) =>
    illegalArgument(
      `Illegal ${what} [${input}] UTF-16 codepoint [0x${input.charCodeAt(i).toString(16)}] at position ${i} is a reserved character`,
    );
  const i = at(reserved);
  if (i >= 0) throw bad('input', i);
  const j = hasContexts ? at((c) => c === 0x1d) : -1;
  if (j >= 0) throw bad('value', j);
}

function readOne(f: FieldNode, v: unknown, inputs: Map<string, CompletionValue>): void {
  if (typeof v === 'string') {
    inputs.set(v, { input: v, weight: 1 });
    return;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new EsError(
      'parsing_exception',
      `failed to parse [${f.name}]: expected text or object, but got ${xToken(v)}`,
      400,
    );
  }
  const list: string[] = [];
  let weight = 1;
  let contexts: Record<string, string[]> | undefined;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!ALLOWED.includes(k)) {
      throw illegalArgument(`unknown field name [${k}], must be one of [${ALLOWED.join(', ')}]`);
    }
    if (k === 'input') {
      if (typeof x === 'string') list.push(x);
      else if (Array.isArray(x)) {
        for (const i of x) {
          if (typeof i !== 'string')
            throw illegalArgument(`input array must have string values, but was [${xToken(i)}]`);
          list.push(i);
        }
      } else throw illegalArgument(`input must be a string or array, but was [${xToken(x)}]`);
    } else if (k === 'weight') {
      weight = readWeight(x);
    } else {
      if (!f.completion!.contexts) {
        throw illegalArgument(`contexts field is not supported for field: [${f.path}]`);
      }
      if (x === null || typeof x !== 'object' || Array.isArray(x)) {
        throw illegalArgument(`contexts must be an object or an array , but was [${xToken(x)}]`);
      }
      contexts = {};
      for (const [name, cv] of Object.entries(x as Record<string, unknown>)) {
        const def = contextDefNamed(f.completion!.contextDefs ?? [], name);
        contexts[name] = parseDocContext(def, cv);
      }
    }
  }
  for (const input of list) {
    const cur = inputs.get(input);
    if (cur === undefined || cur.weight < weight) {
      inputs.set(input, contexts ? { input, weight, contexts } : { input, weight });
    }
  }
}

function readWeight(x: unknown): number {
  let w: number;
  if (typeof x === 'string') {
    const l = tryParseJavaLong(x);
    if (l === undefined) throw illegalArgument(`weight must be an integer, but was [${x}]`);
    w = Number(l);
  } else if (typeof x === 'number') {
    if (!Number.isInteger(x))
      throw illegalArgument(`weight must be an integer, but was [${javaDoubleToString(x)}]`);
    w = x;
  } else {
    throw illegalArgument(`weight must be a number or string, but was [${xToken(x)}]`);
  }
  if (w < 0 || w > 2147483647) {
    throw illegalArgument(`weight must be in the interval [0..2147483647], but was [${w}]`);
  }
  return w;
}
