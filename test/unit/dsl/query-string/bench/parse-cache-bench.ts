/**
 * CPU time per call of the query_string parse for the debian.match_phrase ES SQL shape
 * (`WHERE QUERY('description:"w1 w2"')`): the plain parse against the cached one, for a repeated
 * text (hits) and for fresh texts (misses, as the bench's per-run random bigrams give), measured
 * alternately in the same run (process CPU time: the machine may be shared).
 * Run: npx tsx test/unit/dsl/query-string/bench/parse-cache-bench.ts
 */
import {
  newParseCache,
  parseQueryStringCached,
} from '../../../../../src/dsl/query-string/cache.js';
import { parseQueryString } from '../../../../../src/dsl/query-string/parse.js';

const words = (
  'package library development files for the python module tools support debian gnu linux ' +
  'utilities data documentation server client network perl ruby plugin kernel firmware driver'
).split(' ');
const texts = Array.from(
  { length: 20000 },
  (_, i) => `description:"${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}${i}"`,
);
// the options lowering passes for `QUERY()` on an index with default settings
const opts = {
  defaultOperator: 'OR' as const,
  allowLeadingWildcard: true,
  lenient: true,
  defaultField: '*',
  maxRegexLength: 1000,
  maxClauseCount: 1024,
  isEmpty: () => false,
  index: { name: 'debian', uuid: 'u' },
};

function cpuPerCall(f: () => void, n: number): number {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / n;
}

let k = 0;
const hitCache = newParseCache();
const missCache = newParseCache();
const cases: Record<string, () => void> = {
  'plain, same text': () => void parseQueryString(texts[0]!, opts),
  'cached, same text (hit)': () => void parseQueryStringCached(texts[0]!, opts, hitCache),
  'plain, fresh texts': () => void parseQueryString(texts[k++ % texts.length]!, opts),
  'cached, fresh texts (miss)': () =>
    void parseQueryStringCached(texts[k++ % texts.length]!, opts, missCache),
};
for (const f of Object.values(cases)) cpuPerCall(f, 3000);
const runs: Record<string, number[]> = {};
for (let round = 0; round < 7; round++) {
  for (const [name, f] of Object.entries(cases)) {
    k = round * 1000;
    (runs[name] ??= []).push(cpuPerCall(f, 20000));
  }
}
for (const [name, v] of Object.entries(runs)) {
  v.sort((a, b) => a - b);
  const [min, med, max] = [v[0]!, v[3]!, v[6]!].map((x) => x.toFixed(2));
  console.log(`${name.padEnd(28)} median ${med} µs/call (min ${min}, max ${max})`);
}
