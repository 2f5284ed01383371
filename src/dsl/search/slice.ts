/**
 * Sliced scrolls (ES SliceBuilder, TermsSliceQuery, DocValuesSliceQuery): `slice: {id, max, field}`
 * splits a scroll into `max` disjoint parts. With more shards than slices whole shards are
 * assigned to slices; otherwise each shard's documents are split by a hash of their `_id` term
 * (Uid.encodeId bytes, murmur3 seed 7919) or of a numeric doc value (hppc BitMixer.mix).
 */
import { EsError, illegalArgument, xContentParse } from '../../common/errors.js';
import { murmur3x86_32 } from '../../common/murmur3.js';
import type { FieldMapping } from '../../mapping/types.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import type { Query } from '../../search/query/query.js';

export interface SliceSpec {
  field: string;
  id: number;
  max: number;
}

const wrap = (field: string, e: EsError) =>
  new EsError('x_content_parse_exception', `[slice] failed to parse field [${field}]`, 400, {
    causedBy: e,
  });

function intOf(field: string, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw xContentParse(`[slice] failed to parse field [${field}]`);
  return Math.trunc(n);
}

/** SliceBuilder.fromXContent (ObjectParser "slice" with its setters' checks, in field order). */
export function parseSlice(v: unknown): SliceSpec {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw xContentParse("[slice] slice doesn't support values of type: VALUE");
  const s: SliceSpec = { field: '_id', id: -1, max: -1 };
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    switch (k) {
      case 'field':
        if (typeof x !== 'string' || x === '')
          throw wrap(k, illegalArgument('field name is null or empty'));
        s.field = x;
        break;
      case 'id': {
        const id = intOf(k, x);
        if (id < 0) throw wrap(k, illegalArgument('id must be greater than or equal to 0'));
        if (s.max !== -1 && id >= s.max)
          throw wrap(k, illegalArgument('max must be greater than id'));
        s.id = id;
        break;
      }
      case 'max': {
        const max = intOf(k, x);
        if (max <= 1) throw wrap(k, illegalArgument('max must be greater than 1'));
        if (s.id !== -1 && s.id >= max)
          throw wrap(k, illegalArgument('max must be greater than id'));
        s.max = max;
        break;
      }
      default:
        throw xContentParse(`[slice] unknown field [${k}], parser not found`);
    }
  }
  return s;
}

// ---- Uid.encodeId ---------------------------------------------------------------------------

function isUrlBase64WithoutPadding(id: string): boolean {
  const n = id.length;
  switch (n & 3) {
    case 1:
      return false;
    case 2:
      if (!'AQgw'.includes(id[n - 1]!)) return false;
      break;
    case 3:
      if (!'AEIMQUYcgkosw048'.includes(id[n - 1]!)) return false;
      break;
  }
  return /^[0-9A-Za-z_-]*$/.test(id);
}

/** ES Uid.encodeId: the bytes the `_id` field indexes (numeric, base64 or UTF-8 forms). */
export function encodeId(id: string): Uint8Array {
  if (/^[0-9]+$/.test(id)) {
    const b = new Uint8Array(1 + ((id.length + 1) >> 1));
    b[0] = 0xfe;
    for (let i = 0; i < id.length; i += 2) {
      const b1 = id.charCodeAt(i) - 48;
      const b2 = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 48;
      b[1 + (i >> 1)] = (b1 << 4) | b2;
    }
    return b;
  }
  if (isUrlBase64WithoutPadding(id)) {
    const raw = Buffer.from(id, 'base64url');
    if (raw.length > 0 && raw[0]! >= 0xfd) return Uint8Array.from([0xfd, ...raw]);
    return new Uint8Array(raw);
  }
  const utf8 = Buffer.from(id, 'utf8');
  const b = new Uint8Array(utf8.length + 1);
  b[0] = 0xff;
  b.set(utf8, 1);
  return b;
}

const floorMod = (a: number, m: number) => ((a % m) + m) % m;

/** hppc BitMixer.mix(long): the low 32 bits of the 64-bit finalizer. */
export function bitMixLong(v: bigint): number {
  const M = (1n << 64n) - 1n;
  let z = BigInt.asUintN(64, v);
  z = ((z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn) & M;
  z = ((z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n) & M;
  z = z ^ (z >> 32n);
  return Number(BigInt.asIntN(32, z));
}

const scratch = new DataView(new ArrayBuffer(8));

/** The long a SortedNumericDocValues holds for a value of this field type. */
function docValueLong(type: string, v: number): bigint {
  if (type === 'double') {
    scratch.setFloat64(0, v);
    const bits = scratch.getBigInt64(0);
    return bits < 0n ? bits ^ 0x7fffffffffffffffn : bits; // NumericUtils.doubleToSortableLong
  }
  if (type === 'float' || type === 'half_float') {
    scratch.setFloat32(0, v);
    const bits = scratch.getInt32(0);
    return BigInt(bits < 0 ? bits ^ 0x7fffffff : bits); // NumericUtils.floatToSortableInt
  }
  return BigInt(Math.trunc(v));
}

export interface SliceTarget {
  /** The shard's position among the index's shards and the index's shard count. */
  shardId: number;
  numShards: number;
  maxSlices: number;
  field: (path: string) => FieldMapping | undefined;
}

/**
 * SliceBuilder.toFilter for one shard: null when every doc of the shard is in the slice, or an
 * engine filter (match none when the shard belongs to another slice).
 */
export function sliceFilter(s: SliceSpec, t: SliceTarget): Query | null {
  if (s.max > t.maxSlices) {
    throw new EsError(
      'query_phase_execution_exception',
      `The number of slices [${s.max}] is too large. It must be less than [${t.maxSlices}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`,
      500,
    );
  }
  const isId = s.field === '_id' || s.field === '_uid';
  let mapping: FieldMapping | undefined;
  if (!isId) {
    mapping = t.field(s.field);
    if (!mapping) throw illegalArgument(`field ${s.field} not found`);
    if (!mapping.docValues || !isNumericType(mapping.type))
      throw illegalArgument(`cannot load numeric doc values on ${s.field}`);
  }
  let id = s.id;
  let max = s.max;
  if (t.numShards > 1) {
    if (max >= t.numShards) {
      if (id % t.numShards !== t.shardId) return { kind: 'MatchNone' };
      let inShard = Math.floor(max / t.numShards);
      if (max % t.numShards > t.shardId) inShard++;
      if (inShard === 1) return null;
      id = Math.floor(id / t.numShards);
      max = inShard;
    } else {
      return t.shardId % max === s.id ? null : { kind: 'MatchNone' };
    }
  }
  const sid = id;
  const smax = max;
  if (isId) {
    return predicate(`_id slice ${sid}/${smax}`, (ls) => {
      const ids = ls.segment.ids;
      return (doc) => {
        const b = encodeId(ids[doc]!);
        return floorMod(murmur3x86_32(b, 0, b.length, 7919), smax) === sid;
      };
    });
  }
  const path = mapping!.path;
  const type = mapping!.type;
  return predicate(`${path} slice ${sid}/${smax}`, (ls) => {
    const col = ls.segment.fields.get(path)?.docValues;
    if (!col || col.kind !== 'numeric') return () => false;
    return (doc) => {
      if (col.single) {
        const v = col.single[doc]!;
        return !Number.isNaN(v) && floorMod(bitMixLong(docValueLong(type, v)), smax) === sid;
      }
      for (let i = col.offsets![doc]!; i < col.offsets![doc + 1]!; i++)
        if (floorMod(bitMixLong(docValueLong(type, col.values![i]!)), smax) === sid) return true;
      return false;
    };
  });
}

const NUMERIC = new Set([
  'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'date',
]); // prettier-ignore
const isNumericType = (t: string) => NUMERIC.has(t);

function predicate(
  describe: string,
  forSegment: (ls: LiveSegment) => (doc: number) => boolean,
): Query {
  return { kind: 'Predicate', factory: { describe, forSegment }, boost: 1 };
}
