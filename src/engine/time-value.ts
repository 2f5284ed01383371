/** Time values in settings (`1s`, `500ms`, `-1`), until src/common/units.ts takes over. */
import { illegalArgument } from '../common/errors.js';

const UNITS: Record<string, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

export function parseTimeValueMs(s: string, setting: string): number {
  const v = s.trim().toLowerCase();
  if (v === '-1') return -1;
  if (v === '0') return 0;
  const m = /^(-?\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(v);
  if (!m) {
    throw illegalArgument(
      `failed to parse setting [${setting}] with value [${s}] as a time value: unit is missing or unrecognized`,
    );
  }
  return Number(m[1]) * UNITS[m[2]!]!;
}
