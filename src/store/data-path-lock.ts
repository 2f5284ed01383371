/**
 * One node per data path (ES: NodeEnvironment's `node.lock`). The lock is a file holding the
 * owner's pid, host and process start time, created atomically with its content (write a
 * temporary file, hard-link it into place: the link fails if a lock exists). A lock whose
 * process is gone (or whose pid now belongs to a younger process) is stale and taken over.
 */
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'node.lock';

interface LockOwner {
  pid: number;
  host: string;
  /** Kernel start time of the process (Linux, clock ticks since boot), to detect pid reuse. */
  procStart: string | null;
  bootId: string | null;
  nonce: string;
}

/** Paths this process holds, so a second in-process open is refused, not taken for stale. */
const heldHere = new Set<string>();

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
function procStart(pid: number): string | null {
  const stat = readOr(`/proc/${pid}/stat`);
  if (!stat) return null;
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return rest[19] ?? null;
}

const bootId = () => readOr('/proc/sys/kernel/random/boot_id');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the recorded owner still runs (a lock from another host is assumed live). */
function ownerRuns(o: LockOwner, path: string): boolean {
  if (o.host !== hostname()) return true;
  if (o.pid === process.pid) return heldHere.has(path);
  const boot = bootId();
  if (o.bootId && boot && o.bootId !== boot) return false;
  if (!isAlive(o.pid)) return false;
  const start = procStart(o.pid);
  return !(o.procStart && start && start !== o.procStart);
}

function parseOwner(text: string | null): LockOwner | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as LockOwner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : null;
  } catch {
    return null;
  }
}

export class DataPathLock {
  private released = false;

  private constructor(
    readonly path: string,
    private readonly content: string,
  ) {}

  /** Takes the lock on `dataPath` or throws an Error saying who holds it. */
  static acquire(dataPath: string): DataPathLock {
    mkdirSync(dataPath, { recursive: true });
    const path = join(dataPath, LOCK_FILE);
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      procStart: procStart(process.pid),
      bootId: bootId(),
      nonce: Math.random().toString(36).slice(2),
    };
    const content = JSON.stringify(owner) + '\n';
    const tmp = `${path}.${process.pid}.${owner.nonce}`;
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          linkSync(tmp, path);
          heldHere.add(path);
          return new DataPathLock(path, content);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw e;
        }
        const text = readOr(path);
        const holder = parseOwner(text);
        if (holder && ownerRuns(holder, path)) {
          throw new Error(
            `failed to obtain node lock on data path [${dataPath}]: it is in use by another node ` +
              `(pid [${holder.pid}] on host [${holder.host}], lock file [${path}]); stop that node ` +
              `or start this one with another path.data`,
          );
        }
        // Stale (or unreadable, which a complete-on-create lock never is): remove it if it is
        // still the one we looked at, then retry the link.
        if (readOr(path) === text) {
          try {
            unlinkSync(path);
          } catch {
            // another starter removed it first
          }
        }
      }
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.path);
    try {
      if (readFileSync(this.path, 'utf8') === this.content) unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}
