/**
 * Binary form of a segment, so a restart loads segments instead of re-indexing every document
 * (Lucene's flush/commit). Typed arrays are written 8-byte aligned and read back as views over
 * the blob (in place in the store's map for a large one, else an aligned copy); strings as one
 * UTF-8 block with offsets.
 */
import type {
  InvertedField,
  PackedInts,
  NestedBlock,
  NumericColumn,
  OrdinalColumn,
  PointsIndex,
  Segment,
  SegmentField,
} from './segment.js';
import type { FieldType } from '../../mapping/types.js';
import type { RangeIndex } from './range-keys.js';
import { blockStrings, stringBlockOf } from './string-block.js';
import { readSync, writeSync } from 'node:fs';
import { readFileRange, type FileRange } from '../../common/file-range.js';

const MAGIC = 0x47455351; // "QSEG"
/**
 * 2: freqs and positions may be Uint8/Uint16 arrays (kind 5); 3: range field values per field;
 * 4: metadata, dictionaries and data in three regions (see Writer). Older blobs read unchanged.
 */
const VERSION = 4;
const MIN_VERSION = 1;
/** Version 4's header: magic, version, text region bytes, data region bytes (f64s). */
const HEADER_BYTES = 24;
/**
 * A chunked blob's head (`CHUNKED_MAGIC`, the chunk count, each chunk's length as an f64, then a
 * version 4 encoding without its data region): the data region is stored as that many blobs of
 * their own, cut at array starts (see `StreamedEncoding.chunks`).
 */
const CHUNKED_MAGIC = 0x43475351; // "QSGC"

type Arr = Int32Array | Float64Array | Uint8Array | Uint16Array | Uint32Array;

/**
 * An array of a streamed merge (merge.ts) written in blocks as it is computed, never whole in
 * memory: `fill` pushes its blocks in order, each of `block`'s type. Only the streaming encoder
 * (`encodeSegmentToFile`) takes one, where a typed array is expected.
 */
export class StreamedArray {
  constructor(
    /** An empty array of the type of the blocks. */
    readonly block: Arr,
    readonly fill: (push: (block: Arr) => void) => void,
  ) {}
}

/** The kind an array is written as (0 is null). */
function kindOf(a: Arr): number {
  return a instanceof Int32Array
    ? 1
    : a instanceof Float64Array
      ? 2
      : a instanceof Uint8Array
        ? 3
        : a instanceof Uint16Array
          ? 5
          : 4;
}

/**
 * Bytes appended in order, typed arrays 8-aligned relative to the stream's start: kept as chunks,
 * or written to a file at once (`fd`), so the arrays written need not stay in memory.
 */
class Stream {
  readonly chunks: Buffer[] = [];
  len = 0;
  constructor(readonly fd: number | null = null) {}
  pad(): void {
    const r = this.len & 7;
    if (r) this.push(Buffer.alloc(8 - r));
  }
  push(b: Buffer): void {
    if (this.fd === null) this.chunks.push(b);
    else for (let o = 0; o < b.length;) o += writeSync(this.fd, b, o, b.length - o, this.len + o);
    this.len += b.length;
  }
}

/**
 * Version 4 writes three regions: the eagerly read string lists (term dictionaries), the data
 * (arrays, the `_id` block), and the metadata (every count, flag, name, and each array's kind,
 * length and place) last. Decoding reads the metadata and the dictionaries, which sit together,
 * and never touches the data: a blob read in place from the map stays out of memory until a
 * search reads an array (the kernel maps a whole folio, up to 2 MB, around each byte read).
 */
class Writer {
  private readonly meta: Stream;
  private readonly text: Stream;
  private readonly data: Stream;
  /** Where each array (or string list) of the data region starts in it: where it may be cut. */
  readonly dataStarts: number[] = [];
  /**
   * `legacy`: version 3's single stream (arrays inline), for compatibility tests. `dataFd`: the
   * data region goes to that file as it is written (see `fileDone`).
   */
  constructor(
    private readonly legacy = false,
    private readonly dataFd: number | null = null,
  ) {
    this.meta = new Stream();
    this.text = legacy ? this.meta : new Stream();
    this.data = legacy ? this.meta : new Stream(dataFd);
  }
  u32(v: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(v >>> 0, 0);
    this.meta.push(b);
  }
  f64(v: number): void {
    const b = Buffer.allocUnsafe(8);
    b.writeDoubleLE(v, 0);
    this.meta.push(b);
  }
  bool(v: boolean): void {
    this.u32(v ? 1 : 0);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u32(b.length);
    this.meta.push(b);
  }
  /** A typed array or null: kind, length, region and offset in the metadata; bytes in `to`. */
  arr(a: Arr | null, to: Stream = this.data): void {
    if (a === null) {
      this.u32(0);
      return;
    }
    if ((a as unknown) instanceof StreamedArray) {
      this.streamed(a as unknown as StreamedArray);
      return;
    }
    const kind = kindOf(a);
    this.u32(kind);
    this.u32(a.length);
    if (!this.legacy) {
      this.u32(to === this.text ? 0 : 1);
      to.pad();
      if (to === this.data) this.dataStarts.push(to.len);
      this.f64(to.len);
    } else to.pad();
    to.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  }
  /** `arr` of an array written block by block (to the data region): the same bytes. */
  private streamed(a: StreamedArray): void {
    if (this.legacy || this.data.fd === null) throw new Error('a streamed array needs a data file'); // prettier-ignore
    const to = this.data;
    to.pad();
    const start = to.len;
    a.fill((b) => to.push(Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    this.dataStarts.push(start);
    this.u32(kindOf(a.block));
    this.u32((to.len - start) / a.block.BYTES_PER_ELEMENT);
    this.u32(1);
    this.f64(start);
  }
  /**
   * One UTF-8 block for the whole list (ASCII written unit by unit, the rest by Buffer.write),
   * after its offsets; `lazy` lists (decoded per access) go with the data.
   */
  strings(list: readonly string[], lazy = false): void {
    const block = stringBlockOf(list);
    if (block && block.offsets[0] === 0) {
      // already encoded (the `_id`s of a decoded or merged segment): written as they are
      const to = lazy ? this.data : this.text;
      const total = block.offsets[block.offsets.length - 1]!;
      this.arr(block.offsets, to);
      this.u32(total);
      to.push(block.bytes.subarray(0, total));
      return;
    }
    const n = list.length;
    const offsets = new Uint32Array(n + 1);
    let units = 0;
    for (let i = 0; i < n; i++) units += list[i]!.length;
    let buf = Buffer.allocUnsafe(units + 16);
    let o = 0;
    for (let i = 0; i < n; i++) {
      const s = list[i]!;
      offsets[i] = o;
      const len = s.length;
      // Worst case 3 bytes per UTF-16 unit; grow before writing so nothing is truncated.
      if (o + len * 3 > buf.length) {
        const next = Buffer.allocUnsafe(Math.max(buf.length * 2, o + len * 3));
        buf.copy(next, 0, 0, o);
        buf = next;
      }
      let j = 0;
      for (; j < len; j++) {
        const c = s.charCodeAt(j);
        if (c > 127) break;
        buf[o + j] = c;
      }
      o += j === len ? len : j + buf.write(s.slice(j), o + j, 'utf8');
    }
    offsets[n] = o;
    const to = lazy ? this.data : this.text;
    this.arr(offsets, to);
    this.u32(o);
    to.push(buf.subarray(0, o));
  }
  done(): Buffer {
    if (this.legacy) {
      const head = Buffer.alloc(8);
      head.writeUInt32LE(MAGIC, 0);
      head.writeUInt32LE(3, 4);
      return Buffer.concat([head, ...this.meta.chunks], 8 + this.meta.len);
    }
    this.text.pad();
    this.data.pad();
    const head = Buffer.alloc(HEADER_BYTES);
    head.writeUInt32LE(MAGIC, 0);
    head.writeUInt32LE(VERSION, 4);
    head.writeDoubleLE(this.text.len, 8);
    head.writeDoubleLE(this.data.len, 16);
    const parts = [head, ...this.text.chunks, ...this.data.chunks, ...this.meta.chunks];
    return Buffer.concat(parts, HEADER_BYTES + this.text.len + this.data.len + this.meta.len);
  }
  /**
   * The encoding of a writer whose data region went to `dataFd`, in an ArrayBuffer of its own (a
   * worker transfers it): the regions are put in place one after the other, the data read back
   * from the file. (Not shared memory: lmdb-js writes a value over a SharedArrayBuffer wrong.)
   */
  fileDone(): Buffer {
    this.finish();
    const total = HEADER_BYTES + this.text.len + this.data.len + this.meta.len;
    const out = Buffer.from(new ArrayBuffer(total));
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(VERSION, 4);
    out.writeDoubleLE(this.text.len, 8);
    out.writeDoubleLE(this.data.len, 16);
    let at = HEADER_BYTES;
    for (const c of this.text.chunks) at += c.copy(out, at);
    for (let o = 0; o < this.data.len;) {
      const n = readSync(this.dataFd!, out, at + o, this.data.len - o, o);
      if (n <= 0) throw new Error('segment data file cut short');
      o += n;
    }
    at += this.data.len;
    for (const c of this.meta.chunks) at += c.copy(out, at);
    return out;
  }
  private finish(): void {
    this.text.pad();
    this.data.pad();
  }
  /** Bytes of the whole encoding and of its data region (of a writer whose data went to `dataFd`). */
  sizes(): { total: number; data: number } {
    this.finish();
    return { total: HEADER_BYTES + this.text.len + this.data.len + this.meta.len, data: this.data.len }; // prettier-ignore
  }
  /**
   * The head of the chunked form (see `CHUNKED_MAGIC`) whose chunks have these lengths: the
   * encoding without its data region, after the chunk table.
   */
  chunkedHead(lengths: readonly number[]): Buffer {
    this.finish();
    const table = 8 + 8 * lengths.length;
    const out = Buffer.from(new ArrayBuffer(table + HEADER_BYTES + this.text.len + this.meta.len));
    out.writeUInt32LE(CHUNKED_MAGIC, 0);
    out.writeUInt32LE(lengths.length, 4);
    for (let i = 0; i < lengths.length; i++) out.writeDoubleLE(lengths[i]!, 8 + 8 * i);
    out.writeUInt32LE(MAGIC, table);
    out.writeUInt32LE(VERSION, table + 4);
    out.writeDoubleLE(this.text.len, table + 8);
    out.writeDoubleLE(this.data.len, table + 16);
    let at = table + HEADER_BYTES;
    for (const c of this.text.chunks) at += c.copy(out, at);
    for (const c of this.meta.chunks) at += c.copy(out, at);
    return out;
  }
  /** `length` bytes of the data region from `offset`, read back from `dataFd` (an ArrayBuffer of its own). */
  dataPiece(offset: number, length: number): Buffer {
    const out = Buffer.from(new ArrayBuffer(length));
    for (let o = 0; o < length;) {
      const n = readSync(this.dataFd!, out, o, length - o, offset + o);
      if (n <= 0) throw new Error('segment data file cut short');
      o += n;
    }
    return out;
  }
}

/**
 * Where a data region is cut into chunks of about `chunkBytes`: at array starts only (an array is
 * read as one view), every chunk at least half of `chunkBytes` (a large array may make one
 * larger), a large array starting a chunk of its own. Returns each chunk's start; the first is 0.
 */
export function chunkCuts(
  starts: readonly number[],
  dataBytes: number,
  chunkBytes: number,
): number[] {
  chunkBytes = Math.max(chunkBytes, 16);
  const cuts = [0];
  const half = chunkBytes / 2;
  for (let i = 0; i < starts.length; i++) {
    const p = starts[i]!;
    const q = i + 1 < starts.length ? starts[i + 1]! : dataBytes;
    if (q - cuts[cuts.length - 1]! > chunkBytes && p - cuts[cuts.length - 1]! >= half) cuts.push(p);
    if (q < dataBytes && q - cuts[cuts.length - 1]! >= chunkBytes) cuts.push(q);
  }
  if (cuts.length > 1 && dataBytes - cuts[cuts.length - 1]! < half) cuts.pop();
  return cuts;
}

/**
 * A segment's encoding whose data region sits in a scratch file (`encodeSegmentToFile`): read
 * back whole, or as a chunked blob's head and chunks, one at a time.
 */
export interface StreamedEncoding {
  /** Bytes of the whole encoding. */
  readonly length: number;
  /** Bytes of its data region. */
  readonly dataLength: number;
  /** The whole encoding in an ArrayBuffer of its own. */
  whole(): Buffer;
  /** The chunked form's data region cut into chunks of about `chunkBytes` (see `chunkCuts`). */
  chunks(chunkBytes: number): { head: Buffer; count: number; chunk(i: number): Buffer };
}

/** A data region read from files: each piece's start in the region and where it sits. */
interface LazyData {
  readonly at: readonly number[];
  readonly ranges: ReadonlyArray<{ readonly file: string; readonly offset: number }>;
}

/** A data region in chunks: each chunk's start in the region and its bytes. */
interface DataChunks {
  readonly at: readonly number[];
  readonly bytes: readonly Uint8Array[];
}

/** The index of the piece (starts sorted, the first 0) that holds region offset `off`. */
function pieceAt(at: readonly number[], off: number): number {
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid]! <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const WIDTHS = [0, 4, 8, 1, 4, 2];

/** An array of the data region as a view over the chunk holding it (8-aligned where stored). */
function chunkView(c: DataChunks, kind: number, off: number, n: number): Arr {
  const i = pieceAt(c.at, off);
  const bytes = c.bytes[i]!;
  const from = off - c.at[i]!;
  if (from + n * WIDTHS[kind]! > bytes.byteLength) throw new Error('segment chunk cut short');
  let ab = bytes.buffer as ArrayBuffer;
  let at = bytes.byteOffset + from;
  if (at % 8 !== 0) {
    // not 8-aligned where it is (a chunk copied at an odd place): a copy of its own
    ab = bytes.slice(from, from + n * WIDTHS[kind]!).buffer as ArrayBuffer;
    at = 0;
  }
  switch (kind) {
    case 1:
      return new Int32Array(ab, at, n);
    case 2:
      return new Float64Array(ab, at, n);
    case 3:
      return new Uint8Array(ab, at, n);
    case 5:
      return new Uint16Array(ab, at, n);
    default:
      return new Uint32Array(ab, at, n);
  }
}

class Reader {
  /** The metadata cursor (version 4), or the one cursor of older versions. */
  private pos = 0;
  private readonly buf: Buffer;
  private readonly ab: ArrayBuffer;
  /** Where the blob starts in `ab`: arrays are written 8-aligned relative to it. */
  private readonly base: number;
  readonly version: number;
  /** Version 4: where the text and data regions start in the blob. */
  private readonly textAt: number = 0;
  private readonly dataAt: number = 0;
  /**
   * `inPlace`: arrays are views over `src` itself (8-aligned, and stable for the segment's life:
   * a blob in the LMDB map). `skipStrings`: eager string lists read as empty (only the arrays
   * wanted).
   */
  constructor(
    src: Uint8Array,
    inPlace = false,
    readonly skipStrings = false,
    /**
     * Set: `src` holds the blob's header, text and metadata only (its data region cut out), and
     * the data region's arrays are read from the file when asked for (`LazyArray`).
     */
    private readonly lazy: LazyData | null = null,
    /** Set: `src` holds no data region; its arrays are views over these chunks of it. */
    private readonly chunks: DataChunks | null = null,
  ) {
    // Arrays are views into one 8-aligned buffer: the blob's own when it has one to itself (as
    // LMDB's reads of large values do, so a loaded segment is held once), else an aligned copy.
    const own =
      src.byteOffset === 0 &&
      src.byteLength === src.buffer.byteLength &&
      src.buffer instanceof ArrayBuffer;
    if (own || (inPlace && (src.byteOffset & 7) === 0 && src.buffer instanceof ArrayBuffer)) {
      this.ab = src.buffer as ArrayBuffer;
      this.base = src.byteOffset;
    } else {
      this.ab = new ArrayBuffer(src.byteLength);
      new Uint8Array(this.ab).set(src);
      this.base = 0;
    }
    this.buf = Buffer.from(this.ab, this.base, src.byteLength);
    if (this.u32() !== MAGIC) throw new Error('not a segment');
    const v = (this.version = this.u32());
    if (v < MIN_VERSION || v > VERSION) throw new Error(`unsupported segment version ${v}`);
    if (v >= 4) {
      this.textAt = HEADER_BYTES;
      this.dataAt = HEADER_BYTES + this.buf.readDoubleLE(8);
      this.pos = this.dataAt + (lazy || chunks ? 0 : this.buf.readDoubleLE(16));
    } else if (lazy || chunks) throw new Error('a lazy or chunked read needs a version 4 segment');
  }
  u32(): number {
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  f64(): number {
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  bool(): boolean {
    return this.u32() === 1;
  }
  str(): string {
    const n = this.u32();
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  arr<T>(): T | null {
    const kind = this.u32();
    if (kind === 0) return null;
    const n = this.u32();
    let at: number;
    if (this.version >= 4) {
      const region = this.u32();
      const off = this.f64();
      if (region !== 0 && this.lazy) {
        const i = pieceAt(this.lazy.at, off);
        const p = this.lazy.ranges[i]!;
        return new LazyArray(kind, p.file, p.offset + off - this.lazy.at[i]!, n) as T;
      }
      if (region !== 0 && this.chunks) return chunkView(this.chunks, kind, off, n) as T;
      at = (region === 0 ? this.textAt : this.dataAt) + off;
    } else {
      at = this.pos = (this.pos + 7) & ~7;
      this.pos += n * (kind === 2 ? 8 : kind === 3 ? 1 : kind === 5 ? 2 : 4);
    }
    at += this.base;
    let a: unknown;
    switch (kind) {
      case 1:
        a = new Int32Array(this.ab, at, n);
        break;
      case 2:
        a = new Float64Array(this.ab, at, n);
        break;
      case 3:
        a = new Uint8Array(this.ab, at, n);
        break;
      case 5:
        a = new Uint16Array(this.ab, at, n);
        break;
      default:
        a = new Uint32Array(this.ab, at, n);
    }
    return a as T;
  }
  /** An array read now, also where the data region is read lazily. */
  arrNow<T>(): T | null {
    const a = this.arr<T>();
    return a instanceof LazyArray ? (a.read() as T) : a;
  }
  /** `lazy`: decoded per access from the blob (see string-block.ts). */
  strings(lazy = false): string[] {
    const offsets0 = this.arr<Uint32Array>()!;
    const total = this.u32();
    if (offsets0 instanceof LazyArray) {
      // a list in the data region (the `_id`s), its data region not in memory: read it now
      const offsets = offsets0.read() as Uint32Array;
      const bytes = readFileRange({ file: offsets0.file, offset: offsets0.pos + offsets.byteLength, length: total }); // prettier-ignore
      if (!bytes) throw new Error('segment file cut short');
      return blockStrings({ bytes, offsets });
    }
    const offsets = offsets0;
    let base: number;
    let buf = this.buf;
    if (this.version >= 4 && offsets.buffer !== this.ab) {
      // in a chunk of the data region: the bytes follow the offsets there
      buf = Buffer.from(offsets.buffer, offsets.byteOffset + offsets.byteLength, total);
      base = 0;
    } else if (this.version >= 4) base = offsets.byteOffset - this.base + offsets.byteLength;
    else {
      base = this.pos;
      this.pos = base + total;
    }
    if (lazy) return blockStrings({ bytes: buf.subarray(base, base + total), offsets });
    if (this.skipStrings) return [];
    const out = new Array<string>(offsets.length - 1);
    let ascii = true;
    for (let i = base; i < base + total; i++) {
      if (buf[i]! > 127) {
        ascii = false;
        break;
      }
    }
    const enc = ascii ? 'latin1' : 'utf8';
    for (let i = 0; i < out.length; i++)
      out[i] = buf.toString(enc, base + offsets[i]!, base + offsets[i + 1]!);
    return out;
  }
}

function writeInverted(w: Writer, inv: InvertedField | null): void {
  w.bool(inv !== null);
  if (!inv) return;
  w.strings(inv.terms);
  w.arr(inv.termStart);
  w.arr(inv.docs);
  w.arr(inv.freqs);
  w.arr(inv.posStart);
  w.arr(inv.positions);
  w.arr(inv.norms);
  w.f64(inv.docCount);
  w.f64(inv.sumTotalTermFreq);
  w.f64(inv.sumDocFreq);
}

function readInverted(r: Reader): InvertedField | null {
  if (!r.bool()) return null;
  return {
    terms: r.strings(),
    termStart: r.arr<Int32Array>()!,
    docs: r.arr<Int32Array>()!,
    freqs: r.arr<PackedInts>(),
    posStart: r.arr<Int32Array>(),
    positions: r.arr<PackedInts>(),
    norms: r.arr<Uint8Array>(),
    docCount: r.f64(),
    sumTotalTermFreq: r.f64(),
    sumDocFreq: r.f64(),
  };
}

function writeField(w: Writer, f: SegmentField): void {
  w.str(f.path);
  w.str(f.type);
  writeInverted(w, f.inverted);
  w.bool(f.points !== null);
  if (f.points) {
    w.arr(f.points.values);
    w.arr(f.points.docs);
  }
  const dv = f.docValues;
  w.u32(dv === null ? 0 : dv.kind === 'numeric' ? 1 : 2);
  if (dv?.kind === 'numeric') {
    w.arr(dv.single);
    w.arr(dv.offsets);
    w.arr(dv.values);
  } else if (dv?.kind === 'ordinal') {
    // Keyword columns share the inverted field's dictionary.
    const shared = f.inverted !== null && dv.dict === f.inverted.terms;
    w.bool(shared);
    if (!shared) w.strings(dv.dict);
    w.arr(dv.single);
    w.arr(dv.offsets);
    w.arr(dv.ords);
  }
}

function readField(r: Reader): SegmentField {
  const path = r.str();
  const type = r.str() as FieldType;
  const inverted = readInverted(r);
  let points: PointsIndex | null = null;
  if (r.bool()) points = { values: r.arr<Float64Array>()!, docs: r.arr<Int32Array>()! };
  const kind = r.u32();
  let docValues: NumericColumn | OrdinalColumn | null = null;
  if (kind === 1) {
    docValues = {
      kind: 'numeric',
      single: r.arr<Float64Array>(),
      offsets: r.arr<Int32Array>(),
      values: r.arr<Float64Array>(),
    };
  } else if (kind === 2) {
    const shared = r.bool();
    const dict = shared ? inverted!.terms : r.strings();
    docValues = {
      kind: 'ordinal',
      dict,
      single: r.arr<Int32Array>(),
      offsets: r.arr<Int32Array>(),
      ords: r.arr<Int32Array>(),
    };
  }
  return { path, type, inverted, points, docValues, ranges: null };
}

/** Version 3 appends the range values of a segment's fields after everything else. */
function writeRanges(w: Writer, ranges: SegmentPieces['ranges']): void {
  w.u32(ranges.length);
  for (const { path, ranges: r } of ranges) {
    w.str(path);
    w.strings(r.mins);
    w.strings(r.maxs);
    w.arr(r.docs);
  }
}

function readRanges(r: Reader, fields: Map<string, SegmentField>): void {
  const n = r.u32();
  for (let i = 0; i < n; i++) {
    const path = r.str();
    const ranges: RangeIndex = { mins: r.strings(), maxs: r.strings(), docs: r.arr<Int32Array>()! };
    const f = fields.get(path);
    if (f) fields.set(path, { ...f, ranges });
  }
}

/**
 * What an encoding is written from, in the order it is written: a segment's own parts, or a
 * merge's computed one at a time as they are reached (merge.ts `mergePieces`).
 */
export interface SegmentPieces {
  readonly maxDoc: number;
  /** The `_id`s, asked for once (a merge then lets go of them). */
  ids(): string[];
  /**
   * The per-document arrays, asked for once: a merge then lets go of them (20 bytes a document,
   * 200 MB for 10M documents) while it merges the fields.
   */
  docColumns(): { idOrder: Int32Array; seqNos: Float64Array; versions: Float64Array };
  readonly routing: ReadonlyMap<number, string>;
  readonly fieldCount: number;
  /** The fields in turn (range values left out: `ranges`). */
  fields(): Iterable<SegmentField>;
  fieldNames(): InvertedField;
  readonly nestedCount: number;
  nested(): Iterable<{ path: string; parentOf: Int32Array; pieces: SegmentPieces }>;
  /** Range values per field, in field order. */
  readonly ranges: ReadonlyArray<{ path: string; ranges: RangeIndex }>;
}

function piecesOf(s: Segment): SegmentPieces {
  return {
    maxDoc: s.maxDoc,
    ids: () => s.ids,
    docColumns: () => ({ idOrder: s.idOrder, seqNos: s.seqNos, versions: s.versions }),
    routing: s.routing,
    fieldCount: s.fields.size,
    fields: () => s.fields.values(),
    fieldNames: () => s.fieldNames,
    nestedCount: s.nested.size,
    nested: () =>
      [...s.nested].map(([path, nb]) => ({
        path,
        parentOf: nb.parentOf,
        pieces: piecesOf(nb.segment),
      })),
    ranges: [...s.fields.values()]
      .filter((f) => f.ranges !== null)
      .map((f) => ({ path: f.path, ranges: f.ranges! })),
  };
}

/** In a frame of its own: nothing holds the per-document arrays once written. */
function writeDocColumns(w: Writer, s: SegmentPieces): void {
  const { idOrder, seqNos, versions } = s.docColumns();
  w.arr(idOrder);
  w.arr(seqNos);
  w.arr(versions);
}

function writeSegment(w: Writer, s: SegmentPieces): void {
  w.u32(s.maxDoc);
  w.strings(s.ids(), true);
  writeDocColumns(w, s);
  const rk = [...s.routing.keys()];
  w.arr(Int32Array.from(rk));
  w.strings(rk.map((k) => s.routing.get(k)!));
  w.u32(s.fieldCount);
  for (const f of s.fields()) writeField(w, f);
  writeInverted(w, s.fieldNames());
  w.u32(s.nestedCount);
  for (const { path, parentOf, pieces } of s.nested()) {
    w.str(path);
    w.arr(parentOf);
    writeSegment(w, pieces);
  }
  writeRanges(w, s.ranges);
}

let loadedCounter = 2_000_000;

function readSegment(r: Reader, version: number): Segment {
  const maxDoc = r.u32();
  // `_id`s stay encoded: a segment's hits, gets and updates read few of them
  const ids = r.strings(true);
  const idOrder = r.arr<Int32Array>()!;
  const seqNos = r.arr<Float64Array>()!;
  const versions = r.arr<Float64Array>()!;
  const rk = r.arrNow<Int32Array>()!;
  const rv = r.strings();
  const routing = new Map<number, string>();
  rk.forEach((k, i) => routing.set(k, rv[i]!));
  const nf = r.u32();
  const fields = new Map<string, SegmentField>();
  for (let i = 0; i < nf; i++) {
    const f = readField(r);
    fields.set(f.path, f);
  }
  const fieldNames = readInverted(r)!;
  const nn = r.u32();
  const nested = new Map<string, NestedBlock>();
  for (let i = 0; i < nn; i++) {
    const path = r.str();
    const parentOf = r.arrNow<Int32Array>()!;
    nested.set(path, { parentOf, segment: readSegment(r, version) });
  }
  if (version >= 3) readRanges(r, fields);
  return {
    id: loadedCounter++,
    maxDoc,
    ids,
    idOrder,
    seqNos,
    versions,
    routing,
    fields,
    fieldNames,
    nested,
  };
}

/** An array of a blob's data region not read yet: where it sits in the file. */
class LazyArray {
  constructor(
    readonly kind: number,
    readonly file: string,
    readonly pos: number,
    readonly n: number,
  ) {}
  read(): Arr {
    const width = this.kind === 2 ? 8 : this.kind === 3 ? 1 : this.kind === 5 ? 2 : 4;
    const b = readFileRange({ file: this.file, offset: this.pos, length: this.n * width });
    if (!b) throw new Error('segment file cut short');
    // its own ArrayBuffer, from 0: aligned for any kind
    const ab = b.buffer as ArrayBuffer;
    switch (this.kind) {
      case 1:
        return new Int32Array(ab, 0, this.n);
      case 2:
        return new Float64Array(ab, 0, this.n);
      case 3:
        return new Uint8Array(ab, 0, this.n);
      case 5:
        return new Uint16Array(ab, 0, this.n);
      default:
        return new Uint32Array(ab, 0, this.n);
    }
  }
}

/**
 * Decodes the segment blob at `range` of a file reading only its metadata and dictionaries: its
 * data arrays (postings, columns, points, per-doc arrays) are read from the file by
 * `loadArrays` on the objects holding them, and let go by `unloadArrays`; the `_id`s, routing
 * keys and nested parent pointers are read at once. For a merge that reads one field at a time.
 * Null for a blob of an older version (read it whole).
 */
export function decodeSegmentFromFile(range: FileRange): Segment | null {
  const head = readFileRange({ ...range, length: HEADER_BYTES });
  if (!head || head.readUInt32LE(0) !== MAGIC || head.readUInt32LE(4) !== VERSION) return null;
  const textLen = head.readDoubleLE(8);
  const dataLen = head.readDoubleLE(16);
  const dataAt = HEADER_BYTES + textLen;
  const metaLen = range.length - dataAt - dataLen;
  // header and text, then the metadata: the blob without its data region
  const front = readFileRange({ ...range, length: dataAt });
  const meta = readFileRange({ ...range, offset: range.offset + dataAt + dataLen, length: metaLen }); // prettier-ignore
  if (!front || !meta) throw new Error('segment file cut short');
  const bytes = Buffer.concat([front, meta]);
  const own = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice();
  const data = { at: [0], ranges: [{ file: range.file, offset: range.offset + dataAt }] };
  return read(new Reader(own, false, false, data));
}

/**
 * The chunk lengths of a chunked blob's head (see `CHUNKED_MAGIC`), or null for a whole
 * encoding.
 */
export function chunkLengths(head: Uint8Array): number[] | null {
  if (head.byteLength < 8) return null;
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.readUInt32LE(0) !== CHUNKED_MAGIC) return null;
  const n = b.readUInt32LE(4);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(b.readDoubleLE(8 + 8 * i));
  return out;
}

/** A chunked head's encoding (without its data region) and its chunks' starts in that region. */
function chunkedParts(head: Uint8Array): { v4: Uint8Array; at: number[] } {
  const lengths = chunkLengths(head);
  if (!lengths) throw new Error('not a chunked segment head');
  const at: number[] = [];
  let o = 0;
  for (const l of lengths) {
    at.push(o);
    o += l;
  }
  return { v4: head.subarray(8 + 8 * lengths.length), at };
}

/**
 * Decodes a chunked blob's segment whose data arrays are views over `chunks` (its data region's
 * blobs, read in place from the store's map or copies), which must stay unchanged while the
 * segment is in use.
 */
export function decodeChunkedInPlace(head: Uint8Array, chunks: readonly Uint8Array[]): Segment {
  const { v4, at } = chunkedParts(head);
  if (at.length !== chunks.length) throw new Error('a chunked segment is missing chunks');
  return read(new Reader(v4, true, false, null, { at, bytes: chunks }));
}

/**
 * `decodeSegmentFromFile` for a chunked blob: its head given, its chunks where they sit in files
 * (the data arrays read from there by `loadArrays`).
 */
export function decodeChunkedFromFiles(head: Uint8Array, chunks: readonly FileRange[]): Segment {
  const { v4, at } = chunkedParts(head);
  if (at.length !== chunks.length) throw new Error('a chunked segment is missing chunks');
  const own = v4.slice();
  return read(new Reader(own, false, false, { at, ranges: chunks.map((c) => ({ file: c.file, offset: c.offset })) })); // prettier-ignore
}

/** The whole (version 4) encoding of a chunked blob, from its head and chunks. */
export function assembleChunked(head: Uint8Array, chunks: readonly Uint8Array[]): Buffer {
  const { v4 } = chunkedParts(head);
  const h = Buffer.from(v4.buffer, v4.byteOffset, v4.byteLength);
  const dataAt = HEADER_BYTES + h.readDoubleLE(8);
  let data = 0;
  for (const c of chunks) data += c.byteLength;
  if (data !== h.readDoubleLE(16)) throw new Error('a chunked segment is missing chunks');
  const out = Buffer.from(new ArrayBuffer(v4.byteLength + data));
  h.copy(out, 0, 0, dataAt);
  let at = dataAt;
  for (const c of chunks) at += Buffer.from(c.buffer, c.byteOffset, c.byteLength).copy(out, at);
  h.copy(out, at, dataAt);
  return out;
}

const unloaded = new WeakMap<object, Array<[string, LazyArray]>>();

/** Reads the arrays of `o` (its own properties) that `decodeSegmentFromFile` left in the file. */
export function loadArrays(o: object | null): void {
  if (!o) return;
  const t = o as Record<string, unknown>;
  const lazy: Array<[string, LazyArray]> = [];
  for (const [k, v] of Object.entries(t)) {
    if (!(v instanceof LazyArray)) continue;
    lazy.push([k, v]);
    t[k] = v.read();
  }
  if (lazy.length > 0) unloaded.set(o, lazy);
}

/** Lets go of the arrays `loadArrays` read for `o` (they are read again if loaded again). */
export function unloadArrays(o: object | null): void {
  if (!o) return;
  const lazy = unloaded.get(o);
  if (!lazy) return;
  unloaded.delete(o);
  const t = o as Record<string, unknown>;
  for (const [k, v] of lazy) t[k] = v;
}

/** Segments that came encoded (from a build worker): a flush writes those bytes as they are. */
const encodings = new WeakMap<Segment, Buffer>();

/** Records that `bytes` encode `s` (and that `s` keeps views over them). */
export function rememberEncoding(s: Segment, bytes: Buffer): void {
  encodings.set(s, bytes);
}

/** The bytes `s` was decoded from (a worker's build or merge), if known. */
export function knownEncoding(s: Segment): Buffer | undefined {
  return encodings.get(s);
}

/** The segment's encoding: the bytes it was decoded from when known, else encoded now. */
export function encodedSegment(s: Segment): Buffer {
  return encodings.get(s) ?? encodeSegment(s);
}

/**
 * The segment's encoding, to write to the store. A segment encoded now reads its arrays from that
 * encoding afterwards (the same contents), so the arrays it was built or merged in are released
 * while the blob is written instead of living beside their encoding.
 */
export function encodingToWrite(s: Segment): Buffer {
  const known = encodings.get(s);
  if (known) return known;
  const bytes = encodeSegment(s);
  if (adoptEncodedArrays(s, bytes)) encodings.set(s, bytes);
  return bytes;
}

export function encodeSegment(s: Segment): Buffer {
  const w = new Writer();
  writeSegment(w, piecesOf(s));
  return w.done();
}

/**
 * The encoding of `pieces` (equal to `encodeSegment` of the segment they make), in an ArrayBuffer
 * of its own: each array goes to the scratch file `dataFd` as it is written, so only the pieces
 * being written and, at the end, the encoding itself are held. The caller owns (and removes) the
 * file.
 */
export function encodeSegmentStreaming(
  pieces: () => SegmentPieces,
  dataFd: number,
  /** Called once everything is written, before the encoding is read back into memory. */
  written?: () => void,
): Buffer {
  return encodeSegmentToFile(pieces, dataFd, written).whole();
}

/**
 * `encodeSegmentStreaming` without reading the encoding back: its data region stays in `dataFd`
 * (which must stay open while the result is read), read back whole or one chunk at a time.
 */
export function encodeSegmentToFile(
  pieces: () => SegmentPieces,
  dataFd: number,
  written?: () => void,
): StreamedEncoding {
  const w = new Writer(false, dataFd);
  writePieces(w, pieces);
  written?.();
  const { total, data } = w.sizes();
  return {
    length: total,
    dataLength: data,
    whole: () => w.fileDone(),
    chunks(chunkBytes) {
      const cuts = chunkCuts(w.dataStarts, data, chunkBytes);
      const ends = [...cuts.slice(1), data];
      const lengths = cuts.map((c, i) => ends[i]! - c);
      return {
        head: w.chunkedHead(lengths),
        count: cuts.length,
        chunk: (i) => w.dataPiece(cuts[i]!, lengths[i]!),
      };
    },
  };
}

/**
 * Writes the pieces in a frame of their own: once it returns nothing holds them (nor what they are
 * computed from), so they can be collected before the encoding is read back.
 */
function writePieces(w: Writer, pieces: () => SegmentPieces): void {
  writeSegment(w, pieces());
}

/** The version 3 encoding (arrays inline), which decoding still reads: for compatibility tests. */
export function encodeSegmentV3(s: Segment): Buffer {
  const w = new Writer(true);
  writeSegment(w, piecesOf(s));
  return w.done();
}

/** The segment may keep views over `bytes`: the caller must not modify them afterwards. */
export function decodeSegment(bytes: Uint8Array): Segment {
  return read(new Reader(bytes));
}

/**
 * Decodes a segment whose arrays are views over `bytes` wherever they sit (8-aligned, as LMDB
 * places large values), not over a copy: for a blob read in place from the store's map, which
 * must stay stored, unchanged, while the segment is in use.
 */
export function decodeSegmentInPlace(bytes: Uint8Array): Segment {
  return read(new Reader(bytes, true));
}

function read(r: Reader): Segment {
  return readSegment(r, r.version);
}

/**
 * Points `s`'s typed arrays at the same arrays decoded in place from `bytes`, its own encoding
 * (as written to the store): a segment built on the heap then reads from the store's map, its
 * heap arrays freed once running searches drop them. Strings stay as they are. The contents are
 * equal, so searches holding the segment see the same data before and after. False (and `s`
 * untouched) when the encoding does not match `s`'s shape.
 */
export function adoptEncodedArrays(s: Segment, bytes: Uint8Array): boolean {
  const r = new Reader(bytes, true, true);
  const from = read(r);
  const swaps: Array<[Record<string, unknown>, string, unknown]> = [];
  if (from.maxDoc !== s.maxDoc || !collectSwaps(s, from, swaps)) return false;
  for (const [obj, key, arr] of swaps) obj[key] = arr;
  encodings.delete(s);
  return true;
}

/**
 * A segment equal to `s` whose typed arrays are views over `bytes`, `s`'s own encoding (a private
 * copy of its blob), and whose strings are `s`'s own (not decoded again). Null when the encoding
 * does not match `s`'s shape.
 */
export function segmentOverCopy(s: Segment, bytes: Uint8Array): Segment | null {
  const from = read(new Reader(bytes, true, true));
  if (from.maxDoc !== s.maxDoc) return null;
  return takeStrings(from, s) ? from : null;
}

/**
 * Gives `to` (decoded without its string lists) `src`'s string lists and string-valued maps,
 * wherever they sit; false on a shape mismatch.
 */
function takeStrings(to: object, src: object): boolean {
  const t = to as Record<string, unknown>;
  const f = src as Record<string, unknown>;
  for (const [k, tv] of Object.entries(t)) {
    const sv = f[k];
    if (Array.isArray(tv)) {
      if (stringBlockOf(tv) !== undefined) continue; // encoded (the `_id`s): read from the copy
      if (!Array.isArray(sv)) return false;
      t[k] = sv;
    } else if (tv instanceof Map) {
      if (!(sv instanceof Map) || sv.size !== tv.size) return false;
      for (const [mk, mv] of tv) {
        if (mv !== null && typeof mv === 'object') {
          const sm: unknown = sv.get(mk);
          if (!sm || typeof sm !== 'object' || !takeStrings(mv, sm)) return false;
        } else t[k] = sv; // routing: strings per doc
      }
    } else if (tv !== null && typeof tv === 'object' && !ArrayBuffer.isView(tv)) {
      if (!sv || typeof sv !== 'object' || !takeStrings(tv, sv)) return false;
    }
  }
  return true;
}

/** Pairs every typed array of `to` with the same-shaped array of `from` (false on a mismatch). */
function collectSwaps(
  to: object,
  from: object,
  out: Array<[Record<string, unknown>, string, unknown]>,
): boolean {
  const t = to as Record<string, unknown>;
  for (const [k, fv] of Object.entries(from)) {
    const tv = t[k];
    if (fv === null && ArrayBuffer.isView(tv)) return false;
    if (Array.isArray(fv) && stringBlockOf(fv) !== undefined) {
      // an encoded string list (the `_id`s) for the decoded one
      if (!Array.isArray(tv) || tv.length !== fv.length) return false;
      if (!Object.getOwnPropertyDescriptor(t, k)?.writable) return false;
      out.push([t, k, fv]);
      continue;
    }
    if (ArrayBuffer.isView(fv)) {
      const a = tv as { constructor: unknown; length: number } | null;
      if (!a || a.constructor !== fv.constructor || a.length !== (fv as Int32Array).length)
        return false;
      if (!Object.getOwnPropertyDescriptor(t, k)?.writable) return false;
      out.push([t, k, fv]);
    } else if (fv instanceof Map) {
      if (!(tv instanceof Map)) return false;
      for (const [mk, mv] of fv) {
        if (mv === null || typeof mv !== 'object') continue;
        const tm: unknown = tv.get(mk);
        if (!tm || typeof tm !== 'object' || !collectSwaps(tm, mv, out)) return false;
      }
    } else if (fv !== null && typeof fv === 'object' && !Array.isArray(fv)) {
      if (!tv || typeof tv !== 'object' || !collectSwaps(tv, fv, out)) return false;
    }
  }
  return true;
}
