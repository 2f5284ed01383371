/**
 * `npm run test:load [-- --seconds 30 --factor 10 --max-outstanding 2000]`: the long load test.
 * Prints the sustained throughput, the overload figures (429s, errors), p50/p99 latencies of the
 * accepted requests and the node's peak RSS; exits 1 on an error, a lost write or a dead node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatLoadReport, runLoadTest } from './harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

const dataPath = mkdtempSync(join(tmpdir(), 'quarry-load-'));
try {
  const seconds = arg('seconds', 30);
  const report = await runLoadTest({
    dataPath,
    calibrateMs: arg('calibrate-seconds', 10) * 1000,
    calibrateConcurrency: arg('concurrency', 32),
    overloadMs: seconds * 1000,
    factor: arg('factor', 10),
    maxOutstanding: arg('max-outstanding', 2000),
    log: (l) => process.stdout.write(l + '\n'),
  });
  process.stdout.write(`\n${formatLoadReport(report)}\n`);
  for (const e of report.overload.errorSamples.concat(report.calibrate.errorSamples))
    process.stdout.write(`  sample error: ${e}\n`);
  const failed =
    !report.nodeAlive ||
    report.overload.otherErrors + report.overload.transportErrors > 0 ||
    report.recovery.ok !== report.recovery.sent ||
    report.indexedDocs !== report.seedDocs + report.ackedWrites;
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(dataPath, { recursive: true, force: true });
}
