/**
 * The indexing buffer's operations as bytes, so a worker thread can analyze and invert documents
 * the main thread parsed: each add carries its id, seqNo, version, routing and its values (a field
 * number and a string, number or boolean), each delete the buffer's doc number. Chunks live in
 * SharedArrayBuffers: the worker reads them in place and the main thread keeps them, so it can
 * replay them into a local builder when the worker cannot finish the buffer.
 */
import type { FieldMapping, ParsedDocument, ParsedValue } from '../../mapping/types.js';
import type { SegmentBuilder } from './segment-builder.js';
import { writeUtf8 } from '../../common/utf8-write.js';

const OP_ADD = 1;
const OP_DELETE = 2;
const V_STRING = 0;
const V_NUMBER = 1;
const V_TRUE = 2;
const V_FALSE = 3;

/** One filled chunk: the shared bytes and how many of them hold operations. */
export interface OpsChunk {
  readonly bytes: SharedArrayBuffer;
  readonly length: number;
}

const RANGE_TYPES = new Set([
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range',
  'ip_range',
]);

/**
 * Whether a parsed document travels as bytes: no nested documents, and only strings, numbers and
 * booleans of fields whose indexing needs nothing but the mapping's plain parameters.
 */
export function encodable(doc: ParsedDocument): boolean {
  if (doc.nested.length > 0) return false;
  for (const v of doc.values) {
    const t = typeof v.value;
    if (t !== 'string' && t !== 'number' && t !== 'boolean') return false;
    if (v.field.type === 'completion' || RANGE_TYPES.has(v.field.type)) return false;
  }
  return true;
}

/**
 * The parameters of a field the segment builder reads, as plain data (no multi-fields, no
 * rendered JSON): what a worker needs to index its values exactly as the main thread would.
 */
export function fieldForWorker(f: FieldMapping): FieldMapping {
  const out: Record<string, unknown> = {
    kind: 'field',
    type: f.type,
    path: f.path,
    name: f.name,
    index: f.index,
    docValues: f.docValues,
    store: f.store,
    indexOptions: f.indexOptions,
    norms: f.norms,
    boost: f.boost,
    copyTo: [],
    fields: new Map(),
    json: {},
  };
  if (f.analyzer !== undefined) out.analyzer = f.analyzer;
  if (f.normalizer !== undefined) out.normalizer = f.normalizer;
  if (f.scalingFactor !== undefined) out.scalingFactor = f.scalingFactor;
  if (f.positionIncrementGap !== undefined) out.positionIncrementGap = f.positionIncrementGap;
  return out as unknown as FieldMapping;
}

/** Writes operations into shared chunks; a full chunk is handed to `emit`. */
export class OpsWriter {
  private chunk: Buffer;
  private sab: SharedArrayBuffer;
  private pos = 0;
  /** Where the operation being written starts. */
  private opStart = 0;

  constructor(
    private readonly emit: (c: OpsChunk) => void,
    private readonly chunkBytes = 1 << 20,
  ) {
    this.sab = new SharedArrayBuffer(chunkBytes);
    this.chunk = Buffer.from(this.sab);
  }

  get pending(): number {
    return this.pos;
  }

  /** Hands over what is written so far (nothing when empty). */
  flush(): void {
    if (this.pos === 0) return;
    let c: OpsChunk;
    if (this.pos * 2 >= this.chunk.length) {
      // mostly full: handed over whole, a fresh chunk takes its place
      c = { bytes: this.sab, length: this.pos };
      this.sab = new SharedArrayBuffer(this.chunkBytes);
      this.chunk = Buffer.from(this.sab);
    } else {
      // a turn's few writes (single-document requests): copied out at their size and the chunk
      // reused, so that memory held until the refresh is what was written, not a chunk per turn
      const sab = new SharedArrayBuffer(this.pos);
      this.chunk.copy(Buffer.from(sab), 0, 0, this.pos);
      c = { bytes: sab, length: this.pos };
    }
    this.pos = 0;
    this.opStart = 0;
    this.emit(c);
  }

  /** Makes room for `n` more bytes; an operation never spans two chunks. */
  private room(n: number): void {
    if (this.pos + n <= this.chunk.length) return;
    const partial = this.pos - this.opStart;
    const sab = new SharedArrayBuffer(Math.max(this.chunkBytes, partial + n));
    const chunk = Buffer.from(sab);
    this.chunk.copy(chunk, 0, this.opStart, this.pos);
    if (this.opStart > 0) this.emit({ bytes: this.sab, length: this.opStart });
    this.sab = sab;
    this.chunk = chunk;
    this.pos = partial;
    this.opStart = 0;
  }

  private str(s: string): void {
    // the UTF-8 form takes at most 3 bytes per UTF-16 unit
    this.room(4 + s.length * 3);
    const n = writeUtf8(this.chunk, s, this.pos + 4);
    this.chunk.writeUInt32LE(n, this.pos);
    this.pos += 4 + n;
  }

  add(
    id: string,
    doc: ParsedDocument,
    fieldNo: (f: FieldMapping) => number,
    seqNo: number,
    version: number,
    routing: string | null,
  ): void {
    this.opStart = this.pos;
    this.room(1 + 8 + 8 + 1 + 4);
    const b = this.chunk;
    b[this.pos++] = OP_ADD;
    b.writeDoubleLE(seqNo, this.pos);
    b.writeDoubleLE(version, this.pos + 8);
    this.pos += 16;
    b[this.pos++] = routing === null ? 0 : 1;
    b.writeUInt32LE(doc.values.length, this.pos);
    this.pos += 4;
    this.str(id);
    if (routing !== null) this.str(routing);
    const values = doc.values;
    for (let i = 0; i < values.length; i++) {
      const { field, value } = values[i]!;
      const no = fieldNo(field);
      if (typeof value === 'string') {
        this.room(5);
        this.chunk.writeUInt32LE(no, this.pos);
        this.chunk[this.pos + 4] = V_STRING;
        this.pos += 5;
        this.str(value);
      } else if (typeof value === 'number') {
        this.room(13);
        this.chunk.writeUInt32LE(no, this.pos);
        this.chunk[this.pos + 4] = V_NUMBER;
        this.chunk.writeDoubleLE(value, this.pos + 5);
        this.pos += 13;
      } else {
        this.room(5);
        this.chunk.writeUInt32LE(no, this.pos);
        this.chunk[this.pos + 4] = value ? V_TRUE : V_FALSE;
        this.pos += 5;
      }
    }
    this.strings(doc.ignored);
    this.strings(doc.present);
  }

  private strings(list: readonly string[]): void {
    this.room(4);
    this.chunk.writeUInt32LE(list.length, this.pos);
    this.pos += 4;
    for (let i = 0; i < list.length; i++) this.str(list[i]!);
  }

  delete(doc: number): void {
    this.opStart = this.pos;
    this.room(5);
    this.chunk[this.pos] = OP_DELETE;
    this.chunk.writeUInt32LE(doc, this.pos + 1);
    this.pos += 5;
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();
/** Shared by documents without ignored or present-only fields (most): never added to. */
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Applies a chunk's operations to a builder, in order; `fields` are the chunk writer's numbers. */
export function applyOps(c: OpsChunk, fields: readonly FieldMapping[], b: SegmentBuilder): void {
  const buf = Buffer.from(c.bytes, 0, c.length);
  let pos = 0;
  const str = (): string => {
    const n = buf.readUInt32LE(pos);
    const s = buf.toString('utf8', pos + 4, pos + 4 + n);
    pos += 4 + n;
    return s;
  };
  const strings = (): string[] => {
    const n = buf.readUInt32LE(pos);
    pos += 4;
    if (n === 0) return NO_STRINGS;
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(str());
    return out;
  };
  const slots: Array<{ field: FieldMapping; value: string | number | boolean }> = [];
  const values: ParsedValue[] = [];
  const doc: Mutable<ParsedDocument> = {
    values,
    fieldNames: NO_NAMES,
    present: NO_STRINGS,
    dynamicUpdate: null,
    ignored: NO_STRINGS,
    nested: [],
  };
  while (pos < c.length) {
    const op = buf[pos++];
    if (op === OP_DELETE) {
      b.markDeleted(buf.readUInt32LE(pos));
      pos += 4;
      continue;
    }
    if (op !== OP_ADD) throw new Error(`bad indexing operation ${op} at ${pos - 1}`);
    const seqNo = buf.readDoubleLE(pos);
    const version = buf.readDoubleLE(pos + 8);
    pos += 16;
    const hasRouting = buf[pos++] === 1;
    const nv = buf.readUInt32LE(pos);
    pos += 4;
    const id = str();
    const routing = hasRouting ? str() : null;
    // the builder reads a document and keeps none of it: one document's objects serve them all
    values.length = nv;
    for (let i = 0; i < nv; i++) {
      const field = fields[buf.readUInt32LE(pos)]!;
      const tag = buf[pos + 4];
      pos += 5;
      let value: string | number | boolean;
      if (tag === V_STRING) value = str();
      else if (tag === V_NUMBER) {
        value = buf.readDoubleLE(pos);
        pos += 8;
      } else value = tag === V_TRUE;
      const slot = (slots[i] ??= { field, value });
      slot.field = field;
      slot.value = value;
      values[i] = slot;
    }
    doc.ignored = strings();
    doc.present = strings();
    b.add(id, doc, seqNo, version, routing);
  }
}
