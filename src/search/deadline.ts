/**
 * The search `timeout` (ES QueryPhase's timeout runnable, run by CancellableBulkScorer between
 * windows of docs): a point in time that collectors and multi-term expansions check every few
 * thousand docs or terms. A check past the deadline throws TimeExceeded; the collector that
 * catches it returns what it has collected so far, and the shard reports `timed_out`.
 * The clock is injectable so that tests can force an expiry without timing anything.
 */

/** Milliseconds from an arbitrary origin, never going back (performance.now by default). */
export type Clock = () => number;

export const systemClock: Clock = () => performance.now();

/**
 * Docs (or terms) between two checks in per-doc loops. ES starts at 2048 docs per window and
 * doubles up to 1M; a fixed interval keeps the response time bounded on one event loop, and a
 * clock read per 2048 docs is far below the cost of scoring or collecting them.
 */
export const CHECK_INTERVAL = 2048;

/** Terms enumerated between two checks while a multi-term query expands, minus one. */
export const TERMS_CHECK_MASK = 1023;

/** Terms compared between two checks while a fuzzy query expands (an edit distance each). */
export const FUZZY_CHECK_MASK = 255;

/** Thrown by Deadline.check (ES QueryPhase.TimeExceededException). One instance, no stack. */
export class TimeExceeded extends Error {
  constructor() {
    super('Time exceeded');
    this.name = 'TimeExceeded';
  }
}

const TIME_EXCEEDED = new TimeExceeded();

export function isTimeExceeded(e: unknown): e is TimeExceeded {
  return e === TIME_EXCEEDED;
}

export class Deadline {
  /** Checks that found the deadline passed (each one stopped a collection). */
  private exceeded = 0;

  /** `at` on `clock`'s scale; the deadline passes when the clock reads more than `at`. */
  constructor(
    readonly at: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A deadline `timeoutMs` from now (ES: start time + timeout, compared with `>`). */
  static after(timeoutMs: number, clock: Clock = systemClock): Deadline {
    return new Deadline(clock() + timeoutMs, clock);
  }

  /** Throws TimeExceeded once the clock is past the deadline (and every time after that). */
  check(): void {
    if (this.exceeded > 0 || this.clock() > this.at) {
      this.exceeded++;
      throw TIME_EXCEEDED;
    }
  }

  /** How many checks failed so far: a collection stopped early when this grew during it. */
  get failedChecks(): number {
    return this.exceeded;
  }
}
