/**
 * Resolving an aggregation's field/script/missing/value_type against the mapping (ES
 * ValuesSourceConfig.resolve + toValuesSource), and per-segment readers over the columns:
 * numeric doc values (Float64, NaN = missing), ordinal doc values (keyword, ip, text with
 * fielddata), script values, and `missing` substitution. Readers expose the raw single-valued
 * column as a fast path; aggregators fall back to read(doc) for everything else.
 */
import { EsError, illegalArgument, illegalState } from '../../../common/errors.js';
import { ensureNoSelfReferences } from '../../../common/self-reference.js';
import type { FieldMapping } from '../../../mapping/types.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { NumericColumn, OrdinalColumn } from '../../../search/index/segment.js';
import { uninvertedColumn } from '../../../search/index/segment-builder.js';
import { isNumericType } from '../../../search/index/field-values.js';
import {
  compileScript,
  javaDoubleToString,
  SegmentDocLookup,
  type CompiledScript,
} from '../../script/index.js';
import type { ValuesSourceParams, ValueType } from '../parse/values-source-params.js';
import type { ShardAggContext } from '../types.js';
import { fieldDocFormat, valueTypeFormat, type DocFormat } from './doc-format.js';
import { timeZone, type TimeZone } from './dates.js';
import { addWarning } from './bucket-consumer.js';

export type SourceKind = 'numeric' | 'bytes';

export interface ResolvedValues {
  readonly kind: SourceKind;
  readonly field: FieldMapping | null;
  readonly unmapped: boolean;
  readonly format: DocFormat;
  /** Numeric values are doubles (DoubleTerms) rather than longs. */
  readonly floating: boolean;
  readonly valueType: ValueType | null;
  readonly missingNumber: number | null;
  readonly missingTerm: string | null;
  readonly script: CompiledScript | null;
  /** `script` transforms field values (`_value`) instead of producing them. */
  readonly valueScript: boolean;
  readonly zone: TimeZone | null;
  readonly ctx: ShardAggContext;
  /** `_index` / `_type`: one constant term for every doc of the shard. */
  readonly constant?: string;
}

/** The doc values column of a field in a segment; text fields with fielddata are uninverted. */
export function columnOf(
  ls: LiveSegment,
  field: FieldMapping,
): NumericColumn | OrdinalColumn | null {
  const sf = ls.segment.fields.get(field.path);
  if (!sf) return null;
  if (sf.docValues) return sf.docValues;
  if (field.type === 'text' && sf.inverted) return uninvertedColumn(sf.inverted, ls.segment.maxDoc);
  return null;
}

export function fielddataDisabled(path: string): EsError {
  return illegalArgument(
    `Fielddata is disabled on text fields by default. Set fielddata=true on [${path}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.`,
  );
}

const zeroOrds = new Map<number, Int32Array>();

/** An ordinal column where every doc holds `term` (for `_index` / `_type`). */
function constantColumn(ls: LiveSegment, term: string): OrdinalColumn {
  const n = ls.segment.maxDoc;
  let z = zeroOrds.get(n);
  if (!z) {
    if (zeroOrds.size > 64) zeroOrds.clear();
    zeroOrds.set(n, (z = new Int32Array(n)));
  }
  return { kind: 'ordinal', dict: [term], single: z, offsets: null, ords: null };
}

function isNumericField(f: FieldMapping): boolean {
  return isNumericType(f.type) || f.type === 'boolean';
}

function isFloatingField(f: FieldMapping): boolean {
  return (
    f.type === 'double' ||
    f.type === 'float' ||
    f.type === 'half_float' ||
    f.type === 'scaled_float'
  );
}

const VT_KIND: Record<ValueType, SourceKind | 'geo'> = {
  string: 'bytes',
  ip: 'bytes',
  double: 'numeric',
  long: 'numeric',
  date: 'numeric',
  boolean: 'numeric',
  number: 'numeric',
  numeric: 'numeric',
  geo_point: 'geo',
};

/**
 * ES ValuesSourceConfig.resolve + toValuesSource. `target` is the aggregation's targetValueType
 * (numeric metrics: 'numeric'; terms: null). Returns null when the field is unmapped and there
 * is no `missing` (ES: a null values source → empty results).
 */
export function resolveValues(
  p: ValuesSourceParams,
  ctx: ShardAggContext,
  target: 'numeric' | 'bytes' | null,
  aggName: string,
): ResolvedValues | null {
  const vt = p.valueType ?? (target === 'numeric' ? 'numeric' : null);
  const zone = p.timeZone === null ? null : timeZone(p.timeZone);
  const missing = p.missing;
  let kind: SourceKind;
  let field: FieldMapping | null = null;
  let format: DocFormat;
  let floating = vt === 'double';
  let script: CompiledScript | null = null;
  if (p.script) {
    script = compileScript(p.script.source, {
      lang: p.script.lang,
      params: p.script.params,
      methods: ctx.scriptMethods,
    });
  }
  if (p.field === null) {
    if (!script) {
      throw illegalState(
        'value source config is invalid; must have either a field context or a script or marked as unwrapped',
      );
    }
    const k = vt ? VT_KIND[vt] : 'bytes';
    if (k === 'geo')
      throw new EsError(
        'aggregation_execution_exception',
        'value source of type [GEOPOINT] is not supported by scripts',
        500,
      );
    kind = k;
    // ES: numeric script values without a declared type are doubles unless every value is integral
    floating = vt !== 'long' && vt !== 'date' && vt !== 'boolean';
    format = valueTypeFormat(vt, p.format, zone);
  } else {
    field = ctx.field(p.field) ?? null;
    const meta =
      !field && p.field === '_index'
        ? ctx.index
        : !field && p.field === '_type'
          ? ctx.typeName
          : undefined;
    if (meta !== undefined && !script) {
      // IndexFieldMapper / TypeFieldMapper fielddata: a constant keyword
      const base = finish(
        p,
        ctx,
        'bytes',
        null,
        false,
        valueTypeFormat(null, null, zone),
        false,
        vt,
        null,
        zone,
        aggName,
      );
      return { ...base, constant: meta };
    }
    if (!field) {
      const k = vt ? VT_KIND[vt] : 'bytes';
      if (missing === null || missing === undefined) return null;
      if (k === 'geo') throw illegalArgument("Can't deal with unmapped ValuesSource type GEOPOINT");
      kind = k;
      format = valueTypeFormat(vt, p.format, zone);
      return finish(p, ctx, kind, null, true, format, floating, vt, script, zone, aggName);
    }
    if (field.type === 'text' && !field.fielddata) throw fielddataDisabled(field.path);
    if (vt === null) kind = isNumericField(field) ? 'numeric' : 'bytes';
    else {
      const k = VT_KIND[vt];
      if (k === 'geo')
        throw illegalArgument(
          `Expected geo_point type on field [${field.path}], but got [${field.type}]`,
        );
      kind = k;
    }
    if (kind === 'numeric' && !isNumericField(field)) {
      throw illegalArgument(`Expected numeric type on field [${p.field}], but got [${field.type}]`);
    }
    floating = isNumericField(field) ? isFloatingField(field) : false;
    format = fieldDocFormat(field, p.format, zone);
  }
  return finish(p, ctx, kind, field, false, format, floating, vt, script, zone, aggName);
}

function finish(
  p: ValuesSourceParams,
  ctx: ShardAggContext,
  kind: SourceKind,
  field: FieldMapping | null,
  unmapped: boolean,
  format: DocFormat,
  floating: boolean,
  vt: ValueType | null,
  script: CompiledScript | null,
  zone: TimeZone | null,
  _aggName: string,
): ResolvedValues {
  let missingNumber: number | null = null;
  let missingTerm: string | null = null;
  if (p.missing !== null && p.missing !== undefined) {
    const text = typeof p.missing === 'string' ? p.missing : String(p.missing);
    if (kind === 'numeric') {
      missingNumber = format.parseDouble(text, false, () => ctx.now);
      if (unmapped && vt === 'double') floating = true;
    } else missingTerm = format.parseTerm(text);
  }
  return {
    kind,
    field,
    unmapped,
    format,
    floating,
    valueType: vt,
    missingNumber,
    missingTerm,
    script,
    valueScript: script !== null && field !== null,
    zone,
    ctx,
  };
}

// ---- per-segment readers ------------------------------------------------------------------------

function scriptDoc(rv: ResolvedValues, ls: LiveSegment): SegmentDocLookup {
  const warnings = rv.ctx.warnings;
  const lookup = new SegmentDocLookup(
    (path) => rv.ctx.field(path),
    columnOf,
    warnings ? (msg) => addWarning(warnings, msg) : undefined,
  );
  lookup.setSegment(ls);
  const sourceOf = rv.ctx.sourceOf;
  if (sourceOf) lookup.setSourceReader((doc) => sourceOf(ls, doc));
  return lookup;
}

/** Numeric values of the docs of one segment. */
export class NumericReader {
  /** Fast path: the single-valued column with NaN for missing, when no missing/script applies. */
  readonly single: Float64Array | null;
  buf = new Float64Array(8);
  private readonly col: NumericColumn | null;
  private readonly missing: number;
  private readonly script: CompiledScript | null;
  private readonly valueScript: boolean;
  private readonly doc: SegmentDocLookup | null;
  private readonly vars: Record<string, unknown>;

  constructor(rv: ResolvedValues, ls: LiveSegment) {
    const c = rv.field ? columnOf(ls, rv.field) : null;
    this.col = c && c.kind === 'numeric' ? c : null;
    this.missing = rv.missingNumber ?? NaN;
    this.script = rv.script;
    this.valueScript = rv.valueScript;
    this.single =
      this.col?.single && Number.isNaN(this.missing) && !this.script ? this.col.single : null;
    this.doc = this.script ? scriptDoc(rv, ls) : null;
    this.vars = { doc: this.doc, _value: null, _score: 0 };
  }

  /** Number of values of `doc` (in `buf`, sorted for columns). */
  read(doc: number, score = 0): number {
    const col = this.col;
    let n = 0;
    if (this.script && !this.valueScript) {
      this.doc!.setDoc(doc);
      this.vars._score = score;
      n = this.fromScript(this.script.evaluate(this.vars));
    } else if (col) {
      if (col.single) {
        const v = col.single[doc]!;
        if (v === v) {
          this.buf[0] = v;
          n = 1;
        }
      } else {
        const s = col.offsets![doc]!;
        n = col.offsets![doc + 1]! - s;
        if (n > this.buf.length) this.buf = new Float64Array(n * 2);
        for (let i = 0; i < n; i++) this.buf[i] = col.values![s + i]!;
      }
      if (this.valueScript && n > 0) {
        this.doc!.setDoc(doc);
        this.vars._score = score;
        const vals = Array.from(this.buf.subarray(0, n));
        n = 0;
        for (const v of vals) {
          this.vars._value = v;
          const r = this.script!.evaluate(this.vars);
          if (typeof r === 'number') this.push(n++, r);
          else if (r !== null && r !== undefined) this.push(n++, toNumber(r));
        }
        this.buf.subarray(0, n).sort();
      }
    }
    if (n === 0 && this.missing === this.missing) {
      this.buf[0] = this.missing;
      return 1;
    }
    return n;
  }

  private push(i: number, v: number): void {
    if (i >= this.buf.length) {
      const b = new Float64Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[i] = v;
  }

  private fromScript(r: unknown): number {
    if (r === null || r === undefined) return 0;
    if (Array.isArray(r)) {
      let n = 0;
      for (const x of r) if (x !== null && x !== undefined) this.push(n++, toNumber(x));
      this.buf.subarray(0, n).sort();
      return n;
    }
    this.buf[0] = toNumber(r);
    return 1;
  }
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { valueOf(): unknown }).valueOf() === 'number'
  ) {
    return (v as { valueOf(): number }).valueOf();
  }
  if (typeof v === 'string') {
    const d = Number(v);
    if (!Number.isNaN(d)) return d;
  }
  throw new EsError(
    'aggregation_execution_exception',
    `Unsupported script value [${String(v)}], expected a number, date, or boolean`,
    500,
  );
}

/** Term (bytes) values of the docs of one segment: ordinal-backed when possible. */
export class BytesReader {
  /** Ordinal column (keyword/ip/text fielddata) when values come straight from it. */
  readonly ordinals: OrdinalColumn | null;
  /** Single-valued ords with -1 = missing, when no missing/script applies (fast path). */
  readonly single: Int32Array | null;
  /** Ordinal given to docs without a value when `missing` is set: dict.length (virtual term). */
  readonly missingOrd: number;
  readonly missingTerm: string | null;
  ords = new Int32Array(8);
  terms: string[] = [];
  private readonly numeric: NumericColumn | null;
  private readonly floating: boolean;
  private readonly script: CompiledScript | null;
  private readonly valueScript: boolean;
  private readonly doc: SegmentDocLookup | null;
  private readonly vars: Record<string, unknown>;

  constructor(rv: ResolvedValues, ls: LiveSegment) {
    const c =
      rv.constant !== undefined
        ? constantColumn(ls, rv.constant)
        : rv.field
          ? columnOf(ls, rv.field)
          : null;
    this.script = rv.script;
    this.valueScript = rv.valueScript;
    this.ordinals = c && c.kind === 'ordinal' && !this.script ? c : null;
    this.numeric = c && c.kind === 'numeric' ? c : null;
    this.floating = rv.floating;
    this.missingTerm = rv.missingTerm;
    this.missingOrd = this.ordinals
      ? rv.missingTerm !== null
        ? this.ordinals.dict.length
        : -1
      : -1;
    this.single = this.ordinals?.single && rv.missingTerm === null ? this.ordinals.single : null;
    this.doc = this.script ? scriptDoc(rv, ls) : null;
    this.vars = { doc: this.doc, _value: null, _score: 0 };
    this.scriptCol = c;
  }
  private readonly scriptCol: NumericColumn | OrdinalColumn | null;

  /** Ordinals of `doc` into `ords` (ordinal-backed readers only); missing → missingOrd. */
  readOrds(doc: number): number {
    const col = this.ordinals!;
    let n: number;
    if (col.single) {
      const o = col.single[doc]!;
      if (o >= 0) {
        this.ords[0] = o;
        n = 1;
      } else n = 0;
    } else {
      const s = col.offsets![doc]!;
      n = col.offsets![doc + 1]! - s;
      if (n > this.ords.length) this.ords = new Int32Array(n * 2);
      for (let i = 0; i < n; i++) this.ords[i] = col.ords![s + i]!;
    }
    if (n === 0 && this.missingOrd >= 0) {
      this.ords[0] = this.missingOrd;
      return 1;
    }
    return n;
  }

  termOfOrd(ord: number): string {
    const col = this.ordinals!;
    return ord === col.dict.length ? this.missingTerm! : col.dict[ord]!;
  }

  /** Terms of `doc` into `terms` (any reader). */
  read(doc: number, score = 0): number {
    const t = this.terms;
    t.length = 0;
    if (this.ordinals) {
      const n = this.readOrds(doc);
      for (let i = 0; i < n; i++) t.push(this.termOfOrd(this.ords[i]!));
      return n;
    }
    if (this.script && !this.valueScript) {
      this.doc!.setDoc(doc);
      this.vars._score = score;
      this.addScript(this.script.evaluate(this.vars));
    } else {
      const c = this.scriptCol;
      const raw: unknown[] = [];
      if (c && c.kind === 'numeric') {
        if (c.single) {
          const v = c.single[doc]!;
          if (v === v) raw.push(v);
        } else
          for (let i = c.offsets![doc]!; i < c.offsets![doc + 1]!; i++) raw.push(c.values![i]!);
      } else if (c && c.kind === 'ordinal') {
        if (c.single) {
          const o = c.single[doc]!;
          if (o >= 0) raw.push(c.dict[o]);
        } else
          for (let i = c.offsets![doc]!; i < c.offsets![doc + 1]!; i++)
            raw.push(c.dict[c.ords![i]!]);
      }
      if (this.valueScript) {
        this.doc!.setDoc(doc);
        this.vars._score = score;
        for (const v of raw) {
          this.vars._value = v;
          this.addScript(this.script!.evaluate(this.vars));
        }
      } else for (const v of raw) t.push(this.stringOf(v));
      t.sort();
    }
    if (t.length === 0 && this.missingTerm !== null) t.push(this.missingTerm);
    return t.length;
  }

  private addScript(r: unknown): void {
    if (r === null || r === undefined) return;
    // ScriptBytesValues refuses a value that contains itself (it could never become a term).
    if (typeof r === 'object') ensureNoSelfReferences(r);
    if (Array.isArray(r)) {
      for (const x of r) if (x !== null && x !== undefined) this.terms.push(this.stringOf(x));
    } else this.terms.push(this.stringOf(r));
  }

  private stringOf(v: unknown): string {
    if (typeof v === 'number') {
      if (this.numeric && !this.floating) return String(v);
      return Number.isInteger(v) && !this.floating ? String(v) : javaDoubleToString(v);
    }
    return String(v);
  }
}
