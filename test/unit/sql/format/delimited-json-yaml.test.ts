import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  csvDelimiter,
  csvHasHeader,
  formatCsv,
  formatTsv,
} from '../../../../src/sql/format/delimited.js';
import { toJsonObject, toJsonText } from '../../../../src/sql/format/json.js';
import { toYamlText } from '../../../../src/sql/format/yaml.js';
import { parseInterval } from '../../../../src/functions/intervals.js';
import { TimeValue } from '../../../../src/functions/values.js';
import { EsError } from '../../../../src/common/errors.js';
import { expectGolden, repoRoot } from './golden.js';
import { LIBRARY_COLUMNS, LIBRARY_PAGE1, LIBRARY_PAGE2 } from './library.js';

const restDoc = readFileSync(
  resolve(repoRoot, '../shared/conformance/sql/docs/rest.asciidoc'),
  'utf8',
);

/** The example answer that follows `POST /_sql?format=<f>` (the n-th such request). */
function docAnswer(format: string, n = 0, extra = ''): string {
  const re = new RegExp(
    `POST /_sql\\?format=${format}${extra.replace(/[?&]/g, '\\$&')}\\n[\\s\\S]*?\\[source,[a-z-]+\\]\\n-+\\n([\\s\\S]*?)\\n-+\\n`,
    'g',
  );
  const all = [...restDoc.matchAll(re)];
  return all[n]![1]!;
}

function reason(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    return e instanceof EsError ? e.reason : String(e);
  }
  return null;
}

describe('format=csv / tsv', () => {
  it('matches rest.asciidoc (CRLF line ends, comma and custom delimiter)', () => {
    const csv = formatCsv(LIBRARY_COLUMNS, LIBRARY_PAGE1);
    expectGolden('library.csv', csv);
    expect(csv.replace(/\r\n/g, '\n')).toBe(docAnswer('csv') + '\n');
    const semi = formatCsv(LIBRARY_COLUMNS, LIBRARY_PAGE1, { delimiter: csvDelimiter('%3b') });
    expect(semi.replace(/\r\n/g, '\n')).toBe(docAnswer('csv', 0, '&delimiter=%3b') + '\n');
  });
  it('matches the rest.asciidoc TSV', () => {
    const tsv = formatTsv(LIBRARY_COLUMNS, LIBRARY_PAGE1);
    expectGolden('library.tsv', tsv);
    expect(tsv).toBe(docAnswer('tsv') + '\n');
  });
  it('quotes like RFC 4180 and escapes TSV', () => {
    const cols = [
      { name: 'a,b', type: 'keyword' },
      { name: 'n', type: 'double' },
      { name: 't', type: 'time' },
      { name: 'i', type: 'interval_hour' },
    ];
    const rows = [
      ['say "hi"\nnow', 1, new TimeValue(36000e9, 0), parseInterval('26', 'INTERVAL_HOUR')],
      [null, null, null, null],
    ];
    expect(formatCsv(cols, rows)).toBe(
      '"a,b",n,t,i\r\n"say ""hi""\nnow",1.0,10:00Z,+1 02:00:00\r\n,,,\r\n',
    );
    expect(formatCsv(cols, rows, { header: false, delimiter: ';' })).toBe(
      '"say ""hi""\nnow";1.0;10:00Z;+1 02:00:00\r\n;;;\r\n',
    );
    expect(formatTsv(cols, [['a\tb\nc', 2, null, null]])).toBe(
      'a,b\tn\tt\ti\na\\tb\\nc\t2.0\t\t\n',
    );
  });
  it('validates the delimiter and header parameters like ES', () => {
    expect(csvDelimiter(undefined)).toBe(',');
    expect(csvDelimiter('|')).toBe('|');
    expect(reason(() => csvDelimiter(';;'))).toBe('invalid multi-character delimiter [;;]');
    expect(reason(() => csvDelimiter(''))).toBe('invalid empty delimiter []');
    expect(reason(() => csvDelimiter('"'))).toBe(
      'illegal reserved character specified as delimiter ["]',
    );
    expect(reason(() => csvDelimiter('%0A'))).toBe(
      'illegal reserved character specified as delimiter [\n]',
    );
    expect(reason(() => csvDelimiter('%09'))).toBe(
      'illegal delimiter [TAB] specified as delimiter for the [csv] format; choose the [tsv] format instead',
    );
    expect(csvHasHeader('absent')).toBe(false);
    expect(csvHasHeader('present')).toBe(true);
    expect(csvHasHeader(null, ['text/csv; header=absent'])).toBe(false);
    expect(csvHasHeader(null, ['text/csv'])).toBe(true);
  });
});

describe('format=json / yaml', () => {
  const cursor =
    'sDXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAAAEWWWdrRlVfSS1TbDYtcW9lc1FJNmlYdw==:BAFmBmF1dGhvcgFmBG5hbWUBZgpwYWdlX2NvdW50AWYMcmVsZWFzZV9kYXRl+v///w8=';
  it('matches the rest.asciidoc JSON pages (rows and columnar)', () => {
    const first = { columns: LIBRARY_COLUMNS, rows: LIBRARY_PAGE1, cursor };
    const text = toJsonText(first);
    expectGolden('library.json.txt', text);
    expect(JSON.parse(text)).toEqual(JSON.parse(docAnswer('json', 0)));
    expect(toJsonObject(first)).toEqual(JSON.parse(docAnswer('json', 0)));
    const columnar = toJsonText({
      columns: LIBRARY_COLUMNS,
      rows: LIBRARY_PAGE1,
      cursor,
      columnar: true,
    });
    expectGolden('library-columnar.json.txt', columnar);
    expect(JSON.parse(columnar)).toEqual(JSON.parse(docAnswer('json', 2)));
    const next = toJsonText({ columns: null, rows: LIBRARY_PAGE2, cursor: 'c2', columnar: true }, [
      'text',
      'text',
      'short',
      'datetime',
    ]);
    const expected = JSON.parse(docAnswer('json', 3));
    expect(JSON.parse(next).values).toEqual(expected.values);
    expect(Object.keys(JSON.parse(next))).toEqual(['values', 'cursor']);
  });
  it('writes Java number forms and ES value forms', () => {
    const cols = [
      { name: 'd', type: 'double' },
      { name: 'f', type: 'float' },
      { name: 'i', type: 'interval_day_to_second' },
      { name: 'y', type: 'interval_year_to_month' },
      { name: 't', type: 'time' },
      { name: 's', type: 'keyword' },
    ];
    const text = toJsonText({
      columns: cols,
      rows: [
        [
          1e7,
          Math.fround(0.2876821),
          parseInterval('1 02:03:04', 'INTERVAL_DAY_TO_SECOND'),
          parseInterval('1-2', 'INTERVAL_YEAR_TO_MONTH'),
          new TimeValue(37230e9, 3600),
          'a"\u0001',
        ],
        [NaN, 1, null, null, null, null],
      ],
      cursor: '',
    });
    expect(text).toBe(
      '{"columns":[{"name":"d","type":"double"},{"name":"f","type":"float"},{"name":"i","type":"interval_day_to_second"},' +
        '{"name":"y","type":"interval_year_to_month"},{"name":"t","type":"time"},{"name":"s","type":"keyword"}],' +
        '"rows":[[1.0E7,0.2876821,"PT26H3M4S","P1Y2M","10:20:30.000+01:00","a\\"\\u0001"],["NaN",1.0,null,null,null,null]]}',
    );
  });
  it('writes rows straight to text as the tree would (cursor pages, display sizes, no rows)', () => {
    const page = {
      columns: null,
      rows: [
        [1.5, 2, 'x\ny', true],
        [-0, -3, null, false],
      ],
      cursor: 'c2',
    };
    expect(toJsonText(page, ['double', 'long', 'keyword', 'boolean'])).toBe(
      '{"rows":[[1.5,2,"x\\ny",true],[-0.0,-3,null,false]],"cursor":"c2"}',
    );
    expect(JSON.parse(toJsonText(page, ['double', 'long', 'keyword', 'boolean']))).toEqual(
      toJsonObject(page, ['double', 'long', 'keyword', 'boolean']),
    );
    const sized = {
      columns: [{ name: 'n', type: 'long' }],
      rows: [],
      displaySizes: [20],
    };
    expect(toJsonText(sized)).toBe(
      '{"columns":[{"name":"n","type":"long","display_size":20}],"rows":[]}',
    );
    expect(
      toJsonText({
        columns: [{ name: 'v', type: 'double' }],
        rows: [[Infinity], [0.001], [123456.5]],
      }),
    ).toBe('{"columns":[{"name":"v","type":"double"}],"rows":[["Infinity"],[0.001],[123456.5]]}');
  });
  it('matches the rest.asciidoc YAML page', () => {
    const yaml = toYamlText({ columns: LIBRARY_COLUMNS, rows: LIBRARY_PAGE1, cursor });
    expectGolden('library.yaml.txt', yaml);
    expect(yaml).toBe('---\n' + docAnswer('yaml') + '\n');
    expect(toYamlText({ columns: [{ name: 'x', type: 'integer' }], rows: [] })).toBe(
      '---\ncolumns:\n- name: "x"\n  type: "integer"\nrows: []\n',
    );
  });
});
