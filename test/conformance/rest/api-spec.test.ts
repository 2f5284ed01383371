import { describe, expect, it } from 'vitest';
import {
  bestPath,
  buildRequest,
  encodePathPart,
  encodeQuery,
  loadApiSpecs,
  ParamError,
  parseApiSpec,
  type ApiSpecs,
} from './api-spec.js';
import { apiDirFor, DEFAULT_TESTS_DIR } from './paths.js';

const specs = loadApiSpecs(apiDirFor(DEFAULT_TESTS_DIR));
const params = (o: Record<string, string>): Map<string, string> => new Map(Object.entries(o));

describe('loading the 6.8 specs', () => {
  it('reads every API and the global params of _common.json', () => {
    expect(specs.apis.size).toBe(138);
    expect([...specs.globalParams].sort()).toEqual([
      'error_trace',
      'filter_path',
      'human',
      'pretty',
      'source',
    ]);
    const bulk = specs.apis.get('bulk')!;
    expect(bulk.bulkBody).toBe(true);
    expect(bulk.body).toBe('required');
    expect(specs.apis.get('search')!.methods).toEqual(['GET', 'POST']);
    expect(specs.apis.get('index')!.parts.get('index')).toEqual({ required: true });
  });
});

describe('path selection', () => {
  it('takes the most specific path whose parts are all given', () => {
    const search = specs.apis.get('search')!;
    expect(bestPath(search, new Set()).template).toBe('/_search');
    expect(bestPath(search, new Set(['index'])).template).toBe('/{index}/_search');
    expect(bestPath(search, new Set(['index', 'type'])).template).toBe('/{index}/{type}/_search');
  });

  it('takes the first listed path on a tie', () => {
    const putMapping = specs.apis.get('indices.put_mapping')!;
    expect(bestPath(putMapping, new Set(['index', 'type'])).template).toBe(
      '/{index}/{type}/_mapping',
    );
    expect(bestPath(putMapping, new Set(['type'])).template).toBe('/_mapping/{type}');
  });

  it('fills parts, encodes them and sends the rest as query string', () => {
    const r = buildRequest(
      specs,
      'search',
      params({ index: 'a,b', type: 't', q: 'x y', size: '3' }),
      false,
    );
    expect(r.method).toBe('GET');
    expect(r.path).toBe('/a,b/t/_search');
    expect(r.query).toEqual([
      ['q', 'x y'],
      ['size', '3'],
    ]);
    expect(encodeQuery(r.query)).toBe('?q=x+y&size=3');
  });

  it('escapes slashes and non-URI characters inside a part', () => {
    expect(encodePathPart('a/b')).toBe('a%2Fb');
    expect(encodePathPart('<logstash-{now/M}>')).toBe('%3Clogstash-%7Bnow%2FM%7D%3E');
    expect(encodePathPart('test-weird-index-中文')).toBe('test-weird-index-%E4%B8%AD%E6%96%87');
    expect(encodePathPart("a,b;c:d$e&f+g=h@i!j~k*l'(m)")).toBe("a,b;c:d$e&f+g=h@i!j~k*l'(m)");
    expect(encodePathPart('50%')).toBe('50%25');
    expect(encodePathPart('a b#c?d')).toBe('a%20b%23c%3Fd');
  });

  it('query values keep commas and reserved characters encoded', () => {
    expect(encodeQuery([['expand_wildcards', 'open,closed']])).toBe(
      '?expand_wildcards=open%2Cclosed',
    );
    expect(encodeQuery([['q', 'a&b=c']])).toBe('?q=a%26b%3Dc');
    expect(encodeQuery([])).toBe('');
  });
});

describe('methods', () => {
  it('index: PUT with an id, POST without', () => {
    expect(
      buildRequest(specs, 'index', params({ index: 'i', type: 't', id: '1' }), true),
    ).toMatchObject({
      method: 'PUT',
      path: '/i/t/1',
    });
    expect(buildRequest(specs, 'index', params({ index: 'i', type: 't' }), true)).toMatchObject({
      method: 'POST',
      path: '/i/t',
    });
  });

  it('uses the first listed method, GET with a body for GET+POST APIs', () => {
    expect(buildRequest(specs, 'search', params({}), true).method).toBe('GET');
    expect(buildRequest(specs, 'count', params({}), true).method).toBe('POST');
    expect(buildRequest(specs, 'indices.refresh', params({}), false).method).toBe('POST');
    expect(buildRequest(specs, 'clear_scroll', params({}), true).method).toBe('DELETE');
  });

  it('HEAD APIs treat 404 as an answer; ignore adds codes client-side', () => {
    const r = buildRequest(specs, 'exists', params({ index: 'i', type: 't', id: '1' }), false);
    expect(r.method).toBe('HEAD');
    expect([...r.ignore]).toEqual([404]);
    const g = buildRequest(
      specs,
      'get',
      params({ index: 'i', type: 't', id: '1', ignore: '404,400' }),
      false,
    );
    expect([...g.ignore].sort()).toEqual([400, 404]);
    expect(g.query).toEqual([]);
  });
});

describe('client-side rejections (catch: param)', () => {
  const rejects = (api: string, p: Record<string, string>, body: boolean, msg: RegExp): void => {
    expect(() => buildRequest(specs, api, params(p), body)).toThrow(ParamError);
    expect(() => buildRequest(specs, api, params(p), body)).toThrow(msg);
  };

  it('rejects unknown params and unknown APIs', () => {
    rejects(
      'get',
      { index: 'i', type: 't', id: '1', bogus: 'x' },
      false,
      /path\/param \[bogus\] not supported by \[get\] api/,
    );
    rejects('nope', {}, false, /rest api \[nope\] doesn't exist/);
  });

  it('rejects missing required parts, params and bodies', () => {
    rejects(
      'create',
      { index: 'test_1', type: 'test' },
      true,
      /unable to find matching rest path|missing required path part/,
    );
    rejects(
      'delete_by_query',
      { index: '_all' },
      false,
      /body is required by \[delete_by_query\] api/,
    );
    rejects('indices.put_mapping', {}, false, /body is required|unable to find/);
    rejects(
      'reindex_rethrottle',
      { task_id: 'x' },
      false,
      /missing required parameter: \[requests_per_second\]/,
    );
    rejects(
      'get',
      { index: 'i', type: 't', id: '1' },
      true,
      /body is not supported by \[get\] api/,
    );
  });

  it('accepts global params on every API', () => {
    const r = buildRequest(
      specs,
      'info',
      params({ filter_path: 'version.number', pretty: 'true' }),
      false,
    );
    expect(r.query).toEqual([
      ['filter_path', 'version.number'],
      ['pretty', 'true'],
    ]);
  });
});

describe('parseApiSpec', () => {
  it('reads the 6.8 layout (top-level methods, url.paths, parts, params, body)', () => {
    const s = parseApiSpec('x', {
      methods: ['put', 'POST'],
      url: {
        path: '/{a}',
        paths: ['/{a}', '{a}/_b/{c}'],
        parts: { a: { required: true }, c: {} },
        params: { p: {} },
      },
      body: { required: false },
    });
    expect(s.methods).toEqual(['PUT', 'POST']);
    expect(s.paths.map((p) => p.placeholders)).toEqual([['a'], ['a', 'c']]);
    expect(s.body).toBe('optional');
    const own: ApiSpecs = { apis: new Map([['x', s]]), globalParams: new Set() };
    expect(buildRequest(own, 'x', params({ a: 'A', c: 'C', p: '1' }), true)).toMatchObject({
      method: 'PUT',
      path: '/A/_b/C',
      query: [['p', '1']],
    });
  });
});
