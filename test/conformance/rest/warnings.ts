/**
 * `Warning` response headers against a `do` step's `warnings` (ES: DoSection.checkWarningHeaders,
 * DeprecationLogger.WARNING_HEADER_PATTERN / escapeAndEncode). Every header must be RFC 7234
 * shaped, every expected warning must arrive, and — in strict mode, as upstream — no other
 * deprecation warning may arrive. As the upstream runner does against a 6.x master, the
 * default-shards and `[types removal]` warnings are always allowed.
 */

const WARNING_HEADER =
  /^299 Elasticsearch-\d+\.\d+\.\d+(?:-(?:alpha|beta|rc)\d+)?(?:-SNAPSHOT)?-(?:[a-f0-9]{7}|Unknown) "((?:\t| |!|[\x23-\x5B]|[\x5D-\x7E]|[\x80-\xFF]|\\\\|\\")*)"(?: "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT")?$/;

const DEFAULT_SHARDS_WARNING =
  'the default number of shards will change from [5] to [1] in 7.0.0; if you wish to continue using the default of [5] shards, you must manage this on the create index request or with an index template';

/** DeprecationLogger.escapeAndEncode: backslash-escape `\` and `"`, percent-encode the rest. */
export function escapeAndEncode(s: string): string {
  const escaped = s.replace(/[\\"]/g, '\\$&');
  let out = '';
  let pending = '';
  const flush = (): void => {
    for (const b of Buffer.from(pending, 'utf8'))
      out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    pending = '';
  };
  for (const ch of escaped) {
    const c = ch.charCodeAt(0);
    const plain =
      ch.length === 1 &&
      (c === 9 ||
        c === 32 ||
        c === 33 ||
        c === 0x5c ||
        c === 0x22 ||
        (c >= 0x23 && c <= 0x24) ||
        (c >= 0x26 && c <= 0x5b) ||
        (c >= 0x5d && c <= 0x7e) ||
        (c >= 0x80 && c <= 0xff));
    if (plain) {
      flush();
      out += ch;
    } else pending += ch;
  }
  flush();
  return out;
}

/** The encoded warning value of a header, or null when the header is not RFC 7234 shaped. */
export function warningValue(header: string): string | null {
  const m = WARNING_HEADER.exec(header);
  return m ? m[1]! : null;
}

export interface WarningCheck {
  unexpected: string[];
  unmatched: string[];
  missing: string[];
}

export function checkWarnings(
  headers: readonly string[],
  expected: readonly string[],
  allowed: readonly string[],
  strict: boolean,
): WarningCheck {
  const want = new Map<string, string>();
  for (const w of expected) want.set(escapeAndEncode(w), w);
  const allow = new Set(allowed.map(escapeAndEncode));
  const result: WarningCheck = { unexpected: [], unmatched: [], missing: [] };
  for (const header of headers) {
    const value = warningValue(header);
    if (value === null) {
      result.unmatched.push(header);
      continue;
    }
    if (value === DEFAULT_SHARDS_WARNING || value.startsWith('[types removal]')) continue;
    if (allow.has(value)) continue;
    if (want.delete(value)) continue;
    if (strict) result.unexpected.push(header);
  }
  result.missing = [...want.values()];
  return result;
}

/** The failure text upstream builds, or null when the headers are as expected. */
export function warningFailure(check: WarningCheck): string | null {
  const parts: string[] = [];
  const add = (list: string[], what: string): void => {
    if (list.length > 0) parts.push(`${what}${list.length > 1 ? 's' : ''} [${list.join(' | ')}]`);
  };
  add(check.unexpected, 'got unexpected warning header');
  add(check.unmatched, 'got unmatched warning header');
  add(check.missing, 'did not get expected warning header');
  return parts.length > 0 ? parts.join('; ') : null;
}
