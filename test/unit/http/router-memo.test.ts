/** Router.find's memo of recent matches: the same answers as a fresh walk, parameters per call. */
import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/http/router.js';

const router = () => {
  const r = new Router<string>();
  r.add(['GET', 'POST'], '/{index}/_count', 'count');
  r.add('GET', '/{index}/_doc/{id}', 'get');
  return r;
};

describe('Router.find memo', () => {
  it('answers a repeated path as the first time, with parameters of its own', () => {
    const r = router();
    const a = r.find('POST', '/logs/_count');
    expect(a).toEqual({ handler: 'count', params: { index: 'logs' } });
    (a as { params: Record<string, string> }).params.index = 'changed';
    expect(r.find('POST', '/logs/_count')).toEqual({ handler: 'count', params: { index: 'logs' } });
    expect(r.find('GET', '/logs/_count')).toEqual({ handler: 'count', params: { index: 'logs' } });
    expect(r.find('POST', '/other/_count')).toEqual({
      handler: 'count',
      params: { index: 'other' },
    });
  });

  it('keeps decoding, 405s and malformed escapes as a walk gives them', () => {
    const r = router();
    for (let i = 0; i < 2; i++) {
      expect(r.find('GET', '/a%2Cb/_doc/x%20y')).toEqual({
        handler: 'get',
        params: { index: 'a,b', id: 'x y' },
      });
      expect(r.find('DELETE', '/logs/_count')).toEqual({ allowed: ['GET', 'POST'] });
      expect(() => r.find('GET', '/logs/_doc/%zz')).toThrow();
      expect(r.find('GET', '/nowhere/at/all/x')).toBeNull();
    }
  });

  it('sees routes added after a path was found', () => {
    const r = router();
    expect(r.find('GET', '/logs/_doc/_count')).toEqual({
      handler: 'get',
      params: { index: 'logs', id: '_count' },
    });
    r.add('GET', '/{index}/_doc/_count', 'typed-count');
    expect(r.find('GET', '/logs/_doc/_count')).toEqual({
      handler: 'typed-count',
      params: { index: 'logs' },
    });
    r.reserve(['GET'], '/{index}/_doc/_count');
    expect(r.find('GET', '/logs/_doc/_count')).toEqual({
      handler: 'typed-count',
      params: { index: 'logs' },
    });
  });

  it('stays right past its size', () => {
    const r = router();
    for (let i = 0; i < 2000; i++)
      expect(r.find('GET', `/i/_doc/${i % 700}`)).toEqual({
        handler: 'get',
        params: { index: 'i', id: String(i % 700) },
      });
  });
});
