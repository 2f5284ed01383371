import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deserializeTextFormatter,
  formatTextPage,
  formatWithoutHeader,
  serializeTextFormatter,
  type ColumnInfo,
} from '../../../../src/sql/format/text.js';
import { showFunctions } from '../../../../src/sql/functions/registry.js';
import { convert } from '../../../../src/functions/convert.js';
import { parseInterval } from '../../../../src/functions/intervals.js';
import { DateTimeValue, TimeValue } from '../../../../src/functions/values.js';
import { zoneOf } from '../../../../src/functions/datetime/zones.js';
import { geoPoint } from '../../../../src/functions/geo.js';
import { expectGolden, repoRoot } from './golden.js';
import { LIBRARY_COLUMNS, LIBRARY_PAGE1, LIBRARY_PAGE2 } from './library.js';

/** The `[source,text]` answers to `POST /_sql?format=txt` in rest.asciidoc. */
function restDocTxtExamples(): string[] {
  const doc = readFileSync(
    resolve(repoRoot, '../shared/conformance/sql/docs/rest.asciidoc'),
    'utf8',
  );
  const out: string[] = [];
  const re = /POST \/_sql\?format=txt[\s\S]*?\[source,text\]\n-+\n([\s\S]*?)\n-+\n/g;
  for (let m = re.exec(doc); m; m = re.exec(doc)) out.push(m[1]!);
  return out;
}

/** Upstream docs tests match text responses as regexes in comments mode: whitespace is ignored. */
const squash = (s: string) => s.replace(/\s+/g, '');

describe('format=txt (BasicFormatter)', () => {
  it('lays out the rest.asciidoc library page byte for byte', () => {
    const { text, state } = formatTextPage(LIBRARY_COLUMNS, LIBRARY_PAGE1);
    expectGolden('library-page1.txt', text);
    expect(state.widths).toEqual([17, 20, 15, 24]);
    // the docs print the same table (they trim trailing blanks)
    const docs = restDocTxtExamples();
    expect(docs.length).toBeGreaterThanOrEqual(3);
    expect(squash(text)).toBe(squash(docs[0]!));
    expect(squash(text)).toBe(squash(docs[1]!));
  });

  it('keeps the first page widths for cursor pages, truncating with ~', () => {
    const { state } = formatTextPage(LIBRARY_COLUMNS, LIBRARY_PAGE1);
    const carried = deserializeTextFormatter(serializeTextFormatter(state));
    expect(carried).toEqual(state);
    const page2 = formatWithoutHeader(carried, LIBRARY_PAGE2, LIBRARY_COLUMNS);
    expectGolden('library-page2.txt', page2);
    const long = formatWithoutHeader(
      carried,
      [['A very long author name indeed', 'x', 1, null]],
      LIBRARY_COLUMNS,
    );
    expect(long).toBe(
      'A very long auth~|x                   |1              |null                    \n',
    );
  });

  it('matches the filtered rest.asciidoc example', () => {
    const { text } = formatTextPage(LIBRARY_COLUMNS, [
      [
        'Douglas Adams',
        "The Hitchhiker's Guide to the Galaxy",
        180,
        new DateTimeValue(Date.parse('1979-10-12T00:00:00Z')),
      ],
    ]);
    expectGolden('library-filtered.txt', text);
    expect(squash(text)).toBe(squash(restDocTxtExamples()[2]!));
  });

  it('prints SHOW FUNCTIONS', () => {
    const cols: ColumnInfo[] = [
      { name: 'name', type: 'keyword' },
      { name: 'type', type: 'keyword' },
    ];
    expectGolden('show-functions.txt', formatTextPage(cols, showFunctions()).text);
    expectGolden('show-functions-like-a.txt', formatTextPage(cols, showFunctions('A%')).text);
  });

  it('prints each value type as ES does', () => {
    const cols: ColumnInfo[] = [
      { name: 'd', type: 'double' },
      { name: 'f', type: 'float' },
      { name: 'l', type: 'long' },
      { name: 'b', type: 'boolean' },
      { name: 'dt', type: 'datetime' },
      { name: 'date', type: 'date' },
      { name: 't', type: 'time' },
      { name: 'i1', type: 'interval_day_to_second' },
      { name: 'i2', type: 'interval_year_to_month' },
      { name: 'g', type: 'geo_point' },
      { name: 'n', type: 'keyword' },
    ];
    const berlin = zoneOf('Europe/Berlin');
    const rows = [
      [
        1e7,
        Math.fround(1.1),
        9007199254740991,
        true,
        new DateTimeValue(Date.UTC(1953, 8, 2), 0, zoneOf('Z')),
        convert('2020-04-05', 'DATE'),
        new TimeValue(37230123e6, 3600),
        parseInterval('1 02:03:04.5', 'INTERVAL_DAY_TO_SECOND'),
        parseInterval('-1-2', 'INTERVAL_YEAR_TO_MONTH'),
        geoPoint(4.85, 52.34),
        null,
      ],
      [
        -345.2,
        1.5,
        -1,
        false,
        new DateTimeValue(Date.UTC(2020, 6, 1, 10, 30, 0, 5), 0, berlin),
        null,
        null,
        null,
        null,
        null,
        'x',
      ],
      [NaN, Infinity, 0, null, null, null, null, null, null, null, ''],
    ];
    expectGolden('value-types.txt', formatTextPage(cols, rows).text);
  });

  it('centres headers wider than the minimum and handles no rows', () => {
    const cols: ColumnInfo[] = [
      { name: 'ROUND(AVG(languages), 1)', type: 'double' },
      { name: 'x', type: 'integer' },
    ];
    expectGolden('wide-header.txt', formatTextPage(cols, [[3.0, 1]]).text);
    expect(formatTextPage(cols, []).text).toBe(
      'ROUND(AVG(languages), 1)|       x       \n------------------------+---------------\n',
    );
  });
});
