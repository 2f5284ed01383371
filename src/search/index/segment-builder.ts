/**
 * The indexing buffer: documents added since the last refresh, inverted and columnised as they
 * arrive (postings appended per term, so a refresh only sorts terms and packs arrays). `build()`
 * turns it into an immutable Segment, dropping documents superseded within the buffer.
 */
import type {
  CompletionValue,
  FieldMapping,
  ParsedDocument,
  RangeValue,
} from '../../mapping/types.js';
import { analyzeCompletion, completionTerm, typedContexts } from './completion-terms.js';
import type { Analyzer } from '../analysis/index.js';
import { scanAscii, type ScanResult } from '../analysis/tokenizers/standard-grammar.js';
import { ChunkedInts, FloatBuf, IntBuf } from './growable.js';
import { packedInts } from './packed-ints.js';
import { sortedTermIds, TermTable } from './term-table.js';
import { intToByte4 } from './norms.js';
import { buildRangeIndex, isRangeFieldType, rangeKey, type RangeIndex } from './range-keys.js';
import {
  FALSE_TERM,
  ipToSortable,
  isNumericType,
  numericValue,
  TRUE_TERM,
} from './field-values.js';
import type {
  InvertedField,
  NestedBlock,
  NumericColumn,
  OrdinalColumn,
  PointsIndex,
  Segment,
  SegmentField,
} from './segment.js';

/** Resolves the index-time analyzer of a text field and the normalizer of a keyword field. */
export interface AnalysisResolver {
  indexAnalyzer(field: FieldMapping): Analyzer;
  normalize(field: FieldMapping, value: string): string;
}

/**
 * Occurrences of one inverted field in indexing order: a term id (and a position) per token in
 * chunked int lists, and a run per document (the doc and where its occurrences end), since all of
 * a document's tokens are added before the next document's. A refresh groups them by term.
 */
class Occurrences {
  readonly table = new TermTable();
  readonly terms = this.table.terms;
  readonly occTerm = new ChunkedInts();
  readonly occPos: ChunkedInts | null;
  readonly runDoc = new IntBuf(16);
  readonly runEnd = new IntBuf(16);
  maxPos = 0;
  private runLast = -1;

  constructor(withPositions: boolean) {
    this.occPos = withPositions ? new ChunkedInts() : null;
  }

  /** Closes the occurrences just added into doc `doc`'s run. */
  endRun(doc: number): void {
    const end = this.occTerm.length;
    if (doc !== this.runLast) {
      this.runDoc.push(doc);
      this.runEnd.push(end);
      this.runLast = doc;
    } else this.runEnd.setLast(end);
  }

  add(term: string, doc: number, position: number): void {
    this.occTerm.push(this.table.id(term));
    if (this.occPos) {
      this.occPos.push(position);
      if (position > this.maxPos) this.maxPos = position;
    }
    this.endRun(doc);
  }
}

/** Per-field buffer: the field's occurrences, numeric values and norms. */
class FieldBuf {
  readonly occ: Occurrences;
  readonly terms: string[];
  readonly numDocs = new IntBuf();
  readonly numVals = new FloatBuf();
  readonly normDocs = new IntBuf();
  readonly normVals = new IntBuf();
  /** Range values: bound keys and their docs, in indexing order. */
  readonly rangeMins: string[] = [];
  readonly rangeMaxs: string[] = [];
  readonly rangeDocs = new IntBuf();
  readonly withFreqs: boolean;
  readonly withPositions: boolean;
  readonly inverted: boolean;
  readonly docValues: boolean;
  readonly numeric: boolean;
  multiValued = false;
  // Per-document token state for the text field currently being analysed.
  curDoc = -1;
  curLen = 0;
  curOverlap = 0;
  lastPos = -1;
  nextPos = 0;
  lastNumDoc = -1;
  readonly sink: (term: string, position: number) => void;

  constructor(readonly field: FieldMapping) {
    const t = field.type;
    this.numeric = isNumericType(t) || t === 'boolean';
    const io = field.indexOptions;
    const isText = t === 'text';
    this.withFreqs = isText && io !== 'docs';
    this.withPositions = isText && (io === 'positions' || io === 'offsets');
    this.occ = new Occurrences(this.withPositions);
    this.terms = this.occ.terms;
    this.inverted =
      field.index &&
      (t === 'text' || t === 'keyword' || t === 'ip' || t === 'boolean' || t === 'completion');
    this.docValues = field.docValues && t !== 'text';
    this.sink = (term: string, position: number) => {
      this.curLen++;
      if (position === this.lastPos) this.curOverlap++;
      this.lastPos = position;
      this.occ.add(term, this.curDoc, position);
    };
  }

  addTerm(term: string, doc: number, position: number): void {
    this.occ.add(term, doc, position);
  }

  /**
   * The standard analyzer (standard tokenizer + lowercase) over ASCII text, straight from the
   * source string: same tokens and positions as the generic chain, no string per token.
   */
  indexAsciiStandard(text: string, base: number, maxTokenLength: number): number {
    const scan = SCAN;
    const occ = this.occ;
    const table = occ.table;
    const occTerm = occ.occTerm;
    const occPos = occ.occPos;
    let pos = base;
    let p = 0;
    while (scanAscii(text, p, maxTokenLength, scan)) {
      p = scan.end;
      occTerm.push(table.idLowerAscii(text, scan.start, scan.end));
      occPos?.push(pos);
      pos++;
    }
    const n = pos - base;
    if (n > 0) {
      this.curLen += n;
      this.lastPos = pos - 1;
      if (pos - 1 > occ.maxPos) occ.maxPos = pos - 1;
      occ.endRun(this.curDoc);
    }
    return pos;
  }

  addNumber(doc: number, v: number): void {
    if (this.lastNumDoc === doc) this.multiValued = true;
    this.lastNumDoc = doc;
    this.numDocs.push(doc);
    this.numVals.push(v);
  }

  finishDoc(): void {
    if (this.curDoc >= 0 && this.field.norms) {
      this.normDocs.push(this.curDoc);
      this.normVals.push(intToByte4(this.curLen - this.curOverlap));
    }
    this.curDoc = -1;
  }
}

/** `_field_names`: the paths each doc has (a field path and each of its parent objects). */
class FieldNamesBuf {
  readonly occ = new Occurrences(false);
  /** path → term ids of the path and its parents, so a doc's paths cost no string work. */
  private readonly chains = new Map<string, Int32Array>();

  addPath(p: string, doc: number): void {
    let chain = this.chains.get(p);
    if (!chain) {
      const ids = [this.occ.table.id(p)];
      for (let i = p.indexOf('.'); i >= 0; i = p.indexOf('.', i + 1))
        ids.push(this.occ.table.id(p.slice(0, i)));
      this.chains.set(p, (chain = Int32Array.from(ids)));
    }
    const occTerm = this.occ.occTerm;
    for (let i = 0; i < chain.length; i++) occTerm.push(chain[i]!);
    this.occ.endRun(doc);
  }
}

const SCAN: ScanResult = { start: 0, end: 0, type: '' };
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Analyzes one text value into the field buffer, taking the ASCII fast path when it applies. */
function analyzeInto(b: FieldBuf, analyzer: Analyzer, text: string, base: number): number {
  const max = analyzer.asciiStandardLower;
  if (max !== undefined && !NON_ASCII.test(text)) return b.indexAsciiStandard(text, base, max);
  return analyzer.analyze(text, b.sink, base);
}

let segmentCounter = 0;

/**
 * ES IgnoredFieldMapper: the names of fields whose malformed values were skipped are indexed as
 * terms of `_ignored` (searchable with term/terms/exists, returned with hits).
 */
export const IGNORED_FIELD: FieldMapping = {
  kind: 'field',
  type: 'keyword',
  path: '_ignored',
  name: '_ignored',
  index: true,
  docValues: false,
  store: true,
  indexOptions: 'docs',
  norms: false,
  boost: 1,
  copyTo: [],
  fields: new Map(),
  json: {},
};

export class SegmentBuilder {
  private n = 0;
  private readonly ids: string[] = [];
  private readonly seqNos = new FloatBuf();
  private readonly versions = new FloatBuf();
  private readonly routing = new Map<number, string>();
  private readonly deleted = new Set<number>();
  private readonly fields = new Map<string, FieldBuf>();
  private readonly fieldNames = new FieldNamesBuf();
  private readonly nested = new Map<string, { builder: SegmentBuilder; parents: IntBuf }>();
  private readonly touched: FieldBuf[] = [];

  constructor(private readonly analysis: AnalysisResolver) {}

  get size(): number {
    return this.n;
  }

  get liveSize(): number {
    return this.n - this.deleted.size;
  }

  add(
    id: string,
    doc: ParsedDocument,
    seqNo: number,
    version: number,
    routing: string | null = null,
  ): number {
    const d = this.n++;
    this.ids.push(id);
    this.seqNos.push(seqNo);
    this.versions.push(version);
    if (routing !== null) this.routing.set(d, routing);
    this.indexValues(d, doc);
    for (const { path, doc: child } of doc.nested) {
      let nb = this.nested.get(path);
      if (!nb)
        this.nested.set(
          path,
          (nb = { builder: new SegmentBuilder(this.analysis), parents: new IntBuf() }),
        );
      nb.builder.add(id, child, seqNo, version);
      nb.parents.push(d);
    }
    return d;
  }

  markDeleted(doc: number): void {
    this.deleted.add(doc);
  }

  private fieldBuf(f: FieldMapping): FieldBuf {
    let b = this.fields.get(f.path);
    if (!b) {
      b = new FieldBuf(f);
      this.fields.set(f.path, b);
    }
    return b;
  }

  private indexValues(d: number, doc: ParsedDocument): void {
    const touched = this.touched;
    touched.length = 0;
    for (const { field, value } of doc.values) {
      const b = this.fieldBuf(field);
      switch (field.type) {
        case 'text': {
          if (!b.inverted) break;
          const analyzer = this.analysis.indexAnalyzer(field);
          if (b.curDoc !== d) {
            b.curDoc = d;
            b.curLen = 0;
            b.curOverlap = 0;
            b.lastPos = -1;
            touched.push(b);
            b.nextPos = analyzeInto(b, analyzer, String(value), 0);
          } else {
            // Lucene: the next value starts positionIncrementGap after the previous one ended.
            b.nextPos = analyzeInto(
              b,
              analyzer,
              String(value),
              b.nextPos + analyzer.positionIncrementGap,
            );
          }
          break;
        }
        case 'keyword': {
          const term = this.analysis.normalize(field, String(value));
          b.addTerm(term, d, 0);
          break;
        }
        case 'ip':
          b.addTerm(ipToSortable(String(value)), d, 0);
          break;
        case 'completion': {
          const c = value as CompletionValue;
          const analyzed = analyzeCompletion(this.analysis.indexAnalyzer(field), field, c.input);
          const contexts = field.completion?.contextDefs ? typedContexts(field, c) : undefined;
          b.addTerm(completionTerm(analyzed, c.input, c.weight, contexts), d, 0);
          break;
        }
        case 'integer_range':
        case 'long_range':
        case 'float_range':
        case 'double_range':
        case 'date_range':
        case 'ip_range': {
          if (!field.index) break;
          const r = value as RangeValue;
          b.rangeMins.push(rangeKey(field.type, r.gte));
          b.rangeMaxs.push(rangeKey(field.type, r.lte));
          b.rangeDocs.push(d);
          break;
        }
        case 'boolean':
          if (b.inverted) b.addTerm(value ? TRUE_TERM : FALSE_TERM, d, 0);
          if (b.docValues) b.addNumber(d, value ? 1 : 0);
          break;
        default:
          if (isNumericType(field.type) && typeof value === 'number') {
            b.addNumber(d, numericValue(field, value));
          }
      }
    }
    for (const b of touched) b.finishDoc();
    if (doc.ignored.length > 0) {
      const b = this.fieldBuf(IGNORED_FIELD);
      for (const name of doc.ignored) b.addTerm(name, d, 0);
    }
    // `_field_names`: every field path and its parent objects (duplicates collapse at build).
    const fn = this.fieldNames;
    for (const { field } of doc.values) fn.addPath(field.path, d);
    for (const p of doc.present) fn.addPath(p, d);
  }

  /** Packs the buffer into an immutable segment (superseded docs dropped). */
  build(): Segment {
    const maxDoc = this.n - this.deleted.size;
    let docMap: Int32Array | null = null;
    if (this.deleted.size > 0) {
      docMap = new Int32Array(this.n);
      let k = 0;
      for (let i = 0; i < this.n; i++) docMap[i] = this.deleted.has(i) ? -1 : k++;
    }
    const keep = (i: number) => !docMap || docMap[i]! >= 0;
    const ids: string[] = [];
    const seqNos = new Float64Array(maxDoc);
    const versions = new Float64Array(maxDoc);
    const routing = new Map<number, string>();
    for (let i = 0, k = 0; i < this.n; i++) {
      if (!keep(i)) continue;
      ids.push(this.ids[i]!);
      seqNos[k] = this.seqNos.data[i]!;
      versions[k] = this.versions.data[i]!;
      const r = this.routing.get(i);
      if (r !== undefined) routing.set(k, r);
      k++;
    }
    const idOrder = sortedIdOrder(ids);
    const fields = new Map<string, SegmentField>();
    for (const [path, b] of this.fields) {
      fields.set(path, buildField(b, maxDoc, docMap));
    }
    const fieldNames = buildInverted(this.fieldNames.occ, docMap, null, false);
    const nested = new Map<string, NestedBlock>();
    for (const [path, nb] of this.nested) {
      // Children of superseded parents are dropped with them.
      for (let c = 0; c < nb.parents.length; c++)
        if (!keep(nb.parents.data[c]!)) nb.builder.markDeleted(c);
      const parentsKept: number[] = [];
      for (let c = 0; c < nb.parents.length; c++) {
        const p = nb.parents.data[c]!;
        if (keep(p)) parentsKept.push(docMap ? docMap[p]! : p);
      }
      nested.set(path, { segment: nb.builder.build(), parentOf: Int32Array.from(parentsKept) });
    }
    return {
      id: segmentCounter++,
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
}

export function sortedIdOrder(ids: string[]): Int32Array {
  const order = new Int32Array(ids.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => {
    const x = ids[a]!;
    const y = ids[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return order;
}

function buildField(b: FieldBuf, maxDoc: number, docMap: Int32Array | null): SegmentField {
  const f = b.field;
  let inverted: InvertedField | null = null;
  let norms: Uint8Array | null = null;
  if (f.type === 'text' && f.norms) {
    norms = new Uint8Array(maxDoc);
    for (let i = 0; i < b.normDocs.length; i++) {
      const d = b.normDocs.data[i]!;
      const nd = docMap ? docMap[d]! : d;
      if (nd >= 0) norms[nd] = b.normVals.data[i]!;
    }
  }
  if (b.terms.length > 0 && (b.inverted || b.docValues)) {
    inverted = buildInverted(b.occ, docMap, norms, b.withFreqs);
  }
  let points: PointsIndex | null = null;
  let docValues: NumericColumn | OrdinalColumn | null = null;
  if (b.numeric && b.numDocs.length > 0) {
    const docs = b.numDocs.data;
    const vals = b.numVals.data;
    let pairs = b.numDocs.length;
    let d2 = docs;
    let v2 = vals;
    if (docMap) {
      d2 = new Int32Array(pairs);
      v2 = new Float64Array(pairs);
      let k = 0;
      for (let i = 0; i < pairs; i++) {
        const nd = docMap[docs[i]!]!;
        if (nd < 0) continue;
        d2[k] = nd;
        v2[k++] = vals[i]!;
      }
      pairs = k;
    }
    if (f.index) points = buildPoints(d2, v2, pairs);
    if (b.docValues) docValues = buildNumericColumn(d2, v2, pairs, maxDoc, b.multiValued);
  }
  if (b.docValues && !b.numeric && inverted) {
    docValues = buildOrdinalColumn(inverted, maxDoc);
  }
  if (inverted && !b.inverted) {
    // doc_values only (index: false): keep the dictionary for the column, drop postings use.
    inverted = null;
  }
  const ranges = isRangeFieldType(f.type) ? buildRanges(b, docMap) : null;
  return { path: f.path, type: f.type, inverted, points, docValues, ranges };
}

function buildRanges(b: FieldBuf, docMap: Int32Array | null): RangeIndex | null {
  const n = b.rangeDocs.length;
  if (n === 0) return null;
  const mins: string[] = [];
  const maxs: string[] = [];
  const docs: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = b.rangeDocs.data[i]!;
    const nd = docMap ? docMap[d]! : d;
    if (nd < 0) continue;
    mins.push(b.rangeMins[i]!);
    maxs.push(b.rangeMaxs[i]!);
    docs.push(nd);
  }
  return docs.length > 0 ? buildRangeIndex(mins, maxs, docs) : null;
}

/**
 * Groups occurrences by term into sorted-term postings in two passes over the occurrences (they
 * are in doc and position order): the first counts each term's postings and occurrences, the
 * second writes docs, freqs and positions straight to their final place. Every array is allocated
 * once at its exact size. Superseded docs (docMap -1) are dropped and doc ids renumbered.
 */
function buildInverted(
  occ: Occurrences,
  docMap: Int32Array | null,
  norms: Uint8Array | null,
  withFreqs: boolean,
): InvertedField {
  const termsById = occ.terms;
  const nTerms = termsById.length;
  const chunks = occ.occTerm.chunks;
  const posChunks = occ.occPos ? occ.occPos.chunks : null;
  const runDoc = occ.runDoc.data;
  const runEnd = occ.runEnd.data;
  // Per term, interleaved so one cache line serves a token: the run (doc) of its last posting,
  // its postings, its occurrences and the freq of its current posting. Postings and occurrences
  // become the term's next write offsets for pass 2.
  const st = new Int32Array(nTerms * 4);
  for (let t = 0; t < nTerms; t++) st[t * 4] = -1;
  let maxFreq = 0;
  let docCount = 0;
  let keptOcc = 0;
  // Pass 1: per term, postings (distinct runs) and occurrences; the largest freq.
  {
    let r = -1;
    let end = 0;
    let live = false;
    let i = 0;
    for (let c = 0; c < chunks.length; c++) {
      const ch = chunks[c]!;
      const n = occ.occTerm.chunkLength(c);
      for (let j = 0; j < n; j++, i++) {
        if (i === end) {
          r++;
          end = runEnd[r]!;
          live = !docMap || docMap[runDoc[r]!]! >= 0;
          if (live) docCount++;
        }
        if (!live) continue;
        const o = ch[j]! << 2;
        st[o + 2]!++;
        if (st[o] !== r) {
          st[o] = r;
          st[o + 1]!++;
          st[o + 3] = 1;
        } else {
          const f = ++st[o + 3]!;
          if (f > maxFreq) maxFreq = f;
        }
      }
      keptOcc = i;
    }
    if (maxFreq < 1) maxFreq = 1;
    if (docMap) {
      keptOcc = 0;
      for (let t = 0; t < nTerms; t++) keptOcc += st[t * 4 + 2]!;
    }
  }
  // Terms in sorted order (those whose every posting was dropped are left out).
  const order = sortedTermIds(termsById, docMap ? (t) => st[t * 4 + 1]! > 0 : null);
  const nt = order.length;
  const outTerms = new Array<string>(nt);
  const termStart = new Int32Array(nt + 1);
  const posStart = posChunks ? new Int32Array(nt + 1) : null;
  let nPost = 0;
  let nPos = 0;
  for (let k = 0; k < nt; k++) {
    const t = order[k]!;
    outTerms[k] = termsById[t]!;
    const o = t << 2;
    termStart[k] = nPost;
    const pc = st[o + 1]!;
    st[o + 1] = nPost;
    nPost += pc;
    if (posStart) {
      posStart[k] = nPos;
      const oc = st[o + 2]!;
      st[o + 2] = nPos;
      nPos += oc;
    }
    st[o] = -1;
  }
  termStart[nt] = nPost;
  if (posStart) posStart[nt] = nPos;
  const docs = new Int32Array(nPost);
  const freqs = withFreqs ? packedInts(maxFreq, nPost) : null;
  const positions = posChunks ? packedInts(occ.maxPos, nPos) : null;
  // Pass 2: write postings in place.
  {
    let r = -1;
    let end = 0;
    let nd = 0;
    let i = 0;
    for (let c = 0; c < chunks.length; c++) {
      const ch = chunks[c]!;
      const pch = posChunks ? posChunks[c]! : null;
      const n = occ.occTerm.chunkLength(c);
      for (let j = 0; j < n; j++, i++) {
        if (i === end) {
          r++;
          end = runEnd[r]!;
          nd = docMap ? docMap[runDoc[r]!]! : runDoc[r]!;
        }
        if (nd < 0) continue;
        const o = ch[j]! << 2;
        if (st[o] !== r) {
          st[o] = r;
          const p = st[o + 1]!++;
          docs[p] = nd;
          if (freqs) freqs[p] = 1;
        } else if (freqs) freqs[st[o + 1]! - 1]!++;
        if (positions) positions[st[o + 2]!++] = pch![j]!;
      }
    }
  }
  return {
    terms: outTerms,
    termStart,
    docs,
    freqs,
    posStart,
    positions,
    norms,
    docCount,
    sumTotalTermFreq: withFreqs ? keptOcc : nPost,
    sumDocFreq: nPost,
  };
}

function buildPoints(docs: Int32Array, vals: Float64Array, n: number): PointsIndex {
  const order = pointOrder(docs, vals, n);
  const values = new Float64Array(n);
  const pdocs = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = vals[order[i]!]!;
    pdocs[i] = docs[order[i]!]!;
  }
  return { values, docs: pdocs };
}

/** Below this many points a comparison sort orders them (a radix pass costs its counts). */
const RADIX_MIN_POINTS = 512;

/**
 * The indices of the first `n` (value, doc) pairs in value order, then doc order. The pairs come
 * in doc order (documents are added so, and a doc map keeps it): a stable LSD radix sort over
 * each value's bits, 16 at a time, skipping a digit every key shares, keeps that order among
 * equal values, at a fraction of a comparison sort's cost (which took ~6% of a build worker's
 * time). Other inputs, and NaN (which compares as nothing), take the comparison sort.
 */
export function pointOrder(docs: Int32Array, vals: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let radix = n >= RADIX_MIN_POINTS;
  for (let i = 1; radix && i < n; i++) if (docs[i]! < docs[i - 1]!) radix = false;
  // a value's bits as two unsigned words that order as the values do
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const LO = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
  const hi = radix ? new Uint32Array(n) : null;
  const lo = radix ? new Uint32Array(n) : null;
  for (let i = 0; radix && i < n; i++) {
    const v = vals[i]!;
    if (v !== v) radix = false;
    // -0 and 0 compare equal: one key, so doc order decides, as the comparison does
    f[0] = v === 0 ? 0 : v;
    const h = u[1 - LO]!;
    if (h >>> 31) {
      hi![i] = ~h >>> 0;
      lo![i] = ~u[LO]! >>> 0;
    } else {
      hi![i] = (h | 0x80000000) >>> 0;
      lo![i] = u[LO]!;
    }
  }
  if (!radix) return order.sort((a, b) => vals[a]! - vals[b]! || docs[a]! - docs[b]!);
  let from = order;
  let to = new Int32Array(n);
  const counts = new Int32Array(0x10000);
  for (let pass = 0; pass < 4; pass++) {
    const words = pass < 2 ? lo! : hi!;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(words[i]! >>> shift) & 0xffff]!++;
    if (counts[(words[0]! >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < 0x10000; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const at = from[i]!;
      to[counts[(words[at]! >>> shift) & 0xffff]!++] = at;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}

function buildNumericColumn(
  docs: Int32Array,
  vals: Float64Array,
  n: number,
  maxDoc: number,
  multi: boolean,
): NumericColumn {
  if (!multi) {
    const single = new Float64Array(maxDoc).fill(NaN);
    for (let i = 0; i < n; i++) single[docs[i]!] = vals[i]!;
    return { kind: 'numeric', single, offsets: null, values: null };
  }
  const offsets = new Int32Array(maxDoc + 1);
  for (let i = 0; i < n; i++) offsets[docs[i]! + 1]!++;
  for (let d = 0; d < maxDoc; d++) offsets[d + 1]! += offsets[d]!;
  const values = new Float64Array(n);
  const fill = offsets.slice(0, maxDoc);
  for (let i = 0; i < n; i++) values[fill[docs[i]!]!++] = vals[i]!;
  for (let d = 0; d < maxDoc; d++) {
    const s = offsets[d]!;
    const e = offsets[d + 1]!;
    if (e - s > 1) values.subarray(s, e).sort();
  }
  return { kind: 'numeric', single: null, offsets, values };
}

const uninverted = new WeakMap<InvertedField, OrdinalColumn>();

/** A text field's fielddata: its postings uninverted once per segment, then kept with it. */
export function uninvertedColumn(inv: InvertedField, maxDoc: number): OrdinalColumn {
  let col = uninverted.get(inv);
  if (!col) uninverted.set(inv, (col = buildOrdinalColumn(inv, maxDoc)));
  return col;
}

/** Doc values from the postings: term ordinals per doc (sorted, unique). */
export function buildOrdinalColumn(inv: InvertedField, maxDoc: number): OrdinalColumn {
  const counts = new Int32Array(maxDoc + 1);
  for (let i = 0; i < inv.docs.length; i++) counts[inv.docs[i]! + 1]!++;
  let multi = false;
  for (let d = 1; d <= maxDoc; d++) if (counts[d]! > 1) multi = true;
  if (!multi) {
    const single = new Int32Array(maxDoc).fill(-1);
    for (let t = 0; t < inv.terms.length; t++) {
      for (let i = inv.termStart[t]!; i < inv.termStart[t + 1]!; i++) single[inv.docs[i]!] = t;
    }
    return { kind: 'ordinal', dict: inv.terms, single, offsets: null, ords: null };
  }
  const offsets = counts;
  for (let d = 0; d < maxDoc; d++) offsets[d + 1]! += offsets[d]!;
  const ords = new Int32Array(inv.docs.length);
  const fill = offsets.slice(0, maxDoc);
  // Terms are visited in order, so each doc's ordinals come out sorted.
  for (let t = 0; t < inv.terms.length; t++) {
    for (let i = inv.termStart[t]!; i < inv.termStart[t + 1]!; i++) ords[fill[inv.docs[i]!]!++] = t;
  }
  return { kind: 'ordinal', dict: inv.terms, single: null, offsets, ords };
}
