/**
 * function_score lowering (ES FunctionScoreQueryBuilder.doToQuery and the score function
 * builders): weight, field_value_factor with its modifiers, random_score (murmur3 of the field
 * value, seeded), script_score through the context's script hook, and gauss / linear / exp decay
 * over numeric and date doc values with multi_value_mode.
 */
import { EsError } from '../../../common/errors.js';
import { dateFormatter, DEFAULT_DATE_FORMAT, parseDateMath } from '../../../common/dates/index.js';
import { murmur3x86_32 } from '../../../common/murmur3.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { NumericColumn } from '../../../search/index/segment.js';
import type { FunctionSpec, Query } from '../../../search/query/query.js';
import { esException, esParseException, illegalArgument } from '../errors.js';
import { javaParseDouble, javaParseLong, javaStringHash, jsonNumberText } from '../java.js';
import type { FunctionScoreNode, ScoreFunctionNode } from '../nodes.js';
import { matchAll } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, isNumberType, type MappedField } from './fields.js';
import { toQuery } from './lower.js';

type Leaf = (doc: number, score: number) => number;

interface ScoreFn {
  factory: ((ls: LiveSegment) => Leaf) | null;
  describe: string;
}

export function lowerFunctionScore(node: FunctionScoreNode, st: LowerState): Query {
  const functions: FunctionSpec[] = [];
  for (const { filter, function: fn } of node.functions) {
    const sf = scoreFunction(st, fn);
    const unfiltered = filter === null || filter.type === 'match_all';
    functions.push({
      filter: unfiltered ? null : (toQuery(filter, st) ?? matchAll()),
      weight: fn.weight ?? 1,
      factory: sf.factory,
      describe: fn.weight === null ? sf.describe : `weight(${sf.describe}) * ${fn.weight}`,
    });
  }
  const inner = toQuery(node.query, st) ?? matchAll();
  const single = functions.length === 1 && functions[0]!.filter === null;
  const q: Query = {
    kind: 'FunctionScore',
    inner,
    functions,
    // FunctionScoreQuery(query, function, ...) uses ScoreMode.FIRST for one unfiltered function
    scoreMode: functions.length === 0 || single ? 'first' : node.scoreMode,
    boostMode: node.boostMode ?? 'multiply',
    // without functions the sub query score is returned as is (no max_boost cap)
    maxBoost: functions.length === 0 ? Infinity : node.maxBoost,
    minScore: node.minScore,
    boost: 1,
  };
  return q;
}

function scoreFunction(st: LowerState, fn: ScoreFunctionNode): ScoreFn {
  switch (fn.fn) {
    case 'weight':
      return { factory: null, describe: 'weight' };
    case 'field_value_factor':
      return fieldValueFactor(st, fn);
    case 'random_score':
      return randomScore(st, fn);
    case 'script_score': {
      const compile = st.ctx.compileScript;
      if (!compile) throw illegalArgument('script_score is not supported by this index context');
      const script = compile(fn.script, 'score');
      return {
        describe: `script[${fn.script.source ?? fn.script.id}], params [${JSON.stringify(fn.script.params)}]`,
        factory: (ls) => {
          const run = script.forSegment(ls);
          return (doc, score) => Number(run(doc, score));
        },
      };
    }
    default:
      return decay(st, fn);
  }
}

/** Sorted numeric values of a doc in a column (reused buffer). */
function valuesOf(col: NumericColumn, doc: number, out: number[]): number {
  if (col.single) {
    const v = col.single[doc]!;
    if (Number.isNaN(v)) return 0;
    out[0] = v;
    return 1;
  }
  const s = col.offsets![doc]!;
  const e = col.offsets![doc + 1]!;
  for (let i = s; i < e; i++) out[i - s] = col.values![i]!;
  return e - s;
}

function numericColumn(ls: LiveSegment, field: string): NumericColumn | null {
  const dv = ls.segment.fields.get(field)?.docValues;
  return dv && dv.kind === 'numeric' ? dv : null;
}

const MODIFIERS: Record<string, (n: number) => number> = {
  none: (n) => n,
  log: Math.log10,
  log1p: (n) => Math.log10(n + 1),
  log2p: (n) => Math.log10(n + 2),
  ln: Math.log,
  ln1p: Math.log1p,
  ln2p: (n) => Math.log1p(n + 1),
  square: (n) => n * n,
  sqrt: Math.sqrt,
  reciprocal: (n) => 1 / n,
};

/** FieldValueFactorFunctionBuilder.doToFunction + FieldValueFactorFunction. */
function fieldValueFactor(
  st: LowerState,
  fn: Extract<ScoreFunctionNode, { fn: 'field_value_factor' }>,
): ScoreFn {
  const f = fieldMapper(st.ctx, fn.field);
  if (!f && fn.missing === null) {
    throw esException(
      `Unable to find a field mapper for field [${fn.field}]. No 'missing' value defined.`,
    );
  }
  if (f) requireNumericFieldData(f);
  const modifier = MODIFIERS[fn.modifier]!;
  const name = f?.name ?? fn.field;
  const missingText = fn.missing !== null ? `?:${fn.missing}` : '';
  return {
    describe: `field value function: ${fn.modifier === 'none' ? '' : fn.modifier}(doc['${fn.field}'].value${missingText} * factor=${fn.factor})`,
    factory: (ls) => {
      const col = f ? numericColumn(ls, name) : null;
      const buf: number[] = [];
      return (doc) => {
        let value: number;
        if (col && valuesOf(col, doc, buf) > 0) value = buf[0]!;
        else if (fn.missing !== null) value = fn.missing;
        else throw esException(`Missing value for field [${fn.field}]`);
        return modifier(value * fn.factor);
      };
    },
  };
}

/** QueryShardContext.getForField for numeric field data. */
function requireNumericFieldData(f: MappedField): void {
  const t = f.typeName;
  if (f.mapping && f.mapping.type === 'text') {
    throw illegalArgument(
      `Fielddata is disabled on text fields by default. Set fielddata=true on [${f.name}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.`,
    );
  }
  if (!(isNumberType(t) || t === 'date' || t === 'boolean')) {
    throw illegalArgument(`field [${f.name}] of type [${t}] is not a numeric field`);
  }
  if (f.mapping && !f.mapping.docValues) {
    throw illegalArgument(
      `Can't load fielddata on [${f.name}] because fielddata is unsupported on fields of type [${t}]. Use doc values instead.`,
    );
  }
}

/** HPPC BitMixer.mix32 / mix(key, seed). */
function mix32(k: number): number {
  k = Math.imul(k ^ (k >>> 16), 0x85ebca6b);
  k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35);
  return k ^ (k >>> 16);
}

const utf8 = new TextEncoder();

/** RandomScoreFunctionBuilder: ES's salt uses the shard id, unknown here (0). */
function randomScore(
  st: LowerState,
  fn: Extract<ScoreFunctionNode, { fn: 'random_score' }>,
): ScoreFn {
  const salt = javaStringHash(st.ctx.index) << 10;
  const hashLong = (v: number) => {
    const b = BigInt.asIntN(64, BigInt(Math.trunc(v)));
    return Number(BigInt.asIntN(32, b ^ (b >> 32n)));
  };
  let seed: number;
  let field: string | null = fn.field;
  if (fn.seed === null) {
    seed = hashLong(st.ctx.now);
    field = null;
  } else {
    seed =
      typeof fn.seed === 'string'
        ? javaStringHash(fn.seed)
        : fn.seed >= -2147483648 && fn.seed <= 2147483647
          ? fn.seed
          : hashLong(fn.seed);
    if (field === null) {
      st.ctx.deprecation?.(
        'As of version 7.0 Elasticsearch will require that a [field] parameter is provided when a [seed] is set',
      );
      field = '_id';
    } else if (!fieldMapper(st.ctx, field)) {
      throw illegalArgument(
        `Field [${field}] is not mapped on [${st.ctx.index}] and cannot be used as a source of random numbers.`,
      );
    }
  }
  const salted = mix32(seed ^ salt);
  const toScore = (h: number) => (h & 0x00ffffff) / (1 << 24);
  const hashText = (s: string) => {
    const b = utf8.encode(s);
    return murmur3x86_32(b, 0, b.length, salted);
  };
  return {
    describe: `random score function (seed: ${seed}, field: ${field})`,
    factory: (ls) => {
      if (field === null) return (doc) => toScore(mix32((ls.docBase + doc) ^ salted));
      if (field === '_id' || field === '_uid')
        return (doc) => toScore(hashText(ls.segment.ids[doc]!));
      if (field === '_seq_no')
        return (doc) => toScore(hashText(jsonNumberText(ls.segment.seqNos[doc]!)));
      const sf = ls.segment.fields.get(field);
      const dv = sf?.docValues;
      return (doc) => {
        let text: string | null = null;
        if (dv?.kind === 'numeric') {
          const v = dv.single
            ? dv.single[doc]!
            : dv.offsets![doc]! < dv.offsets![doc + 1]!
              ? dv.values![dv.offsets![doc]!]!
              : NaN;
          if (!Number.isNaN(v)) text = jsonNumberText(v);
        } else if (dv?.kind === 'ordinal') {
          const o = dv.single
            ? dv.single[doc]!
            : dv.offsets![doc]! < dv.offsets![doc + 1]!
              ? dv.ords![dv.offsets![doc]!]!
              : -1;
          if (o >= 0) text = dv.dict[o]!;
        }
        return toScore(text === null ? salted : hashText(text));
      };
    },
  };
}

// ---- decay functions -----------------------------------------------------------------------------

const DECAY: Record<
  'gauss' | 'linear' | 'exp',
  { scale(s: number, d: number): number; value(v: number, s: number): number }
> = {
  gauss: {
    scale: (s, d) => (0.5 * Math.pow(s, 2)) / Math.log(d),
    value: (v, s) => Math.exp((0.5 * Math.pow(v, 2)) / s),
  },
  linear: {
    scale: (s, d) => s / (1 - d),
    value: (v, s) => Math.max(0, (s - v) / s),
  },
  exp: {
    scale: (s, d) => Math.log(d) / s,
    value: (v, s) => Math.exp(s * v),
  },
};

/** TimeValue.parseTimeValue in millis. */
function timeValueMillis(text: string, setting: string): number {
  const n = text.toLowerCase().trim();
  const units: Array<[string, number]> = [
    ['nanos', 1e-6],
    ['micros', 1e-3],
    ['ms', 1],
    ['s', 1000],
  ];
  let unit: [string, number] | undefined = units.find(([u]) => n.endsWith(u));
  if (!unit && text.endsWith('m')) unit = ['m', 60000];
  if (!unit && n.endsWith('h')) unit = ['h', 3600000];
  if (!unit && n.endsWith('d')) unit = ['d', 86400000];
  if (!unit) {
    if (/^-0*1$/.test(n)) return -1;
    if (/^0+$/.test(n)) return 0;
    throw illegalArgument(
      `failed to parse setting [${setting}] with value [${text}] as a time value: unit is missing or unrecognized`,
    );
  }
  const num = n.slice(0, n.length - unit[0].length).trim();
  let v: number;
  try {
    v = javaParseLong(num);
  } catch {
    let fractional = false;
    try {
      javaParseDouble(num);
      fractional = true;
    } catch {
      // not a number at all
    }
    throw illegalArgument(
      fractional
        ? `failed to parse [${text}], fractional time values are not supported`
        : `failed to parse [${text}]`,
    );
  }
  if (v < -1) {
    throw illegalArgument(
      `failed to parse setting [${setting}] with value [${text}] as a time value: negative durations are not supported`,
    );
  }
  return Math.trunc(v * unit[1]);
}

/** Reads a decay parameter as XContentParser.doubleValue / text would. */
function paramDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return javaParseDouble(v);
  throw new EsError(
    'json_parse_exception',
    `Current token (${tokenName(v)}) not numeric, can not use numeric value accessors`,
    400,
  );
}

function paramText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return jsonNumberText(v);
  if (typeof v === 'boolean') return String(v);
  throw new EsError('illegal_state_exception', `Can't get text on a ${tokenName(v)}`, 500);
}

function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object') return 'START_OBJECT';
  return 'VALUE_BOOLEAN';
}

function decay(
  st: LowerState,
  fn: Extract<ScoreFunctionNode, { fn: 'gauss' | 'linear' | 'exp' }>,
): ScoreFn {
  const f = fieldMapper(st.ctx, fn.field);
  if (!f) throw new EsError('parsing_exception', `unknown field [${fn.field}]`, 400);
  const kind = DECAY[fn.fn];
  let origin: number;
  let scale: number;
  let offset: number;
  let decayRate = 0.5;
  if (f.typeName === 'date') {
    let scaleText: string | null = null;
    let originText: string | null = null;
    let offsetText = '0d';
    for (const [k, v] of Object.entries(fn.params)) {
      if (k === 'scale') scaleText = paramText(v);
      else if (k === 'origin') originText = paramText(v);
      else if (k === 'decay') decayRate = paramDouble(v);
      else if (k === 'offset') offsetText = paramText(v);
      else throw esParseException(`parameter [${k}] not supported!`);
    }
    if (originText === null) origin = st.ctx.now;
    else {
      const formatter = dateFormatter(
        f.mapping?.format ?? DEFAULT_DATE_FORMAT,
        'joda',
        f.mapping?.locale,
      );
      origin = parseDateMath(originText, () => st.ctx.now, false, undefined, formatter);
    }
    if (scaleText === null) throw esParseException('[scale] must be set for date fields.');
    scale = timeValueMillis(scaleText, 'DecayFunctionParser.scale');
    offset = timeValueMillis(offsetText, 'DecayFunctionParser.offset');
  } else if (isNumberType(f.typeName)) {
    let scaleFound = false;
    let originFound = false;
    scale = 0;
    origin = 0;
    offset = 0;
    for (const [k, v] of Object.entries(fn.params)) {
      if (k === 'scale') {
        scale = paramDouble(v);
        scaleFound = true;
      } else if (k === 'decay') decayRate = paramDouble(v);
      else if (k === 'origin') {
        origin = paramDouble(v);
        originFound = true;
      } else if (k === 'offset') offset = paramDouble(v);
      else throw esParseException(`parameter [${k}] not supported!`);
    }
    if (!scaleFound || !originFound) {
      throw esParseException('both [scale] and [origin] must be set for numeric fields.');
    }
  } else {
    throw new EsError(
      'parsing_exception',
      `field [${fn.field}] is of type [${f.typeName}], but only numeric types are supported.`,
      400,
    );
  }
  // AbstractDistanceScoreFunction checks
  if (scale <= 0) throw illegalArgument('function_score : scale must be > 0.0.');
  if (decayRate <= 0 || decayRate >= 1) {
    throw illegalArgument('function_score : decay must be in the range [0..1].');
  }
  if (offset < 0) throw illegalArgument('function_score : offset must be > 0.0');
  const s = kind.scale(scale, decayRate);
  const name = f.name;
  const mode = fn.multiValueMode;
  return {
    describe: `Function for field ${fn.field}:`,
    factory: (ls) => {
      const col = numericColumn(ls, name);
      const buf: number[] = [];
      return (doc) => {
        const n = col ? valuesOf(col, doc, buf) : 0;
        if (n === 0) return kind.value(0, s); // FieldData.replaceMissing(..., 0)
        const d: number[] = [];
        for (let i = 0; i < n; i++) d.push(Math.max(0, Math.abs(buf[i]! - origin) - offset));
        d.sort((a, b) => a - b);
        return kind.value(selectValue(mode, d), s);
      };
    },
  };
}

/** MultiValueMode.select over sorted values. */
function selectValue(mode: string, d: number[]): number {
  switch (mode) {
    case 'min':
      return d[0]!;
    case 'max':
      return d[d.length - 1]!;
    case 'sum':
      return d.reduce((a, b) => a + b, 0);
    case 'avg':
      return d.reduce((a, b) => a + b, 0) / d.length;
    default: {
      const m = d.length >> 1;
      return d.length % 2 === 1 ? d[m]! : (d[m - 1]! + d[m]!) / 2;
    }
  }
}
