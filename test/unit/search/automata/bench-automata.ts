/**
 * Timing of the term automata over a ~100k-term sorted dictionary (full scans, as a multi-term
 * query without a usable prefix would do). Run: npx tsx test/unit/search/automata/bench-automata.ts
 */
import { fuzzyMatcher } from '../../../../src/search/automata/levenshtein.js';
import { regexpMatcher } from '../../../../src/search/automata/regexp.js';
import { wildcardMatcher } from '../../../../src/search/automata/wildcard.js';

// deterministic pseudo-words from syllables (xorshift32)
let seed = 0x9e3779b9;
const rnd = (n: number): number => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};
const syll = [
  'qu',
  'ick',
  'br',
  'own',
  'fo',
  'x',
  'ju',
  'mp',
  'ov',
  'er',
  'la',
  'zy',
  'do',
  'g',
  'in',
  'g',
  'ed',
  'st',
  'ar',
  'en',
  'ti',
  'on',
  'al',
  'ly',
];
const dict = new Set<string>();
while (dict.size < 100_000) {
  let w = '';
  const n = 1 + rnd(4);
  for (let i = 0; i < n; i++) w += syll[rnd(syll.length)];
  if (rnd(10) === 0) w += String(rnd(100));
  dict.add(w);
}
const terms = [...dict].sort();

/** Runs `scan` (compile + one pass over the dictionary) repeatedly; min and median times. */
function time(label: string, scan: () => number, runs = 21): void {
  const samples: number[] = [];
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    hits = scan();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const fmt = (ms: number) => ms.toFixed(2).padStart(6);
  console.log(
    `${label.padEnd(40)} min ${fmt(samples[0]!)} ms  median ${fmt(samples[runs >> 1]!)} ms  ${hits} hits`,
  );
}

// each scan is its own closure so its call sites stay monomorphic, as in real callers
const fuzzy =
  (term: string, k: number, prefix = 0, tr = true) =>
  () => {
    const m = fuzzyMatcher(term, k, prefix, tr);
    let hits = 0;
    for (const t of terms) if (m.test(t) >= 0) hits++;
    return hits;
  };
const wildcard = (p: string) => () => {
  const m = wildcardMatcher(p);
  let hits = 0;
  for (const t of terms) if (m.test(t)) hits++;
  return hits;
};
const regexp = (p: string) => () => {
  const m = regexpMatcher(p);
  let hits = 0;
  for (const t of terms) if (m.test(t)) hits++;
  return hits;
};

const avg = terms.reduce((a, t) => a + t.length, 0) / terms.length;
console.log(`${terms.length} sorted terms, average length ${avg.toFixed(1)}`);
time('baseline: loop with startsWith', () => {
  let hits = 0;
  for (const t of terms) if (t.startsWith('quick')) hits++;
  return hits;
});
time('fuzzy quikc~2', fuzzy('quikc', 2));
time('fuzzy quikc~1', fuzzy('quikc', 1));
time('fuzzy brownfox~2', fuzzy('brownfox', 2));
time('fuzzy brownfox~2 no transpositions', fuzzy('brownfox', 2, 0, false));
time('fuzzy brownfox~2 prefix_length 2', fuzzy('brownfox', 2, 2));
time('wildcard quick* (prefix fast path)', wildcard('quick*'));
time('wildcard qu*k*', wildcard('qu*k*'));
time('wildcard *ing', wildcard('*ing'));
time('wildcard ?o*x?*', wildcard('?o*x?*'));
time('regexp qu.*k', regexp('qu.*k'));
time('regexp .*ing', regexp('.*ing'));
time('regexp [a-f]+(ox|er){1,3}[0-9]*', regexp('[a-f]+(ox|er){1,3}[0-9]*'));
time('regexp (.*ick.*)&~(.*own.*)', regexp('(.*ick.*)&~(.*own.*)'));
time('regexp .*<10-60>|.*<5-9>', regexp('.*<10-60>|.*<5-9>'));
