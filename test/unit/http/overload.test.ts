/**
 * Request pools and circuit breakers (src/http/overload.ts): admission, FIFO hand-off, rejection
 * with ES's message shape, cancellation, endpoint classification, breaker accounting and wording.
 */
import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { EsError } from '../../../src/common/errors.js';
import {
  CircuitBreakers,
  defaultPools,
  OverloadControl,
  parseMemorySize,
  poolFor,
  RequestPool,
  BUCKET_BYTES,
} from '../../../src/http/overload.js';

const MB = 1024 * 1024;

async function rejection(p: Promise<unknown>): Promise<EsError> {
  try {
    await p;
  } catch (e) {
    return e as EsError;
  }
  throw new Error('expected a rejection');
}

describe('RequestPool', () => {
  it('runs size requests, queues queue_size, rejects the rest with 429', async () => {
    const pool = new RequestPool('write', 'n1', 2, 1);
    const r1 = await pool.acquire();
    const r2 = await pool.acquire();
    let third = false;
    const q = pool.acquire().then((r) => ((third = true), r));
    expect(pool.active).toBe(2);
    expect(pool.queued).toBe(1);
    const e = await rejection(pool.acquire());
    expect(e.type).toBe('es_rejected_execution_exception');
    expect(e.status).toBe(429);
    expect(e.reason).toMatch(
      /^rejected execution of org\.elasticsearch\.common\.util\.concurrent\.TimedRunnable@[0-9a-f]+ on EsThreadPoolExecutor\[name = n1\/write, queue capacity = 1, org\.elasticsearch\.common\.util\.concurrent\.EsThreadPoolExecutor@[0-9a-f]+\[Running, pool size = 2, active threads = 2, queued tasks = 1, completed tasks = 0\]\]$/,
    );
    expect(pool.rejected).toBe(1);
    r1();
    const r3 = await q;
    expect(third).toBe(true);
    expect(pool.active).toBe(2);
    r1(); // releasing twice is harmless
    r2();
    r3();
    expect(pool.active).toBe(0);
    expect(pool.completed).toBe(3);
  });

  it('admits waiters in arrival order', async () => {
    const pool = new RequestPool('search', 'n', 1, 10);
    const first = await pool.acquire();
    const order: number[] = [];
    const waits = [1, 2, 3].map((i) => pool.acquire().then((r) => (order.push(i), r)));
    first();
    for (const w of waits) (await w)();
    expect(order).toEqual([1, 2, 3]);
  });

  it('search rejections name the auto-queue executor like ES', async () => {
    const pool = new RequestPool('search', 'node-1', 1, 0);
    await pool.acquire();
    const e = await rejection(pool.acquire());
    expect(e.reason).toMatch(
      /on QueueResizingEsThreadPoolExecutor\[name = node-1\/search, queue capacity = 0, min queue capacity = 0, max queue capacity = 0, frame size = 2000, targeted response rate = 1s, task execution EWMA = [^,]+, adjustment amount = 50, org\.elasticsearch\.common\.util\.concurrent\.QueueResizingEsThreadPoolExecutor@[0-9a-f]+\[Running, pool size = 1, active threads = 1, queued tasks = 0, completed tasks = 0\]\]$/,
    );
  });

  it('a cancelled waiter gives its place back', async () => {
    const pool = new RequestPool('write', 'n', 1, 1);
    const r = await pool.acquire();
    let cancel: () => void = () => undefined;
    const gone = pool.acquire((c) => (cancel = c));
    cancel();
    await expect(gone).rejects.toThrow(/cancelled/);
    expect(pool.queued).toBe(0);
    const next = pool.acquire();
    r();
    (await next)();
    expect(pool.active).toBe(0);
  });

  it('queue_size -1 is unbounded', async () => {
    const pool = new RequestPool('write', 'n', 1, -1);
    await pool.acquire();
    for (let i = 0; i < 5000; i++) void pool.acquire();
    expect(pool.queued).toBe(5000);
    expect(pool.rejected).toBe(0);
  });
});

describe('poolFor', () => {
  const cases: Array<[string, string, string | null]> = [
    ['POST', '/_bulk', 'write'],
    ['PUT', '/idx/_bulk?refresh=true', 'write'],
    ['POST', '/idx/_doc/_bulk', 'write'],
    ['PUT', '/idx/_doc/1', 'write'],
    ['POST', '/idx/_doc/1', 'write'],
    ['DELETE', '/idx/_doc/1', 'write'],
    ['POST', '/idx/_doc', 'write'],
    ['POST', '/idx/mytype', 'write'],
    ['PUT', '/idx/_doc/1/_create', 'write'],
    ['POST', '/idx/_doc/1/_update', 'write'],
    ['GET', '/idx/_doc/1', 'get'],
    ['HEAD', '/idx/_doc/1', 'get'],
    ['GET', '/idx/_doc/1/_source', 'get'],
    ['GET', '/_mget', 'get'],
    ['POST', '/idx/_mget', 'get'],
    ['GET', '/idx/_doc/1/_termvectors', 'get'],
    ['POST', '/idx/_doc/_termvectors', 'get'],
    ['POST', '/_mtermvectors', 'get'],
    ['POST', '/idx/_doc/_mtermvectors', 'get'],
    ['GET', '/_search', 'search'],
    ['POST', '/idx/_search?q=x', 'search'],
    ['POST', '/idx/_doc/_search', 'search'],
    ['GET', '/idx/_count', 'search'],
    ['POST', '/_msearch', 'search'],
    ['POST', '/_search/scroll', 'search'],
    ['DELETE', '/_search/scroll', 'search'],
    ['POST', '/_xpack/sql', 'search'],
    ['POST', '/_sql?format=txt', 'search'],
    ['POST', '/_sql/translate', null],
    ['PUT', '/idx', null],
    ['DELETE', '/idx', null],
    ['PUT', '/idx/_mapping/_doc', null],
    ['PUT', '/idx/_doc/_mapping', null],
    ['GET', '/_cat/indices/idx', null],
    ['GET', '/_cluster/health/idx', null],
    ['POST', '/idx/_refresh', null],
    ['POST', '/_flush', null],
    ['GET', '/', null],
    ['PUT', '/idx/_settings', null],
  ];
  it.each(cases)('%s %s → %s', (method, path, want) => {
    expect(poolFor(method, path)).toBe(want);
  });
});

describe('CircuitBreakers', () => {
  const breakers = (total: number, request = total, inflight = total) =>
    new CircuitBreakers({ total, request, inflight, useRealMemory: false, realMemory: 0 });

  it('reserves in-flight bytes and trips the parent with ES 6.8 wording', () => {
    const b = breakers(10 * MB, 10 * MB, 100 * MB);
    const release = b.reserveInflight(6 * MB);
    expect(b.usedBytes('in_flight_requests')).toBe(6 * MB);
    let err: EsError | undefined;
    try {
      b.reserveInflight(5 * MB);
    } catch (e) {
      err = e as EsError;
    }
    expect(err?.type).toBe('circuit_breaking_exception');
    expect(err?.status).toBe(429);
    expect(err?.reason).toBe(
      '[parent] Data too large, data for [<http_request>] would be [11534336/11mb], which is larger than the limit of [10485760/10mb], usages [request=0/0b, fielddata=0/0b, in_flight_requests=11534336/11mb, accounting=0/0b]',
    );
    expect(err?.toBody().error).toMatchObject({ bytes_wanted: 11534336, bytes_limit: 10485760 });
    // The failed reservation is not kept; releasing frees the first one.
    expect(b.usedBytes('in_flight_requests')).toBe(6 * MB);
    release();
    release();
    expect(b.usedBytes('in_flight_requests')).toBe(0);
    expect(b.tripped.parent).toBe(1);
  });

  it('the in-flight child breaker trips first when its own limit is lower', () => {
    const b = breakers(100 * MB, 100 * MB, MB);
    expect(() => b.reserveInflight(1536 * 1024)).toThrow(
      '[in_flight_requests] Data too large, data for [<http_request>] would be [1572864/1.5mb], which is larger than the limit of [1048576/1mb]',
    );
  });

  it('checks aggregation buckets against the request breaker', () => {
    const b = breakers(100 * MB, MB);
    const check = b.bucketChecker();
    check(1024);
    const n = Math.ceil((MB + 1) / BUCKET_BYTES);
    expect(() => check(n)).toThrow(
      /^\[request\] Data too large, data for \[allocated_buckets\] would be \[\d+\/[\d.]+mb\], which is larger than the limit of \[1048576\/1mb\]$/,
    );
    expect(b.usedBytes('request')).toBe(0);
  });

  it('with real memory on, trips when the heap in use passes the limit', () => {
    const b = new CircuitBreakers({
      total: 100 * MB,
      request: 100 * MB,
      inflight: 100 * MB,
      useRealMemory: true,
      realMemory: 1,
    });
    expect(() => b.reserveInflight(10)).toThrow(
      /^\[parent\] Data too large, data for \[<http_request>\] would be \[\d+\/.*\], which is larger than the limit of \[1\/1b\], real usage: \[.*\], new bytes reserved: \[10\/10b\], usages \[/,
    );
  });
});

describe('real-memory check', () => {
  it('reuses a heap reading only far below the limit: near it every check reads the heap', () => {
    const heap = getHeapStatistics().used_heap_size;
    const far = new CircuitBreakers({
      total: 100 * MB,
      request: 100 * MB,
      inflight: 100 * MB,
      useRealMemory: true,
      realMemory: heap + 1024 * MB,
    });
    for (let i = 0; i < 100; i++) far.reserveInflight(10)();
    // a limit lowered under the heap in use trips on the next check, however recent the reading
    const near = new CircuitBreakers({ ...far.limits, realMemory: heap + 1024 * MB });
    near.reserveInflight(10)();
    near.limits.realMemory = 1;
    expect(() => near.reserveInflight(10)).toThrow(/^\[parent\] Data too large/);
    near.limits.realMemory = heap + 1024 * MB;
    near.reserveInflight(10)();
  });
});

describe('settings', () => {
  it('parses percentages of the heap and byte sizes', () => {
    expect(parseMemorySize('70%', 'x', 1000)).toBe(700);
    expect(parseMemorySize('512mb', 'x', 1000)).toBe(512 * MB);
    expect(() => parseMemorySize('170%', 'x', 1000)).toThrow(/percentage/);
  });

  it('ES default pool sizes and queues', () => {
    expect(defaultPools(8)).toEqual({
      write: { size: 8, queueSize: 200 },
      search: { size: 13, queueSize: 1000 },
      get: { size: 8, queueSize: 1000 },
    });
  });

  it('reads thread_pool and breaker settings', () => {
    const o = new OverloadControl(
      {
        'thread_pool.write.queue_size': '5',
        'thread_pool.search.size': '3',
        'indices.breaker.total.limit': '1gb',
        'indices.breaker.request.limit': '10%',
      },
      'n',
      4,
    );
    expect(o.pools.write.size).toBe(4);
    expect(o.pools.write.queueSize).toBe(5);
    expect(o.pools.search.size).toBe(3);
    expect(o.pools.search.queueSize).toBe(1000);
    expect(o.breakers.limits.total).toBe(1024 * MB);
    expect(o.breakers.limits.request).toBeGreaterThan(0);
    expect(() => new OverloadControl({ 'thread_pool.write.queue_size': 'x' }, 'n')).toThrow(
      /Failed to parse value \[x\] for setting \[thread_pool.write.queue_size\]/,
    );
  });
});
