/**
 * The CLI's HTTP client (ES sql-cli HttpClient, over the REST API instead of the binary protocol):
 * queries go to `POST /_sql?format=txt` in `cli` mode, so the server draws the text table; the
 * next page is asked for with the `Cursor` header's value, and `POST /_sql/close` frees it.
 * Failures carry ES's reason and whether the server (5xx) or the request was at fault.
 */

/** `txt`: the server's text table; `csv` and `json` as the server writes them. */
export type ResultFormat = 'txt' | 'csv' | 'json';

export interface QueryOptions {
  readonly fetchSize: number;
  readonly lenient: boolean;
  readonly format?: ResultFormat;
}

export interface TextPage {
  /** The text table (with the header on the first page only), as the server formats it. */
  readonly text: string;
  /** The cursor of the next page, or '' when this was the last. */
  readonly cursor: string;
}

export interface ServerInfo {
  readonly nodeName: string;
  readonly clusterName: string;
  readonly version: string;
  readonly buildHash: string;
  readonly buildDate: string;
  readonly luceneVersion: string;
}

/** What the REPL needs from a server (an interface so tests can stand in for it). */
export interface SqlClient {
  readonly url: string;
  query(sql: string, opts: QueryOptions): Promise<TextPage>;
  nextPage(cursor: string, format?: ResultFormat): Promise<TextPage>;
  close(cursor: string): Promise<void>;
  info(): Promise<ServerInfo>;
}

/** A failed request: `server` for 5xx answers (ES CLI "Server error" vs "Bad request"). */
export class CliRequestError extends Error {
  constructor(
    message: string,
    readonly server: boolean,
    readonly connection = false,
    readonly status = 0,
  ) {
    super(message);
  }
}

/** Splits `http://user:pass@host:9200/` into a base URL and a Basic authorization header. */
export function parseServerUrl(raw: string): { url: string; authorization: string | null } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  const u = new URL(withScheme);
  let authorization: string | null = null;
  if (u.username !== '') {
    const creds = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    authorization = `Basic ${Buffer.from(creds, 'utf8').toString('base64')}`;
    u.username = '';
    u.password = '';
  }
  return { url: u.toString().replace(/\/+$/, ''), authorization };
}

/** ES's reason out of an error body (`{"error":{"reason":...},"status":...}`), else the text. */
function reasonOf(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const err = body.error;
    if (typeof err === 'string') return err;
    if (err && typeof err === 'object') {
      const reason = (err as { reason?: unknown }).reason;
      if (typeof reason === 'string') return reason;
      const type = (err as { type?: unknown }).type;
      if (typeof type === 'string') return type;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() !== '' ? text.trim() : `HTTP ${status}`;
}

export const basicAuthorization = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/** A page of another format: json carries its cursor in the body, csv in the header. */
function pageOf(text: string, headers: Headers, format: ResultFormat): TextPage {
  if (format !== 'json') return { text, cursor: headers.get('cursor') ?? '' };
  const body = JSON.parse(text) as { cursor?: string };
  return { text: text.endsWith('\n') ? text : text + '\n', cursor: body.cursor ?? '' };
}

export class HttpSqlClient implements SqlClient {
  readonly url: string;
  private authorization: string | null;

  constructor(serverUrl: string) {
    const p = parseServerUrl(serverUrl);
    this.url = p.url;
    this.authorization = p.authorization;
  }

  /** Whether the url carried credentials. */
  get hasCredentials(): boolean {
    return this.authorization !== null;
  }

  setCredentials(user: string, password: string): void {
    this.authorization = basicAuthorization(user, password);
  }

  /** Whether the server asks for credentials (security on and none given, or wrong ones). */
  async needsAuthentication(): Promise<boolean> {
    try {
      await this.send('GET', '/');
      return false;
    } catch (e) {
      if (e instanceof CliRequestError && e.status === 401) return true;
      throw e;
    }
  }

  /** The rows of a statement as JSON (for tab completion). */
  async rows(sql: string): Promise<unknown[][]> {
    const r = await this.send('POST', '/_sql?format=json', { query: sql, mode: 'cli' });
    return (JSON.parse(r.text) as { rows?: unknown[][] }).rows ?? [];
  }

  private async send(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ text: string; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'text/plain, application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.authorization) headers.authorization = this.authorization;
    let res: Response;
    try {
      res = await fetch(this.url + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (e as Error).message;
      throw new CliRequestError(`Cannot connect to the server ${this.url} - ${why}`, true, true);
    }
    const text = await res.text();
    if (res.status >= 400)
      throw new CliRequestError(reasonOf(text, res.status), res.status >= 500, false, res.status);
    return { text, headers: res.headers };
  }

  async query(sql: string, opts: QueryOptions): Promise<TextPage> {
    const format = opts.format ?? 'txt';
    const r = await this.send('POST', `/_sql?format=${format}`, {
      query: sql,
      fetch_size: opts.fetchSize,
      field_multi_value_leniency: opts.lenient,
      mode: 'cli',
    });
    return pageOf(r.text, r.headers, format);
  }

  async nextPage(cursor: string, format: ResultFormat = 'txt'): Promise<TextPage> {
    const r = await this.send('POST', `/_sql?format=${format}`, { cursor, mode: 'cli' });
    return pageOf(r.text, r.headers, format);
  }

  async close(cursor: string): Promise<void> {
    await this.send('POST', '/_sql/close', { cursor, mode: 'cli' });
  }

  async info(): Promise<ServerInfo> {
    const r = await this.send('GET', '/');
    const b = JSON.parse(r.text) as {
      name?: string;
      cluster_name?: string;
      version?: {
        number?: string;
        build_hash?: string;
        build_date?: string;
        lucene_version?: string;
      };
    };
    return {
      nodeName: b.name ?? '',
      clusterName: b.cluster_name ?? '',
      version: b.version?.number ?? '',
      buildHash: b.version?.build_hash ?? '',
      buildDate: b.version?.build_date ?? '',
      luceneVersion: b.version?.lucene_version ?? '',
    };
  }
}
