/**
 * `tsx test/conformance/sql/sql-property-cli.ts [--runs N] [--seed S] [--verbose]`: the long run
 * of the H2 property test (default 10,000 statements); prints counts, the silently wrong answers
 * and, with --verbose, the refusals. Exits 1 when any answer differs from H2's.
 */
import { h2Unavailable } from './sql-spec-h2.js';
import { runProperty } from './sql-property.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const missing = h2Unavailable();
if (missing !== null) {
  console.error(`cannot run the H2 oracle: ${missing}`);
  process.exit(2);
}
const runs = opt('--runs', 10_000);
const seed = opt('--seed', Date.now() % 2 ** 31);
const r = await runProperty(runs, seed);
for (const w of r.wrong) console.log(`WRONG ${w.sql}\n  ${w.reason}`);
if (args.includes('--verbose')) {
  for (const x of r.refused) console.log(`REFUSED ${x.sql}\n  ${x.reason}`);
  for (const x of r.oracleErrors) console.log(`H2ERR ${x.sql}\n  ${x.reason}`);
}
console.log(
  `seed ${seed}: ${r.runs} statements, ${r.matched} match H2, ${r.wrong.length} differ, ${r.refused.length} refused by Quarry, ${r.oracleErrors.length} rejected by H2`,
);
process.exit(r.wrong.length > 0 ? 1 : 0);
