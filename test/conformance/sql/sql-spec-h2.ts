/**
 * The H2 oracle process: H2Oracle.java compiled at test time into a temp dir (javac), run on the
 * Debian `libh2-java` jar with the spec directory on the classpath so the setup_*.sql scripts
 * and their `CSVREAD('classpath:/…')` files load as upstream loads them; in-memory database,
 * JVM zone UTC (ES LocalH2 sets UTC as the default zone). For the geo files H2Gis.java (the ST_
 * functions, on Debian's `libjts-java`) is compiled and loaded too. One statement per line in, one
 * JSON result per line out.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../helpers/golden.js';

export const H2_JAR = process.env.H2_JAR ?? '/usr/share/java/h2.jar';
/** JTS for the geo files' ST_ functions (h2/H2Gis.java; Debian package libjts-java). */
export const JTS_JAR = process.env.JTS_JAR ?? '/usr/share/java/jts-core.jar';
const SOURCE = resolve(repoRoot, 'test/conformance/sql/h2/H2Oracle.java');
const GIS_SOURCE = resolve(repoRoot, 'test/conformance/sql/h2/H2Gis.java');

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
  if (!existsSync(JTS_JAR)) return `no JTS jar at ${JTS_JAR} (Debian package libjts-java)`;
  for (const tool of ['java', 'javac']) {
    const r = spawnSync(tool, ['-version'], { stdio: 'ignore' });
    if (r.error || r.status !== 0) return `no ${tool} on PATH (openjdk-17-jdk-headless)`;
  }
  return null;
}

export interface H2Options {
  /** Load the ST_ functions of h2/H2Gis.java (needs JTS) before the scripts. */
  readonly gis?: boolean;
  /** Adjusted setup scripts by classpath name, shadowing the spec directory's (adjustments). */
  readonly scripts?: Readonly<Record<string, string>>;
}

/** Compiles and starts the oracle with the given setup scripts, resolved on `specDir`. */
export async function startH2(
  specDir: string,
  scripts: readonly string[],
  options: H2Options = {},
): Promise<H2Oracle> {
  const classes = mkdtempSync(join(tmpdir(), 'quarry-h2-'));
  const jars = options.gis ? [H2_JAR, JTS_JAR] : [H2_JAR];
  const sources = options.gis ? [SOURCE, GIS_SOURCE] : [SOURCE];
  const javac = spawnSync('javac', ['-cp', jars.join(':'), '-d', classes, ...sources], {
    encoding: 'utf8',
  });
  if (javac.status !== 0) {
    rmSync(classes, { recursive: true, force: true });
    throw new Error(`javac H2Oracle.java: ${javac.stderr}`);
  }
  // the classes directory comes first on the classpath, so a script written there shadows
  for (const [name, text] of Object.entries(options.scripts ?? {})) {
    mkdirSync(dirname(join(classes, name)), { recursive: true });
    writeFileSync(join(classes, name), text);
  }
  const child: ChildProcess = spawn(
    'java',
    [
      '-Duser.timezone=UTC',
      '-cp',
      [classes, ...jars, specDir].join(':'),
      'H2Oracle',
      ...(options.gis ? ['--gis'] : []),
      ...scripts,
    ],
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
