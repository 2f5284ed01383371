/**
 * Brute-force reference answers for the benchmark workload, computed from the raw documents, so
 * every timed query is also checked: counts and aggregations must agree exactly (averages to
 * 1e-9 relative), match queries must agree with a brute-force Lucene BM25 top 10.
 */

export interface Reference {
  index: string;
  docs: Array<Record<string, any>>;
  ctx: unknown;
  tokens?: string[][];
}

type Body = any;

const close = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Lowercased words by the UAX#29 rules that matter for this text (what Lucene's
 * StandardTokenizer implements): letters and digits join; `_` joins words (WB13a/b); `.` and `'`
 * join two letters or two digits (WB6/7, WB11/12: "x.org", "can't", "1.5"), `:` two letters, `,`
 * and `;` two digits. Everything else separates. An independent approximation for the checks.
 */
const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{Nd}/u;
const MID_LETTER = new Set([
  ':',
  '\u00b7',
  '\u0387',
  '\u05f4',
  '\u2027',
  '\ufe13',
  '\ufe55',
  '\uff1a',
]);
const MID_NUM_LET = new Set(['.', "'", '\u2018', '\u2019', '\u2024', '\ufe52', '\uff07', '\uff0e']);
const MID_NUM = new Set([
  ',',
  ';',
  '\u037e',
  '\u0589',
  '\u060c',
  '\u060d',
  '\u066c',
  '\u07f8',
  '\u2044',
  '\ufe10',
  '\ufe14',
  '\ufe50',
  '\ufe54',
  '\uff0c',
  '\uff1b',
]);
function tokenize(s: string): string[] {
  const cs = [...s];
  const kind = cs.map((c) => (LETTER.test(c) ? 'L' : DIGIT.test(c) ? 'N' : c === '_' ? 'E' : ''));
  const out: string[] = [];
  let cur = '';
  let words = false;
  for (let i = 0; i < cs.length; i++) {
    const k = kind[i]!;
    if (k !== '') {
      cur += cs[i];
      if (k !== 'E') words = true;
      continue;
    }
    const prev = kind[i - 1];
    const next = kind[i + 1];
    const c = cs[i]!;
    const joins =
      cur !== '' &&
      prev === next &&
      ((MID_NUM_LET.has(c) && (prev === 'L' || prev === 'N')) ||
        (MID_LETTER.has(c) && prev === 'L') ||
        (MID_NUM.has(c) && prev === 'N'));
    if (joins) {
      cur += c;
      continue;
    }
    if (words) out.push(cur.toLowerCase());
    cur = '';
    words = false;
  }
  if (words) out.push(cur.toLowerCase());
  return out;
}

function tokens(ref: Reference): string[][] {
  if (!ref.tokens) ref.tokens = ref.docs.map((d) => tokenize(String(d.description ?? '')));
  return ref.tokens;
}

function total(body: Body): number {
  return typeof body.count === 'number' ? body.count : body.hits.total;
}

function countWhere(ref: Reference, pred: (d: Record<string, any>) => boolean): number {
  let n = 0;
  for (const d of ref.docs) if (pred(d)) n++;
  return n;
}

function termsAvg(
  ref: Reference,
  body: Body,
  key: string,
  metric: string,
  filter: (d: any) => boolean,
): string | null {
  const counts = new Map<string, { n: number; sum: number }>();
  for (const d of ref.docs) {
    if (!filter(d)) continue;
    const k = String(d[key]);
    const c = counts.get(k) ?? { n: 0, sum: 0 };
    c.n++;
    c.sum += d[metric];
    counts.set(k, c);
  }
  const agg = Object.values(body.aggregations)[0] as {
    buckets: Array<{ key: string; doc_count: number; [k: string]: any }>;
  };
  const want = [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10);
  if (agg.buckets.length !== want.length)
    return `bucket count ${agg.buckets.length} != ${want.length}`;
  for (const b of agg.buckets) {
    const c = counts.get(String(b.key));
    if (!c) return `unexpected bucket ${b.key}`;
    if (c.n !== b.doc_count) return `bucket ${b.key}: doc_count ${b.doc_count} != ${c.n}`;
    const avg = (
      Object.values(b).find((v) => v && typeof v === 'object' && 'value' in v) as { value: number }
    ).value;
    if (!close(avg, c.sum / c.n)) return `bucket ${b.key}: avg ${avg} != ${c.sum / c.n}`;
  }
  return null;
}

function ranges(
  ref: Reference,
  body: Body,
  field: string,
  edges: number[],
  filter: (d: any) => boolean,
): string | null {
  const agg = Object.values(body.aggregations)[0] as { buckets: Array<{ doc_count: number }> };
  const bounds = [-Infinity, ...edges, Infinity];
  for (let i = 0; i < bounds.length - 1; i++) {
    const n = countWhere(
      ref,
      (d) => filter(d) && d[field] >= bounds[i]! && d[field] < bounds[i + 1]!,
    );
    if (agg.buckets[i]?.doc_count !== n) return `range ${i}: ${agg.buckets[i]?.doc_count} != ${n}`;
  }
  return null;
}

function bm25Top(
  ref: Reference,
  terms: string[],
  k: number,
  filter?: (i: number) => boolean,
): Array<{ i: number; s: number }> {
  const toks = tokens(ref);
  const N = toks.length;
  let sumLen = 0;
  for (const t of toks) sumLen += t.length;
  const avgdl = sumLen / N;
  const scores = new Map<number, number>();
  for (const term of terms) {
    let df = 0;
    const tf = new Map<number, number>();
    toks.forEach((t, i) => {
      let c = 0;
      for (const x of t) if (x === term) c++;
      if (c) {
        df++;
        tf.set(i, c);
      }
    });
    const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
    for (const [i, f] of tf) {
      if (filter && !filter(i)) continue;
      const dl = toks[i]!.length;
      const s = (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * dl) / avgdl));
      scores.set(i, (scores.get(i) ?? 0) + s);
    }
  }
  return [...scores.entries()]
    .map(([i, s]) => ({ i, s }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k);
}

function overlap(ref: Reference, body: Body, expected: Array<{ i: number }>): string | null {
  const got = new Set(
    (body.hits.hits as Array<{ _source: { name: string } }>).map((h) => h._source.name),
  );
  if (expected.length === 0) return got.size === 0 ? null : 'hits where none expected';
  let same = 0;
  for (const e of expected) if (got.has(ref.docs[e.i]!.name)) same++;
  // Norm quantisation and tokenisation details can swap near-ties at the tail.
  return same >= Math.min(expected.length, got.size) * 0.8
    ? null
    : `top-10 overlap ${same}/${expected.length}`;
}

export function checkResult(
  id: string,
  p: Record<string, any>,
  body: Body,
  ref: Reference,
): string | null {
  switch (id) {
    case 'debian.match':
      return overlap(ref, body, bm25Top(ref, tokenize(p.q), 10));
    case 'debian.match_phrase': {
      const [a, b] = tokenize(p.phrase);
      const toks = tokens(ref);
      const n =
        countWhere(ref, (_d) => false) +
        toks.filter((t) => t.some((x, i) => x === a && t[i + 1] === b)).length;
      return body.hits.total === n ? null : `phrase total ${body.hits.total} != ${n}`;
    }
    case 'debian.bool_range': {
      const term = tokenize(p.q)[0]!;
      const toks = tokens(ref);
      const n = ref.docs.filter(
        (d, i) => toks[i]!.includes(term) && d.installed_size >= p.lo && d.installed_size <= p.hi,
      ).length;
      return body.hits.total === n ? null : `bool_range total ${body.hits.total} != ${n}`;
    }
    case 'debian.count_term':
      return total(body) === countWhere(ref, (d) => d.section === p.section)
        ? null
        : 'count mismatch';
    case 'logs.terms_avg':
      return termsAvg(ref, body, 'country', 'size', (d) => d.status === p.status);
    case 'logs.terms_avg_all':
      return termsAvg(ref, body, 'country', 'size', () => true);
    case 'logs.range_agg':
      return ranges(ref, body, 'size', [1000, 10000, 100000], (d) => d.country === p.country);
    case 'logs.count_term':
      return total(body) === countWhere(ref, (d) => d.status === p.status)
        ? null
        : 'count mismatch';
    case 'logs.sort_page':
    case 'accounts.sort_page': {
      const field = id === 'logs.sort_page' ? 'size' : 'balance';
      const filter =
        id === 'logs.sort_page' ? () => true : (d: any) => d.age >= p.age_lo && d.age <= p.age_hi;
      const vals = ref.docs
        .filter(filter)
        .map((d) => d[field] as number)
        .sort((a, b) => b - a);
      const got = (body.hits.hits as Array<{ _source: Record<string, number> }>).map(
        (h) => h._source[field],
      );
      const want = vals.slice(p.from, p.from + 10);
      return JSON.stringify(got) === JSON.stringify(want)
        ? null
        : `sort page ${JSON.stringify(got)} != ${JSON.stringify(want)}`;
    }
    case 'accounts.terms_avg':
      return termsAvg(ref, body, 'state', 'balance', (d) => d.gender === p.gender);
    case 'accounts.range_agg':
      return ranges(
        ref,
        body,
        'balance',
        [10000, 30000],
        (d) => d.age >= p.age_lo && d.age <= p.age_hi,
      );
    case 'accounts.count_term':
      return total(body) === countWhere(ref, (d) => d.state === p.state) ? null : 'count mismatch';
  }
  return null;
}
