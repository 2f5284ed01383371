/**
 * ES DeprecationLogger for analysis components: a component reports a deprecation while it is
 * built or run, and the request that caused it (index creation, indexing, `_analyze`, search)
 * collects them as `Warning` headers. The collector follows the request across awaits (ES keeps
 * the warnings in the request's thread context).
 *
 * The collector is an AsyncLocalStorage, whose promise hooks (Node 20) tax every promise of the
 * process while any store is enabled, about 3× the cost of an await. So it is disabled again
 * whenever no request is being collected for, and the hot read requests skip it altogether when
 * no index could report a deprecation while searching (`mayReportDeprecations`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string[]>();
/** Collections in progress (nested ones included). */
let active = 0;

function leave(): void {
  // continuations a finished request left behind report to nobody, as after its response
  if (--active === 0) current.disable();
}

/** Runs `fn` (sync or async), adding the deprecations reported meanwhile to `sink`. */
export function collectDeprecations<T>(sink: string[], fn: () => T): T {
  active++;
  let out: T;
  try {
    out = current.run(sink, fn);
  } catch (e) {
    leave();
    throw e;
  }
  if (out instanceof Promise) return out.finally(leave) as T;
  leave();
  return out;
}

/** Reports a deprecation to the innermost collector (dropped when nobody collects). */
export function deprecated(message: string): void {
  const sink = current.getStore();
  if (sink !== undefined && !sink.includes(message)) sink.push(message);
}

/**
 * The analysis components that call `deprecated()` (ngram tokenizers and filters with a wide gram
 * range, the `htmlStrip` char filter name, `delimited_payload_filter`), as they appear in an
 * index's `analysis` settings. A component added there must be added here, or the warnings it
 * reports while a search runs are lost.
 */
const REPORTING = /gram|htmlstrip|payload/i;

/** Whether an index with these `analysis` settings may report a deprecation while searched. */
export function mayReportDeprecations(analysis: Record<string, unknown>): boolean {
  return REPORTING.test(JSON.stringify(analysis));
}
