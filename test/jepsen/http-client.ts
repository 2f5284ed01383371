/**
 * A small HTTP client for the fault test: every request leaves from a fixed source address (so no
 * partition rule between node addresses ever catches the test's own clients) and is bounded by a
 * timeout after which the socket is destroyed. Errors keep their `code` for the ES classifier.
 */
import { Agent, request } from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface HttpClient {
  call(url: string, method?: string, body?: unknown, timeoutMs?: number): Promise<HttpAnswer>;
  close(): void;
}

export function createHttpClient(localAddress: string, defaultTimeoutMs = 10_000): HttpClient {
  // Keep-alive: a fresh connection per op would cost more than the op on two cores.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress });
  return {
    call(url, method = 'GET', body, timeoutMs = defaultTimeoutMs) {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const req = request(
          url,
          {
            method,
            agent,
            localAddress,
            headers: payload
              ? { 'content-type': 'application/json', 'content-length': payload.length }
              : {},
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              clearTimeout(timer);
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = null;
              try {
                parsed = text ? JSON.parse(text) : null;
              } catch {
                parsed = { error: { type: 'unparsable_body', reason: text.slice(0, 200) } };
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
            res.on('error', (e) => {
              clearTimeout(timer);
              reject(e);
            });
          },
        );
        const timer = setTimeout(() => {
          const e = Object.assign(new Error(`timeout after ${timeoutMs} ms`), { code: 'ETIMEOUT' });
          req.destroy(e);
        }, timeoutMs);
        req.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
