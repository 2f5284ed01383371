import { describe, expect, it } from 'vitest';
import { sourceAddressFor } from '../../../../src/cluster/transport/wire.js';

describe('the source address of outgoing transport connections', () => {
  it('is the bound host when it is one address of the peer family', () => {
    expect(sourceAddressFor('127.0.0.3', '127.0.0.2')).toBe('127.0.0.3');
    expect(sourceAddressFor('10.0.0.5', '10.0.0.6')).toBe('10.0.0.5');
    expect(sourceAddressFor('::1', '::1')).toBe('::1');
  });

  it('is left to the kernel for wildcards, names, other families and loopback to elsewhere', () => {
    expect(sourceAddressFor(null, '127.0.0.2')).toBeUndefined();
    expect(sourceAddressFor('0.0.0.0', '127.0.0.2')).toBeUndefined();
    expect(sourceAddressFor('::', '::1')).toBeUndefined();
    expect(sourceAddressFor('localhost', '127.0.0.2')).toBeUndefined();
    expect(sourceAddressFor('127.0.0.3', 'localhost')).toBeUndefined();
    expect(sourceAddressFor('127.0.0.3', '::1')).toBeUndefined();
    expect(sourceAddressFor('127.0.0.3', '10.0.0.6')).toBeUndefined();
  });
});
