/**
 * `bin/quarry` as a child process with its whole output kept: start (resolves on the start line
 * or rejects when the process exits first), signals, exit code, and the log lines printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, nodeLaunchEnv } from '../../src/cli/node-launch.js';
import { resolve } from 'node:path';

export const QUARRY_BIN = resolve(__dirname, '../../bin/quarry');
export const USERS_BIN = resolve(__dirname, '../../bin/quarry-users');

export interface ChildNode {
  url: string;
  port: number;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  signal(sig: NodeJS.Signals): void;
}

export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | string>;
}

export function spawnQuarry(args: string[]): Spawned {
  const child = spawn(process.execPath, [...NODE_FLAGS, QUARRY_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: nodeLaunchEnv(),
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string>((r) =>
    child.once('exit', (code, sig) => r(code ?? sig ?? -1)),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts a node on an ephemeral port; rejects with its output if it exits instead. */
export async function startChildNode(dataPath: string, extra: string[] = []): Promise<ChildNode> {
  const s = spawnQuarry(['--port', '0', '--data', dataPath, ...extra]);
  const url = await new Promise<string>((res, rej) => {
    const onData = () => {
      const m = /publish_address \{([^}]+)\}/.exec(s.stdout());
      if (m) {
        s.child.stdout!.off('data', onData);
        res(`http://${m[1]}`);
      }
    };
    s.child.stdout!.on('data', onData);
    void s.exited.then((code) =>
      rej(new Error(`node exited with ${code}: ${s.stderr()}${s.stdout()}`)),
    );
  });
  return {
    ...s,
    url,
    port: Number(new URL(url).port),
    signal: (sig) => void s.child.kill(sig),
  };
}
