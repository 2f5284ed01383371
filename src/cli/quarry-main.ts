/**
 * `bin/quarry`: parse settings, start one node, stop gracefully on SIGINT/SIGTERM (or, as
 * `quarry import` / `quarry export`, run those tools: see import/import-main.ts and export.ts). A start that
 * fails (data path locked by another node, unreadable users file, port in use) logs one error
 * line and exits with status 1.
 */
import { parseArgs, USAGE } from './args.js';
import { exportMain } from './export.js';
import { importMain } from './import/import-main.js';
import { logLine, startNode, type RunningNode } from '../node.js';

export async function main(argv: string[]): Promise<void> {
  // `quarry import …` and `quarry export …` are tools against a running node, not node starts
  if (argv[0] === 'import' || argv[0] === 'export') {
    const tool = argv[0] === 'import' ? importMain : exportMain;
    const code = await tool(argv.slice(1));
    process.exitCode = code;
    return;
  }
  let parsed;
  try {
    parsed = parseArgs(argv, process.cwd(), process.env);
  } catch (e) {
    process.stderr.write(`quarry: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(64);
  }
  if (parsed.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const s = parsed.settings;
  // Signal handlers go in before the start so a signal during it is not fatal: the first one
  // stops the node gracefully (see RunningNode.close) once it runs; a second one does not wait.
  let node: RunningNode | undefined;
  let stopSignal: string | null = null;
  const shutdown = (n: RunningNode, signal: string) =>
    n.close(signal).then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`error while stopping: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  const onSignal = (signal: string) => {
    if (stopSignal !== null) {
      const name = node?.context.nodeName ?? s.nodeName ?? '-';
      process.stderr.write(
        logLine('WARN', 'o.e.n.Node', name, `${signal} again: exiting now`) + '\n',
      );
      process.exit(130);
    }
    stopSignal = signal;
    if (node) void shutdown(node, signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  try {
    node = await startNode({
      dataPath: s.dataPath,
      port: s.port,
      host: s.host,
      clusterName: s.clusterName,
      ...(s.nodeName ? { nodeName: s.nodeName } : {}),
      maxContentLength: s.maxContentLength,
      settings: s.raw,
      log: (l) => process.stdout.write(l + '\n'),
    });
  } catch (e) {
    process.stderr.write(
      logLine(
        'ERROR',
        'o.e.b.Bootstrap',
        s.nodeName ?? '-',
        `node failed to start: ${(e as Error).message}`,
      ) + '\n',
    );
    process.exit(1);
  }
  if (stopSignal !== null) void shutdown(node, stopSignal);
}
