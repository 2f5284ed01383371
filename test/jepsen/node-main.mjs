// Starts one node from dist/, as bin/quarry does, under a file name of its own: a broad
// `pkill -f bin/quarry` elsewhere on the machine (a developer restarting a local cluster) then
// leaves the fault test's nodes alone — their deaths must be the nemesis's alone.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../../dist/src/cli/quarry-main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('not built yet; run `npm run build` first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main(process.argv.slice(2));
