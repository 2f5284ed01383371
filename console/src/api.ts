/**
 * Calls to the node the console was served by. With security on, a 401 opens the login form and
 * the call is retried with basic auth; credentials live in sessionStorage (gone with the tab).
 */
export interface Answer {
  readonly status: number;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown;
  readonly ms: number;
  readonly contentType: string;
}

const CREDENTIALS = 'quarry.console.auth';

/** Asks the user for a name and password; resolves with the `Basic` header value. */
export type LoginPrompt = (message: string) => Promise<string>;

let prompt: LoginPrompt | null = null;
let pendingLogin: Promise<string> | null = null;

export function onLogin(p: LoginPrompt): void {
  prompt = p;
}

export function currentUser(): string | null {
  const auth = sessionStorage.getItem(CREDENTIALS);
  if (!auth) return null;
  try {
    return atob(auth.slice('Basic '.length)).split(':')[0] ?? null;
  } catch {
    return null;
  }
}

export function logout(): void {
  sessionStorage.removeItem(CREDENTIALS);
}

export const basicAuth = (user: string, password: string): string =>
  'Basic ' + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)));

export async function call(
  method: string,
  path: string,
  body?: string | null,
  contentType = 'application/json',
): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = sessionStorage.getItem(CREDENTIALS);
    if (auth) headers['authorization'] = auth;
    if (body) headers['content-type'] = contentType;
    const t0 = performance.now();
    // `omit`: a 401's Basic challenge then comes back to this code instead of the browser's own
    // credentials dialog (which a headless browser would wait on forever); the header is ours
    const res = await fetch(path, {
      method,
      headers,
      body: body || undefined,
      credentials: 'omit',
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status === 401 && prompt && attempt < 5) {
      // one form for all the calls that were refused at once
      pendingLogin ??= prompt(
        auth ? 'Wrong user name or password.' : 'This node requires a login.',
      ).finally(() => (pendingLogin = null));
      sessionStorage.setItem(CREDENTIALS, await pendingLogin);
      continue;
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: res.status,
      text,
      json,
      ms,
      contentType: res.headers.get('content-type') ?? '',
    };
  }
}

/** A call that must succeed: its JSON, or an Error with ES's reason. */
export async function get(path: string, body?: unknown): Promise<any> {
  const a = await call(
    body === undefined ? 'GET' : 'POST',
    path,
    body === undefined ? null : JSON.stringify(body),
  );
  if (a.status >= 400) {
    const e = (a.json as any)?.error;
    throw new Error(typeof e === 'string' ? e : (e?.reason ?? `HTTP ${a.status}`));
  }
  return a.json;
}
