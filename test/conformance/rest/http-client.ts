/**
 * A minimal HTTP client for the runner on node:http (fetch refuses GET bodies, which the search
 * APIs need). Keeps every `Warning` header separately (node joins repeated headers), and parses
 * the body by content type like ClientYamlTestResponse: JSON and YAML are parsed, anything else
 * (the `_cat` text tables) stays a string.
 */
import { Agent, request as httpRequest } from 'node:http';
import { parseYamlBody } from './yaml-load.js';

export interface HttpRequest {
  method: string;
  /** Path with query string. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  contentType: string | null;
  warnings: string[];
  /** Raw body text ('' when there is none). */
  text: string;
  hasBody: boolean;
  /** The parsed body (JSON/YAML), or undefined for text or no body. */
  parsed: unknown;
  parseError?: string;
}

export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly bases: URL[];
  /** mulberry32 state: with several nodes, each request goes to one chosen at random (seeded). */
  private seed: number;

  constructor(
    baseUrl: string | readonly string[],
    private readonly timeoutMs = 60_000,
    seed = 1,
  ) {
    this.bases = (typeof baseUrl === 'string' ? [baseUrl] : baseUrl).map((u) => new URL(u));
    this.seed = seed >>> 0;
  }

  get url(): string {
    return this.bases.map((b) => b.origin).join(',');
  }

  private get base(): URL {
    if (this.bases.length === 1) return this.bases[0]!;
    let t = (this.seed = (this.seed + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return this.bases[Math.floor(r * this.bases.length)]!;
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    const base = this.base;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body) headers['Content-Length'] = String(req.body.length);
      const r = httpRequest(
        {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port,
          method: req.method,
          path: req.path,
          headers,
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const warnings: string[] = [];
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
              if (res.rawHeaders[i]!.toLowerCase() === 'warning')
                warnings.push(res.rawHeaders[i + 1]!);
            }
            const raw = Buffer.concat(chunks);
            const contentType = (res.headers['content-type'] as string | undefined) ?? null;
            resolve(
              decodeBody(
                res.statusCode ?? 0,
                res.statusMessage ?? '',
                contentType,
                warnings,
                raw,
                req.method !== 'HEAD',
              ),
            );
          });
        },
      );
      r.on('timeout', () => r.destroy(new Error(`request timed out after ${this.timeoutMs}ms`)));
      r.on('error', reject);
      if (req.body) r.write(req.body);
      r.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export type BodyFormat = 'json' | 'yaml' | 'smile' | 'cbor' | null;

/** XContentType.fromMediaTypeOrFormat. */
export function bodyFormat(contentType: string | null): BodyFormat {
  if (!contentType) return null;
  const t = contentType.toLowerCase().trim();
  const is = (mime: string, short: string): boolean =>
    t === mime || t.startsWith(mime + ';') || t === short;
  if (is('application/json', 'json')) return 'json';
  if (is('application/yaml', 'yaml')) return 'yaml';
  if (is('application/smile', 'smile')) return 'smile';
  if (is('application/cbor', 'cbor')) return 'cbor';
  if (t.startsWith('application/*')) return 'json';
  return null;
}

export function decodeBody(
  status: number,
  statusText: string,
  contentType: string | null,
  warnings: string[],
  raw: Buffer,
  hasEntity: boolean,
): HttpResponse {
  const text = raw.toString('utf8');
  const res: HttpResponse = {
    status,
    statusText,
    contentType,
    warnings,
    text,
    hasBody: hasEntity,
    parsed: undefined,
  };
  if (!hasEntity) return res;
  const format = bodyFormat(contentType);
  try {
    if (format === 'json') {
      // Jackson's readMap on an empty entity gives an empty map.
      res.parsed = text.trim() === '' ? {} : JSON.parse(text);
    } else if (format === 'yaml') {
      res.parsed = text.trim() === '' ? {} : (parseYamlBody(text) ?? {});
    } else if (format !== null) {
      res.parseError = `cannot parse a ${format} response body`;
    }
  } catch (e) {
    res.parseError = `unable to parse the ${format} response body: ${(e as Error).message}`;
  }
  return res;
}
