/**
 * Elasticsearch-style path router (ES: PathTrie + RestController). Paths are matched segment by
 * segment, static segments win over `{param}` segments, and a path that exists for other methods
 * gives a 405 with the allowed methods, as ES does.
 */

import { decodeComponent } from './url-decode.js';

/** ES RestRequest.Method; no route takes PATCH or TRACE, so they answer 405 or 400 as in ES. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH' | 'TRACE';

export interface RouteMatch<H> {
  handler: H;
  params: Record<string, string>;
}

/** Marks a method and path of an Elasticsearch API that Quarry has no handler for. */
const RESERVED = Symbol('reserved');

interface TrieNode<H> {
  statics: Map<string, TrieNode<H>>;
  param: { name: string; node: TrieNode<H> } | null;
  handlers: Map<HttpMethod, H | typeof RESERVED>;
}

const newNode = <H>(): TrieNode<H> => ({ statics: new Map(), param: null, handlers: new Map() });

/** How many distinct method and path pairs `find` remembers the match of. */
const FOUND_MEMO_SIZE = 512;

export class Router<H> {
  private readonly root: TrieNode<H> = newNode();
  /**
   * The matches of recent method and path pairs: clients repeat a few paths (`/logs/_search`,
   * `/_bulk`), and the walk (split, percent-decode, trie) costs more than a lookup. Emptied when a
   * route is added; oldest first out.
   */
  private readonly found = new Map<string, RouteMatch<H>>();

  /** `pattern` like `/{index}/_doc/{id}`. */
  add(methods: HttpMethod | HttpMethod[], pattern: string, handler: H): void {
    this.found.clear();
    let node = this.root;
    for (const seg of splitPath(pattern)) {
      if (seg.startsWith('{') && seg.endsWith('}')) {
        const name = seg.slice(1, -1);
        if (!node.param) node.param = { name, node: newNode() };
        else if (node.param.name !== name)
          throw new Error(`conflicting parameter names [${node.param.name}] and [${name}]`);
        node = node.param.node;
      } else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    for (const m of Array.isArray(methods) ? methods : [methods]) {
      if (node.handlers.has(m)) throw new Error(`duplicate route ${m} ${pattern}`);
      node.handlers.set(m, handler);
    }
  }

  /**
   * Reserves a method and path of an Elasticsearch API that has no handler here: a request to it
   * answers as a path without a route (ES's 400 `no handler found`) instead of falling through
   * to a broader route, as `POST /logs/_rollover` fell through to `POST /{index}/{type}` and
   * was stored as a document. Parameters adopt the names already registered at their position;
   * a method that already has a handler there is left alone.
   */
  reserve(methods: readonly HttpMethod[], pattern: string): void {
    this.found.clear();
    let node = this.root;
    for (const seg of splitPath(pattern)) {
      if (seg.startsWith('{') && seg.endsWith('}')) {
        if (!node.param) node.param = { name: seg.slice(1, -1), node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    for (const m of methods) if (!node.handlers.has(m)) node.handlers.set(m, RESERVED);
  }

  /**
   * Finds the handler for a method and raw (still percent-encoded) path. Returns `allowed` with
   * the methods of the best-matching path when the method does not match. Throws ES's
   * illegal_argument_exception for a malformed percent escape.
   */
  find(method: HttpMethod, rawPath: string): RouteMatch<H> | { allowed: HttpMethod[] } | null {
    const key = `${method} ${rawPath}`;
    const hit = this.found.get(key);
    // a copy of the parameters: handlers own theirs
    if (hit !== undefined) return { handler: hit.handler, params: { ...hit.params } };
    const m = this.walk(method, rawPath);
    if (m !== null && 'handler' in m) {
      if (this.found.size >= FOUND_MEMO_SIZE) this.found.delete(this.found.keys().next().value!);
      this.found.set(key, { handler: m.handler, params: { ...m.params } });
    }
    return m;
  }

  private walk(
    method: HttpMethod,
    rawPath: string,
  ): RouteMatch<H> | { allowed: HttpMethod[] } | null {
    const segs = splitPath(rawPath).map(decodeComponent);
    let allowed: HttpMethod[] | null = null;
    const params: Record<string, string> = {};
    // Depth-first, static before param, first full match with the method wins.
    const walk = (node: TrieNode<H>, i: number): H | typeof RESERVED | null => {
      if (i === segs.length) {
        const h = node.handlers.get(method);
        if (h) return h;
        if (node.handlers.size > 0 && !allowed) allowed = [...node.handlers.keys()];
        return null;
      }
      const seg = segs[i]!;
      const st = node.statics.get(seg);
      if (st) {
        const h = walk(st, i + 1);
        if (h) return h;
      }
      if (node.param && seg.length > 0) {
        params[node.param.name] = seg;
        const h = walk(node.param.node, i + 1);
        if (h) return h;
        delete params[node.param.name];
      }
      return null;
    };
    const h = walk(this.root, 0);
    if (h === RESERVED) return null;
    if (h) return { handler: h, params };
    if (allowed) return { allowed };
    return null;
  }
}

function splitPath(path: string): string[] {
  const q = path.indexOf('?');
  const p = q >= 0 ? path.slice(0, q) : path;
  return p.split('/').filter((s) => s.length > 0);
}
