/**
 * Per-key linearizability of Elasticsearch documents used as compare-and-set registers.
 *
 * The search is Wing & Gong's, with Lowe's memoization (as Knossos and Porcupine do): walk the
 * history's call/return entries in real-time order, tentatively linearize any call whose op the
 * model accepts, backtrack when a return is reached whose op is not linearized yet, and never
 * revisit a (set of linearized ops, model state) configuration. It is bounded by a step budget:
 * running out gives `unknown`, never `linearizable`.
 *
 * The model is a document: absent or present with a value, plus the (seq_no, primary_term) version
 * of its last change. ES seq_nos are per shard, so a document's successive versions only have to
 * increase (seq_no strictly, term never backwards), not be consecutive. An op of unknown outcome
 * that happened leaves a version nobody saw: the model keeps "some version after V" until a read
 * pins it.
 *
 * Cost: unknown ops drive it, since they stay candidates for ever. 10,000 ops of one key at
 * concurrency 5 take ~0.1–0.4 s with 0–20 % unknown; at concurrency 10 and 5 % unknown the
 * default budget (10M steps, ~1 s) can run out — split the workload over more keys.
 */
import type { Operation, Value, Version } from '../history.js';
import { describeOperation } from '../history.js';

export interface LinearizableOptions {
  /** Model steps tried before giving up with `unknown`. */
  readonly maxSteps?: number;
  /** Wall-clock bound per key, in ms. */
  readonly maxMillis?: number;
  /** State of every document before the history (default: absent, never written). */
  readonly initial?: (key: string) => DocState;
}

/** The model: `exact` false means the real version is unknown but strictly after `version`. */
export interface DocState {
  readonly present: boolean;
  readonly value: Value | null;
  readonly version: Version | null;
  readonly exact: boolean;
}

export const ABSENT: DocState = { present: false, value: null, version: null, exact: true };

export interface LinearizationFailure {
  /** The completed op no order could place before its return. */
  readonly op: string;
  /** Model state reached by the longest linearizable prefix. */
  readonly state: string;
  /** How many ops that prefix had, and its last few, oldest first. */
  readonly prefixLength: number;
  readonly lastLinearized: readonly string[];
  /** Ops whose intervals overlap the failing op's: the only ones that could have gone between. */
  readonly concurrent: readonly string[];
  readonly message: string;
}

export type KeyVerdict =
  | {
      readonly key: string;
      readonly verdict: 'linearizable';
      readonly ops: number;
      readonly steps: number;
    }
  | {
      readonly key: string;
      readonly verdict: 'non-linearizable';
      readonly ops: number;
      readonly steps: number;
      readonly failure: LinearizationFailure;
    }
  | {
      readonly key: string;
      readonly verdict: 'unknown';
      readonly ops: number;
      readonly steps: number;
      readonly reason: string;
    };

const REGISTER_KINDS = new Set(['read', 'write', 'cas', 'delete']);

/** Checks every key touched by a register op, each on its own (linearizability is local). */
export function checkLinearizable(
  ops: readonly Operation[],
  options: LinearizableOptions = {},
): KeyVerdict[] {
  const byKey = new Map<string, Operation[]>();
  for (const o of ops) {
    if (!REGISTER_KINDS.has(o.op.kind)) continue;
    const key = (o.op as { key: string }).key;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(o);
  }
  return [...byKey.keys()].sort().map((k) => checkKey(k, byKey.get(k)!, options));
}

// ---- model ----

const gt = (a: Version, b: Version) => a.seqNo > b.seqNo && a.primaryTerm >= b.primaryTerm;
const eq = (a: Version, b: Version) => a.seqNo === b.seqNo && a.primaryTerm === b.primaryTerm;

/** Could the document's current version be `v`? */
function canBe(s: DocState, v: Version): boolean {
  if (s.exact) return s.version !== null && eq(s.version, v);
  return s.version === null || gt(v, s.version);
}

/** May a change that produced `w` come next? */
function canFollow(s: DocState, w: Version): boolean {
  if (s.version === null) return true;
  if (s.exact) return gt(w, s.version);
  // An unseen version lies strictly between the bound and w.
  return w.seqNo > s.version.seqNo + 1 && w.primaryTerm >= s.version.primaryTerm;
}

const present = (value: Value, version: Version | null, exact: boolean): DocState => ({
  present: true,
  value,
  version,
  exact,
});
const absent = (version: Version | null, exact: boolean): DocState => ({
  present: false,
  value: null,
  version,
  exact,
});

/** A prepared op: what it does to the model. `returns` false for unknown outcomes. */
export interface Step {
  readonly operation: Operation;
  readonly returns: boolean;
  readonly apply: (s: DocState) => DocState | null;
}

/** What `o` does to the model; null when it constrains nothing. Exported for the tests' reference search. */
export function prepare(o: Operation): Step | null {
  const op = o.op;
  const returns = o.outcome === 'ok';
  if (o.outcome === 'fail') {
    // Only a cas's version conflict tells anything: at some instant the version was not the
    // expected one. Other failures did not happen and constrain nothing.
    if (op.kind !== 'cas' || !o.failure?.conflict) return null;
    const cur = o.failure.current;
    return {
      operation: o,
      returns: true,
      apply: (s) => {
        if (cur === undefined)
          return s.present && s.exact && eq(s.version!, op.expected) ? null : s;
        if (cur === null) return s.present ? null : s;
        if (eq(cur, op.expected) || !canBe(s, cur)) return null;
        // ES 6.8 names a deleted document's tombstone as its current version (InternalEngine
        // checks if_seq_no against the version map entry, delete or not): absent at `cur`.
        return s.present ? present(s.value!, cur, true) : absent(cur, true);
      },
    };
  }
  if (op.kind === 'read') {
    if (!returns) return null; // an unanswered read constrains nothing
    const r = o.result;
    if (!r || r.kind !== 'read')
      throw new Error(`read without a read result: ${describeOperation(o)}`);
    if (!r.found) return { operation: o, returns, apply: (s) => (s.present ? null : s) };
    return {
      operation: o,
      returns,
      apply: (s) =>
        s.present && s.value === r.value && canBe(s, r.version)
          ? present(r.value, r.version, true)
          : null,
    };
  }
  if (op.kind === 'write') {
    if (!returns)
      return { operation: o, returns, apply: (s) => present(op.value, s.version, false) };
    const r = o.result;
    if (!r || r.kind !== 'write')
      throw new Error(`write without a version: ${describeOperation(o)}`);
    return {
      operation: o,
      returns,
      apply: (s) => (canFollow(s, r.version) ? present(op.value, r.version, true) : null),
    };
  }
  if (op.kind === 'cas') {
    // The document need not be present: ES 6.8 matches if_seq_no/if_primary_term against a
    // deleted document's tombstone too (until it is pruned), and the cas then creates it.
    if (!returns)
      return {
        operation: o,
        returns,
        apply: (s) => (canBe(s, op.expected) ? present(op.value, op.expected, false) : null),
      };
    const r = o.result;
    if (!r || r.kind !== 'cas') throw new Error(`cas without a version: ${describeOperation(o)}`);
    return {
      operation: o,
      returns,
      apply: (s) =>
        canBe(s, op.expected) && gt(r.version, op.expected)
          ? present(op.value, r.version, true)
          : null,
    };
  }
  if (op.kind === 'delete') {
    if (!returns) return { operation: o, returns, apply: (s) => absent(s.version, false) };
    const r = o.result;
    if (!r || r.kind !== 'delete')
      throw new Error(`delete without a result: ${describeOperation(o)}`);
    return {
      operation: o,
      returns,
      apply: (s) => {
        if (s.present !== r.found) return null;
        if (!r.version) return r.found ? absent(s.version, false) : s;
        return canFollow(s, r.version) ? absent(r.version, true) : null;
      },
    };
  }
  return null;
}

function stateKey(s: DocState): string {
  const v = s.version ? `${s.version.primaryTerm}:${s.version.seqNo}` : '-';
  return `${s.present ? 'P' : 'A'}${s.exact ? '=' : '>'}${v}|${typeof s.value}:${s.value}`;
}

export function describeState(s: DocState): string {
  const v = s.version
    ? `${s.exact ? '' : 'after '}(seq ${s.version.seqNo}, term ${s.version.primaryTerm})`
    : s.exact
      ? 'never written'
      : 'unknown version';
  return s.present ? `${JSON.stringify(s.value)} at ${v}` : `absent (last change ${v})`;
}

// ---- search ----

interface Entry {
  readonly call: boolean;
  readonly op: number;
  readonly at: number;
  prev: Entry | null;
  next: Entry | null;
  /** A call's return entry, if its op returns. */
  match: Entry | null;
}

/** Zobrist hashing of the linearized set: per-op random words, XORed in and out. */
function zobrist(n: number): Uint32Array {
  const z = new Uint32Array(2 * n);
  let s = 0x9e3779b9;
  for (let i = 0; i < z.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    z[i] = s >>> 0;
  }
  return z;
}

export function checkKey(
  key: string,
  operations: readonly Operation[],
  options: LinearizableOptions = {},
): KeyVerdict {
  const maxSteps = options.maxSteps ?? 10_000_000;
  const deadline = options.maxMillis !== undefined ? Date.now() + options.maxMillis : Infinity;
  const steps: Step[] = [];
  for (const o of operations) {
    const s = prepare(o);
    if (s) steps.push(s);
  }
  const n = steps.length;

  // The entry list, in history order.
  const raw: Entry[] = [];
  steps.forEach((s, i) => {
    const call: Entry = {
      call: true,
      op: i,
      at: s.operation.invoke.index,
      prev: null,
      next: null,
      match: null,
    };
    raw.push(call);
    if (s.returns) {
      const ret: Entry = {
        call: false,
        op: i,
        at: s.operation.complete!.index,
        prev: null,
        next: null,
        match: null,
      };
      call.match = ret;
      raw.push(ret);
    }
  });
  raw.sort((a, b) => a.at - b.at);
  const head: Entry = { call: false, op: -1, at: -1, prev: null, next: null, match: null };
  let last = head;
  for (const e of raw) {
    e.prev = last;
    last.next = e;
    last = e;
  }

  const lift = (c: Entry) => {
    c.prev!.next = c.next;
    if (c.next) c.next.prev = c.prev;
    const r = c.match;
    if (r) {
      r.prev!.next = r.next;
      if (r.next) r.next.prev = r.prev;
    }
  };
  const unlift = (c: Entry) => {
    const r = c.match;
    if (r) {
      r.prev!.next = r;
      if (r.next) r.next.prev = r;
    }
    c.prev!.next = c;
    if (c.next) c.next.prev = c;
  };

  const z = zobrist(n);
  const words = Math.ceil(n / 32);
  const bits = new Uint32Array(words);
  let h1 = 0;
  let h2 = 0;
  const flip = (i: number) => {
    bits[i >>> 5]! ^= 1 << (i & 31);
    h1 ^= z[2 * i]!;
    h2 ^= z[2 * i + 1]!;
  };
  const cache = new Map<string, Uint32Array[]>();
  /** Adds the current configuration; false if it was seen before. */
  const remember = (s: DocState): boolean => {
    const k = `${h1},${h2},${stateKey(s)}`;
    const seen = cache.get(k);
    if (seen) {
      outer: for (const b of seen) {
        for (let w = 0; w < words; w++) if (b[w] !== bits[w]) continue outer;
        return false;
      }
      seen.push(bits.slice());
    } else cache.set(k, [bits.slice()]);
    return true;
  };

  let state: DocState = options.initial?.(key) ?? ABSENT;
  const stack: Array<{ entry: Entry; state: DocState }> = [];
  let remaining = steps.filter((s) => s.returns).length;
  let tried = 0;
  let best: { depth: number; op: number; state: DocState; last: number[] } | null = null;

  let entry = head.next;
  while (remaining > 0) {
    if (tried >= maxSteps)
      return {
        key,
        verdict: 'unknown',
        ops: n,
        steps: tried,
        reason: `search budget of ${maxSteps} steps exhausted`,
      };
    if ((tried & 4095) === 0 && Date.now() > deadline)
      return {
        key,
        verdict: 'unknown',
        ops: n,
        steps: tried,
        reason: `time budget of ${options.maxMillis} ms exhausted`,
      };
    if (entry && entry.call) {
      tried++;
      const next = steps[entry.op]!.apply(state);
      if (next) {
        flip(entry.op);
        if (remember(next)) {
          stack.push({ entry, state });
          state = next;
          lift(entry);
          if (entry.match) remaining--;
          entry = head.next;
          continue;
        }
        flip(entry.op);
      }
      entry = entry.next;
      continue;
    }
    // A return (or the end) reached with its op not linearized: undo the last choice.
    if (entry && (!best || stack.length > best.depth))
      best = {
        depth: stack.length,
        op: entry.op,
        state,
        last: stack.slice(-6).map((x) => x.entry.op),
      };
    const top = stack.pop();
    if (!top) {
      const b = best ?? { depth: 0, op: entry?.op ?? 0, state, last: [] };
      return { key, verdict: 'non-linearizable', ops: n, steps: tried, failure: explain(steps, b) };
    }
    unlift(top.entry);
    flip(top.entry.op);
    if (top.entry.match) remaining++;
    state = top.state;
    entry = top.entry.next;
  }
  return { key, verdict: 'linearizable', ops: n, steps: tried };
}

function explain(
  steps: readonly Step[],
  best: { depth: number; op: number; state: DocState; last: number[] },
): LinearizationFailure {
  const failing = steps[best.op]!.operation;
  const from = failing.invoke.index;
  const to = failing.complete!.index;
  const concurrent = steps
    .map((s) => s.operation)
    .filter((o) => o !== failing && o.invoke.index < to && (o.complete?.index ?? Infinity) > from)
    .map(describeOperation);
  const op = describeOperation(failing);
  const state = describeState(best.state);
  return {
    op,
    state,
    prefixLength: best.depth,
    lastLinearized: best.last.map((i) => describeOperation(steps[i]!.operation)),
    concurrent,
    message:
      `${op} cannot be linearized: after ${best.depth} op(s) the document is ${state}` +
      (concurrent.length
        ? `, and no order of the ${concurrent.length} concurrent op(s) makes it possible`
        : ', and no op ran concurrently with it'),
  };
}
