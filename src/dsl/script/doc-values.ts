/**
 * What scripts see of a document's doc values (ES ScriptDocValues + LeafDocLookup): `doc['f']`
 * is a list-like view of the current document's values with `.value`, `.values`, `.empty`,
 * `.length`, `size()`, `get(i)`, `getValue()` and `isEmpty()`. Keyword and ip fields give strings,
 * numbers give numbers, booleans give booleans, dates give a ScriptDate (millis + accessors).
 * As in 6.8 (es.scripting.exception_for_missing_value=false), `.value` of a missing value gives
 * the type's default (0, false, null, epoch).
 */
import type { LiveSegment } from '../../search/index/live-segment.js';
import type { NumericColumn, OrdinalColumn } from '../../search/index/segment.js';
import { sortableToIp } from '../../search/index/field-values.js';
import type { FieldMapping } from '../../mapping/types.js';
import { illegalArg } from './errors.js';
import {
  binaryFromSource,
  geoPointsFromSource,
  ScriptBytesRef,
  ScriptGeoPoint,
} from './source-doc-values.js';

/** java.time.DayOfWeek: `value` is ISO (Monday = 1 .. Sunday = 7), the name its constant. */
export class DayOfWeek {
  constructor(
    readonly value: number,
    readonly name: string,
  ) {}
  getValue(): number {
    return this.value;
  }
  toString(): string {
    return this.name;
  }
  toJSON(): string {
    return this.name;
  }
}

const DAYS_OF_WEEK = [
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
].map((n, i) => new DayOfWeek(i + 1, n));

/** A date value in scripts (6.8: JodaCompatibleZonedDateTime), always UTC. */
export class ScriptDate {
  constructor(
    readonly millis: number,
    /** Receives 6.8's deprecation warnings for the Joda-time methods scripts call. */
    private readonly onDeprecation?: (msg: string) => void,
  ) {}
  private joda(oldMethod: string, newMethod: string): void {
    this.onDeprecation?.(
      `Use of the joda time method [${oldMethod}] is deprecated. Use [${newMethod}] instead.`,
    );
  }
  getMillis(): number {
    this.joda('getMillis()', 'toInstant().toEpochMilli()');
    return this.millis;
  }
  toInstant(): ScriptDate {
    return this;
  }
  toEpochMilli(): number {
    return this.millis;
  }
  private get d(): Date {
    return new Date(this.millis);
  }
  getYear(): number {
    return this.d.getUTCFullYear();
  }
  getMonthValue(): number {
    return this.d.getUTCMonth() + 1;
  }
  getMonthOfYear(): number {
    this.joda('getMonthOfYear()', 'getMonthValue()');
    return this.getMonthValue();
  }
  getDayOfMonth(): number {
    return this.d.getUTCDate();
  }
  getDayOfYear(): number {
    const start = Date.UTC(this.getYear(), 0, 1);
    return Math.floor((this.millis - start) / 86400000) + 1;
  }
  /** java.time.DayOfWeek of the date (6.8's way to the ISO day of week). */
  getDayOfWeekEnum(): DayOfWeek {
    return DAYS_OF_WEEK[this.isoDayOfWeek() - 1]!;
  }
  /** ISO day of week: Monday = 1 .. Sunday = 7 (an int in 6.8, deprecated for the enum). */
  getDayOfWeek(): number {
    this.onDeprecation?.(
      'The return type of [getDayOfWeek()] will change to an enum in 7.0. Use getDayOfWeekEnum().getValue().',
    );
    return this.isoDayOfWeek();
  }
  private isoDayOfWeek(): number {
    return ((this.d.getUTCDay() + 6) % 7) + 1;
  }
  getHour(): number {
    return this.d.getUTCHours();
  }
  getHourOfDay(): number {
    this.joda('getHourOfDay()', 'getHour()');
    return this.getHour();
  }
  getMinute(): number {
    return this.d.getUTCMinutes();
  }
  getMinuteOfHour(): number {
    this.joda('getMinuteOfHour()', 'getMinute()');
    return this.getMinute();
  }
  getSecond(): number {
    return this.d.getUTCSeconds();
  }
  getSecondOfMinute(): number {
    this.joda('getSecondOfMinute()', 'getSecond()');
    return this.getSecond();
  }
  getNano(): number {
    return (((this.millis % 1000) + 1000) % 1000) * 1e6;
  }
  valueOf(): number {
    return this.millis;
  }
  /** As a response value: XContent writes it with strict_date_optional_time (millis, `Z`). */
  toJSON(): string {
    return new Date(this.millis).toISOString();
  }
  equals(o: unknown): boolean {
    return o instanceof ScriptDate && o.millis === this.millis;
  }
  /** JodaCompatibleZonedDateTime.toString: strict_date_time (millis always, `Z` for UTC). */
  toString(): string {
    return new Date(this.millis).toISOString();
  }
}

export interface ScriptDocValues {
  readonly value: unknown;
  readonly values: unknown[];
  readonly empty: boolean;
  readonly length: number;
  size(): number;
  isEmpty(): boolean;
  get(index: number): unknown;
  getValue(): unknown;
  getValues(): unknown[];
  contains(v: unknown): boolean;
}

/** `doc` in scripts: a map from field name to its values for the current document. */
export interface ScriptDocLookup {
  get(field: string): ScriptDocValues;
  containsKey(field: string): boolean;
}

export type ColumnResolver = (
  ls: LiveSegment,
  field: FieldMapping,
) => NumericColumn | OrdinalColumn | null;

const defaultColumn: ColumnResolver = (ls, f) => ls.segment.fields.get(f.path)?.docValues ?? null;

type Kind = 'number' | 'string' | 'ip' | 'boolean' | 'date' | 'geo' | 'binary';

function kindOf(type: string): Kind {
  switch (type) {
    case 'keyword':
    case 'join':
    case 'text':
      return 'string';
    case 'ip':
      return 'ip';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'geo_point':
      return 'geo';
    case 'binary':
      return 'binary';
    default:
      return 'number';
  }
}

const DEFAULTS: Record<Kind, unknown> = {
  number: 0,
  string: null,
  ip: null,
  boolean: false,
  date: new ScriptDate(0),
  geo: new ScriptGeoPoint(0, 0),
  binary: new ScriptBytesRef(Buffer.alloc(0)),
};

/** The values of one field for the current document of a segment. */
export const MISSING_VALUE_DEPRECATION =
  "returning default values for missing document values is deprecated. Set system property '-Des.scripting.exception_for_missing_value=true' to make behaviour compatible with future major versions!";

const GET_VALUES_DEPRECATION =
  "Deprecated getValues used, the field is a list and should be accessed directly. For example, use doc['foo'] instead of doc['foo'].values.";

const JAVA_CLASS: Record<Kind, string> = {
  number: 'Longs',
  string: 'Strings',
  ip: 'Strings',
  boolean: 'Booleans',
  date: 'Dates',
  geo: 'GeoPoints',
  binary: 'BytesRefs',
};

class FieldValues implements ScriptDocValues {
  doc = -1;
  /** Values read from the source (kinds without segment doc values), for the lookup's `stamp`. */
  srcVals: unknown[] | null = null;
  srcStamp = -1;
  constructor(
    readonly kind: Kind,
    private readonly col: NumericColumn | OrdinalColumn | null,
    private readonly onDeprecation: ((msg: string) => void) | undefined,
  ) {}

  size(): number {
    if (this.srcVals) return this.srcVals.length;
    const c = this.col;
    if (!c || this.doc < 0) return 0;
    if (c.kind === 'numeric') {
      if (c.single) return Number.isNaN(c.single[this.doc]!) ? 0 : 1;
      return c.offsets![this.doc + 1]! - c.offsets![this.doc]!;
    }
    if (c.single) return c.single[this.doc]! < 0 ? 0 : 1;
    return c.offsets![this.doc + 1]! - c.offsets![this.doc]!;
  }
  get length(): number {
    return this.size();
  }
  get empty(): boolean {
    return this.size() === 0;
  }
  isEmpty(): boolean {
    return this.size() === 0;
  }
  get(i: number): unknown {
    const n = this.size();
    if (n === 0) {
      this.onDeprecation?.(MISSING_VALUE_DEPRECATION);
      return DEFAULTS[this.kind];
    }
    if (i < 0 || i >= n) {
      throw illegalArg(`attempted to fetch the [${i}] value when there are only [${n}] values`);
    }
    if (this.srcVals) return this.srcVals[i];
    const c = this.col!;
    if (c.kind === 'numeric') {
      const v = c.single ? c.single[this.doc]! : c.values![c.offsets![this.doc]! + i]!;
      if (this.kind === 'boolean') return v !== 0;
      if (this.kind === 'date') return new ScriptDate(v, this.onDeprecation);
      return v;
    }
    const ord = c.single ? c.single[this.doc]! : c.ords![c.offsets![this.doc]! + i]!;
    const term = c.dict[ord]!;
    return this.kind === 'ip' ? sortableToIp(term) : term;
  }
  get value(): unknown {
    return this.get(0);
  }
  getValue(): unknown {
    return this.get(0);
  }
  /** ScriptDocValues.getValues: the values, with 6.8's deprecation (the field is the list). */
  get values(): unknown[] {
    this.onDeprecation?.(GET_VALUES_DEPRECATION);
    return this.all();
  }
  getValues(): unknown[] {
    return this.values;
  }
  private all(): unknown[] {
    const out: unknown[] = [];
    const n = this.size();
    for (let i = 0; i < n; i++) out.push(this.get(i));
    return out;
  }

  /** Longs/Dates.getDate(): deprecated in 6.8 (dates already are dates; numbers are not). */
  getDate(): unknown {
    if (this.kind === 'date')
      this.deprecated('getDate is no longer necessary on date fields as the value is now a date.');
    else if (this.kind === 'number')
      this.deprecated('getDate on numeric fields is deprecated. Use a date field to get dates.');
    else throw illegalArg(`dynamic getter [${this.javaName()}, date] not found`);
    const v = this.get(0);
    return typeof v === 'number' ? new ScriptDate(v, this.onDeprecation) : v;
  }
  getDates(): unknown[] {
    if (this.kind === 'date')
      this.deprecated(
        'getDates is no longer necessary on date fields as the values are now dates.',
      );
    else if (this.kind === 'number')
      this.deprecated('getDates on numeric fields is deprecated. Use a date field to get dates.');
    else throw illegalArg(`dynamic getter [${this.javaName()}, dates] not found`);
    return this.all().map((v) =>
      typeof v === 'number' ? new ScriptDate(v, this.onDeprecation) : v,
    );
  }
  /** GeoPoints.getLat()/getLon() (of the first point). */
  getLat(): unknown {
    if (this.kind !== 'geo') throw illegalArg(`dynamic getter [${this.javaName()}, lat] not found`);
    return (this.get(0) as ScriptGeoPoint).lat;
  }
  getLon(): unknown {
    if (this.kind !== 'geo') throw illegalArg(`dynamic getter [${this.javaName()}, lon] not found`);
    return (this.get(0) as ScriptGeoPoint).lon;
  }
  private deprecated(msg: string): void {
    this.onDeprecation?.(msg);
  }
  private javaName(): string {
    return `org.elasticsearch.index.fielddata.ScriptDocValues$${JAVA_CLASS[this.kind]}`;
  }
  contains(v: unknown): boolean {
    return this.all().some((x) => x === v || (x instanceof ScriptDate && x.millis === v));
  }
  [Symbol.iterator](): Iterator<unknown> {
    return this.all()[Symbol.iterator]();
  }
}

/**
 * `doc` over one segment: set the segment, then the doc, then evaluate. Field views are created
 * once per segment; moving to another doc allocates nothing.
 */
export class SegmentDocLookup implements ScriptDocLookup {
  private ls: LiveSegment | null = null;
  private doc = -1;
  /** The current document's `_source` (fetch phase), for geo_point and binary values. */
  private source: (() => unknown) | null = null;
  /** Reads a doc's `_source` when no fetch-phase source is set (query-phase scripts, aggs). */
  private sourceReader: ((doc: number) => unknown) | null = null;
  /** Bumped whenever the doc or source changes: source-read values are cached per stamp. */
  private stamp = 0;
  private readonly views = new Map<string, FieldValues>();

  constructor(
    private readonly mapping: (path: string) => FieldMapping | undefined,
    /** Column of a field in a segment (aggs pass a fielddata-aware resolver for text fields). */
    private readonly column: ColumnResolver = defaultColumn,
    /** Receives ES deprecation warnings (missing values read as defaults). */
    private readonly onDeprecation?: (msg: string) => void,
  ) {}

  setSegment(ls: LiveSegment): void {
    this.ls = ls;
    this.views.clear();
    this.doc = -1;
  }

  setDoc(doc: number): void {
    this.doc = doc;
    this.stamp++;
  }

  /** Where geo_point and binary values come from (segments keep no doc values for them). */
  setSource(source: (() => unknown) | null): void {
    this.source = source;
    this.stamp++;
  }

  /** Query-phase scripts read geo_point / binary values through this per-doc `_source` reader. */
  setSourceReader(reader: ((doc: number) => unknown) | null): void {
    this.sourceReader = reader;
    this.stamp++;
  }

  containsKey(field: string): boolean {
    return this.mapping(field) !== undefined;
  }

  get(field: string): ScriptDocValues {
    let v = this.views.get(field);
    if (!v) {
      const m = this.mapping(field);
      if (!m) throw illegalArg(`No field found for [${field}] in mapping with types []`);
      if (m.type === 'text' && !m.fielddata) {
        throw illegalArg(
          `Fielddata is disabled on text fields by default. Set fielddata=true on [${m.path}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.`,
        );
      }
      const col = this.ls ? this.column(this.ls, m) : null;
      v = new FieldValues(kindOf(m.type), col, this.onDeprecation);
      this.views.set(field, v);
    }
    v.doc = this.doc;
    if ((v.kind === 'geo' || v.kind === 'binary') && v.srcStamp !== this.stamp) {
      const src = this.source
        ? this.source()
        : this.sourceReader
          ? (this.sourceReader(this.doc) ?? undefined)
          : undefined;
      v.srcVals =
        src === undefined
          ? null
          : v.kind === 'geo'
            ? geoPointsFromSource(src, field)
            : binaryFromSource(src, field);
      v.srcStamp = this.stamp;
    }
    return v;
  }
}
