/**
 * What a process has used, read from Linux's /proc: CPU seconds (utime + stime of every thread)
 * and peak resident memory (VmHWM). NaN when the process is gone or /proc is missing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticks: number | null = null;
/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux). */
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU seconds of a process, or of one of its threads (`tid`: the main thread's is the pid). */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8'); // prettier-ignore
    // the command name (field 2) may hold spaces: count fields after its closing parenthesis
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state): utime is field 14, stime field 15
    return (Number(rest[11]) + Number(rest[12])) / clockTicks();
  } catch {
    return NaN;
  }
}

function statusKb(pid: number, key: string): number {
  try {
    const m = new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

export const peakRssMb = (pid: number): number => statusKb(pid, 'VmHWM') / 1024;
export const rssMb = (pid: number): number => statusKb(pid, 'VmRSS') / 1024;
