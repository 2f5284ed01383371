/**
 * The bench's HTTP mode runs Quarry as users do: `bin/quarry` in its own process on a loopback
 * port (picked by the node: --port 0, read from its start log line), and a lean keep-alive
 * `node:http` client, so the figures hold the server's HTTP cost and not a fetch client's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, nodeLaunchEnv } from '../../src/cli/node-launch.js';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

export interface ServerProcess {
  port: number;
  pid: number;
  /** Spawn to the "started" log line and a first answered request, in ms. */
  readyMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

export async function startServerProcess(
  root: string,
  dataPath: string,
  /** Node options before the script (`--cpu-prof`), and extra `bin/quarry` arguments. */
  extra: { nodeArgs?: readonly string[]; args?: readonly string[] } = {},
): Promise<ServerProcess> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      ...(extra.nodeArgs ?? []),
      join(root, 'bin/quarry'),
      '--port',
      '0',
      '--data',
      dataPath,
      ...(extra.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: nodeLaunchEnv() },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let log = '';
    const onData = (d: Buffer) => {
      log += d.toString();
      const m = /publish_address \{[^}]*:(\d+)\}/.exec(log);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the log
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.once('exit', (code) => reject(new Error(`quarry exited (${code}): ${log.slice(-2000)}`)));
  });
  const call = httpClient(port);
  await call('GET', '/');
  const readyMs = performance.now() - t0;
  const pid = child.pid!;
  return {
    port,
    pid,
    readyMs,
    rssMb: () => {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export type HttpCall = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: string }>;

/** One keep-alive connection; the body is returned as text (parsed by the caller, untimed). */
export function httpClient(port: number, host = '127.0.0.1'): HttpCall {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload =
        body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const headers: Record<string, string | number> = {};
      if (payload !== undefined) {
        headers['content-type'] =
          typeof body === 'string' ? 'application/x-ndjson' : 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = request({ host, port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}
