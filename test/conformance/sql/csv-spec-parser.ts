/**
 * Parser for Elasticsearch's `*.csv-spec` files, following the upstream runner exactly
 * (SpecBaseIntegrationTestCase.readURLSpec + CsvTestUtils.CsvSpecParser + csvjdbc's reading of the
 * expected table): trimmed lines, `//` comments and blank lines skipped, a name line, an optional
 * `schema::` line, SQL up to the first line ending in `;`, then the expected table up to a line
 * starting with `;`. Column types come from `name:type` headers or the schema line; a `----` line
 * after the header is dropped; cells are `|`-separated, trimmed, `"`-quoted like csvjdbc.
 * Two departures recover the cases that upstream's reading swallows into a neighbour's table (five
 * in docs/docs and es-6.8/docs): a REST-body snippet `{...}` ends at its closing `}`, and a case
 * without a table ends where the next case's statement appears.
 */
import { readFileSync } from 'node:fs';

export interface ExpectedColumn {
  readonly name: string;
  /** The type as written (`s`, `i`, `ts`, `date`...), resolved to csvjdbc's name (`string`, `integer`, `timestamp`), or null when not declared. */
  readonly type: string | null;
}

export interface ExpectedTable {
  readonly columns: readonly ExpectedColumn[];
  /** Trimmed cells; `null` cells stay the string "null" (the comparator decides per type). */
  readonly rows: readonly (readonly string[])[];
  /** True when column types were declared (header `name:type` or `schema::`). */
  readonly typed: boolean;
  /** Problems csvjdbc would have reported (wrong cell count, bad header). */
  readonly problems: readonly string[];
}

export interface CsvSpecCase {
  /** Path of the spec file as given to the parser. */
  readonly file: string;
  /** The name line as written, e.g. `dateParse2-Ignore`. */
  readonly name: string;
  /** Upstream test id part: the name with its first letter upper-cased. */
  readonly testName: string;
  readonly ignored: boolean;
  /** 1-based line of the name. */
  readonly line: number;
  /** The statement without its `;`, lines joined with "\n". */
  readonly query: string;
  /** The `schema::` declaration, or null. */
  readonly schema: string | null;
  /** The expected block as upstream hands it to csvjdbc (lines joined with "\n"). */
  readonly expectedText: string;
  readonly expected: ExpectedTable;
}

const SCHEMA_PREFIX = 'schema::';

/** CsvTestUtils.resolveColumnType. */
export function resolveColumnType(code: string): string {
  switch (code.toLowerCase()) {
    case 's':
      return 'string';
    case 'b':
      return 'boolean';
    case 'i':
      return 'integer';
    case 'l':
      return 'long';
    case 'f':
      return 'float';
    case 'd':
      return 'double';
    case 'ts':
      return 'timestamp';
    case 'bt':
      return 'byte';
    case 'sh':
      return 'short';
    default:
      return code.toLowerCase();
  }
}

/** csvjdbc's line split with separator `|` and quote `"` (doubled quotes escape), then trimmed. */
export function splitCells(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  let inQuotes = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else inQuotes = false;
      } else cur += c;
    } else if (quoted && c !== '|') {
      // after a closing quote only blanks may precede the separator; trimValues drops them
      if (c.trim() !== '') cur += c;
    } else if (c === '|') {
      cells.push(quoted ? cur : cur.trim());
      cur = '';
      quoted = false;
    } else if (c === '"' && cur.trim() === '') {
      inQuotes = true;
      quoted = true;
      cur = '';
    } else cur += c;
  }
  cells.push(quoted ? cur : cur.trim());
  return cells;
}

/** Strings.tokenizeToStringArray(s, "|"): trimmed, empty tokens dropped. */
const tokenize = (s: string): string[] =>
  s
    .split('|')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);

/** CsvTestUtils.extractColumnTypesAndStripCli + csvjdbc's reading of the table. */
export function parseExpectedTable(schema: string | null, expectedText: string): ExpectedTable {
  const problems: string[] = [];
  const lines = expectedText.length === 0 ? [] : expectedText.split('\n');
  const header = lines[0] ?? '';
  let sch = schema ?? '';
  if (header.includes(':')) {
    if (sch.length > 0)
      problems.push('Cannot declare schema both individually and inside the header');
    sch = header;
  }
  let columns: ExpectedColumn[];
  const typed = sch.trim().length > 0;
  if (typed) {
    columns = tokenize(sch).map((col) => {
      const parts = col.trim().split(':');
      if (parts.length !== 2) {
        problems.push(
          `If at least one column has a type associated with it, all columns should have types: [${col}]`,
        );
        return { name: parts[0]!.trim(), type: null };
      }
      return { name: parts[0]!.trim(), type: resolveColumnType(parts[1]!.trim()) };
    });
  } else {
    columns = splitCells(header).map((name) => ({ name, type: null }));
  }
  let rest = lines.slice(1);
  if (rest.length > 0 && rest[0]!.startsWith('----')) rest = rest.slice(1);
  const rows: string[][] = [];
  for (const l of rest) {
    const cells = splitCells(l);
    if (cells.length !== columns.length) {
      problems.push(
        `Wrong column count on line [${l}]: read ${cells.length}, expected ${columns.length}`,
      );
    }
    rows.push(cells);
  }
  return { columns, rows, typed, problems };
}

const capitalize = (s: string) => (s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1));

/** Parses a csv-spec text; `file` labels the cases. Throws on duplicate names or a dangling test. */
export function parseCsvSpec(text: string, file = '<memory>'): CsvSpecCase[] {
  const out: CsvSpecCase[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  let name: string | null = null;
  let nameLine = 0;
  let inResults = false;
  let schema = '';
  let query: string[] = [];
  let caseQuery = '';
  let caseSchema = '';
  let data: string[] = [];
  /** Where each line of `data` was read. */
  let dataLines: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0 || line.startsWith('//')) continue;
    if (name === null) {
      const testName = capitalize(line);
      // upstream checks the raw line against capitalised keys, so only names that already start
      // upper-case are caught as duplicates (several files repeat lower-case names)
      if (seen.has(line)) {
        throw new Error(
          `Duplicate test name '${line}' at line ${i + 1} (previously seen at line ${seen.get(testName)})`,
        );
      }
      seen.set(testName, i + 1);
      name = line;
      nameLine = i + 1;
      continue;
    }
    if (!inResults) {
      if (line.startsWith(SCHEMA_PREFIX)) {
        if (schema.length > 0)
          throw new Error(`Early schema already declared ${schema} (line ${i + 1})`);
        schema = line.slice(SCHEMA_PREFIX.length).trim();
      } else if (line.endsWith(';') || (line === '}' && query[0] === '{')) {
        // a REST-body snippet (`{"query": ..., "time_zone": ...}`) has no `;`: it ends at its
        // closing brace. Upstream reads on to the next `;` line, takes the following case as
        // this one's table and so never runs that case.
        query.push(line.endsWith(';') ? line.slice(0, -1).trim() : line);
        caseQuery = query.join('\n');
        caseSchema = schema;
        schema = '';
        query = [];
        inResults = true;
      } else {
        query.push(line);
      }
      continue;
    }
    // A statement line where a table row should be: the case has no table (a snippet showing an
    // error) and the lines read since are the next case's name and statement. Upstream reads
    // them as rows and loses that case; here the case ends and they are read again as a case.
    const tableless = !line.startsWith(';') && line.endsWith(';') && dataLines.length > 0;
    if (line.startsWith(';') || tableless) {
      const expectedText = tableless ? '' : data.join('\n');
      out.push({
        file,
        name,
        testName: capitalize(name),
        ignored: name.endsWith('-Ignore'),
        line: nameLine,
        query: caseQuery,
        schema: caseSchema.length > 0 ? caseSchema : null,
        expectedText,
        expected: parseExpectedTable(caseSchema.length > 0 ? caseSchema : null, expectedText),
      });
      name = null;
      inResults = false;
      if (tableless) i = dataLines[0]! - 1;
      data = [];
      dataLines = [];
    } else {
      data.push(line);
      dataLines.push(i);
    }
  }
  if (name !== null) throw new Error(`Read a test without a body at the end of [${file}].`);
  return out;
}

export function parseCsvSpecFile(path: string, label = path): CsvSpecCase[] {
  return parseCsvSpec(readFileSync(path, 'utf8'), label);
}
