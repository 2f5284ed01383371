/**
 * REST API specs (`rest-api-spec/api/*.json`, 6.8 layout) and turning a `do` call into an HTTP
 * request as the upstream client runner does (ES: ClientYamlTestClient, ClientYamlSuiteRestApi,
 * ClientYamlSuiteRestPath): params named as URL parts fill the most specific path whose parts are
 * all given, the rest go to the query string, `ignore` stays client-side, required parts/params
 * and body are checked (a failure is the `catch: param` error), and the method is the first the
 * spec lists (index/create: PUT with an id, POST without).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ApiSpec {
  name: string;
  methods: string[];
  paths: ParsedPath[];
  parts: Map<string, { required: boolean }>;
  params: Map<string, { required: boolean }>;
  body: 'none' | 'optional' | 'required';
  /** `serialize: bulk` — newline-delimited bodies (bulk, msearch). */
  bulkBody: boolean;
}

export interface ParsedPath {
  /** e.g. `/{index}/{type}/_search` */
  template: string;
  segments: { text: string; placeholder: boolean }[];
  placeholders: string[];
}

export interface ApiSpecs {
  apis: Map<string, ApiSpec>;
  /** `_common.json` params, accepted by every API. */
  globalParams: Set<string>;
}

/** A client-side rejection of a `do` call (upstream: IllegalArgumentException → `catch: param`). */
export class ParamError extends Error {}

export function parsePath(template: string): ParsedPath {
  const segments: ParsedPath['segments'] = [];
  const placeholders: string[] = [];
  for (const seg of template.split('/')) {
    if (seg.length === 0) continue;
    if (seg.startsWith('{')) {
      if (seg.indexOf('}') !== seg.length - 1) {
        throw new Error(`more than one parameter found in the same path part: [${seg}]`);
      }
      const name = seg.slice(1, -1);
      segments.push({ text: name, placeholder: true });
      placeholders.push(name);
    } else {
      segments.push({ text: seg, placeholder: false });
    }
  }
  return { template, segments, placeholders };
}

export function parseApiSpec(name: string, json: Record<string, unknown>): ApiSpec {
  const url = (json['url'] ?? {}) as Record<string, unknown>;
  const flag = (o: unknown): { required: boolean } => ({
    required: !!(o && typeof o === 'object' && (o as { required?: unknown }).required === true),
  });
  const toMap = (o: unknown): Map<string, { required: boolean }> =>
    new Map(Object.entries((o ?? {}) as Record<string, unknown>).map(([k, v]) => [k, flag(v)]));
  const body = json['body'] as Record<string, unknown> | null | undefined;
  const rawPaths =
    (url['paths'] as string[] | undefined) ?? (url['path'] ? [url['path'] as string] : []);
  return {
    name,
    methods: ((json['methods'] as string[] | undefined) ?? []).map((m) => m.toUpperCase()),
    paths: rawPaths.map(parsePath),
    parts: toMap(url['parts']),
    params: toMap(url['params']),
    body: !body ? 'none' : body['required'] === true ? 'required' : 'optional',
    bulkBody: !!body && body['serialize'] === 'bulk',
  };
}

/** Reads every `<api>.json` in `dir` plus `_common.json`. */
export function loadApiSpecs(dir: string): ApiSpecs {
  const apis = new Map<string, ApiSpec>();
  const globalParams = new Set<string>();
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    const json = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
    if (f === '_common.json') {
      for (const p of Object.keys((json['params'] ?? {}) as object)) globalParams.add(p);
      continue;
    }
    for (const [name, def] of Object.entries(json)) {
      apis.set(name, parseApiSpec(name, def as Record<string, unknown>));
    }
  }
  return { apis, globalParams };
}

export interface BuiltRequest {
  method: string;
  /** Encoded path, without query string. */
  path: string;
  /** Query string parameters in call order (already stash-resolved strings). */
  query: [string, string][];
  /** Status codes the client must not treat as errors (`ignore`, and 404 for HEAD). */
  ignore: Set<number>;
}

/**
 * Chooses path, method and query string for an API call. `params` values are the strings the YAML
 * gave (lists already joined with `,`). Throws `ParamError` as the upstream client would.
 */
export function buildRequest(
  specs: ApiSpecs,
  apiName: string,
  params: ReadonlyMap<string, string>,
  hasBody: boolean,
): BuiltRequest {
  const api = specs.apis.get(apiName);
  if (!api) throw new ParamError(`rest api [${apiName}] doesn't exist in the rest spec`);

  const given = new Set(params.keys());
  const path = bestPath(api, given);
  const pathParts = new Map<string, string>();
  const query: [string, string][] = [];
  let ignore = '';
  const requiredParams = new Set([...api.params].filter(([, v]) => v.required).map(([k]) => k));
  for (const [k, v] of params) {
    if (path.placeholders.includes(k)) {
      pathParts.set(k, v);
    } else if (k === 'ignore') {
      ignore = v;
    } else if (api.params.has(k) || specs.globalParams.has(k)) {
      query.push([k, v]);
      requiredParams.delete(k);
    } else {
      throw new ParamError(`path/param [${k}] not supported by [${apiName}] api`);
    }
  }
  const missingParts = [...api.parts]
    .filter(([k, v]) => v.required && !pathParts.has(k))
    .map(([k]) => k);
  if (missingParts.length > 0) {
    throw new ParamError(
      `missing required path part: [${missingParts.join(', ')}] by [${apiName}] api`,
    );
  }
  if (requiredParams.size > 0) {
    throw new ParamError(
      `missing required parameter: [${[...requiredParams].join(', ')}] by [${apiName}] api`,
    );
  }
  if (hasBody && api.body === 'none')
    throw new ParamError(`body is not supported by [${apiName}] api`);
  if (!hasBody && api.body === 'required')
    throw new ParamError(`body is required by [${apiName}] api`);

  const encoded = path.segments.map((s) =>
    s.placeholder ? encodePathPart(pathParts.get(s.text)!) : s.text,
  );
  const method = chooseMethod(api, pathParts.has('id'), hasBody);
  const ignoreCodes = new Set<number>();
  for (const c of ignore.split(',')) if (c.trim() !== '') ignoreCodes.add(Number(c.trim()));
  if (method === 'HEAD') ignoreCodes.add(404); // RestClient: HEAD 404 is an answer, not an error
  return { method, path: '/' + encoded.join('/'), query, ignore: ignoreCodes };
}

/**
 * ClientYamlSuiteRestApi path matching: among the paths whose placeholders are all given, the one
 * with the most placeholders (the first listed on a tie — upstream picks one at random).
 */
export function bestPath(api: ApiSpec, given: ReadonlySet<string>): ParsedPath {
  let best: ParsedPath | null = null;
  for (const p of api.paths) {
    if (!p.placeholders.every((ph) => given.has(ph))) continue;
    if (!best || p.placeholders.length > best.placeholders.length) best = p;
  }
  if (!best) {
    const parts = [...given].filter((g) => api.parts.has(g));
    throw new ParamError(
      `unable to find matching rest path for api [${api.name}] and path params [${parts.join(', ')}]`,
    );
  }
  return best;
}

/** Upstream picks a random supported method; this runner takes the first usable one. */
function chooseMethod(api: ApiSpec, hasId: boolean, hasBody: boolean): string {
  let methods = api.methods;
  if (api.name === 'index' || api.name === 'create') {
    // ClientYamlSuiteRestApi.getSupportedMethods: PUT when an id is given, POST otherwise.
    methods = methods.filter((m) => (hasId ? m === 'PUT' : m === 'POST'));
  }
  if (hasBody) {
    const withBody = methods.filter((m) => m !== 'HEAD');
    if (withBody.length > 0) methods = withBody;
  }
  const m = methods[0];
  if (!m) throw new ParamError(`no usable HTTP method for [${api.name}] api`);
  return m;
}

/**
 * Percent-encodes one path part as `new URI(null, null, null, -1, "/" + part, null, null)`
 * followed by escaping `/` does: URI path characters stay, everything else is UTF-8 encoded
 * (non-ASCII too, which the Java URI keeps raw but the wire carries as UTF-8 anyway).
 */
export function encodePathPart(part: string): string {
  let out = '';
  for (const ch of part) {
    if (/^[A-Za-z0-9\-_.!~*'(),;:$&+=@]$/.test(ch)) out += ch;
    else
      for (const b of Buffer.from(ch, 'utf8'))
        out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Query string as the RestClient sends it (URLEncodedUtils: spaces as `+`). */
export function encodeQuery(query: readonly [string, string][]): string {
  if (query.length === 0) return '';
  return '?' + query.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');
}

function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}
