/**
 * Runs `bin/quarry` as a child process (for crash and restart tests): waits for the start line,
 * reads the port from it, and can kill the process with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, nodeLaunchEnv } from '../../src/cli/node-launch.js';
import { fileURLToPath } from 'node:url';

export interface ProcessNode {
  url: string;
  child: ChildProcess;
  startMs: number;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

// import.meta.url rather than __dirname, so tsx scripts (npm run test:crash) can use it too.
const bin = fileURLToPath(new URL('../../bin/quarry', import.meta.url));

export interface ProcessNodeOptions {
  /** Runs the node under this uid and gid (as root; the data path must be theirs). */
  readonly uid?: number;
  /** Environment variables added to the node's (test hooks). */
  readonly env?: Readonly<Record<string, string>>;
}

export function startProcessNode(
  dataPath: string,
  extra: string[] = [],
  options: ProcessNodeOptions = {},
): Promise<ProcessNode> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const args = [...NODE_FLAGS, bin, '--port', '0', '--data', dataPath, ...extra];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: nodeLaunchEnv({ ...process.env, ...options.env }),
      ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
    });
    let out = '';
    let err = '';
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /publish_address \{([^}]+)\}/.exec(out);
      if (m) {
        child.stdout!.removeAllListeners('data');
        res({
          url: `http://${m[1]}`,
          child,
          startMs: performance.now() - t0,
          async kill9() {
            child.kill('SIGKILL');
            await exited;
          },
          async stop() {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => rej(new Error(`node exited with ${code}: ${err}${out}`)));
  });
}
