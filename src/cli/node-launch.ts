/**
 * How a Quarry node's `node` process starts, as Elasticsearch ships its jvm.options: settings V8
 * and glibc read only at process start. A `_bulk` of 5,000 documents allocates more than V8's
 * default young generation, so its live per-item objects were copied and promoted on every
 * scavenge (a larger semi-space cut the main thread's CPU per ingested document by ~8%); fewer
 * malloc arenas keep the worker threads' native memory from spreading over one arena each
 * (~200 MB less RSS after 2M documents). `npm start`, `bin/quarry`'s shebang, the cluster
 * launcher, the benches and the test harnesses start nodes this way; a test checks the first two
 * against these values.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

export const GLIBC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1048576';

/** The environment for a node process: `env` with Quarry's glibc tunables. */
export function nodeLaunchEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, GLIBC_TUNABLES };
}
