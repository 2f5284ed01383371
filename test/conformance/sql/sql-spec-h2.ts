/**
 * The H2 oracle process: H2Oracle.java compiled at test time into a temp dir (javac), run on the
 * Debian `libh2-java` jar with the spec directory on the classpath so the setup_*.sql scripts
 * and their `CSVREAD('classpath:/…')` files load as upstream loads them; in-memory database,
 * JVM zone UTC (ES LocalH2 sets UTC as the default zone). One statement per line in, one JSON
 * result per line out.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../helpers/golden.js';

export const H2_JAR = process.env.H2_JAR ?? '/usr/share/java/h2.jar';
const SOURCE = resolve(repoRoot, 'test/conformance/sql/h2/H2Oracle.java');

export interface H2Column {
  readonly name: string;
  readonly type: string;
  readonly jdbc: number;
}

export type H2Result =
  { readonly columns: H2Column[]; readonly rows: unknown[][] } | { readonly error: string };

export interface H2Oracle {
  query(sql: string): Promise<H2Result>;
  close(): void;
}

/** Why the oracle cannot run here (no JDK, no H2 jar), or null when it can. */
export function h2Unavailable(): string | null {
  if (!existsSync(H2_JAR)) return `no H2 jar at ${H2_JAR} (Debian package libh2-java)`;
  for (const tool of ['java', 'javac']) {
    const r = spawnSync(tool, ['-version'], { stdio: 'ignore' });
    if (r.error || r.status !== 0) return `no ${tool} on PATH (openjdk-17-jdk-headless)`;
  }
  return null;
}

/** Compiles and starts the oracle with the given setup scripts, resolved on `specDir`. */
export async function startH2(specDir: string, scripts: readonly string[]): Promise<H2Oracle> {
  const classes = mkdtempSync(join(tmpdir(), 'quarry-h2-'));
  const javac = spawnSync('javac', ['-d', classes, SOURCE], { encoding: 'utf8' });
  if (javac.status !== 0) throw new Error(`javac H2Oracle.java: ${javac.stderr}`);
  const child: ChildProcess = spawn(
    'java',
    ['-Duser.timezone=UTC', '-cp', [classes, H2_JAR, specDir].join(':'), 'H2Oracle', ...scripts],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string | null) => void> = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  child.on('exit', () => {
    for (const w of waiting.splice(0)) w(null);
  });
  const next = () =>
    new Promise<string | null>((res, rej) => {
      const timer = setTimeout(() => rej(new Error('H2 oracle: no answer in 30s')), 30_000);
      waiting.push((l) => {
        clearTimeout(timer);
        res(l);
      });
    });
  const close = () => {
    child.kill();
    rmSync(classes, { recursive: true, force: true });
  };
  const ready = await next();
  if (ready === null || !ready.includes('"ready"')) {
    close();
    throw new Error(`H2 oracle did not start: ${stderr.slice(0, 2000)}`);
  }
  // one statement at a time: answers come back in order
  let chain: Promise<unknown> = Promise.resolve();
  return {
    query(sql) {
      const run = chain.then(async () => {
        const answer = next();
        child.stdin!.write(sql.replace(/\r?\n/g, ' ') + '\n');
        const line = await answer;
        if (line === null) throw new Error(`H2 oracle exited: ${stderr.slice(0, 2000)}`);
        return JSON.parse(line) as H2Result;
      });
      chain = run.catch(() => undefined);
      return run;
    },
    close,
  };
}
