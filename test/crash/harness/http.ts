/**
 * Minimal JSON-over-HTTP client for the crash harness. Any transport failure (the node was
 * killed mid-request) surfaces as `TransportError`, which the writers treat as "outcome unknown".
 */
export class TransportError extends Error {}

export interface JsonResponse {
  status: number;
  json: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<JsonResponse> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(base + path, {
      method,
      ...(body !== undefined
        ? {
            body: typeof body === 'string' ? body : JSON.stringify(body),
            headers: { 'content-type': contentType },
          }
        : {}),
    });
    text = await res.text();
  } catch (e) {
    throw new TransportError(`${method} ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = text.length ? JSON.parse(text) : undefined;
  } catch {
    throw new Error(
      `${method} ${path}: unparsable response (${res.status}): ${text.slice(0, 300)}`,
    );
  }
  return { status: res.status, json };
}

export function ndjson(lines: unknown[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
