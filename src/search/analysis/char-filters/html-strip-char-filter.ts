/**
 * ES `html_strip` (Lucene HTMLStripCharFilter): removes tags, comments and processing
 * instructions, replaces block-level elements (and script/style elements) with a newline,
 * decodes character entities, and keeps `escaped_tags` verbatim.
 */
import { OffsetMap, type CharFilter } from './offset-map.js';

const BLOCK = new Set(
  (
    'address article aside blockquote body br button caption center col colgroup dd del dir div ' +
    'dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header ' +
    'hgroup hr html iframe ins isindex li map menu nav noframes noscript object ol optgroup option ' +
    'output p pre section table tbody td tfoot th thead title tr ul'
  ).split(' '),
);

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  deg: '°',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  times: '×',
  divide: '÷',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  euml: 'ë',
  aacute: 'á',
  agrave: 'à',
  acirc: 'â',
  auml: 'ä',
  aring: 'å',
  atilde: 'ã',
  ccedil: 'ç',
  iacute: 'í',
  igrave: 'ì',
  icirc: 'î',
  iuml: 'ï',
  ntilde: 'ñ',
  oacute: 'ó',
  ograve: 'ò',
  ocirc: 'ô',
  ouml: 'ö',
  otilde: 'õ',
  oslash: 'ø',
  uacute: 'ú',
  ugrave: 'ù',
  ucirc: 'û',
  uuml: 'ü',
  yacute: 'ý',
  yuml: 'ÿ',
  szlig: 'ß',
  aelig: 'æ',
  Eacute: 'É',
  Agrave: 'À',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  Ccedil: 'Ç',
  Ntilde: 'Ñ',
};

const TAG =
  /^<(\/?)([a-zA-Z][a-zA-Z0-9:_-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/;
const ENTITY = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));?/;

export class HtmlStripCharFilter implements CharFilter {
  private readonly escaped: Set<string>;

  constructor(
    readonly name: string,
    escapedTags: readonly string[] = [],
  ) {
    this.escaped = new Set(escapedTags.map((t) => t.toLowerCase()));
  }

  apply(text: string): { text: string; map: OffsetMap } {
    const om = new OffsetMap();
    let out = '';
    let i = 0;
    const emit = (inLen: number, repl: string) => {
      om.replaced(i, inLen, repl.length);
      out += repl;
      i += inLen;
    };
    while (i < text.length) {
      const c = text[i];
      if (c === '<') {
        const rest = text.slice(i, i + 4096);
        if (rest.startsWith('<!--')) {
          const e = text.indexOf('-->', i + 4);
          emit((e < 0 ? text.length : e + 3) - i, '');
          continue;
        }
        if (rest.startsWith('<!') || rest.startsWith('<?')) {
          const e = text.indexOf('>', i + 2);
          if (e >= 0) {
            emit(e + 1 - i, '');
            continue;
          }
        }
        const m = TAG.exec(rest);
        if (m !== null) {
          const name = m[2]!.toLowerCase();
          if (this.escaped.has(name)) {
            out += m[0];
            i += m[0].length;
            continue;
          }
          if (m[1] === '' && (name === 'script' || name === 'style')) {
            const close = new RegExp(`</${name}\\s*>`, 'i');
            close.lastIndex = 0;
            const after = text.slice(i + m[0].length);
            const cm = close.exec(after);
            const end = cm === null ? text.length : i + m[0].length + cm.index + cm[0].length;
            emit(end - i, '\n');
            continue;
          }
          emit(m[0].length, BLOCK.has(name) ? '\n' : '');
          continue;
        }
      } else if (c === '&') {
        const m = ENTITY.exec(text.slice(i, i + 40));
        if (m !== null) {
          let repl: string | undefined;
          if (m[1] !== undefined) repl = safeFromCodePoint(parseInt(m[1], 10));
          else if (m[2] !== undefined) repl = safeFromCodePoint(parseInt(m[2], 16));
          else repl = ENTITIES[m[3]!];
          if (repl !== undefined) {
            emit(m[0].length, repl);
            continue;
          }
        }
      }
      out += c;
      i++;
    }
    return { text: out, map: om };
  }
}

function safeFromCodePoint(cp: number): string | undefined {
  return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
}
