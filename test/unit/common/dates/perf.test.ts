// Throughput floors for the hot paths (measured on CPU time, so a busy machine does not fail
// them). Typical figures on one core: ~4M ISO parses/s, ~3M formats/s.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_FORMAT,
  calendarRounding,
  dateFormatter,
  timeZone,
} from '../../../../src/common/dates/index.js';

function perSecond(n: number, fn: (i: number) => number): number {
  let sink = 0;
  for (let i = 0; i < 50_000; i++) sink += fn(i); // warm up
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) sink += fn(i);
  const used = process.cpuUsage(start);
  expect(Number.isFinite(sink)).toBe(true);
  return n / ((used.user + used.system) / 1e6);
}

describe('performance', () => {
  const f = dateFormatter(DEFAULT_DATE_FORMAT);
  const inputs: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const s = f.format(Date.UTC(2000, 0, 1) + ((i * 7_777_777_777) % 700_000_000_000));
    inputs.push(i % 3 === 0 ? s.slice(0, 10) : i % 3 === 1 ? s : s.replace('Z', '+01:00'));
  }

  it('parses strict_date_optional_time at >= 1M/s', () => {
    const rate = perSecond(1_000_000, (i) => f.parse(inputs[i % 1000]!));
    console.log(`strict_date_optional_time parse: ${(rate / 1e6).toFixed(2)}M/s`);
    expect(rate).toBeGreaterThan(1_000_000);
  });

  it('formats strict_date_optional_time at >= 1M/s', () => {
    const rate = perSecond(1_000_000, (i) => f.format(1420070400000 + i * 1000).length);
    console.log(`strict_date_optional_time format: ${(rate / 1e6).toFixed(2)}M/s`);
    expect(rate).toBeGreaterThan(1_000_000);
  });

  it('rounds to days in a DST zone at >= 500k/s', () => {
    const r = calendarRounding('day', timeZone('Europe/Paris'));
    const rate = perSecond(500_000, (i) => r.round(1420070400000 + i * 123_457));
    console.log(`day rounding (Europe/Paris): ${(rate / 1e6).toFixed(2)}M/s`);
    expect(rate).toBeGreaterThan(500_000);
  });
});
