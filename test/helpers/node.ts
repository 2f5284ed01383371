/** Starts a real node on an ephemeral port with a fresh temporary data path, for HTTP tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode, type RunningNode } from '../../src/node.js';

export interface TestNode extends RunningNode {
  dataPath: string;
  /** fetch() against the node; JSON bodies are serialised. */
  req(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    headers: Headers;
    text: string;
    json: any;
  }>;
  destroy(): Promise<void>;
}

export async function startTestNode(
  dataPath?: string,
  settings?: Record<string, string>,
): Promise<TestNode> {
  const dir = dataPath ?? mkdtempSync(join(tmpdir(), 'quarry-test-'));
  const node = await startNode({ dataPath: dir, port: 0, ...(settings ? { settings } : {}) });
  const req: TestNode['req'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(node.url + path, init);
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  return Object.assign(node, {
    dataPath: dir,
    req,
    async destroy() {
      await node.close();
      if (!dataPath) rmSync(dir, { recursive: true, force: true });
    },
  });
}
