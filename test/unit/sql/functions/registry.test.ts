import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsvSpecFile } from '../../../conformance/sql/csv-spec-parser.js';
import {
  expectedWithExtensions,
  QUARRY_EXTENSION_FUNCTIONS,
} from '../../../conformance/sql/runner.js';
import {
  checkCall,
  EXTENSION_FUNCTION_LISTING,
  FUNCTION_LISTING,
  FUNCTIONS,
  lookupFunction,
  resolveAlias,
  showFunctions,
  unknownFunctionMessage,
} from '../../../../src/sql/functions/registry.js';
import { repoRoot } from '../format/golden.js';

const commandSpec = parseCsvSpecFile(
  resolve(repoRoot, '../shared/conformance/sql/command.csv-spec'),
);
const docsSpec = parseCsvSpecFile(
  resolve(repoRoot, '../shared/conformance/sql/docs/docs.csv-spec'),
);

/** SHOW FUNCTIONS [LIKE 'x'] cases of the spec files, with their LIKE pattern (ES's rows, then the extensions). */
const showCases = [...commandSpec, ...docsSpec]
  .filter((c) => /^SHOW FUNCTIONS/i.test(c.query) && !c.ignored)
  .map((c) => ({ c, like: /LIKE '([^']*)'/i.exec(c.query)?.[1] ?? null }));

describe('SHOW FUNCTIONS', () => {
  it('finds the spec cases', () => {
    expect(showCases.length).toBeGreaterThanOrEqual(8);
  });
  it.each(showCases.map((s) => [s.c.file.split('/').pop() + ':' + s.c.name, s] as const))(
    '%s',
    (_n, { c, like }) => {
      expect(showFunctions(like)).toEqual(expectedWithExtensions(c).rows.map((r) => [r[0], r[1]]));
    },
  );
  it("lists ES's functions first, exactly as the spec's full list", () => {
    const full = showCases.find((s) => s.like === null)!.c.expected.rows;
    expect(showFunctions().slice(0, full.length)).toEqual(full.map((r) => [r[0], r[1]]));
    expect(full.length).toBe(FUNCTION_LISTING.length);
  });
  it('lists the window functions after them, with type WINDOW, as the runner expects', () => {
    expect(showFunctions().slice(FUNCTION_LISTING.length)).toEqual([
      ['DENSE_RANK', 'WINDOW'],
      ['LAG', 'WINDOW'],
      ['LEAD', 'WINDOW'],
      ['RANK', 'WINDOW'],
      ['ROW_NUMBER', 'WINDOW'],
    ]);
    expect(EXTENSION_FUNCTION_LISTING).toEqual(QUARRY_EXTENSION_FUNCTIONS);
  });
  it('documents each extension function in EXTENSIONS.md', () => {
    const doc = readFileSync(resolve(repoRoot, 'src/sql/EXTENSIONS.md'), 'utf8');
    const rows = [...doc.matchAll(/^\s*\| `([A-Z_]+)` +\| `([A-Z]+)` +\|$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(rows).toEqual(EXTENSION_FUNCTION_LISTING);
  });
  it('filters the window functions with LIKE as any function', () => {
    expect(showFunctions('%rank%')).toEqual([
      ['PERCENTILE_RANK', 'AGGREGATE'],
      ['DENSE_RANK', 'WINDOW'],
      ['RANK', 'WINDOW'],
    ]);
    expect(showFunctions('ROW!_%', '!')).toEqual([['ROW_NUMBER', 'WINDOW']]);
    expect(showFunctions('ROW_%')).toEqual([['ROW_NUMBER', 'WINDOW']]);
    expect(showFunctions('L___')).toEqual([
      ['LAST', 'AGGREGATE'],
      ['LEFT', 'SCALAR'],
      ['LEAD', 'WINDOW'],
    ]);
    expect(showFunctions('SUM')).toEqual([['SUM', 'AGGREGATE']]);
  });
  it('keeps window-only names out of lookup: without OVER they stay unknown to ES SQL', () => {
    expect(lookupFunction('rank')).toBeNull();
    expect(unknownFunctionMessage('ROW_NUMBER')).toMatch(/^Unknown function \[ROW_NUMBER\]/);
  });
  it('is case-insensitive and supports ESCAPE', () => {
    expect(showFunctions('abs')).toEqual([['ABS', 'SCALAR']]);
    expect(showFunctions('DAY!_%', '!').map((r) => r[0])).toEqual([
      'DAY_NAME',
      'DAY_OF_MONTH',
      'DAY_OF_WEEK',
      'DAY_OF_YEAR',
    ]);
  });
  it('lists each name once', () => {
    const names = showFunctions().map((r) => r[0]);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(
      FUNCTIONS.reduce((n, d) => n + 1 + d.aliases.length, 0) + EXTENSION_FUNCTION_LISTING.length,
    );
  });
});

describe('lookup and calls', () => {
  it('resolves aliases case-insensitively', () => {
    expect(resolveAlias('dom')).toBe('DAY_OF_MONTH');
    expect(resolveAlias('nope')).toBe('NOPE');
    expect(lookupFunction('ceiling')?.name).toBe('CEIL');
    expect(lookupFunction('st_astext')?.name).toBe('ST_ASWKT');
    expect(lookupFunction('nope')).toBeNull();
  });
  it('checks arity like FunctionRegistry builders', () => {
    const d = (n: string) => lookupFunction(n)!;
    expect(checkCall(d('ABS'), 2)).toBe('error building [ABS]: expects exactly one argument');
    expect(checkCall(d('PI'), 1)).toBe('error building [PI]: expects no arguments');
    expect(checkCall(d('ROUND'), 3)).toBe('error building [ROUND]: expects one or two arguments');
    expect(checkCall(d('LOCATE'), 1)).toBe(
      'error building [LOCATE]: expects two or three arguments',
    );
    expect(checkCall(d('INSERT'), 3)).toBe(
      'error building [INSERT]: expects exactly four arguments',
    );
    expect(checkCall(d('DATEADD'), 2)).toBe('error building [DATEADD]: expects three arguments');
    expect(checkCall(d('IIF'), 4)).toBe('error building [IIF]: expects two or three arguments');
    expect(checkCall(d('NOW'), 0)).toBeNull();
    expect(checkCall(d('NOW'), 2)).toBe(
      'error building [CURRENT_TIMESTAMP]: expects exactly one argument',
    );
    expect(checkCall(d('COALESCE'), 7)).toBeNull();
    expect(checkCall(d('COUNT'), 1, true)).toBeNull();
    expect(checkCall(d('SUM'), 1, true)).toBe(
      'error building [SUM]: does not support DISTINCT yet it was specified',
    );
  });
  it('suggests similar names for unknown functions', () => {
    expect(unknownFunctionMessage('ZZZ')).toBe('Unknown function [ZZZ]');
    // Lucene LevenshteinDistance >= 0.5, best first: ACOS is 2 edits from ABSS (1 - 2/4 = 0.5)
    expect(unknownFunctionMessage('ABSS')).toBe(
      'Unknown function [ABSS], did you mean any of [ABS, ACOS]?',
    );
    expect(unknownFunctionMessage('SUBSTRNG')).toBe(
      'Unknown function [SUBSTRNG], did you mean [SUBSTRING]?',
    );
    expect(unknownFunctionMessage('COUNT', 'DISTINCT')).toBe('Unknown function [COUNT]');
    expect(unknownFunctionMessage('YEARS', 'EXTRACT')).toBe(
      'Unknown datetime field [YEARS], did you mean [YEAR]?',
    );
  });
  it('marks the EXTRACT-viable functions', () => {
    const viable = FUNCTIONS.filter((d) => d.extractViable).map((d) => d.name);
    expect(viable).toContain('YEAR');
    expect(viable).toContain('DAY_OF_WEEK');
    expect(viable).not.toContain('DATE_PART');
  });
});

describe('script methods', () => {
  it('names a SCRIPT_METHODS entry for every scriptable scalar', async () => {
    const { SCRIPT_METHODS } = await import('../../../../src/functions/script-methods.js');
    const constants = new Set([
      'CURRENT_DATE',
      'CURRENT_TIME',
      'CURRENT_TIMESTAMP',
      'DATABASE',
      'USER',
      'CASE',
      'IIF',
    ]);
    for (const d of FUNCTIONS) {
      if (
        d.type === 'AGGREGATE' ||
        d.type === 'GROUPING' ||
        d.type === 'SCORE' ||
        constants.has(d.name)
      ) {
        expect(d.script, d.name).toBeUndefined();
        continue;
      }
      expect(d.script, d.name).toBeDefined();
      expect(typeof SCRIPT_METHODS[d.script!.method], `${d.name} -> ${d.script!.method}`).toBe(
        'function',
      );
    }
    expect(lookupFunction('CHAR')!.script).toEqual({ prefix: 'sql', method: 'character' });
    expect(lookupFunction('BIT_LENGTH')!.script!.method).toBe('bitLength');
    expect(lookupFunction('ISO_WEEK_OF_YEAR')!.script).toEqual({
      prefix: 'sql',
      method: 'dateTimeChrono',
      zone: true,
      chrono: 'ALIGNED_WEEK_OF_YEAR',
    });
    expect(lookupFunction('STARTS_WITH')!.script).toEqual({
      prefix: 'ql',
      method: 'startsWith',
      extra: [true],
    });
  });
});
