/**
 * The `jvm` section of nodes stats (ES JvmStats) for the runtime this node runs on: V8's heap for
 * the heap, Node's off-heap buffers for the direct buffer pool, the process's OS threads, and the
 * garbage collections V8 reported (minor ones as `young`, the rest as `old`), each under the
 * field names ES uses so monitoring that reads them keeps working.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { formatByteSize, formatTimeValue } from '../common/units.js';

interface Collector {
  count: number;
  ms: number;
}
const collectors = { young: { count: 0, ms: 0 }, old: { count: 0, ms: 0 } };
let observing = false;

/** Counts collections from the first stats request on (observing costs nothing until then). */
function observeCollections(): void {
  if (observing) return;
  observing = true;
  try {
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as { detail?: { kind?: number } }).detail?.kind;
        const c: Collector = kind === perf.NODE_PERFORMANCE_GC_MINOR ? collectors.young : collectors.old; // prettier-ignore
        c.count++;
        c.ms += e.duration;
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    // never keeps the process alive
    (obs as unknown as { unref?: () => void }).unref?.();
  } catch {
    // no gc entries on this runtime: the counts stay 0
  }
}

/** The process's OS threads (`Threads:` of /proc/self/status), 1 when it cannot be read. */
function threadCount(): number {
  try {
    const m = /^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : 1;
  } catch {
    return 1;
  }
}

let peakThreads = 0;

const bytes = (out: Record<string, unknown>, name: string, n: number, human: boolean) => {
  if (human) out[name] = formatByteSize(n);
  out[`${name}_in_bytes`] = n;
};
const millis = (out: Record<string, unknown>, name: string, ms: number, human: boolean) => {
  if (human) out[name] = formatTimeValue(ms);
  out[`${name}_in_millis`] = ms;
};

/** ES JvmStats.toXContent's shape, from this runtime's figures. */
export function runtimeStats(startedAt: number, human: boolean): Record<string, unknown> {
  observeCollections();
  const heap = getHeapStatistics();
  const mem: Record<string, unknown> = {};
  bytes(mem, 'heap_used', heap.used_heap_size, human);
  mem.heap_used_percent = Math.round((heap.used_heap_size / heap.heap_size_limit) * 100);
  bytes(mem, 'heap_committed', heap.total_heap_size, human);
  bytes(mem, 'heap_max', heap.heap_size_limit, human);
  const usage = process.memoryUsage();
  bytes(mem, 'non_heap_used', usage.external, human);
  bytes(mem, 'non_heap_committed', usage.external, human);
  // V8's new space is the young generation, the old spaces the old one (no survivor space)
  const spaces = getHeapSpaceStatistics();
  const pool = (names: string[]) => {
    const of = spaces.filter((s) => names.includes(s.space_name));
    const used = of.reduce((a, s) => a + s.space_used_size, 0);
    const size = of.reduce((a, s) => a + s.space_size, 0);
    const out: Record<string, unknown> = {};
    bytes(out, 'used', used, human);
    bytes(out, 'max', size, human);
    bytes(out, 'peak_used', used, human);
    bytes(out, 'peak_max', size, human);
    return out;
  };
  mem.pools = {
    young: pool(['new_space']),
    survivor: pool([]),
    old: pool(['old_space', 'code_space', 'map_space', 'large_object_space', 'code_large_object_space', 'new_large_object_space']), // prettier-ignore
  };
  const threads = threadCount();
  peakThreads = Math.max(peakThreads, threads);
  const gc = (c: Collector) => {
    const out: Record<string, unknown> = { collection_count: c.count };
    millis(out, 'collection_time', Math.round(c.ms), human);
    return out;
  };
  const direct: Record<string, unknown> = { count: usage.arrayBuffers > 0 ? 1 : 0 };
  bytes(direct, 'used', usage.arrayBuffers, human);
  bytes(direct, 'total_capacity', usage.arrayBuffers, human);
  const mapped: Record<string, unknown> = { count: 0 };
  bytes(mapped, 'used', 0, human);
  bytes(mapped, 'total_capacity', 0, human);
  const out: Record<string, unknown> = { timestamp: Date.now() };
  millis(out, 'uptime', Date.now() - startedAt, human);
  out.mem = mem;
  out.threads = { count: threads, peak_count: peakThreads };
  out.gc = { collectors: { young: gc(collectors.young), old: gc(collectors.old) } };
  out.buffer_pools = { mapped, direct };
  out.classes = { current_loaded_count: 0, total_loaded_count: 0, total_unloaded_count: 0 };
  return out;
}

/**
 * ES DiscoveryStats: the queue of cluster states received and not yet applied, and the states
 * published. States here are applied as they are read from the coordinator, never queued.
 */
export function discoveryStats(): Record<string, unknown> {
  return {
    cluster_state_queue: { total: 0, pending: 0, committed: 0 },
    published_cluster_states: { full_states: 0, incompatible_diffs: 0, compatible_diffs: 0 },
  };
}
