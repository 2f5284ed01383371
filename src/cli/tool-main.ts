/**
 * `quarry import …` and `quarry export …`: bin/quarry sends these here before loading the node
 * (so a tool starts without the server's modules); every other command line starts a node.
 */
import { exportMain } from './export.js';
import { importMain } from './import/import-main.js';

export const isToolCommand = (argv: readonly string[]): boolean =>
  argv[0] === 'import' || argv[0] === 'export';

export async function main(argv: string[]): Promise<void> {
  const code = argv[0] === 'import' ? await importMain(argv.slice(1)) : await exportMain(argv.slice(1)); // prettier-ignore
  process.exitCode = code;
}
