/**
 * Which pages of an LMDB data file a process holds resident through its memory map, by LMDB page
 * kind: `npx tsx test/bench/mdb-residency.ts <pid> <path/quarry.mdb>`. The present bits come from
 * /proc/<pid>/pagemap over the file's mapping; the kinds from the file's own page headers (branch,
 * leaf, overflow runs: a value larger than a page, here the segment blobs, split by run size).
 */
import { closeSync, openSync, readSync, readFileSync, realpathSync, statSync } from 'node:fs';

const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_META = 0x08;
const HEADER = 24;

export interface Residency {
  pageSize: number;
  filePages: number;
  /** MB resident per page kind, and MB of that kind in the file. */
  kinds: Record<string, { residentMb: number; fileMb: number }>;
}

/** The present bit of every page of the mapping of `file` in `pid` (file page index → present). */
function residentPages(pid: number, file: string, pages: number, osPage: number): Uint8Array {
  const real = realpathSync(file);
  const line = readFileSync(`/proc/${pid}/maps`, 'utf8')
    .split('\n')
    .find((l) => l.endsWith(real));
  const out = new Uint8Array(pages);
  if (!line) return out;
  const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) /.exec(line)!;
  const start = parseInt(m[1]!, 16);
  const offset = parseInt(m[3]!, 16);
  if (offset !== 0) throw new Error('the mapping does not start at the file start');
  const fd = openSync(`/proc/${pid}/pagemap`, 'r');
  try {
    const chunk = 1 << 16;
    const buf = Buffer.alloc(chunk * 8);
    for (let p = 0; p < pages; p += chunk) {
      const n = Math.min(chunk, pages - p);
      const got = readSync(fd, buf, 0, n * 8, ((start / osPage + p) * 8) as number);
      for (let i = 0; i < got / 8; i++) {
        // bit 63: present
        if (buf.readUInt32LE(i * 8 + 4) & 0x80000000) out[p + i] = 1;
      }
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

export function mdbResidency(pid: number, file: string): Residency {
  const osPage = 4096;
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(HEADER);
  const kinds: Residency['kinds'] = {};
  const add = (k: string, resident: number, total: number) => {
    const e = (kinds[k] ??= { residentMb: 0, fileMb: 0 });
    e.residentMb += resident / 2 ** 20;
    e.fileMb += total / 2 ** 20;
  };
  try {
    // lmdb-js's LMDB has a 24-byte page header (pgno, txnid, pad, flags, then lower/upper or an
    // overflow run's page count). Meta page 0: the page size is in its MDB_meta (magic, version,
    // address, mapsize, then the free db's MDB_db whose first field, md_pad, is the page size).
    const meta = Buffer.alloc(64);
    readSync(fd, meta, 0, 64, 0);
    if (meta.readUInt32LE(HEADER) !== 0xbeefc0de) throw new Error(`${file}: no LMDB meta page`);
    const pageSize = meta.readUInt32LE(HEADER + 4 + 4 + 8 + 8);
    if (pageSize < 512 || pageSize > 65536 || pageSize & (pageSize - 1))
      throw new Error(`${file}: page size ${pageSize}?`);
    const pages = Math.floor(size / pageSize);
    const present = residentPages(pid, file, Math.ceil(size / osPage), osPage);
    const per = pageSize / osPage;
    const residentIn = (pg: number, n: number) => {
      let r = 0;
      for (let i = pg * per; i < (pg + n) * per; i++) r += present[i] ?? 0;
      return r * osPage;
    };
    for (let pg = 0; pg < pages;) {
      readSync(fd, head, 0, HEADER, pg * pageSize);
      const flags = head.readUInt16LE(18);
      if (flags & P_OVERFLOW) {
        const n = Math.max(1, head.readUInt32LE(20));
        if (pg + n > pages) {
          // a stale header (a freed page's old contents): not a run of this file
          add('other (free/unwritten)', residentIn(pg, 1), pageSize);
          pg++;
          continue;
        }
        const bytes = n * pageSize;
        const kind = bytes >= 0x1000000 ? 'overflow ≥16MB (blob read in place)' : bytes >= 1 << 20 ? 'overflow 1-16MB' : 'overflow <1MB'; // prettier-ignore
        add(kind, residentIn(pg, n), bytes);
        pg += n;
        continue;
      }
      const kind = flags & P_META ? 'meta' : flags & P_BRANCH ? 'branch' : flags & P_LEAF ? 'leaf' : 'other (free/unwritten)'; // prettier-ignore
      add(kind, residentIn(pg, 1), pageSize);
      pg++;
    }
    return { pageSize, filePages: pages, kinds };
  } finally {
    closeSync(fd);
  }
}

export function formatResidency(r: Residency): string {
  return Object.entries(r.kinds)
    .sort((a, b) => b[1].residentMb - a[1].residentMb)
    .map(([k, v]) => `    ${k}: resident ${v.residentMb.toFixed(0)} of ${v.fileMb.toFixed(0)} MB`)
    .join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [pid, file] = process.argv.slice(2);
  if (!pid || !file) throw new Error('usage: mdb-residency.ts <pid> <quarry.mdb>');
  const r = mdbResidency(Number(pid), file);
  console.log(`page size ${r.pageSize}, ${r.filePages} pages`);
  console.log(formatResidency(r));
}
