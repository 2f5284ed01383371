/**
 * RSLP-style stemming (Orengo and Huyck's "A Stemming Algorithm for the Portuguese Language",
 * in the rule-file form Lucene's RSLPStemmerBase reads). A step is an ordered list of rules; the
 * first rule that fits fires and ends the step. A rule `{"suffix", N, "replacement",
 * {exceptions}}` fits a word ending in `suffix` whose remaining stem has at least N chars and
 * which is not an exception: exceptions are whole words when the step's header flag is 1, word
 * endings when it is 0. A step's header gives its name, the shortest word it considers (0:
 * derived from its rules) and optionally endings a word must have for the step to apply at all.
 */

export interface RslpRule {
  readonly suffix: string;
  readonly min: number;
  readonly replacement: string;
  readonly exceptions: readonly string[];
}

export interface RslpStep {
  readonly name: string;
  readonly minLength: number;
  readonly wholeWordExceptions: boolean;
  readonly conditions: readonly string[];
  readonly rules: readonly RslpRule[];
}

const HEADER = /^\{\s*"([^"]*)",\s*(\d+),\s*([01]),\s*\{(.*)\},\s*$/;
const RULE = /^\{\s*"([^"]*)",\s*(\d+)(?:,\s*"([^"]*)")?(?:,\s*\{(.*)\})?\s*\}\s*(?:,|\}\s*;)$/;

const list = (s: string | undefined): string[] =>
  s === undefined || s.trim() === ''
    ? []
    : s.split(',').map((x) => {
        const t = x.trim();
        return t.slice(1, t.length - 1);
      });

/** Reads a rule file into its steps, by name. */
export function parseRslp(text: string): ReadonlyMap<string, RslpStep> {
  const steps = new Map<string, RslpStep>();
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
  let i = 0;
  while (i < lines.length) {
    const h = HEADER.exec(lines[i++]!);
    if (h === null) throw new Error(`bad RSLP step header: ${lines[i - 1]}`);
    const rules: RslpRule[] = [];
    for (;;) {
      const line = lines[i++];
      if (line === undefined) throw new Error('unterminated RSLP step');
      const r = RULE.exec(line);
      if (r === null) throw new Error(`bad RSLP rule: ${line}`);
      rules.push({
        suffix: r[1]!,
        min: Number(r[2]),
        replacement: r[3] ?? '',
        exceptions: list(r[4]),
      });
      if (line.endsWith(';')) break;
    }
    const declared = Number(h[2]);
    steps.set(h[1]!, {
      name: h[1]!,
      minLength: declared !== 0 ? declared : Math.min(...rules.map((r) => r.min + r.suffix.length)),
      wholeWordExceptions: h[3] === '1',
      conditions: list(h[4]),
      rules,
    });
  }
  return steps;
}

function fits(step: RslpStep, rule: RslpRule, s: string): boolean {
  if (s.length - rule.suffix.length < rule.min || !s.endsWith(rule.suffix)) return false;
  return step.wholeWordExceptions
    ? !rule.exceptions.includes(s)
    : !rule.exceptions.some((e) => s.endsWith(e));
}

/** Applies one step: the first fitting rule's replacement, or the word unchanged. */
export function applyStep(step: RslpStep, s: string): string {
  if (s.length < step.minLength) return s;
  if (step.conditions.length > 0 && !step.conditions.some((c) => s.endsWith(c))) return s;
  for (const rule of step.rules) {
    if (fits(step, rule, s)) return s.slice(0, s.length - rule.suffix.length) + rule.replacement;
  }
  return s;
}
