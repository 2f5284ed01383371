/**
 * Finite automata over Unicode code points for Lucene-style multi-term matching: Thompson NFA
 * construction from a regexp tree, subset construction to a table-driven DFA bounded by
 * `maxDeterminizedStates` (Lucene's TooComplexToDeterminizeException), DFA complement and
 * product intersection, and decimal intervals. Code points are mapped to a small alphabet of
 * equivalence classes (ranges the expression distinguishes), so tables stay compact.
 */
import type { Re } from './regexp-syntax.js';

const MAX_CODE_POINT = 0x10ffff;

/** Thrown when determinizing would exceed the state budget. */
export class TooComplexError extends Error {
  constructor(readonly limit: number) {
    super(`would result in more than ${limit} states`);
  }
}

/** Partition of [0, 0x10FFFF] into the intervals an expression cannot tell apart. */
export class Alphabet {
  readonly starts: Int32Array;
  private readonly ascii = new Int32Array(128);

  constructor(cuts: Iterable<number>) {
    const set = new Set<number>([0]);
    for (const c of cuts) if (c > 0 && c <= MAX_CODE_POINT) set.add(c);
    this.starts = Int32Array.from([...set].sort((a, b) => a - b));
    for (let c = 0; c < 128; c++) this.ascii[c] = this.search(c);
  }

  get size(): number {
    return this.starts.length;
  }

  classOf(cp: number): number {
    return cp < 128 ? this.ascii[cp]! : this.search(cp);
  }

  /** First code point of class `c` and how many code points it spans. */
  span(c: number): [number, number] {
    const start = this.starts[c]!;
    const end = c + 1 < this.starts.length ? this.starts[c + 1]! : MAX_CODE_POINT + 1;
    return [start, end - start];
  }

  private search(cp: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= cp) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Range cuts an expression needs: every range [a, b] cuts at a and b + 1. */
export function alphabetFor(re: Re): Alphabet {
  const cuts: number[] = [];
  const visit = (r: Re): void => {
    switch (r.t) {
      case 'union':
      case 'concat':
      case 'inter':
        visit(r.a);
        visit(r.b);
        return;
      case 'opt':
      case 'star':
      case 'repeat':
      case 'compl':
        visit(r.a);
        return;
      case 'range':
        cuts.push(r.from, r.to + 1);
        return;
      case 'string':
        for (const c of r.cps) cuts.push(c, c + 1);
        return;
      case 'interval':
        for (let d = 48; d <= 58; d++) cuts.push(d);
        return;
      case 'any':
      case 'none':
      case 'anyString':
      case 'automaton':
        return;
    }
  };
  visit(re);
  return new Alphabet(cuts);
}

/** A DFA over alphabet classes: `table[state * k + class]` is the next state or -1 (dead). */
export interface Dfa {
  readonly states: number;
  readonly k: number;
  readonly table: Int32Array;
  readonly accept: Uint8Array;
}

interface Frag {
  readonly s: number;
  readonly e: number;
}

/** NFA with epsilon moves; transitions are (loClass, hiClass, target) triples per state. */
class Nfa {
  readonly eps: number[][] = [];
  readonly trans: number[][] = [];

  constructor(
    readonly k: number,
    private readonly maxStates: number,
    private readonly limit: number,
  ) {}

  state(): number {
    if (this.eps.length >= this.maxStates) throw new TooComplexError(this.limit);
    this.eps.push([]);
    this.trans.push([]);
    return this.eps.length - 1;
  }

  edge(from: number, lo: number, hi: number, to: number): void {
    this.trans[from]!.push(lo, hi, to);
  }

  epsilon(from: number, to: number): void {
    this.eps[from]!.push(to);
  }
}

/**
 * Bounds on the work of one compilation whatever `limit` a request asks for (Lucene's is only
 * on DFA states; a `max_determinized_states` of 2^31-1 let `a{1,1000}{1,1000}` exhaust the heap
 * and kill the process). About 100 MB of NFA, and of state sets in the subset construction.
 */
const MAX_NFA_STATES = 1_000_000;
const MAX_SUBSET_WORK = 10_000_000;

/** Compiles `re` to a DFA; throws TooComplexError past `limit` states. */
export function compile(re: Re, alphabet: Alphabet, limit: number): Dfa {
  const k = alphabet.size;
  const nfa = new Nfa(k, Math.min(MAX_NFA_STATES, Math.max(100_000, limit * 20)), limit);

  const charRange = (from: number, to: number): Frag => {
    const s = nfa.state();
    const e = nfa.state();
    nfa.edge(s, alphabet.classOf(from), alphabet.classOf(to), e);
    return { s, e };
  };
  const empty = (): Frag => {
    const s = nfa.state();
    const e = nfa.state();
    nfa.epsilon(s, e);
    return { s, e };
  };
  const seq = (a: Frag, b: Frag): Frag => {
    nfa.epsilon(a.e, b.s);
    return { s: a.s, e: b.e };
  };
  const embed = (dfa: Dfa): Frag => {
    const base = nfa.eps.length;
    for (let i = 0; i < dfa.states; i++) nfa.state();
    const e = nfa.state();
    for (let q = 0; q < dfa.states; q++) {
      const row = q * dfa.k;
      for (let c = 0; c < dfa.k;) {
        const t = dfa.table[row + c]!;
        let d = c + 1;
        while (d < dfa.k && dfa.table[row + d] === t) d++;
        if (t >= 0) nfa.edge(base + q, c, d - 1, base + t);
        c = d;
      }
      if (dfa.accept[q]) nfa.epsilon(base + q, e);
    }
    return { s: base, e };
  };
  const sub = (r: Re): Dfa => {
    const f = build(r);
    return determinize(nfa, f.s, f.e, limit);
  };

  const build = (r: Re): Frag => {
    switch (r.t) {
      case 'range':
        return charRange(r.from, r.to);
      case 'any':
        return charRange(0, MAX_CODE_POINT);
      case 'string': {
        let f = empty();
        for (const c of r.cps) f = seq(f, charRange(c, c));
        return f;
      }
      case 'none':
        return { s: nfa.state(), e: nfa.state() };
      case 'anyString': {
        const s = nfa.state();
        const e = nfa.state();
        nfa.edge(s, 0, k - 1, s);
        nfa.epsilon(s, e);
        return { s, e };
      }
      case 'concat':
        return seq(build(r.a), build(r.b));
      case 'union': {
        const a = build(r.a);
        const b = build(r.b);
        const s = nfa.state();
        const e = nfa.state();
        nfa.epsilon(s, a.s);
        nfa.epsilon(s, b.s);
        nfa.epsilon(a.e, e);
        nfa.epsilon(b.e, e);
        return { s, e };
      }
      case 'opt':
        return optional(build(r.a));
      case 'star':
        return star(build(r.a));
      case 'repeat':
        return repeat(r.a, r.min, r.max);
      case 'compl':
        return embed(complement(sub(r.a), limit));
      case 'inter':
        return embed(intersect(sub(r.a), sub(r.b), limit));
      case 'interval':
        return interval(r.min, r.max, r.digits);
      case 'automaton':
        throw new Error(`named automaton <${r.name}> must be resolved before compiling`);
    }
  };

  // a fresh entry state: `a.s` may be re-entered (DFA loops), so no epsilon may leave it
  const optional = (a: Frag): Frag => {
    const s = nfa.state();
    nfa.epsilon(s, a.s);
    nfa.epsilon(s, a.e);
    return { s, e: a.e };
  };

  const star = (a: Frag): Frag => {
    const s = nfa.state();
    const e = nfa.state();
    nfa.epsilon(s, a.s);
    nfa.epsilon(s, e);
    nfa.epsilon(a.e, a.s);
    nfa.epsilon(a.e, e);
    return { s, e };
  };

  // Lucene Operations.repeat: min copies then a star (max -1) or up to max - min optional copies
  const repeat = (r: Re, min: number, max: number): Frag => {
    if (max >= 0 && min > max) return { s: nfa.state(), e: nfa.state() };
    let f = empty();
    for (let i = 0; i < min; i++) f = seq(f, build(r));
    if (max < 0) return seq(f, star(build(r)));
    for (let i = min; i < max; i++) f = seq(f, optional(build(r)));
    return f;
  };

  const digitClass = (d: number): number => alphabet.classOf(48 + d);

  /** Digit strings of length `lo.length` between `lo` and `hi` (equal-length decimal strings). */
  const fixedRange = (lo: string, hi: string): Frag => {
    const d = lo.length;
    const e = nfa.state();
    const memo = new Map<string, number>();
    const node = (i: number, tl: boolean, th: boolean): number => {
      if (i === d) return e;
      const key = `${i},${tl},${th}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      const s = nfa.state();
      memo.set(key, s);
      const a = tl ? lo.charCodeAt(i) - 48 : 0;
      const b = th ? hi.charCodeAt(i) - 48 : 9;
      for (let c = a; c <= b; c++) {
        const t = node(i + 1, tl && c === a, th && c === b);
        nfa.edge(s, digitClass(c), digitClass(c), t);
      }
      return s;
    };
    return { s: node(0, true, true), e };
  };

  // Lucene Automata.makeDecimalInterval: fixed width when `digits` > 0, else any leading zeros
  const interval = (min: number, max: number, digits: number): Frag => {
    if (digits > 0)
      return fixedRange(String(min).padStart(digits, '0'), String(max).padStart(digits, '0'));
    const s = nfa.state();
    const e = nfa.state();
    nfa.edge(s, digitClass(0), digitClass(0), s);
    const lenMin = String(min).length;
    const lenMax = String(max).length;
    for (let len = lenMin; len <= lenMax; len++) {
      const lo = len === 1 ? 0 : 10 ** (len - 1);
      const from = Math.max(min, lo);
      const to = Math.min(max, 10 ** len - 1);
      if (from > to) continue;
      const f = fixedRange(String(from), String(to).padStart(String(from).length, '0'));
      nfa.epsilon(s, f.s);
      nfa.epsilon(f.e, e);
    }
    return { s, e };
  };

  const f = build(re);
  return determinize(nfa, f.s, f.e, limit);
}

/** Subset construction from `start`; `end` is the NFA's accepting state. */
function determinize(nfa: Nfa, start: number, end: number, limit: number): Dfa {
  const k = nfa.k;
  const stamp = new Int32Array(nfa.eps.length);
  let gen = 0;
  const closure = (seeds: number[]): number[] => {
    gen++;
    const out: number[] = [];
    const stack = seeds.slice();
    while (stack.length > 0) {
      const q = stack.pop()!;
      if (stamp[q] === gen) continue;
      stamp[q] = gen;
      out.push(q);
      for (const t of nfa.eps[q]!) if (stamp[t] !== gen) stack.push(t);
    }
    return out.sort((a, b) => a - b);
  };

  const sets: number[][] = [];
  const ids = new Map<string, number>();
  const rows: number[] = [];
  const accept: number[] = [];
  let work = 0;
  const add = (set: number[]): number => {
    const key = set.join(',');
    const id = ids.get(key);
    if (id !== undefined) return id;
    if (sets.length >= limit || (work += set.length) > MAX_SUBSET_WORK)
      throw new TooComplexError(limit);
    ids.set(key, sets.length);
    sets.push(set);
    accept.push(set.includes(end) ? 1 : 0);
    return sets.length - 1;
  };
  add(closure([start]));
  const buckets: number[][] = Array.from({ length: k }, () => []);
  for (let q = 0; q < sets.length; q++) {
    for (const b of buckets) b.length = 0;
    for (const n of sets[q]!) {
      const tr = nfa.trans[n]!;
      for (let i = 0; i < tr.length; i += 3) {
        for (let c = tr[i]!; c <= tr[i + 1]!; c++) buckets[c]!.push(tr[i + 2]!);
      }
    }
    for (let c = 0; c < k; c++) {
      const b = buckets[c]!;
      rows[q * k + c] = b.length === 0 ? -1 : add(closure(b));
    }
  }
  return { states: sets.length, k, table: Int32Array.from(rows), accept: Uint8Array.from(accept) };
}

/** Complement over all code point strings: the dead state becomes an accepting sink. */
export function complement(a: Dfa, limit: number): Dfa {
  const hasDead = a.table.some((t) => t < 0);
  const states = a.states + (hasDead ? 1 : 0);
  if (states > limit) throw new TooComplexError(limit);
  const dead = a.states;
  const table = new Int32Array(states * a.k);
  for (let i = 0; i < a.table.length; i++) table[i] = a.table[i]! < 0 ? dead : a.table[i]!;
  if (hasDead) table.fill(dead, dead * a.k);
  const accept = new Uint8Array(states);
  for (let q = 0; q < states; q++) accept[q] = q < a.states && a.accept[q] ? 0 : 1;
  return { states, k: a.k, table, accept };
}

/** Product automaton of the reachable state pairs. */
export function intersect(a: Dfa, b: Dfa, limit: number): Dfa {
  const k = a.k;
  const ids = new Map<number, number>();
  const pairs: number[] = [];
  const rows: number[] = [];
  const accept: number[] = [];
  const id = (x: number, y: number): number => {
    const key = x * b.states + y;
    const hit = ids.get(key);
    if (hit !== undefined) return hit;
    if (pairs.length / 2 >= limit) throw new TooComplexError(limit);
    ids.set(key, pairs.length / 2);
    pairs.push(x, y);
    accept.push(a.accept[x] && b.accept[y] ? 1 : 0);
    return pairs.length / 2 - 1;
  };
  id(0, 0);
  for (let q = 0; q < pairs.length / 2; q++) {
    const x = pairs[2 * q]!;
    const y = pairs[2 * q + 1]!;
    for (let c = 0; c < k; c++) {
      const tx = a.table[x * k + c]!;
      const ty = b.table[y * k + c]!;
      rows[q * k + c] = tx < 0 || ty < 0 ? -1 : id(tx, ty);
    }
  }
  return {
    states: pairs.length / 2,
    k,
    table: Int32Array.from(rows),
    accept: Uint8Array.from(accept),
  };
}
