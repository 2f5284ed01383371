/**
 * Where a process's resident memory is, from Linux's /proc/<pid>/smaps: resident MB per mapping
 * kind (each file by name; anonymous mappings by size class, which tells glibc's 64 MB malloc
 * arenas and the large allocations it maps on their own from V8's pages), with the anonymous,
 * clean file-backed and dirty parts. `npx tsx test/bench/smaps-breakdown.ts <pid>` prints one.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface MappingKind {
  kind: string;
  mappings: number;
  sizeMb: number;
  rssMb: number;
  anonMb: number;
  privateDirtyMb: number;
  sharedDirtyMb: number;
  cleanMb: number;
  /** File pages mapped whole 2 MB folios at a time (a read fault on a large folio). */
  pmdMb: number;
}

/** The kind of an anonymous mapping by its size (glibc arenas reserve 64 MB each). */
function anonKind(bytes: number): string {
  const mb = bytes / 2 ** 20;
  if (mb >= 63 && mb <= 64) return '[anon 64MB: malloc arena]';
  if (mb < 1) return '[anon <1MB]';
  if (mb < 64) return '[anon 1-64MB]';
  return '[anon >64MB]';
}

export function smapsBreakdown(pid: number | 'self'): MappingKind[] {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const kinds = new Map<string, MappingKind>();
  let cur: MappingKind | null = null;
  const kb = (line: string) => Number(/(\d+) kB/.exec(line)?.[1] ?? 0) / 1024;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2]!, 16) - parseInt(head[1]!, 16);
      const path = head[3]!.trim();
      const kind = path === '' ? anonKind(size) : path.startsWith('[') ? path : basename(path);
      cur = kinds.get(kind) ?? null;
      if (!cur) {
        cur = { kind, mappings: 0, sizeMb: 0, rssMb: 0, anonMb: 0, privateDirtyMb: 0, sharedDirtyMb: 0, cleanMb: 0, pmdMb: 0 }; // prettier-ignore
        kinds.set(kind, cur);
      }
      cur.mappings++;
      cur.sizeMb += size / 2 ** 20;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('Rss:')) cur.rssMb += kb(line);
    else if (line.startsWith('Anonymous:')) cur.anonMb += kb(line);
    else if (line.startsWith('Private_Dirty:')) cur.privateDirtyMb += kb(line);
    else if (line.startsWith('Shared_Dirty:')) cur.sharedDirtyMb += kb(line);
    else if (line.startsWith('FilePmdMapped:')) cur.pmdMb += kb(line);
    else if (line.startsWith('Shared_Clean:') || line.startsWith('Private_Clean:'))
      cur.cleanMb += kb(line);
  }
  return [...kinds.values()].sort((a, b) => b.rssMb - a.rssMb);
}

/** The kinds over `minMb` resident, one line each, and the rest summed. */
export function formatBreakdown(kinds: MappingKind[], minMb = 8): string {
  const f = (n: number) => n.toFixed(0);
  const big = kinds.filter((k) => k.rssMb >= minMb);
  const rest = kinds.filter((k) => k.rssMb < minMb).reduce((s, k) => s + k.rssMb, 0);
  return (
    big
      .map(
        (k) =>
          `  ${k.kind} ×${k.mappings}: rss ${f(k.rssMb)} (anon ${f(k.anonMb)}, dirty ${f(k.privateDirtyMb + k.sharedDirtyMb)}, clean ${f(k.cleanMb)}${k.pmdMb ? `, in 2 MB mappings ${f(k.pmdMb)}` : ''}) of ${f(k.sizeMb)} MB mapped`,
      ) // prettier-ignore
      .join('\n') + `\n  other: rss ${f(rest)} MB`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pid = process.argv[2];
  if (!pid) throw new Error('usage: smaps-breakdown.ts <pid>');
  console.log(formatBreakdown(smapsBreakdown(Number(pid))));
}
