/**
 * ES DeprecationLogger for analysis components: a component reports a deprecation while it is
 * built or run, and the request that caused it (index creation, indexing, `_analyze`, search)
 * collects them as `Warning` headers. The collector follows the request across awaits (ES keeps
 * the warnings in the request's thread context).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string[]>();

/** Runs `fn` (sync or async), adding the deprecations reported meanwhile to `sink`. */
export function collectDeprecations<T>(sink: string[], fn: () => T): T {
  return current.run(sink, fn);
}

/** Reports a deprecation to the innermost collector (dropped when nobody collects). */
export function deprecated(message: string): void {
  const sink = current.getStore();
  if (sink !== undefined && !sink.includes(message)) sink.push(message);
}
