/**
 * Building blocks: Java DecimalFormat patterns, Double.toString, the date stand-in (formats,
 * parsing, date math, roundings), HyperLogLog++ (linear counting and registers), the t-digest
 * quantile/cdf interpolation, and 64-bit hashing against BigInt references.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DecimalFormat } from '../../../../src/dsl/aggs/support/decimal-format.js';
import { javaDoubleToString } from '../../../../src/dsl/script/index.js';
import {
  calendarRounding,
  dateFormatter,
  fixedRounding,
  parseDateMath,
  timeZone,
  UTC,
} from '../../../../src/dsl/aggs/support/dates.js';
import { HllSketch, precisionFromThreshold } from '../../../../src/dsl/aggs/metrics/hyperloglog.js';
import { DoubleHistogram } from '../../../../src/dsl/aggs/metrics/hdr-histogram.js';
import { TDigest } from '../../../../src/dsl/aggs/metrics/tdigest.js';
import {
  doubleBits,
  longBits,
  mix64,
  murmur3x64h1,
  utf8,
} from '../../../../src/dsl/aggs/support/hash64.js';
import { murmur3x86_32 } from '../../../../src/common/murmur3.js';

describe('DecimalFormat', () => {
  const f = (p: string, v: number) => new DecimalFormat(p).format(v);
  it('formats like java.text.DecimalFormat (ROOT, HALF_EVEN)', () => {
    expect(f('##0.0', 50)).toBe('50.0');
    expect(f('Value is ##0.0', 150)).toBe('Value is 150.0');
    expect(f('#,##0.00', 1234567.891)).toBe('1,234,567.89');
    expect(f('0.00', 0.125)).toBe('0.12');
    expect(f('0.00', 0.375)).toBe('0.38');
    expect(f('0.###', 1.5)).toBe('1.5');
    expect(f('000', 7)).toBe('007');
    expect(f('#', 2.5)).toBe('2');
    expect(f('#', 3.5)).toBe('4');
    expect(f('0.0', -0.04)).toBe('-0.0');
    expect(f("'$'#,##0", 1000)).toBe('$1,000');
    expect(f('#%', 0.256)).toBe('26%');
    expect(f('0.###E0', 12345)).toBe('1.234E4');
    expect(f('#.##;(#.##)', -3.14159)).toBe('(3.14)');
    expect(new DecimalFormat('#,##0.00').parse('1,234.50')).toBe(1234.5);
  });
});

describe('Java Double.toString', () => {
  it('prints plain and scientific forms', () => {
    expect(javaDoubleToString(50)).toBe('50.0');
    expect(javaDoubleToString(99.9)).toBe('99.9');
    expect(javaDoubleToString(0.001)).toBe('0.001');
    expect(javaDoubleToString(0.0001)).toBe('1.0E-4');
    expect(javaDoubleToString(12345678)).toBe('1.2345678E7');
    expect(javaDoubleToString(-0)).toBe('-0.0');
    expect(javaDoubleToString(NaN)).toBe('NaN');
  });
});

describe('dates stand-in', () => {
  it('formats and parses Joda patterns and named formats', () => {
    const ms = Date.UTC(2016, 4, 3, 14, 5, 6, 7);
    expect(dateFormatter('strict_date_optional_time||epoch_millis').format(ms)).toBe(
      '2016-05-03T14:05:06.007Z',
    );
    expect(dateFormatter('yyyy-MM-dd HH:mm').format(ms, timeZone('+02:00'))).toBe(
      '2016-05-03 16:05',
    );
    expect(dateFormatter('epoch_second').format(ms)).toBe('1462284306');
    expect(dateFormatter("dd MMM yyyy 'at' hh a").format(ms)).toBe('03 May 2016 at 02 PM');
    expect(dateFormatter('strict_date_optional_time||epoch_millis').parse('2016-05-03')).toBe(
      Date.UTC(2016, 4, 3),
    );
    expect(dateFormatter('strict_date_optional_time||epoch_millis').parse('1462233600000')).toBe(
      1462233600000,
    );
    expect(dateFormatter('date_optional_time').parse('2016-05-03T10:00:00+02:00')).toBe(
      Date.UTC(2016, 4, 3, 8),
    );
    expect(dateFormatter('yyyy/MM/dd').parse('2016/05/03', timeZone('-01:00'))).toBe(
      Date.UTC(2016, 4, 3, 1),
    );
    expect(() => dateFormatter('yyyy-MM-dd').parse('nope')).toThrow('Invalid format: "nope"');
  });

  it('date math with rounding', () => {
    const now = () => Date.UTC(2020, 5, 15, 13, 30);
    expect(parseDateMath('now-1d/d', now, false)).toBe(Date.UTC(2020, 5, 14));
    expect(parseDateMath('now/M', now, true)).toBe(Date.UTC(2020, 6, 1) - 1);
    expect(parseDateMath('2016-01-31||+1M', now, false)).toBe(Date.UTC(2016, 1, 29));
    expect(parseDateMath('now+2h', now, false)).toBe(Date.UTC(2020, 5, 15, 15, 30));
    expect(parseDateMath('now/d', now, false, timeZone('+05:00'))).toBe(Date.UTC(2020, 5, 14, 19));
  });

  it('roundings in UTC, fixed offsets and named zones', () => {
    const t = Date.UTC(2021, 2, 28, 1, 30);
    expect(calendarRounding('month', UTC).round(t)).toBe(Date.UTC(2021, 2, 1));
    expect(calendarRounding('quarter', UTC).nextRoundingValue(Date.UTC(2021, 0, 1))).toBe(
      Date.UTC(2021, 3, 1),
    );
    expect(calendarRounding('week', UTC).round(t)).toBe(Date.UTC(2021, 2, 22));
    expect(calendarRounding('day', timeZone('-03:00')).round(t)).toBe(Date.UTC(2021, 2, 27, 3));
    // fixed intervals are aligned on the epoch, not on local days
    expect(fixedRounding(3600000 * 5, UTC).round(t)).toBe(Date.UTC(2021, 2, 27, 23));
    const paris = timeZone('Europe/Paris');
    // 2021-03-28 is the spring-forward day in Paris: the local day starts at 23:00 UTC the day before
    expect(calendarRounding('day', paris).round(Date.UTC(2021, 2, 28, 12))).toBe(
      Date.UTC(2021, 2, 27, 23),
    );
    expect(calendarRounding('day', paris).nextRoundingValue(Date.UTC(2021, 2, 27, 23))).toBe(
      Date.UTC(2021, 2, 28, 22),
    );
    expect(() => timeZone('Mars/Olympus')).toThrow(
      "The datetime zone id 'Mars/Olympus' is not recognised",
    );
  });
});

describe('HyperLogLog++', () => {
  it('derives precision from the threshold like ES', () => {
    expect(precisionFromThreshold(3000)).toBe(14);
    expect(precisionFromThreshold(100)).toBe(10);
    expect(precisionFromThreshold(0)).toBe(4);
    expect(precisionFromThreshold(40000)).toBe(18);
  });

  it('linear counting is exact for small sets, then estimates; merging is a union', () => {
    const a = new HllSketch(14);
    const b = new HllSketch(14);
    for (let i = 0; i < 1000; i++) {
      const h = mix64(longBits(i));
      a.collect(h.hi, h.lo);
      if (i >= 500) b.collect(h.hi, h.lo);
    }
    expect(a.cardinality()).toBe(1000);
    const big = new HllSketch(10);
    for (let i = 0; i < 100000; i++) {
      const h = mix64(longBits(i * 31));
      big.collect(h.hi, h.lo);
    }
    expect(Math.abs(big.cardinality() - 100000) / 100000).toBeLessThan(0.05);
    const c = new HllSketch(14);
    for (let i = 1000; i < 1500; i++) {
      const h = mix64(longBits(i));
      c.collect(h.hi, h.lo);
    }
    b.merge(c);
    expect(b.cardinality()).toBe(1000);
  });
});

describe('t-digest (AVLTreeDigest 3.2 semantics)', () => {
  it('interpolates quantiles between centroids and to min/max', () => {
    const d = new TDigest(100);
    for (const v of [1, 51, 101, 151]) d.add(v);
    expect([0.01, 0.25, 0.5, 0.75, 0.99].map((q) => d.quantile(q))).toEqual([1, 26, 76, 126, 151]);
    expect(d.cdf(76)).toBe(0.5);
    expect(new TDigest(100).quantile(0.5)).toBeNaN();
  });

  it('stays accurate on many values and merges', () => {
    const a = new TDigest(100);
    const b = new TDigest(100);
    for (let i = 0; i < 20000; i++) (i % 2 ? a : b).add((i * 7919) % 10000);
    a.merge(b);
    expect(a.count).toBe(20000);
    expect(Math.abs(a.quantile(0.5) - 5000)).toBeLessThan(100);
    expect(Math.abs(a.quantile(0.99) - 9900)).toBeLessThan(50);
    expect(a.centroidCount).toBeLessThan(2001);
  });
});

describe('64-bit hashing', () => {
  const M = (1n << 64n) - 1n;
  const toBig = (h: { hi: number; lo: number }) => (BigInt(h.hi) << 32n) | BigInt(h.lo);
  const stafford = (z: bigint) => {
    z = BigInt.asUintN(64, z);
    z = ((z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn) & M;
    z = ((z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n) & M;
    return z ^ (z >> 32n);
  };

  it('mix64 is HPPC BitMixer.mix64 over Java longs and double bits', () => {
    for (const v of [0, 1, -1, 1234, 5678, 2 ** 40 + 7, -(2 ** 50)])
      expect(toBig(mix64(longBits(v)))).toBe(stafford(BigInt(v)));
    const bits = new DataView(new ArrayBuffer(8));
    bits.setFloat64(0, 1.5);
    expect(toBig(doubleBits(1.5))).toBe(bits.getBigUint64(0));
  });

  it('murmur3 x64 128 h1 of known inputs', () => {
    // h1 of MurmurHash3_x64_128 with seed 0 (values from the reference implementation)
    expect(toBig(murmur3x64h1(utf8(''), 0, 0))).toBe(0n);
    expect(toBig(murmur3x64h1(utf8('hello'), 0, 5)).toString(16)).toBe('cbd8a7b341bd9b02');
    expect(
      toBig(murmur3x64h1(utf8('The quick brown fox jumps over the lazy dog'), 0, 43)).toString(16),
    ).toBe('e34bbc7bbc071b6c');
  });

  it('terms partitions use murmur3_x86_32 with seed 31', () => {
    const b = utf8('abc');
    expect(((murmur3x86_32(b, 0, b.length, 31) % 2) + 2) % 2).toBe(1);
  });
});

describe('HdrHistogram DoubleHistogram (hdr percentiles)', () => {
  interface HdrCase {
    digits: number;
    shards: number[][];
    error?: true;
    count?: number;
    percentiles?: string[];
    ranks?: string[];
  }
  const fixture = JSON.parse(
    readFileSync(
      new URL('../../../../fixtures/dsl/aggs/hdr-histogram-2.1.9.json', import.meta.url),
      'utf8',
    ),
  ) as { percents: number[]; rankValues: number[]; cases: HdrCase[] };
  const f64 = new Float64Array(1);
  const u32 = new Uint32Array(f64.buffer);
  const hex = (d: number) => {
    f64[0] = d;
    return ((BigInt(u32[1]!) << 32n) | BigInt(u32[0]!)).toString(16);
  };

  it('matches HdrHistogram 2.1.9 bit for bit: recording, auto-ranging, resizing, merging', () => {
    for (const c of fixture.cases) {
      const run = () => {
        const shards = c.shards.map((vs) => {
          const h = new DoubleHistogram(c.digits);
          for (const v of vs) h.recordValue(v);
          return h;
        });
        const merged = DoubleHistogram.emptyLike(shards[0]!);
        for (const h of shards) merged.add(h);
        return merged;
      };
      if (c.error) {
        expect(run).toThrow();
        continue;
      }
      const m = run();
      expect(m.totalCount).toBe(c.count);
      expect(fixture.percents.map((p) => hex(m.getValueAtPercentile(p)))).toEqual(c.percentiles);
      expect(fixture.rankValues.map((v) => hex(m.getPercentileAtOrBelowValue(v)))).toEqual(c.ranks);
    }
  });
});
