/**
 * The indexing buffer: documents added since the last refresh, inverted and columnised as they
 * arrive (postings appended per term, so a refresh only sorts terms and packs arrays). `build()`
 * turns it into an immutable Segment, dropping documents superseded within the buffer.
 */
import type { CompletionValue, FieldMapping, ParsedDocument } from '../../mapping/types.js';
import { analyzeCompletion, completionTerm } from './completion-terms.js';
import type { Analyzer } from '../analysis/index.js';
import { FloatBuf, IntBuf } from './growable.js';
import { intToByte4 } from './norms.js';
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

class PostingBuf {
  readonly docs = new IntBuf(4);
  readonly freqs: IntBuf | null;
  readonly positions: IntBuf | null;
  constructor(withFreqs: boolean, withPositions: boolean) {
    this.freqs = withFreqs ? new IntBuf(4) : null;
    this.positions = withPositions ? new IntBuf(4) : null;
  }
}

class FieldBuf {
  readonly terms = new Map<string, PostingBuf>();
  readonly numDocs = new IntBuf();
  readonly numVals = new FloatBuf();
  readonly normDocs = new IntBuf();
  readonly normVals = new IntBuf();
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
  sumTotalTermFreq = 0;
  readonly sink: (term: string, position: number) => void;

  constructor(readonly field: FieldMapping) {
    const t = field.type;
    this.numeric = isNumericType(t) || t === 'boolean';
    const io = field.indexOptions;
    const isText = t === 'text';
    this.withFreqs = isText && io !== 'docs';
    this.withPositions = isText && (io === 'positions' || io === 'offsets');
    this.inverted =
      field.index &&
      (t === 'text' || t === 'keyword' || t === 'ip' || t === 'boolean' || t === 'completion');
    this.docValues = field.docValues && t !== 'text';
    this.sink = (term: string, position: number) => {
      this.curLen++;
      if (position === this.lastPos) this.curOverlap++;
      this.lastPos = position;
      this.sumTotalTermFreq++;
      this.addTerm(term, this.curDoc, position);
    };
  }

  addTerm(term: string, doc: number, position: number): void {
    let p = this.terms.get(term);
    if (!p) {
      p = new PostingBuf(this.withFreqs, this.withPositions);
      this.terms.set(term, p);
    }
    if (p.docs.length === 0 || p.docs.last() !== doc) {
      p.docs.push(doc);
      p.freqs?.push(1);
    } else if (p.freqs) {
      p.freqs.setLast(p.freqs.last() + 1);
    }
    p.positions?.push(position);
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
  private readonly fieldNames = new Map<string, IntBuf>();
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
            b.nextPos = analyzer.analyze(String(value), b.sink, 0);
          } else {
            // Lucene: the next value starts positionIncrementGap after the previous one ended.
            b.nextPos = analyzer.analyze(
              String(value),
              b.sink,
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
          b.addTerm(completionTerm(analyzed, c.input, c.weight), d, 0);
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
    for (const name of doc.fieldNames) {
      let p = this.fieldNames.get(name);
      if (!p) this.fieldNames.set(name, (p = new IntBuf(4)));
      if (p.length === 0 || p.last() !== d) p.push(d);
    }
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
    const fnTerms = new Map<string, PostingBuf>();
    for (const [name, docs] of this.fieldNames) {
      const p = new PostingBuf(false, false);
      for (let i = 0; i < docs.length; i++) p.docs.push(docs.data[i]!);
      fnTerms.set(name, p);
    }
    const fieldNames = buildInverted(fnTerms, maxDoc, docMap, null, false, false);
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
  if (b.terms.size > 0 && (b.inverted || b.docValues)) {
    inverted = buildInverted(b.terms, maxDoc, docMap, norms, b.withFreqs, b.withPositions);
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
  return { path: f.path, type: f.type, inverted, points, docValues };
}

function buildInverted(
  termMap: Map<string, PostingBuf>,
  maxDoc: number,
  docMap: Int32Array | null,
  norms: Uint8Array | null,
  withFreqs: boolean,
  withPositions: boolean,
): InvertedField {
  const terms = [...termMap.keys()].sort();
  let postings = 0;
  let nPos = 0;
  for (const t of terms) {
    const p = termMap.get(t)!;
    postings += p.docs.length;
    if (p.positions) nPos += p.positions.length;
  }
  const termStart = new Int32Array(terms.length + 1);
  const docs = new Int32Array(postings);
  const freqs = withFreqs ? new Int32Array(postings) : null;
  const posStart = withPositions ? new Int32Array(terms.length + 1) : null;
  const positions = withPositions ? new Int32Array(nPos) : null;
  const seen = new Uint8Array(maxDoc);
  let docCount = 0;
  let sumTotalTermFreq = 0;
  let k = 0;
  let pk = 0;
  const outTerms: string[] = [];
  for (const t of terms) {
    const p = termMap.get(t)!;
    const start = k;
    const startPos = pk;
    let srcPos = 0;
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs.data[i]!;
      const fr = p.freqs ? p.freqs.data[i]! : 1;
      const nd = docMap ? docMap[d]! : d;
      if (nd >= 0) {
        docs[k] = nd;
        if (freqs) freqs[k] = fr;
        if (positions) {
          for (let j = 0; j < fr; j++) positions[pk++] = p.positions!.data[srcPos + j]!;
        }
        if (!seen[nd]) {
          seen[nd] = 1;
          docCount++;
        }
        sumTotalTermFreq += fr;
        k++;
      }
      srcPos += fr;
    }
    if (k === start) continue; // every posting of the term was dropped
    termStart[outTerms.length] = start;
    if (posStart) posStart[outTerms.length] = startPos;
    outTerms.push(t);
  }
  termStart[outTerms.length] = k;
  if (posStart) posStart[outTerms.length] = pk;
  return {
    terms: outTerms,
    termStart:
      outTerms.length === terms.length ? termStart : termStart.slice(0, outTerms.length + 1),
    docs: k === postings ? docs : docs.slice(0, k),
    freqs: freqs ? (k === postings ? freqs : freqs.slice(0, k)) : null,
    posStart: posStart
      ? outTerms.length === terms.length
        ? posStart
        : posStart.slice(0, outTerms.length + 1)
      : null,
    positions: positions ? (pk === nPos ? positions : positions.slice(0, pk)) : null,
    norms,
    docCount,
    sumTotalTermFreq,
    sumDocFreq: k,
  };
}

function buildPoints(docs: Int32Array, vals: Float64Array, n: number): PointsIndex {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => vals[a]! - vals[b]! || docs[a]! - docs[b]!);
  const values = new Float64Array(n);
  const pdocs = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = vals[order[i]!]!;
    pdocs[i] = docs[order[i]!]!;
  }
  return { values, docs: pdocs };
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
