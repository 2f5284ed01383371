/**
 * Composite keys as integers (ES CompositeValuesCollectorQueue over ordinal-based
 * GlobalOrdinalValuesSource / LongValuesSource): each source turns a document's values into
 * shard-wide key ids — keyword segment ordinals through a per-segment table, numbers through a
 * value map, a CASE-like script through its FieldDecision over a numeric column (the real script
 * runs once per outcome) — and a tuple of ids finds its bucket through one table per source, so
 * no key array or string is built per document. Values, ordering and `after` stay with the
 * composite aggregator, which sees the same buckets as on its general path.
 */
import type { FieldMapping } from '../../../mapping/types.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { NumericColumn } from '../../../search/index/segment.js';
import { isNumericType } from '../../../search/index/field-values.js';
import {
  fieldDecision,
  type DecisionRegions,
  type FieldDecision,
} from '../../script/field-decision.js';
import { BucketHash, growI32 } from '../support/arrays.js';
import {
  BytesReader,
  columnOf,
  NumericReader,
  type ResolvedValues,
} from '../support/values-source.js';

export type KeyValue = string | number | null;

/** What the composite aggregator knows about one source. */
export interface KeySourceSpec {
  readonly rv: ResolvedValues | null;
  /** A `terms` source over bytes (strings). */
  readonly bytes: boolean;
  readonly missingBucket: boolean;
  readonly rounding: ((v: number) => number) | null;
}

const ORDINAL_TYPES = new Set(['keyword', 'ip', 'text']);

/** Key ids of one source for the current document (`ids[0..n)`, in value order, distinct). */
export class SourceKeys {
  /** Key id → value. */
  readonly values: KeyValue[] = [];
  ids = new Int32Array(8);
  n = 0;
  private readonly byValue = new Map<KeyValue, number>();
  private bytesReader: BytesReader | null = null;
  private numReader: NumericReader | null = null;
  /** Ordinal sources: segment ordinal → key id (-1: not seen yet); covers the `missing` ordinal. */
  segIds = new Int32Array(0);
  /** Decision sources: the decided field's column in this segment. */
  private decisionCol: NumericColumn | null = null;
  /** Decision sources: outcome → key ids (null: not evaluated yet). */
  private readonly outcomeIds: Array<Int32Array | null>;

  private constructor(
    private readonly spec: KeySourceSpec,
    private readonly mode: 'none' | 'ordinals' | 'numeric' | 'decision',
    private readonly decision: FieldDecision | null,
    private readonly decisionField: FieldMapping | null,
  ) {
    this.outcomeIds = decision ? new Array<Int32Array | null>(decision.outcomes).fill(null) : [];
  }

  /** The integer-keyed reader of a source, or null when only the general path serves it. */
  static of(spec: KeySourceSpec): SourceKeys | null {
    const rv = spec.rv;
    if (!rv) return new SourceKeys(spec, 'none', null, null);
    if (rv.script) {
      if (rv.valueScript) return null;
      const d = fieldDecision(rv.script.source, rv.script.params, rv.ctx.scriptMethods);
      if (!d) return null;
      const field = rv.ctx.field(d.field) ?? null;
      // the decision compares plain numbers: dates and booleans reach scripts as objects
      if (field && !isNumericType(field.type)) return null;
      return new SourceKeys(spec, 'decision', d, field);
    }
    if (spec.bytes) {
      const f = rv.field;
      if (rv.constant === undefined && f !== null && !ORDINAL_TYPES.has(f.type)) return null;
      return new SourceKeys(spec, 'ordinals', null, null);
    }
    return rv.kind === 'numeric' ? new SourceKeys(spec, 'numeric', null, null) : null;
  }

  setSegment(ls: LiveSegment): void {
    const rv = this.spec.rv;
    if (!rv) return;
    switch (this.mode) {
      case 'ordinals': {
        const r = (this.bytesReader = new BytesReader(rv, ls));
        const size = r.ordinals ? r.ordinals.dict.length + 1 : 0;
        if (this.segIds.length < size) this.segIds = new Int32Array(size);
        this.segIds.fill(-1, 0, size);
        break;
      }
      case 'numeric':
        this.numReader = new NumericReader(rv, ls);
        break;
      case 'decision': {
        const c = this.decisionField ? columnOf(ls, this.decisionField) : null;
        this.decisionCol = c && c.kind === 'numeric' ? c : null;
        if (rv.kind === 'bytes') this.bytesReader = new BytesReader(rv, ls);
        else this.numReader = new NumericReader(rv, ls);
        break;
      }
      default:
    }
  }

  /** The single-valued ordinal column of this segment (ordinal sources without `missing`). */
  singleOrds(): Int32Array | null {
    return this.mode === 'ordinals' ? (this.bytesReader?.single ?? null) : null;
  }

  /** The decided field's single-valued column in this segment (decision sources). */
  decisionValues(): Float64Array | null {
    return this.decisionCol?.single ?? null;
  }

  /** Decision sources: the outcome of a first value (NaN: none). */
  decider(): (v: number) => number {
    return this.decision!.decide;
  }

  /** Decision sources: the decision's outcomes by region of the value. */
  regions(): DecisionRegions {
    return this.decision!.regions;
  }

  /** Decision sources: the key ids of outcome `o`, evaluating the script on `doc` the first time. */
  outcome(o: number, doc: number, score: number): Int32Array {
    let ids = this.outcomeIds[o];
    if (!ids) ids = this.outcomeIds[o] = this.evaluate(doc, score);
    return ids;
  }

  id(v: KeyValue): number {
    let id = this.byValue.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.byValue.set(v, id);
    }
    return id;
  }

  /** Key id of segment ordinal `so` (ordinal sources). */
  ordId(so: number): number {
    const id = this.segIds[so]!;
    return id >= 0 ? id : (this.segIds[so] = this.id(this.bytesReader!.termOfOrd(so)));
  }

  /** Reads `doc`'s key ids into `ids`; returns their count. */
  read(doc: number, score: number): number {
    let n = 0;
    switch (this.mode) {
      case 'ordinals':
        n = this.readOrdinals(doc);
        break;
      case 'numeric':
        n = this.readNumbers(this.numReader!, doc, score);
        break;
      case 'decision':
        return this.readDecision(doc, score);
      default:
    }
    if (n === 0 && this.spec.missingBucket) {
      this.ids[0] = this.id(null);
      n = 1;
    }
    return (this.n = n);
  }

  private push(k: number, id: number): number {
    if (k > 0 && this.ids[k - 1] === id) return k;
    if (k >= this.ids.length) this.ids = growI32(this.ids, k + 1);
    this.ids[k] = id;
    return k + 1;
  }

  private readOrdinals(doc: number): number {
    const r = this.bytesReader!;
    if (!r.ordinals) {
      // no column in this segment: only `missing` gives a value
      return r.missingTerm !== null ? this.push(0, this.id(r.missingTerm)) : 0;
    }
    const c = r.readOrds(doc);
    let k = 0;
    for (let j = 0; j < c; j++) k = this.push(k, this.ordId(r.ords[j]!));
    return k;
  }

  private readNumbers(r: NumericReader, doc: number, score: number): number {
    const c = r.read(doc, score);
    const buf = r.buf;
    const rounding = this.spec.rounding;
    let k = 0;
    let prev = NaN;
    for (let j = 0; j < c; j++) {
      const v = rounding ? rounding(buf[j]!) : buf[j]!;
      if (k > 0 && v === prev) continue;
      prev = v;
      k = this.push(k, this.id(v));
    }
    return k;
  }

  /** The outcome of the doc's first value; the script itself runs on the outcome's first doc. */
  private readDecision(doc: number, score: number): number {
    const col = this.decisionCol;
    let v = NaN;
    if (col) {
      if (col.single) v = col.single[doc]!;
      else if (col.offsets![doc + 1]! > col.offsets![doc]!) v = col.values![col.offsets![doc]!]!;
    }
    const ids = this.outcome(this.decision!.decide(v), doc, score);
    if (ids.length > this.ids.length) this.ids = growI32(this.ids, ids.length);
    this.ids.set(ids);
    return (this.n = ids.length);
  }

  private evaluate(doc: number, score: number): Int32Array {
    let k = 0;
    if (this.bytesReader) {
      const r = this.bytesReader;
      const c = r.read(doc, score);
      for (let j = 0; j < c; j++) k = this.push(k, this.id(r.terms[j]!));
    } else k = this.readNumbers(this.numReader!, doc, score);
    if (k === 0 && this.spec.missingBucket) k = this.push(0, this.id(null));
    return this.ids.slice(0, k);
  }
}

/**
 * Tuple of key ids → bucket ordinal: with one source a direct table, with more a chain of hashes
 * ((previous node, next id) → node). `create` is asked once per new tuple and returns its bucket,
 * or -2 when the tuple is not collected (at or before `after`).
 */
export class TupleBuckets {
  private direct = new Int32Array(16).fill(-1);
  private readonly hashes: BucketHash[];
  private leaf = new Int32Array(16).fill(-1);

  constructor(
    private readonly sources: readonly SourceKeys[],
    private readonly create: (ids: readonly number[]) => number,
  ) {
    this.hashes = sources.slice(1).map(() => new BucketHash());
  }

  /** Bucket of a one-source key id (-2: not collected). */
  one(id: number): number {
    if (id >= this.direct.length) this.direct = growI32(this.direct, id + 1, -1);
    const b = this.direct[id]!;
    return b !== -1 ? b : (this.direct[id] = this.create([id]));
  }

  /** Bucket of the tuple `ids` (-2: not collected). */
  tuple(ids: readonly number[]): number {
    let node = ids[0]!;
    for (let i = 1; i < ids.length; i++) node = this.hashes[i - 1]!.add(node, ids[i]!);
    if (node >= this.leaf.length) this.leaf = growI32(this.leaf, node + 1, -1);
    const b = this.leaf[node]!;
    return b !== -1 ? b : (this.leaf[node] = this.create(ids));
  }

  get width(): number {
    return this.sources.length;
  }
}
