/**
 * ES DeprecationLogger for analysis components: a component reports a deprecation while it is
 * built or run, and the caller that sends the response (the `_analyze` route) collects them as
 * `Warning` headers. Collection is synchronous: analysis runs without awaiting.
 */

const sinks: string[][] = [];

/** Runs `fn`, adding the deprecations reported meanwhile to `sink`. */
export function collectDeprecations<T>(sink: string[], fn: () => T): T {
  sinks.push(sink);
  try {
    return fn();
  } finally {
    sinks.pop();
  }
}

/** Reports a deprecation to the innermost collector (dropped when nobody collects). */
export function deprecated(message: string): void {
  const sink = sinks[sinks.length - 1];
  if (sink !== undefined && !sink.includes(message)) sink.push(message);
}
