/**
 * `_script` sorts (ES ScriptSortBuilder): `{"_script": {"script", "type": number|string, "order",
 * "mode"}}` for the search `sort` and top_hits. The script runs once per document against the
 * segment's doc values; `number` sorts on its value as a double (runAsDouble), `string` on its
 * toString(). Both are single-valued (FieldData.singleton), so `mode` never changes the value.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { javaToString } from '../../functions/java-text.js';
import type { FieldMapping } from '../../mapping/types.js';
import type { SortKey, SortValue } from '../../search/collect/sort.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { parseObject } from '../aggs/parse/object-parser.js';
import {
  compileScript,
  parseScriptSpec,
  SegmentDocLookup,
  type ScriptMethods,
  type ScriptSpec,
} from '../script/index.js';

export interface ScriptSortSpec {
  readonly script: ScriptSpec;
  readonly type: 'number' | 'string';
  readonly order: 'asc' | 'desc';
  readonly mode: 'min' | 'max' | 'sum' | 'avg' | 'median' | null;
}

const SORT_MODES = ['min', 'max', 'sum', 'avg', 'median'] as const;

/** ScriptSortBuilder.fromXContent (a ConstructingObjectParser named `_script`). */
export function parseScriptSort(json: unknown): ScriptSortSpec {
  let script: ScriptSpec | null = null;
  let type: ScriptSortSpec['type'] | null = null;
  let order: ScriptSortSpec['order'] = 'asc';
  let mode: ScriptSortSpec['mode'] = null;
  let nested = false;
  parseObject('_script', json, [
    { names: ['script'], kind: 'object_or_string', set: (v) => (script = parseScriptSpec(v)) },
    {
      names: ['type'],
      kind: 'string',
      set: (v) => {
        const t = (v as string).toLowerCase();
        if (t !== 'number' && t !== 'string')
          throw illegalArgument(`Unknown ScriptSortType [${v as string}]`);
        type = t;
      },
    },
    {
      names: ['order'],
      kind: 'string',
      set: (v) => {
        const o = (v as string).toLowerCase();
        // SortOrder.fromString is Enum.valueOf
        if (o !== 'asc' && o !== 'desc')
          throw illegalArgument(
            `No enum constant org.elasticsearch.search.sort.SortOrder.${(v as string).toUpperCase()}`,
          );
        order = o;
      },
    },
    {
      names: ['mode'],
      kind: 'string',
      set: (v) => {
        const m = (v as string).toLowerCase() as (typeof SORT_MODES)[number];
        if (!SORT_MODES.includes(m)) throw illegalArgument(`Unknown SortMode [${v as string}]`);
        mode = m;
      },
    },
    { names: ['nested_path'], kind: 'string', set: () => (nested = true) },
    { names: ['nested_filter'], kind: 'object', set: () => (nested = true) },
    { names: ['nested'], kind: 'object', set: () => (nested = true) },
  ]);
  const missing = [script === null ? 'script' : null, type === null ? 'type' : null].filter(
    (x) => x !== null,
  );
  if (missing.length > 0) throw illegalArgument(`Required [${missing.join(', ')}]`);
  // ScriptSortBuilder.sortMode
  if (type === 'string' && (mode === 'sum' || mode === 'avg' || mode === 'median')) {
    throw illegalArgument(`script sort of type [string] doesn't support mode [${mode}]`);
  }
  if (nested) throw illegalArgument('nested [_script] sorts are not supported');
  return { script: script!, type: type!, order, mode };
}

/** What a script sort needs from the shard it runs on. */
export interface ScriptSortEnv {
  field(path: string): FieldMapping | undefined;
  methods?: ScriptMethods | undefined;
  /** Deprecation warnings raised by doc-value reads. */
  warn?: ((msg: string) => void) | undefined;
  /** A segment's per-doc `_source` reader, for geo_point / binary values. */
  sourceReader?: ((ls: LiveSegment) => ((doc: number) => unknown) | null) | undefined;
}

/** ScriptSortBuilder.build: a sort key whose values come from the script, per segment. */
export function scriptSortKey(spec: ScriptSortSpec, env: ScriptSortEnv): SortKey {
  const s = spec.script;
  const cs = compileScript(s.source, {
    lang: s.lang,
    params: { ...s.params },
    ...(env.methods ? { methods: env.methods } : {}),
    variables: ['_score'],
  });
  const numeric = spec.type === 'number';
  return {
    kind: 'script',
    field: '_script',
    order: spec.order,
    missing: '_last',
    mode: spec.mode,
    valueType: numeric ? 'double' : 'string',
    needsScore: cs.needsScore,
    forSegment(ls: LiveSegment) {
      const lookup = new SegmentDocLookup(env.field, undefined, env.warn);
      lookup.setSegment(ls);
      if (env.sourceReader) lookup.setSourceReader(env.sourceReader(ls));
      const vars: Record<string, unknown> = { doc: lookup, _score: 0 };
      return (doc: number, score: number): SortValue => {
        lookup.setDoc(doc);
        vars._score = score;
        const v = cs.evaluate(vars);
        return numeric ? asDouble(v) : asString(v);
      };
    },
  };
}

/** SearchScript.runAsDouble: ((Number) run()).doubleValue(). */
function asDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined) throw new EsError('null_pointer_exception', null, 500);
  throw new EsError(
    'class_cast_exception',
    `${javaClassName(v)} cannot be cast to java.lang.Number`,
    500,
  );
}

/** BytesRef of run().toString(). */
function asString(v: unknown): string {
  if (v === null || v === undefined) throw new EsError('null_pointer_exception', null, 500);
  return javaToString(v);
}

function javaClassName(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'java.lang.String';
    case 'boolean':
      return 'java.lang.Boolean';
  }
  return Array.isArray(v) ? 'java.util.ArrayList' : 'java.lang.Object';
}
