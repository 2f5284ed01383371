/** The router's table of Elasticsearch 6.8 endpoints is the API specs' own list. */
import { describe, expect, it } from 'vitest';
import { ES_ENDPOINTS } from '../../../src/http/es-endpoints.js';
import { Router } from '../../../src/http/router.js';
import { loadApiSpecs } from '../../conformance/rest/api-spec.js';
import { apiDirFor, DEFAULT_TESTS_DIR } from '../../conformance/rest/paths.js';

describe('ES_ENDPOINTS', () => {
  it('lists every API of the 6.8.13 specs with its methods and paths', () => {
    const specs = loadApiSpecs(apiDirFor(DEFAULT_TESTS_DIR));
    const fromSpecs = [...specs.apis.values()]
      .map((a) => [a.name, a.methods, a.paths.map((p) => p.template.replace(/^(?!\/)/, '/'))])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const table = ES_ENDPOINTS.map(([n, m, p]) => [n, [...m], [...p]]).sort((a, b) =>
      String(a[0]).localeCompare(String(b[0])),
    );
    expect(table).toEqual(fromSpecs);
  });
});

describe('Router.reserve', () => {
  const router = new Router<string>();
  router.add('POST', '/{index}/{type}', 'index-doc');
  router.add('GET', '/{index}/_search', 'search');
  router.reserve(['POST'], '/{alias}/_rollover');
  router.reserve(['GET', 'POST'], '/{index}/_search');

  it('makes a reserved path answer as one without a route', () => {
    expect(router.find('POST', '/logs/_rollover')).toBeNull();
  });

  it('leaves the methods that have a handler alone', () => {
    expect(router.find('GET', '/logs/_search')).toEqual({
      handler: 'search',
      params: { index: 'logs' },
    });
    expect(router.find('POST', '/logs/_search')).toBeNull();
  });

  it('lets other paths reach the broader route', () => {
    expect(router.find('POST', '/logs/_doc')).toEqual({
      handler: 'index-doc',
      params: { index: 'logs', type: '_doc' },
    });
  });
});
