/**
 * Overload protection, modelled on Elasticsearch's thread pools and circuit breakers. Node runs
 * one thread, but requests overlap while they wait on LMDB commits, so each pool bounds how many
 * requests of its kind run at once (`size`) and how many may wait (`queue_size`); beyond that a
 * request is rejected with ES's 429 es_rejected_execution_exception. The breakers account the
 * bytes of requests in flight and the buckets of aggregations being built, and trip with ES's
 * circuit_breaking_exception before memory runs out. ES: EsThreadPoolExecutor, EsAbortPolicy,
 * HierarchyCircuitBreakerService, ChildMemoryCircuitBreaker, MultiBucketConsumer.
 */
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { EsError, illegalArgument } from '../common/errors.js';
import { formatByteSize, formatTimeValueParts, parseByteSize } from '../common/units.js';

export type PoolName = 'write' | 'search' | 'get';

/** ES ThreadPool defaults: write = processors (queue 200), search = 3p/2+1 (queue 1000),
 *  get = processors (queue 1000). */
export function defaultPools(processors: number): Record<PoolName, PoolSettings> {
  return {
    write: { size: processors, queueSize: 200 },
    search: { size: Math.floor((processors * 3) / 2) + 1, queueSize: 1000 },
    get: { size: processors, queueSize: 1000 },
  };
}

export interface PoolSettings {
  size: number;
  /** -1: unbounded (ES accepts -1). */
  queueSize: number;
}

type Release = () => void;

/** One pool: `size` requests run at once, `queueSize` wait in FIFO order, the rest are rejected. */
export class RequestPool {
  active = 0;
  completed = 0;
  rejected = 0;
  largest = 0;
  private readonly waiting: Array<{ admit: () => void }> = [];
  /** Exponentially weighted mean service time in ns (ES EWMA, alpha 0.3) for the message. */
  private ewmaNanos = 0;
  private readonly hash = Math.floor(Math.random() * 0x7fffffff).toString(16);

  constructor(
    readonly name: PoolName,
    private readonly nodeName: string,
    readonly size: number,
    readonly queueSize: number,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Admits one request. Resolves with its release function when it may run; rejects with
   * es_rejected_execution_exception when the queue is full. `onCancel` receives a function that
   * gives a queued request's place back (its client went away).
   */
  acquire(onCancel?: (cancel: () => void) => void): Promise<Release> {
    const now = this.tryAcquire();
    return now ? Promise.resolve(now) : this.enqueue(onCancel);
  }

  /** A free slot now, or null. */
  tryAcquire(): Release | null {
    if (this.active >= this.size) return null;
    this.active++;
    if (this.active > this.largest) this.largest = this.active;
    return this.releaser();
  }

  /** Waits in the queue for a slot (see acquire). */
  enqueue(onCancel?: (cancel: () => void) => void): Promise<Release> {
    if (this.queueSize >= 0 && this.waiting.length >= this.queueSize) {
      this.rejected++;
      return Promise.reject(this.rejection());
    }
    return new Promise<Release>((resolve, reject) => {
      const entry = { admit: () => resolve(this.releaser()) };
      this.waiting.push(entry);
      onCancel?.(() => {
        const i = this.waiting.indexOf(entry);
        if (i < 0) return; // already admitted: the caller releases
        this.waiting.splice(i, 1);
        reject(new Error('cancelled while queued'));
      });
    });
  }

  private releaser(): Release {
    const t0 = process.hrtime.bigint();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const took = Number(process.hrtime.bigint() - t0);
      this.ewmaNanos = this.ewmaNanos === 0 ? took : 0.3 * took + 0.7 * this.ewmaNanos;
      this.completed++;
      this.handOff();
    };
  }

  /** Gives the freed slot to the next waiter, or frees it. */
  private handOff(): void {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.active--;
  }

  /** ES EsAbortPolicy: "rejected execution of <task> on <executor>". */
  rejection(): EsError {
    const details =
      this.name === 'search'
        ? `QueueResizingEsThreadPoolExecutor[name = ${this.nodeName}/${this.name}, queue capacity = ${this.queueSize}, ` +
          `min queue capacity = ${this.queueSize}, max queue capacity = ${this.queueSize}, frame size = 2000, ` +
          `targeted response rate = 1s, task execution EWMA = ${formatTimeValueParts({ duration: Math.round(this.ewmaNanos), unit: 'nanos' })}, ` +
          `adjustment amount = 50, org.elasticsearch.common.util.concurrent.QueueResizingEsThreadPoolExecutor@${this.hash}`
        : `EsThreadPoolExecutor[name = ${this.nodeName}/${this.name}, queue capacity = ${this.queueSize}, ` +
          `org.elasticsearch.common.util.concurrent.EsThreadPoolExecutor@${this.hash}`;
    return new EsError(
      'es_rejected_execution_exception',
      `rejected execution of org.elasticsearch.common.util.concurrent.TimedRunnable@${randomHash()} on ${details}` +
        `[Running, pool size = ${this.size}, active threads = ${this.active}, queued tasks = ${this.waiting.length}, completed tasks = ${this.completed}]]`,
      429,
    );
  }
}

const randomHash = () => Math.floor(Math.random() * 0x7fffffff).toString(16);

/**
 * Which pool a request runs on, from its method and path (ES: the transport action's executor).
 * Document writes and `_bulk` → write; realtime gets → get; searches, counts, scrolls and SQL →
 * search; everything else (cluster and index administration) is not pooled.
 */
export function poolFor(method: string, rawPath: string): PoolName | null {
  const segs = pathSegments(rawPath);
  const n = segs.length;
  if (n === 0) return null;
  const last = segs[n - 1]!;
  if (last === '_bulk') return 'write';
  if (SEARCH_ENDPOINTS.has(last)) return 'search';
  if (segs[0] === '_sql' || (segs[0] === '_xpack' && segs[1] === 'sql'))
    return last === 'translate' ? null : 'search';
  if (n >= 2 && segs[n - 2] === '_search' && (last === 'scroll' || last === 'template'))
    return 'search';
  if (n >= 2 && segs[n - 2] === '_search' && segs[n - 3] === '_search') return 'search';
  if (segs[0] === '_search' && segs[1] === 'scroll') return 'search';
  // ES runs multi gets and (multi) term vectors on the get pool
  if (last === '_mget' || last === '_mtermvectors') return 'get';
  const first = segs[0]!;
  if (first.startsWith('_')) return null;
  const docType = (t: string) => t === '_doc' || !t.startsWith('_');
  if (n === 4 && docType(segs[1]!)) {
    if (last === '_update' || last === '_create') return 'write';
    if (last === '_source' || last === '_explain' || last === '_termvectors') return 'get';
    return null;
  }
  if (n === 3 && docType(segs[1]!) && last === '_termvectors') return 'get';
  if (n === 3 && docType(segs[1]!) && !last.startsWith('_')) {
    if (method === 'GET' || method === 'HEAD') return 'get';
    if (method === 'PUT' || method === 'POST' || method === 'DELETE') return 'write';
    return null;
  }
  if (n === 2 && method === 'POST' && docType(segs[1]!) && segs[1] !== '_doc') return 'write';
  if (n === 2 && method === 'POST' && segs[1] === '_doc') return 'write';
  return null;
}

/** The non-empty `/`-separated segments of a URL's path (its query dropped), in one pass. */
function pathSegments(url: string): string[] {
  const segs: string[] = [];
  const q = url.indexOf('?');
  const end = q >= 0 ? q : url.length;
  let start = 0;
  for (let i = 0; i <= end; i++) {
    if (i === end || url.charCodeAt(i) === 47 /* / */) {
      if (i > start) segs.push(url.slice(start, i));
      start = i + 1;
    }
  }
  return segs;
}

const SEARCH_ENDPOINTS = new Set([
  '_search',
  '_msearch',
  '_count',
  '_validate',
  '_field_caps',
  '_rank_eval',
  '_search_shards',
]);

/**
 * Admission of one HTTP request before its body is read: reserves its content length in the
 * in-flight breaker, then takes a slot in its pool, waiting in the queue if need be. Calls
 * `admitted` with the pool slot (to release once the handler's synchronous work is done) or
 * `rejected` with the 429/503 error. Everything is given back when `res` closes.
 */
export function admitRequest(
  ctl: OverloadControl,
  method: string,
  url: string,
  contentLength: string | undefined,
  maxContentLength: number,
  res: { on(event: 'close', fn: () => void): unknown },
  cb: { admitted(slot: Release | null): void; rejected(e: EsError): void },
): void {
  const len = contentLength ? Number(contentLength) : 0;
  const name = poolFor(method, url);
  if (!name && !(len > 0)) return cb.admitted(null);
  let inflight: Release | null = null;
  if (len > 0 && len <= maxContentLength) {
    try {
      inflight = ctl.breakers.reserveInflight(len);
    } catch (e) {
      return cb.rejected(e as EsError);
    }
  }
  let slot: Release | null = null;
  let cancel: (() => void) | null = null;
  let closed = false;
  // A response closes once (finished or aborted): `on` spares the once-wrapper per request.
  res.on('close', () => {
    closed = true;
    inflight?.();
    slot?.();
    cancel?.();
  });
  if (!name) return cb.admitted(null);
  const pool = ctl.pools[name];
  slot = pool.tryAcquire();
  // Even with a free slot the work starts in the check phase, after this poll phase has read
  // every request that arrived: like ES's network threads, which read and enqueue requests
  // while the pool works, so a burst fills the queue (and is rejected past it) instead of
  // waiting unseen in socket buffers.
  if (slot) return void setImmediate(() => (closed ? undefined : cb.admitted(slot)));
  pool
    .enqueue((c) => (cancel = c))
    .then(
      (r) => {
        if (closed) return r();
        slot = r;
        cb.admitted(r);
      },
      (e: unknown) => {
        if (!closed) cb.rejected(e as EsError);
      },
    );
}

// ---- circuit breakers --------------------------------------------------------------------------

export interface BreakerLimits {
  /** indices.breaker.total.limit (70% of the heap). */
  total: number;
  /** indices.breaker.request.limit (60%). */
  request: number;
  /** network.breaker.inflight_requests.limit (100%). */
  inflight: number;
  /** Also trip the parent when the heap in use passes `realMemory` (ES 7's use_real_memory). */
  useRealMemory: boolean;
  /** The real-memory parent limit (ES 7: 95% of the heap). */
  realMemory: number;
}

/**
 * Estimated heap per aggregation bucket: a bucket object, its key, sub-aggregation list and its
 * share of the rendered response (measured on histogram and terms buckets; ES counts BigArrays).
 */
export const BUCKET_BYTES = 512;

type BreakerName = 'request' | 'fielddata' | 'in_flight_requests' | 'accounting';

/** How long a heap reading serves the real-memory checks far from the limit. */
const HEAP_READ_INTERVAL_MS = 1;
/** How far below the real-memory limit a reused reading must leave the heap (more than a
 *  millisecond's allocation can add). */
const HEAP_SLACK = 64 * 1024 * 1024;

export class CircuitBreakers {
  private readonly used: Record<BreakerName, number> = {
    request: 0,
    fielddata: 0,
    in_flight_requests: 0,
    accounting: 0,
  };
  readonly tripped: Record<BreakerName | 'parent', number> = {
    request: 0,
    fielddata: 0,
    in_flight_requests: 0,
    accounting: 0,
    parent: 0,
  };

  constructor(readonly limits: BreakerLimits) {}

  usedBytes(name: BreakerName): number {
    return this.used[name];
  }

  /** ES RestController: reserves a request's content length, or trips. Returns the release. */
  reserveInflight(bytes: number, label = '<http_request>'): Release {
    this.add('in_flight_requests', bytes, label, this.limits.inflight);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.used.in_flight_requests -= bytes;
    };
  }

  /**
   * A per-request bucket check for aggregations (ES MultiBucketConsumer + request breaker): called
   * with the running bucket count; estimates its bytes and trips before the heap runs out.
   */
  bucketChecker(): (buckets: number) => void {
    return (buckets) => {
      const bytes = buckets * BUCKET_BYTES;
      const before = this.used.request;
      this.used.request = before + bytes;
      try {
        this.check('request', bytes, this.limits.request, 'allocated_buckets', before + bytes);
      } finally {
        this.used.request = before;
      }
    };
  }

  private add(name: BreakerName, bytes: number, label: string, limit: number): void {
    const next = this.used[name] + bytes;
    this.used[name] = next;
    try {
      this.check(name, bytes, limit, label, next);
    } catch (e) {
      this.used[name] -= bytes;
      throw e;
    }
  }

  private check(name: BreakerName, bytes: number, limit: number, label: string, next: number) {
    if (bytes > 0 && limit >= 0 && next > limit) {
      this.tripped[name]++;
      throw breakingError(name, label, next, limit);
    }
    this.checkParent(label, bytes);
  }

  /**
   * ES 6.8 HierarchyCircuitBreakerService.checkParentLimit: the sum of the child breakers against
   * the total limit; with real memory on (ES 7), also the heap actually in use.
   */
  private checkParent(label: string, bytes: number): void {
    // Summed field by field: this runs for every request with a body.
    const u = this.used;
    const total = u.request + u.fielddata + u.in_flight_requests + u.accounting;
    if (total > this.limits.total) {
      this.tripped.parent++;
      throw new EsError(
        'circuit_breaking_exception',
        `[parent] Data too large, data for [${label}] would be [${sized(total)}], which is larger than the limit of [${sized(this.limits.total)}], usages [${this.usages()}]`,
        CIRCUIT_BREAKING_STATUS,
        { meta: { bytes_wanted: total, bytes_limit: this.limits.total } },
      );
    }
    if (!this.limits.useRealMemory) return;
    const real = this.heapInUse(bytes) + bytes;
    if (real <= this.limits.realMemory) return;
    this.tripped.parent++;
    throw new EsError(
      'circuit_breaking_exception',
      `[parent] Data too large, data for [${label}] would be [${sized(real)}], which is larger than the limit of [${sized(this.limits.realMemory)}], real usage: [${sized(real - bytes)}], new bytes reserved: [${sized(bytes)}], usages [${this.usages()}]`,
      CIRCUIT_BREAKING_STATUS,
      { meta: { bytes_wanted: real, bytes_limit: this.limits.realMemory } },
    );
  }

  /** used_heap_size as last read, and when (performance.now()). */
  private heapUsed = 0;
  private heapReadAt = Number.NEGATIVE_INFINITY;

  /**
   * The heap in use for a real-memory check of `bytes`. Reading V8's heap statistics costs more
   * than the rest of a request's breaker checks (an object of 14 fields per call, and every
   * request with a body checks): the last reading is reused for a millisecond while it leaves
   * more than HEAP_SLACK below the limit, and read afresh otherwise, so a check near the limit
   * always sees the heap as it is.
   */
  private heapInUse(bytes: number): number {
    const now = performance.now();
    if (
      now - this.heapReadAt >= HEAP_READ_INTERVAL_MS ||
      this.heapUsed + bytes + HEAP_SLACK > this.limits.realMemory
    ) {
      this.heapUsed = getHeapStatistics().used_heap_size;
      this.heapReadAt = now;
    }
    return this.heapUsed;
  }

  private usages(): string {
    return (Object.keys(this.used) as BreakerName[])
      .map((k) => `${k}=${this.used[k]}/${formatByteSize(this.used[k])}`)
      .join(', ');
  }
}

const sized = (n: number) => `${n}/${formatByteSize(n)}`;

/**
 * 429, as Elasticsearch 7 answers for a transient trip: the request may succeed once memory is
 * free, and clients back off on 429. (ES 6.8's CircuitBreakingException.status() is 503; our
 * reliability issue asks for 429, the status every overload answer of this node has.)
 */
export const CIRCUIT_BREAKING_STATUS = 429;

function breakingError(name: string, label: string, wanted: number, limit: number): EsError {
  return new EsError(
    'circuit_breaking_exception',
    `[${name}] Data too large, data for [${label}] would be [${wanted}/${formatByteSize(wanted)}], which is larger than the limit of [${limit}/${formatByteSize(limit)}]`,
    CIRCUIT_BREAKING_STATUS,
    { meta: { bytes_wanted: wanted, bytes_limit: limit } },
  );
}

// ---- settings -----------------------------------------------------------------------------------

/** ES Setting.memorySizeSetting: a percentage of the heap or a byte size. */
export function parseMemorySize(value: string, setting: string, heap: number): number {
  const v = value.trim();
  if (v.endsWith('%')) {
    const pct = Number(v.slice(0, -1));
    if (!Number.isFinite(pct) || pct < 0 || pct > 100) {
      throw illegalArgument(
        `failed to parse [${setting}] with value [${value}] as a percentage or byte size`,
      );
    }
    return Math.floor((heap * pct) / 100);
  }
  return parseByteSize(v, setting);
}

/** An integer node setting with ES's parse error (`-E key=value`). */
export function intSetting(
  raw: Record<string, string>,
  key: string,
  dflt: number,
  min: number,
): number {
  const v = raw[key];
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw illegalArgument(`Failed to parse value [${v}] for setting [${key}] must be >= ${min}`);
  }
  return n;
}

/** The pools and breakers of one node, from its settings (`-E thread_pool.write.queue_size=…`). */
export class OverloadControl {
  readonly pools: Record<PoolName, RequestPool>;
  readonly breakers: CircuitBreakers;

  constructor(raw: Record<string, string>, nodeName: string, processors = availableParallelism()) {
    const p = intSetting(raw, 'processors', processors, 1);
    const dflt = defaultPools(p);
    const pool = (name: PoolName) =>
      new RequestPool(
        name,
        nodeName,
        intSetting(raw, `thread_pool.${name}.size`, dflt[name].size, 1),
        intSetting(raw, `thread_pool.${name}.queue_size`, dflt[name].queueSize, -1),
      );
    this.pools = { write: pool('write'), search: pool('search'), get: pool('get') };
    const heap = getHeapStatistics().heap_size_limit;
    const mem = (key: string, dfltValue: string) =>
      parseMemorySize(raw[key] ?? dfltValue, key, heap);
    this.breakers = new CircuitBreakers({
      total: mem('indices.breaker.total.limit', '70%'),
      request: mem('indices.breaker.request.limit', '60%'),
      inflight: mem('network.breaker.inflight_requests.limit', '100%'),
      useRealMemory: (raw['indices.breaker.total.use_real_memory'] ?? 'true') !== 'false',
      realMemory: Math.floor(heap * 0.95),
    });
  }
}
