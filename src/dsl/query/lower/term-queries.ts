/**
 * MappedFieldType.termQuery / termsQuery / rangeQuery / existsQuery per field type, as ES 6.8's
 * mappers build them: keyword (normalizer), text (raw terms), numbers, dates (formats, date math,
 * time zones), booleans (`T`/`F`), IPs (CIDR, sortable hex terms) and the metadata fields.
 */
import {
  dateFormatter,
  dateRangeBounds,
  DEFAULT_DATE_FORMAT,
  timeZone,
} from '../../../common/dates/index.js';
import { ipToBytes, parseCidr, bytesToIp } from '../../../mapping/ip.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import { FALSE_TERM, TRUE_TERM } from '../../../search/index/field-values.js';
import { valueCount } from '../../../search/index/segment.js';
import type { Query } from '../../../search/query/query.js';
import { illegalArgument, illegalState } from '../errors.js';
import { javaParseLong } from '../java.js';
import type { TermValue } from '../nodes.js';
import { boosted, constantScore, matchAll, matchNone, withDisplay, BoolBuilder } from './build.js';
import type { LowerState } from './context.js';
import {
  failIfNotIndexed,
  isNumberType,
  isRangeType,
  shardError,
  type MappedField,
} from './fields.js';
import { rangeFieldQuery } from './range-fields.js';
import {
  numberRangeQuery,
  numberTermQuery,
  numberTermsQuery,
  pointRange,
  valueText,
  type NumberKind,
} from './numbers.js';

export const termDisplay = (field: string, term: string): string => `${field}:${term}`;

/** A term query; describeQuery prints a Term as `field:term` (termDisplay) with no display. */
export function rawTerm(field: string, term: string): Query {
  return { kind: 'Term', field, term, boost: 1 };
}

function termSet(field: string, terms: string[]): Query {
  const sorted = [...new Set(terms)].sort();
  return withDisplay(
    { kind: 'TermSet', field, terms: sorted, boost: 1 },
    sorted.map((t) => termDisplay(field, t)).join(' '),
  );
}

export function termRange(
  field: string,
  lo: string | null,
  hi: string | null,
  incLo: boolean,
  incHi: boolean,
  display?: string,
): Query {
  const text =
    display ?? `${field}:${incLo ? '[' : '{'}${lo ?? '*'} TO ${hi ?? '*'}${incHi ? ']' : '}'}`;
  return withDisplay(
    { kind: 'TermRange', field, lo, hi, includeLo: incLo, includeHi: incHi, boost: 1 },
    text,
  );
}

/** Field-level `boost` mapping parameter (ES applies it in termQuery). */
const fieldBoost = (f: MappedField, q: Query): Query =>
  f.mapping && f.mapping.boost !== 1 ? boosted(q, f.mapping.boost) : q;

/** Per-segment predicate query with a Lucene display. */
export function predicate(
  describe: string,
  forSegment: (ls: LiveSegment) => ((doc: number) => boolean) | null,
): Query {
  return withDisplay({ kind: 'Predicate', factory: { forSegment, describe }, boost: 1 }, describe);
}

// ---- values ----------------------------------------------------------------------------------

/** StringFieldType.indexedValueForSearch: keyword normalizer, else the text as is. */
export function indexedString(st: LowerState, f: MappedField, v: TermValue): string {
  const text = valueText(v);
  if (f.mapping && f.mapping.type === 'keyword' && f.mapping.normalizer) {
    return st.ctx.normalize(f.mapping, text);
  }
  return text;
}

/** BooleanFieldType.indexedValueForSearch. */
function booleanTerm(v: TermValue | null): string {
  if (v === null) return FALSE_TERM;
  if (typeof v === 'boolean') return v ? TRUE_TERM : FALSE_TERM;
  const s = valueText(v);
  if (s === 'true') return TRUE_TERM;
  if (s === 'false') return FALSE_TERM;
  throw illegalArgument(`Can't parse boolean value [${s}], expected [true] or [false]`);
}

/** IPs as the engine indexes them: 32 hex chars of the 16-byte address. */
function ipHex(bytes: Uint8Array): string {
  let b = bytes;
  if (b.length === 4) {
    b = new Uint8Array(16);
    b[10] = 0xff;
    b[11] = 0xff;
    b.set(bytes, 12);
  }
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function parseIp(text: string): Uint8Array {
  const b = ipToBytes(text);
  if (!b) throw illegalArgument(`'${text}' is not an IP string literal.`);
  return b;
}

const hexToIp = (hex: string): string => {
  const b = new Uint8Array(16);
  for (let i = 0; i < 16; i++) b[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytesToIp(b);
};

function ipStep(hex: string, delta: 1 | -1): string | null {
  let v = BigInt('0x' + hex) + BigInt(delta);
  if (v < 0n || v >= 1n << 128n) return null;
  return v.toString(16).padStart(32, '0');
}

const IP_MIN = '0'.repeat(32);
const IP_MAX = 'f'.repeat(32);

/** Engine term queries that are not Lucene TermQuery (IP points). */
const pointTerms = new WeakSet<object>();

/** A Term query that stands for an IP point query, not a Lucene TermQuery. */
export const isPointTerm = (q: Query): boolean => pointTerms.has(q);

/** A plain Lucene TermQuery (what query_string splicing and blending look for). */
export const isLuceneTermQuery = (q: Query): boolean =>
  q.kind === 'Term' && q.boost === 1 && !pointTerms.has(q);

function ipTermQuery(f: MappedField, v: TermValue): Query {
  const text = valueText(v);
  if (text.includes('/')) {
    const [lo, hi] = parseCidr(text);
    const prefix = text.split('/')[1]!;
    return termRange(
      f.name,
      ipHex(lo),
      ipHex(hi),
      true,
      true,
      `${f.name}:${bytesToIp(lo)}/${Number(prefix)}`,
    );
  }
  const hex = ipHex(parseIp(text));
  const q = withDisplay(
    { kind: 'Term', field: f.name, term: hex, boost: 1 },
    `${f.name}:${hexToIp(hex)}`,
  );
  pointTerms.add(q);
  return q;
}

// ---- dates -------------------------------------------------------------------------------------

function dateFormatterOf(f: MappedField, format: string | null) {
  if (format !== null) return dateFormatter(format);
  return dateFormatter(f.mapping?.format ?? DEFAULT_DATE_FORMAT, 'joda', f.mapping?.locale);
}

/** DateFieldType.rangeQuery: date math, rounding of bounds, time zone and forced format. */
export function dateRangeQuery(
  st: LowerState,
  f: MappedField,
  from: TermValue | null,
  to: TermValue | null,
  incLo: boolean,
  incHi: boolean,
  tz: string | null,
  format: string | null,
): Query {
  failIfNotIndexed(f);
  const zone = tz === null ? undefined : timeZone(tz);
  const bound = (v: TermValue | null) =>
    v === null ? null : typeof v === 'boolean' ? valueText(v) : v;
  const [lo, hi] = dateRangeBounds(
    bound(from),
    bound(to),
    incLo,
    incHi,
    () => st.ctx.now,
    zone,
    dateFormatterOf(f, format),
  );
  return pointRange(f.name, 'date', lo, hi);
}

// ---- term / terms ------------------------------------------------------------------------------

const numberKind = (f: MappedField): NumberKind => f.typeName as NumberKind;

function unsupportedExact(st: LowerState, f: MappedField): never {
  switch (f.typeName) {
    case 'geo_point':
      throw shardError(
        st,
        `Geo fields do not support exact searching, use dedicated geo queries instead: [${f.name}]`,
      );
    case 'geo_shape':
    case 'shape':
      throw shardError(
        st,
        'Geo fields do not support exact searching, use dedicated geo queries instead',
      );
    case 'binary':
      throw shardError(st, 'Binary fields do not support searching');
    default:
      throw illegalArgument(
        `Field [${f.name}] of type [${f.typeName}] is not supported for term-level queries in this version`,
      );
  }
}

/** MappedFieldType.termQuery. */
export function termQuery(st: LowerState, f: MappedField, v: TermValue): Query {
  if (f.meta) return metaTermsQuery(st, f, [v], true);
  const m = f.mapping!;
  switch (m.type) {
    case 'keyword':
    case 'join':
    case 'text':
      failIfNotIndexed(f);
      return fieldBoost(f, rawTerm(f.name, indexedString(st, f, v)));
    case 'boolean': {
      failIfNotIndexed(f);
      const t = booleanTerm(v);
      return fieldBoost(
        f,
        withDisplay({ kind: 'Term', field: f.name, term: t, boost: 1 }, termDisplay(f.name, t)),
      );
    }
    case 'ip':
      failIfNotIndexed(f);
      return ipTermQuery(f, v);
    case 'date':
      return fieldBoost(f, dateRangeQuery(st, f, v, v, true, true, null, null));
    default:
      if (isNumberType(m.type)) {
        failIfNotIndexed(f);
        return fieldBoost(f, numberTermQuery(m, numberKind(f), v));
      }
      if (isRangeType(m.type)) {
        return fieldBoost(f, rangeFieldQuery(st, f, v, v, true, true, null, null, null));
      }
      return unsupportedExact(st, f);
  }
}

/** MappedFieldType.termsQuery. */
export function termsQuery(st: LowerState, f: MappedField, values: readonly TermValue[]): Query {
  if (f.meta) return metaTermsQuery(st, f, values, false);
  const m = f.mapping!;
  switch (m.type) {
    case 'keyword':
    case 'join':
    case 'text':
      failIfNotIndexed(f);
      return termSet(
        f.name,
        values.map((v) => indexedString(st, f, v)),
      );
    case 'boolean':
      failIfNotIndexed(f);
      return termSet(f.name, values.map(booleanTerm));
    case 'ip': {
      if (values.some((v) => valueText(v).includes('/'))) return defaultTermsQuery(st, f, values);
      failIfNotIndexed(f);
      const hexes = values.map((v) => ipHex(parseIp(valueText(v))));
      const sorted = [...new Set(hexes)].sort();
      return withDisplay(
        { kind: 'TermSet', field: f.name, terms: sorted, boost: 1 },
        `${f.name}:{${sorted.map(hexToIp).join(' ')}}`,
      );
    }
    case 'date':
      return defaultTermsQuery(st, f, values);
    default:
      if (isNumberType(m.type)) {
        failIfNotIndexed(f);
        return fieldBoost(f, numberTermsQuery(m, numberKind(f), values));
      }
      return defaultTermsQuery(st, f, values);
  }
}

/** MappedFieldType.termsQuery default: constant score disjunction of term queries. */
function defaultTermsQuery(st: LowerState, f: MappedField, values: readonly TermValue[]): Query {
  const b = new BoolBuilder(st.ctx.maxClauseCount);
  for (const v of values) b.add(termQuery(st, f, v), 'should');
  return constantScore(b.build());
}

// ---- metadata fields ---------------------------------------------------------------------------

function idsQuery(ids: string[]): Query {
  return withDisplay(
    { kind: 'Ids', ids: [...new Set(ids)], boost: 1 },
    `_id:(${[...new Set(ids)].sort().join(' ')})`,
  );
}

/** ES Regex.simpleMatch: `*` wildcards only. */
export function simpleMatch(pattern: string, s: string): boolean {
  const re = new RegExp(
    '^' +
      pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
    's',
  );
  return re.test(s);
}

function metaTermsQuery(
  st: LowerState,
  f: MappedField,
  values: readonly TermValue[],
  single: boolean,
): Query {
  const ctx = st.ctx;
  const texts = values.map(valueText);
  switch (f.meta!) {
    case '_id':
      return idsQuery(texts);
    case '_uid': {
      const prefix = `${ctx.typeName ?? '_doc'}#`;
      return idsQuery(texts.filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length)));
    }
    case '_index':
      for (const t of texts) if (simpleMatch(t, ctx.index)) return matchAll();
      return matchNone(
        `Index didn't match. Index queried: ${ctx.index} vs. ${single ? texts[0] : `[${texts.join(', ')}]`}`,
      );
    case '_type': {
      const type = ctx.typeName;
      if (!type) return matchNone('No types');
      return texts.includes(type)
        ? matchAll()
        : matchNone('Type list does not contain the index type');
    }
    case '_routing': {
      const set = new Set(texts);
      return predicate(
        single ? `_routing:${texts[0]}` : texts.map((t) => `_routing:${t}`).join(' '),
        (ls) => {
          const r = ls.segment.routing;
          if (r.size === 0) return null;
          return (doc) => {
            const v = r.get(doc);
            return v !== undefined && set.has(v);
          };
        },
      );
    }
    case '_field_names':
      if (ctx.fieldNamesEnabled === false) {
        throw illegalState('Cannot run [exists] queries if the [_field_names] field is disabled');
      }
      return single ? rawTerm('_field_names', texts[0]!) : termSet('_field_names', texts);
    case '_seq_no': {
      const nums = values.map(seqNoValue);
      const set = new Set(nums);
      return predicate(
        single
          ? `_seq_no:[${nums[0]} TO ${nums[0]}]`
          : `_seq_no:{${[...set].sort((a, b) => a - b).join(' ')}}`,
        (ls) => (doc) => set.has(ls.segment.seqNos[doc]!),
      );
    }
    case '_version':
      throw shardError(st, 'The _version field is not searchable');
    case '_source':
      throw shardError(st, 'The _source field is not searchable');
    case '_ignored':
    case '_all':
      return single ? rawTerm(f.name, texts[0]!) : termSet(f.name, texts);
  }
}

/** SeqNoFieldType.parse. */
function seqNoValue(v: TermValue): number {
  if (typeof v === 'number') {
    if (v % 1 !== 0) throw illegalArgument(`Value [${valueText(v)}] has a decimal part`);
    return v;
  }
  const s = valueText(v);
  return javaParseLong(s);
}

// ---- range -------------------------------------------------------------------------------------

/** MappedFieldType.rangeQuery (time_zone / format for dates, relation for range fields). */
export function rangeQuery(
  st: LowerState,
  f: MappedField,
  from: TermValue | null,
  to: TermValue | null,
  incLo: boolean,
  incHi: boolean,
  tz: string | null,
  format: string | null,
  relation: string | null = null,
): Query {
  if (f.meta) return metaRangeQuery(st, f, from, to, incLo, incHi);
  const m = f.mapping!;
  switch (m.type) {
    case 'date':
      return dateRangeQuery(st, f, from, to, incLo, incHi, tz, format);
    case 'keyword':
    case 'join':
    case 'text':
      failIfNotIndexed(f);
      return termRange(
        f.name,
        from === null ? null : indexedString(st, f, from),
        to === null ? null : indexedString(st, f, to),
        incLo,
        incHi,
      );
    case 'boolean':
      failIfNotIndexed(f);
      return termRange(
        f.name,
        from === null ? null : booleanTerm(from),
        to === null ? null : booleanTerm(to),
        incLo,
        incHi,
      );
    case 'ip': {
      failIfNotIndexed(f);
      let lo = IP_MIN;
      let hi = IP_MAX;
      if (from !== null) {
        lo = ipHex(parseIp(valueText(from)));
        if (!incLo) {
          if (lo === IP_MAX) return withDisplay({ kind: 'MatchNone' }, 'MatchNoDocsQuery("")');
          lo = ipStep(lo, 1)!;
        }
      }
      if (to !== null) {
        hi = ipHex(parseIp(valueText(to)));
        if (!incHi) {
          if (hi === IP_MIN) return withDisplay({ kind: 'MatchNone' }, 'MatchNoDocsQuery("")');
          hi = ipStep(hi, -1)!;
        }
      }
      return termRange(f.name, lo, hi, true, true, `${f.name}:[${hexToIp(lo)} TO ${hexToIp(hi)}]`);
    }
    default:
      if (isNumberType(m.type)) {
        failIfNotIndexed(f);
        return fieldBoost(f, numberRangeQuery(m, numberKind(f), from, to, incLo, incHi));
      }
      if (isRangeType(m.type)) {
        return rangeFieldQuery(st, f, from, to, incLo, incHi, relation, tz, format);
      }
      throw illegalArgument(
        `Field [${f.name}] of type [${f.typeName}] does not support range queries`,
      );
  }
}

function metaRangeQuery(
  st: LowerState,
  f: MappedField,
  from: TermValue | null,
  to: TermValue | null,
  incLo: boolean,
  incHi: boolean,
): Query {
  switch (f.meta!) {
    case '_seq_no': {
      let l = -Infinity;
      let u = Infinity;
      if (from !== null) {
        l = seqNoValue(from);
        if (!incLo) l++;
      }
      if (to !== null) {
        u = seqNoValue(to);
        if (!incHi) u--;
      }
      return predicate(`_seq_no:[${l} TO ${u}]`, (ls) => (doc) => {
        const s = ls.segment.seqNos[doc]!;
        return s >= l && s <= u;
      });
    }
    case '_type': {
      st.ctx.deprecation?.(
        'Running [range] query on [_type] field for an index with a single type. As types are deprecated, this functionality will be removed in future releases.',
      );
      const type = st.ctx.typeName;
      if (!type) return matchAll();
      if (from !== null) {
        const lo = valueText(from);
        if (lo > type || (lo === type && !incLo)) {
          return matchNone('[_type] was lexicographically smaller than lower bound of range');
        }
      }
      if (to !== null) {
        const hi = valueText(to);
        if (hi < type || (hi === type && !incHi)) {
          return matchNone('[_type] was lexicographically greater than upper bound of range');
        }
      }
      return matchAll();
    }
    case '_ignored':
    case '_all':
      return termRange(
        f.name,
        from === null ? null : valueText(from),
        to === null ? null : valueText(to),
        incLo,
        incHi,
      );
    case '_source':
      throw shardError(st, 'The _source field is not searchable');
    default:
      throw illegalArgument(
        `Field [${f.name}] of type [${f.typeName}] does not support range queries`,
      );
  }
}

// ---- exists ------------------------------------------------------------------------------------

/** MappedFieldType.existsQuery (without the ConstantScore wrapper ExistsQueryBuilder adds). */
export function existsQuery(st: LowerState, f: MappedField): Query {
  if (f.meta) {
    switch (f.meta) {
      case '_id':
      case '_uid':
      case '_index':
      case '_type':
        return matchAll();
      case '_routing':
        return predicate('_field_names:_routing', (ls) => {
          const r = ls.segment.routing;
          return r.size === 0 ? null : (doc) => r.has(doc);
        });
      case '_seq_no':
      case '_version':
        return withDisplay(matchAll(), `DocValuesFieldExistsQuery [field=${f.name}]`);
      case '_source':
        throw shardError(st, 'The _source field is not searchable');
      case '_field_names':
        throw illegalState('Cannot run exists query on _field_names');
      case '_ignored':
        return termRange('_ignored', null, null, true, true);
      case '_all':
        return rawTerm('_field_names', '_all');
    }
  }
  const m = f.mapping!;
  const name = f.name;
  // the engine keeps doc value columns for these types only
  const columnar =
    m.type === 'keyword' ||
    m.type === 'ip' ||
    m.type === 'boolean' ||
    m.type === 'date' ||
    isNumberType(m.type);
  if (m.docValues && columnar) {
    return predicate(`DocValuesFieldExistsQuery [field=${name}]`, (ls) => {
      const col = ls.segment.fields.get(name)?.docValues;
      return col ? (doc) => valueCount(col, doc) > 0 : null;
    });
  }
  if ((m.type === 'text' || m.type === 'keyword') && m.norms) {
    return predicate(`NormsFieldExistsQuery [field=${name}]`, (ls) => {
      const norms = ls.segment.fields.get(name)?.inverted?.norms;
      return norms ? (doc) => norms[doc] !== 0 : null;
    });
  }
  // DocValuesFieldExistsQuery in ES when doc values are on; `_field_names` holds the same docs here
  if (m.docValues) {
    return withDisplay(
      { kind: 'Term', field: '_field_names', term: name, boost: 1 },
      `DocValuesFieldExistsQuery [field=${name}]`,
    );
  }
  return rawTerm('_field_names', name);
}
