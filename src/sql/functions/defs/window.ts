/**
 * Quarry's window functions (an extension beyond ES SQL, issue 16; src/sql/EXTENSIONS.md). They
 * are not registry definitions: they only resolve with an OVER clause (analyze/window.ts), so a
 * call without OVER keeps ES's "Unknown function" error and its suggestions. SHOW FUNCTIONS lists
 * them, with type WINDOW, after all of ES's functions.
 */

/** Functions that exist only as windows, sorted (SHOW FUNCTIONS order within the group). */
export const WINDOW_ONLY_FUNCTIONS: readonly string[] = Object.freeze([
  'DENSE_RANK',
  'LAG',
  'LEAD',
  'RANK',
  'ROW_NUMBER',
]);

/** ES aggregates that also run with OVER; SHOW FUNCTIONS lists them once, as AGGREGATE. */
export const WINDOW_AGGREGATE_FUNCTIONS: readonly string[] = Object.freeze([
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'COUNT',
]);
