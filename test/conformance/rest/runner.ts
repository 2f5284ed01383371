/**
 * Runs selected YAML REST tests against one node (ES: ESClientYamlSuiteTestCase.test plus the
 * ESRestTestCase wipe): per test section, skip checks (skip list, setup/teardown/section `skip`),
 * `setup`, a cleared stash, the section's steps, `teardown` (always), then the wipe. Starts a
 * fresh in-process node on a temporary data path unless a URL is given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode, type RunningNode } from '../../../src/node.js';
import { loadApiSpecs, type ApiSpecs } from './api-spec.js';
import { parseVersionId, skipReason } from './es-version.js';
import { ExecutionContext, type StepFailure } from './executor.js';
import { HttpClient } from './http-client.js';
import {
  listTests,
  loadSuites,
  parseSelector,
  selectorMatches,
  testId,
  type SkipEntry,
  type TestRef,
} from './selection.js';
import type { Step } from './suite.js';
import { wipeCluster } from './wipe.js';
import { startEtcd } from '../../helpers/etcd.js';

export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface TestResult {
  id: string;
  folder: string;
  file: string;
  name: string;
  status: TestStatus;
  reason: string | null;
  failure?: StepFailure;
  durationMs: number;
}

export interface RunnerOptions {
  testsDir: string;
  apiDir: string;
  /** Run against this node instead of starting one in-process. */
  url?: string;
  /** Start this many nodes in a cluster on a local etcd; each request goes to a random one. */
  cluster?: number;
  /** Seed of the random choice of node. */
  seed?: number;
  /** Selectors (folder, file or test); all tests when empty. */
  filters?: readonly string[];
  /** Exact test ids to run (the pass-list check); overrides `filters`. */
  ids?: readonly string[];
  skipList?: readonly SkipEntry[];
  strictWarnings?: boolean;
  /** Send `error_trace=true` with every call (default, as upstream). */
  errorTrace?: boolean;
  bail?: boolean;
  /** Wipe everything after every test, not only what the test's APIs can have changed. */
  fullWipe?: boolean;
  /** The version `skip` sections are checked against, instead of the one `GET /` reports. */
  esVersion?: string;
  onResult?: (r: TestResult) => void;
  log?: (line: string) => void;
}

export interface RunResult {
  url: string;
  esVersion: string;
  results: TestResult[];
  /** Requested ids (`ids`) that no test has. */
  missingIds: string[];
  /** Every existing test id (for pass-list maintenance). */
  allIds: string[];
}

export async function runConformance(opts: RunnerOptions): Promise<RunResult> {
  const specs = loadApiSpecs(opts.apiDir);
  const loaded = loadSuites(opts.testsDir);
  const all = listTests(loaded);
  const selectors = (opts.filters ?? []).map(parseSelector);
  const wanted = (folder: string, file: string, name: string): boolean =>
    selectors.length === 0 || selectors.some((s) => selectorMatches(s, folder, file, name));

  let selected: TestRef[];
  let missingIds: string[] = [];
  const results: TestResult[] = [];
  if (opts.ids) {
    const byId = new Map(all.map((t) => [t.id, t]));
    selected = opts.ids.flatMap((id) => byId.get(id) ?? []);
    missingIds = opts.ids.filter((id) => !byId.has(id));
  } else {
    selected = all.filter((t) => wanted(t.folder, t.file, t.name));
    for (const s of loaded) {
      if (s.error !== undefined && wanted(s.folder, s.file, '')) {
        results.push({
          id: testId(s.folder, s.file, '<parse>'),
          folder: s.folder,
          file: s.file,
          name: '<parse>',
          status: 'failed',
          reason: `cannot parse the suite: ${s.error}`,
          durationMs: 0,
        });
      }
    }
  }

  let dataPath: string | null = null;
  let stopNode: (() => Promise<void>) | null = null;
  let url: string | string[] | undefined = opts.url;
  if (!url) {
    dataPath = mkdtempSync(join(tmpdir(), 'quarry-rest-'));
    // as ES's REST test cluster (rest-api-spec build.gradle): one planted node attribute, and a
    // directory for fs snapshot repositories; the reindex module's (modules/reindex/build.gradle)
    // lets reindex read from the nodes on loopback
    const settings = {
      'node.attr.testattr': 'test',
      'path.repo': join(dataPath, 'repo'),
      'reindex.remote.whitelist': '127.0.0.1:*',
    };
    if (opts.cluster && opts.cluster > 1) {
      const c = await startTestCluster(dataPath, opts.cluster, settings);
      url = c.urls;
      stopNode = c.stop;
    } else {
      const node = await startNode({ dataPath, port: 0, settings });
      url = node.url;
      stopNode = () => node.close();
    }
  }
  const client = new HttpClient(url, 60_000, opts.seed ?? 1);
  try {
    const esVersion = opts.esVersion ?? (await detectVersion(client, opts.log));
    const current = parseVersionId(esVersion);
    if (selected.length > 0) {
      const problem = await wipeCluster(client);
      if (problem) opts.log?.(`initial wipe: ${problem}`);
    }
    for (const test of selected) {
      const r = await runOne(test, { specs, client, current, opts });
      results.push(r);
      opts.onResult?.(r);
      if (opts.bail && r.status === 'failed') break;
    }
    return { url: client.url, esVersion, results, missingIds, allIds: all.map((t) => t.id) };
  } finally {
    client.close();
    if (stopNode) await stopNode();
    if (dataPath) rmSync(dataPath, { recursive: true, force: true });
  }
}

async function detectVersion(client: HttpClient, log?: (l: string) => void): Promise<string> {
  try {
    const res = await client.send({ method: 'GET', path: '/', headers: {} });
    const v = (res.parsed as { version?: { number?: unknown } } | undefined)?.version?.number;
    if (res.status === 200 && typeof v === 'string') return v;
    log?.(`GET / gave no version (status ${res.status}); assuming 6.8.13`);
  } catch (e) {
    log?.(`GET / failed (${(e as Error).message}); assuming 6.8.13`);
  }
  return '6.8.13';
}

interface RunEnv {
  specs: ApiSpecs;
  client: HttpClient;
  current: number;
  opts: RunnerOptions;
}

async function runOne(test: TestRef, env: RunEnv): Promise<TestResult> {
  const t0 = performance.now();
  const base = { id: test.id, folder: test.folder, file: test.file, name: test.name };
  const done = (status: TestStatus, reason: string | null, failure?: StepFailure): TestResult => ({
    ...base,
    status,
    reason,
    ...(failure ? { failure } : {}),
    durationMs: Math.round((performance.now() - t0) * 10) / 10,
  });

  const listed = env.opts.skipList?.find((e) =>
    selectorMatches(e.selector, test.folder, test.file, test.name),
  );
  if (listed) return done('skipped', `rest-skip.txt: ${listed.reason}`);
  const { suite, section } = test;
  for (const [what, skip] of [
    ['setup', suite.setup?.skip ?? null],
    ['teardown', suite.teardown?.skip ?? null],
    ['test', section.skip],
  ] as const) {
    const why = skipReason(skip, env.current);
    if (why) return done('skipped', what === 'test' ? why : `${what}: ${why}`);
  }
  if (section.steps.length === 0)
    return done('failed', `No executable sections loaded for [${test.id}]`);

  const ctx = new ExecutionContext(env.client, env.specs, {
    strictWarnings: env.opts.strictWarnings ?? true,
    errorTrace: env.opts.errorTrace ?? true,
  });
  let failure: StepFailure | null = await runSteps(ctx, suite.setup?.steps ?? [], 'setup');
  if (!failure) {
    ctx.clear();
    failure = await runSteps(ctx, section.steps, 'test');
  }
  const teardownFailure = await runSteps(ctx, suite.teardown?.steps ?? [], 'teardown');
  failure ??= teardownFailure;
  const called = ctx.takeCalledApis();
  const wipeProblem = await wipeCluster(
    env.client,
    env.opts.fullWipe ? {} : { calledApis: called },
  );
  if (!failure && wipeProblem) {
    failure = { phase: 'wipe', line: 0, step: 'wipe', message: wipeProblem };
  }
  return failure ? done('failed', failure.message, failure) : done('passed', null);
}

/** Runs steps in order and stops at the first failure. */
async function runSteps(
  ctx: ExecutionContext,
  steps: readonly Step[],
  phase: StepFailure['phase'],
): Promise<StepFailure | null> {
  for (const step of steps) {
    const f = await ctx.execute(step, phase);
    if (f) return f;
  }
  return null;
}

/**
 * `n` in-process nodes joined through a local etcd (one member), the first a master once all
 * joined; resolves with their URLs once the cluster has them all.
 */
async function startTestCluster(dir: string, n: number, settings: Record<string, string>) {
  const etcd = await startEtcd();
  const nodes: RunningNode[] = [];
  const stop = async () => {
    for (const node of nodes) await node.close().catch(() => undefined);
    await etcd.stop();
  };
  try {
    for (let k = 1; k <= n; k++) {
      nodes.push(
        await startNode({
          dataPath: join(dir, `n${k}`),
          port: 0,
          nodeName: `node-${k}`,
          settings: {
            ...settings,
            'discovery.etcd.endpoints': etcd.endpoints.join(','),
            'discovery.etcd.lease_ttl': '2s',
            'transport.port': '0',
          },
        }),
      );
    }
    return { urls: nodes.map((x) => x.url), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
