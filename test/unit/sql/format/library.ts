/** The `library` rows of sql/docs/rest.asciidoc, as runtime values. */
import { DateTimeValue } from '../../../../src/functions/values.js';
import type { ColumnInfo } from '../../../../src/sql/format/text.js';

const d = (iso: string) => new DateTimeValue(Date.parse(iso));

export const LIBRARY_COLUMNS: ColumnInfo[] = [
  { name: 'author', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'page_count', type: 'short' },
  { name: 'release_date', type: 'datetime' },
];

export const LIBRARY_PAGE1: unknown[][] = [
  ['Peter F. Hamilton', "Pandora's Star", 768, d('2004-03-02T00:00:00.000Z')],
  ['Vernor Vinge', 'A Fire Upon the Deep', 613, d('1992-06-01T00:00:00.000Z')],
  ['Frank Herbert', 'Dune', 604, d('1965-06-01T00:00:00.000Z')],
  ['Alastair Reynolds', 'Revelation Space', 585, d('2000-03-15T00:00:00.000Z')],
  ['James S.A. Corey', 'Leviathan Wakes', 561, d('2011-06-02T00:00:00.000Z')],
];

export const LIBRARY_PAGE2: unknown[][] = [
  ['Dan Simmons', 'Hyperion', 482, d('1989-05-26T00:00:00.000Z')],
  ['Iain M. Banks', 'Consider Phlebas', 471, d('1987-04-23T00:00:00.000Z')],
  ['Neal Stephenson', 'Snow Crash', 470, d('1992-06-01T00:00:00.000Z')],
  ['Frank Herbert', 'God Emperor of Dune', 454, d('1981-05-28T00:00:00.000Z')],
  ['Frank Herbert', 'Children of Dune', 408, d('1976-04-21T00:00:00.000Z')],
];
