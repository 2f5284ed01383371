/**
 * The operation history of a Jepsen-style test. Every client operation is an `invoke` event
 * followed by one completion from the same process: `ok` (it happened, with its result), `fail`
 * (it definitely did not happen) or `info` (unknown: it may take effect at any time after its
 * invoke, or never). Events are kept in the order the test observed them; that order, not the
 * clocks, is what the checkers use for real-time precedence, as Jepsen does.
 */

/** A document version as Elasticsearch exposes it (`_seq_no`, `_primary_term`). */
export interface Version {
  readonly seqNo: number;
  readonly primaryTerm: number;
}

/** Register values: plain scalars, compared with `===`. */
export type Value = string | number;

export type Op =
  | { readonly kind: 'insert'; readonly id: string }
  | { readonly kind: 'read'; readonly key: string }
  | { readonly kind: 'write'; readonly key: string; readonly value: Value }
  | {
      readonly kind: 'cas';
      readonly key: string;
      readonly expected: Version;
      readonly value: Value;
    }
  | { readonly kind: 'delete'; readonly key: string };

export type OpKind = Op['kind'];

/** What an `ok` completion carries, by op kind. */
export type Result =
  | { readonly kind: 'insert'; readonly version?: Version }
  | { readonly kind: 'read'; readonly found: false }
  | {
      readonly kind: 'read';
      readonly found: true;
      readonly value: Value;
      readonly version: Version;
    }
  | { readonly kind: 'write'; readonly version: Version }
  | { readonly kind: 'cas'; readonly version: Version }
  /** ES answers a delete of a missing document `not_found`, still with a new seq_no. */
  | { readonly kind: 'delete'; readonly found: boolean; readonly version?: Version };

/**
 * Why a `fail` happened. A version conflict on a cas is itself an observation (the version was not
 * the expected one at some instant of the call); `current` is ES's "current document has seqNo
 * [x] and primary term [y]" when the client parsed it (null: the document did not exist).
 */
export interface Failure {
  readonly error: string;
  readonly conflict?: boolean;
  readonly current?: Version | null;
}

interface EventBase {
  /** Position in the history, from 0. */
  readonly index: number;
  readonly process: number;
  /** Milliseconds since the epoch, for humans and for lining up with server logs. */
  readonly wall: number;
  /** Nanoseconds since the clock was created; monotonic, for durations. */
  readonly mono: number;
}

export type HistoryEvent =
  | (EventBase & { readonly type: 'invoke'; readonly op: Op })
  | (EventBase & { readonly type: 'ok'; readonly result: Result })
  | (EventBase & { readonly type: 'fail'; readonly failure: Failure })
  | (EventBase & { readonly type: 'info'; readonly error: string });

export type Outcome = 'ok' | 'fail' | 'info';

/** One client operation: its invoke joined with its completion. */
export interface Operation {
  readonly process: number;
  readonly op: Op;
  readonly invoke: HistoryEvent & { type: 'invoke' };
  /** Absent when the history ended before the op completed; checkers treat that as `info`. */
  readonly complete?: HistoryEvent & { type: 'ok' | 'fail' | 'info' };
  readonly outcome: Outcome;
  readonly result?: Result;
  readonly failure?: Failure;
}

export interface Clock {
  wall(): number;
  mono(): number;
}

/** One clock shared by the recorder and the nemesis, so fault times line up with ops. */
export function createClock(): Clock {
  const origin = process.hrtime.bigint();
  return {
    wall: () => Date.now(),
    mono: () => Number(process.hrtime.bigint() - origin),
  };
}

export interface Recorder {
  readonly clock: Clock;
  invoke(process: number, op: Op): void;
  ok(process: number, result: Result): void;
  fail(process: number, failure: Failure): void;
  info(process: number, error: string): void;
  /**
   * Runs one op: records its invoke, then `ok` or `fail` from what `run` returns; a throw is `info`
   * (a timeout or a dropped connection says nothing about whether the op happened).
   */
  call(
    process: number,
    op: Op,
    run: () => Promise<
      | { type: 'ok'; result: Result }
      | { type: 'fail'; failure: Failure }
      | { type: 'info'; error: string }
    >,
  ): Promise<Outcome>;
  events(): readonly HistoryEvent[];
  toJsonLines(): string;
}

export function createRecorder(clock: Clock = createClock()): Recorder {
  const events: HistoryEvent[] = [];
  // A process runs one op at a time (Jepsen's rule); this catches a client that forgets.
  const open = new Set<number>();
  const stamp = (process: number) => ({
    index: events.length,
    process,
    wall: clock.wall(),
    mono: clock.mono(),
  });
  const close = (process: number) => {
    if (!open.delete(process)) throw new Error(`process ${process} has no op in flight`);
  };
  const rec: Recorder = {
    clock,
    invoke(process, op) {
      if (open.has(process)) throw new Error(`process ${process} already has an op in flight`);
      open.add(process);
      events.push({ ...stamp(process), type: 'invoke', op });
    },
    ok(process, result) {
      close(process);
      events.push({ ...stamp(process), type: 'ok', result });
    },
    fail(process, failure) {
      close(process);
      events.push({ ...stamp(process), type: 'fail', failure });
    },
    info(process, error) {
      close(process);
      events.push({ ...stamp(process), type: 'info', error });
    },
    async call(process, op, run) {
      rec.invoke(process, op);
      let r;
      try {
        r = await run();
      } catch (e) {
        rec.info(process, e instanceof Error ? e.message : String(e));
        return 'info';
      }
      if (r.type === 'ok') rec.ok(process, r.result);
      else if (r.type === 'fail') rec.fail(process, r.failure);
      else rec.info(process, r.error);
      return r.type;
    },
    events: () => events,
    toJsonLines: () => toJsonLines(events),
  };
  return rec;
}

export function toJsonLines(events: readonly HistoryEvent[]): string {
  let out = '';
  for (const e of events) out += JSON.stringify(e) + '\n';
  return out;
}

export function parseJsonLines(text: string): HistoryEvent[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as HistoryEvent);
}

/** Joins invokes with their completions, in invoke order. */
export function operations(events: readonly HistoryEvent[]): Operation[] {
  const out: Operation[] = [];
  const pending = new Map<number, number>(); // process → index in out
  for (const e of events) {
    if (e.type === 'invoke') {
      if (pending.has(e.process))
        throw new Error(`process ${e.process} invoked twice (event ${e.index})`);
      pending.set(e.process, out.length);
      out.push({ process: e.process, op: e.op, invoke: e, outcome: 'info' });
      continue;
    }
    const at = pending.get(e.process);
    if (at === undefined) throw new Error(`completion without invoke (event ${e.index})`);
    pending.delete(e.process);
    const o = out[at]!;
    out[at] = {
      ...o,
      complete: e,
      outcome: e.type,
      ...(e.type === 'ok' ? { result: e.result } : {}),
      ...(e.type === 'fail' ? { failure: e.failure } : {}),
    };
  }
  return out;
}

export const versionKey = (v: Version) => `${v.primaryTerm}:${v.seqNo}`;

/** A one-line rendering of an operation, for reports. */
export function describeOperation(o: Operation): string {
  const op = o.op;
  const v = (x: Version) => `(seq ${x.seqNo}, term ${x.primaryTerm})`;
  let what: string;
  switch (op.kind) {
    case 'insert':
      what = `insert ${op.id}`;
      break;
    case 'read':
      what = `read ${op.key}`;
      break;
    case 'write':
      what = `write ${op.key} = ${JSON.stringify(op.value)}`;
      break;
    case 'cas':
      what = `cas ${op.key} if ${v(op.expected)} = ${JSON.stringify(op.value)}`;
      break;
    case 'delete':
      what = `delete ${op.key}`;
      break;
  }
  let got = '';
  const r = o.result;
  if (o.outcome === 'ok' && r) {
    if (r.kind === 'read')
      got = r.found ? ` → ${JSON.stringify(r.value)} ${v(r.version)}` : ' → not found';
    else if (r.kind === 'delete')
      got = `${r.found ? ' → deleted' : ' → not found'}${r.version ? ' ' + v(r.version) : ''}`;
    else if (r.version) got = ` → ${v(r.version)}`;
  } else if (o.outcome === 'fail') {
    got = ` → ${o.failure?.conflict ? 'version conflict' : (o.failure?.error ?? 'failed')}`;
    if (o.failure?.current !== undefined)
      got += o.failure.current ? ` (current ${v(o.failure.current)})` : ' (missing)';
  } else if (!o.complete) got = ' → (never completed)';
  const span = `[${o.invoke.index}–${o.complete?.index ?? '∞'}]`;
  return `p${o.process} ${span} ${what} ${o.outcome}${got}`;
}
