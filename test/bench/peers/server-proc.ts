/**
 * Starting and stopping a peer server process for the bench: spawned detached on loopback, its
 * output kept for the error message, ready when a probe succeeds, killed with its process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface Proc {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

export function startProc(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Proc {
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ?? process.env,
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null || child.signalCode !== null) return res();
        const t = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(t);
          res();
        });
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          clearTimeout(t);
          res();
        }
      }),
  };
}

/** Retries `probe` until it succeeds or `ms` pass; throws with the server's output. */
export async function waitReady(p: Proc, probe: () => Promise<unknown>, ms = 30_000) {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    if (p.child.exitCode !== null) throw new Error(`server exited: ${p.output()}`);
    try {
      await probe();
      return;
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server not ready: ${String(last)}\n${p.output()}`);
}
