/** `bin/quarry`: parse settings, start one node, stop gracefully on SIGINT/SIGTERM. */
import { parseArgs, USAGE } from './args.js';
import { logLine, startNode } from '../node.js';

export async function main(argv: string[]): Promise<void> {
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
  let node;
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
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(
      logLine('INFO', 'o.e.n.Node', node.context.nodeName, `stopping on ${signal} ...`) + '\n',
    );
    node.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`error while stopping: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
