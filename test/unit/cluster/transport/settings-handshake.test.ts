import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import {
  parsePortRange,
  readTransportSettings,
} from '../../../../src/cluster/transport/settings.js';
import { deserializeError, serializeError } from '../../../../src/cluster/transport/errors.js';
import {
  createStatsRecorder,
  nodeStatsTransport,
} from '../../../../src/cluster/transport/stats.js';
import {
  checkIdentity,
  computeProof,
  proofMatches,
  type NodeIdentity,
} from '../../../../src/cluster/transport/handshake.js';

describe('transport settings', () => {
  it('defaults: network.host, port 9300, 100mb, no secret', () => {
    expect(readTransportSettings({ 'network.host': '10.0.0.1' })).toEqual({
      host: '10.0.0.1',
      ports: [9300],
      maxContentLength: 100 * 1024 * 1024,
      connectTimeoutMs: 30000,
      secret: null,
    });
    expect(
      readTransportSettings({ 'network.host': '10.0.0.1', 'transport.host': '127.0.0.2' }).host,
    ).toBe('127.0.0.2');
  });

  it('reads ports, ranges and lists, and refuses nonsense', () => {
    expect(parsePortRange('0')).toEqual([0]);
    expect(parsePortRange('9300-9302')).toEqual([9300, 9301, 9302]);
    expect(parsePortRange('9300,9305-9306')).toEqual([9300, 9305, 9306]);
    for (const bad of ['x', '9400-9300', '70000', '', '1-2-3'])
      expect(() => parsePortRange(bad)).toThrow(
        `Failed to parse setting [transport.port] with value [${bad}] as a port range`,
      );
  });

  it('requires a secret with security on; reads it inline or from a file', () => {
    expect(() => readTransportSettings({ 'xpack.security.enabled': 'true' })).toThrow(EsError);
    expect(() =>
      readTransportSettings({ 'xpack.security.enabled': 'true', 'transport.auth.secret': '' }),
    ).toThrow(/neither \[transport.auth.secret\] nor \[transport.auth.secret_file\] is set/);
    expect(
      readTransportSettings({ 'xpack.security.enabled': 'true', 'transport.auth.secret': 'abc' })
        .secret,
    ).toEqual(Buffer.from('abc'));
    // A secret set while security is off is not used.
    expect(readTransportSettings({ 'transport.auth.secret': 'abc' }).secret).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'quarry-secret-'));
    try {
      const f = join(dir, 's');
      writeFileSync(f, 'from-file\r\n');
      expect(
        readTransportSettings({ 'xpack.security.enabled': 'true', 'transport.auth.secret_file': f })
          .secret,
      ).toEqual(Buffer.from('from-file'));
      expect(() =>
        readTransportSettings({
          'xpack.security.enabled': 'true',
          'transport.auth.secret_file': join(dir, 'missing'),
        }),
      ).toThrow(/cannot read \[transport.auth.secret_file\]/);
      expect(() =>
        readTransportSettings({
          'xpack.security.enabled': 'true',
          'transport.auth.secret_file': f,
          'transport.auth.secret': 'x',
        }),
      ).toThrow('only one of [transport.auth.secret] and [transport.auth.secret_file] may be set');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads transport.max_content_length as a byte size', () => {
    expect(readTransportSettings({ 'transport.max_content_length': '1kb' }).maxContentLength).toBe(
      1024,
    );
    expect(() => readTransportSettings({ 'transport.max_content_length': '0' })).toThrow(EsError);
  });
});

describe('transport error serialization', () => {
  it('round-trips type, reason, status, metadata, causes, root causes and headers', () => {
    const e = new EsError('search_phase_execution_exception', 'all shards failed', 503, {
      meta: { phase: 'query', grouped: true, failed_shards: [{ shard: 0 }] },
      causedBy: new EsError('query_shard_exception', 'bad', 400, {
        meta: { index: 'i' },
        causedBy: new EsError('number_format_exception', 'For input string: "x"', 400),
      }),
      rootCauses: [new EsError('query_shard_exception', 'bad', 400)],
      headers: { 'WWW-Authenticate': 'Basic' },
    });
    const back = deserializeError(JSON.parse(JSON.stringify(serializeError(e))));
    expect(back.toBody()).toEqual(e.toBody());
    expect(back.headers).toEqual(e.headers);
    expect(back.causedBy?.causedBy?.reason).toBe('For input string: "x"');
  });

  it('turns a malformed error into a transport error instead of throwing', () => {
    for (const bad of [null, 'x', { type: 1 }, { type: 't' }, []])
      expect(deserializeError(bad).type).toBe('transport_serialization_exception');
  });
});

describe('handshake checks', () => {
  const me: NodeIdentity = {
    clusterName: 'a',
    nodeId: 'A',
    nodeName: 'na',
    version: '1.4.2',
    esVersion: '6.8.13',
  };

  it('accepts the same cluster and major.minor, refuses the rest', () => {
    expect(checkIdentity(me, { ...me, nodeId: 'B', version: '1.4.9' }, 'h:1')).toBeNull();
    expect(checkIdentity(me, { ...me, clusterName: 'b' }, 'h:1')?.reason).toBe(
      'handshake failed, mismatched cluster name [Cluster [b]] - {na}{A}{h:1}: remote cluster name [b] does not match local cluster name [a]',
    );
    expect(checkIdentity(me, { ...me, version: '1.5.0' }, 'h:1')?.reason).toBe(
      'Received handshake message from unsupported version: [1.5.0] minimal compatible version is: [1.4.0] (local version [1.4.2], remote node {na}{A}{h:1})',
    );
    expect(checkIdentity(me, { ...me, esVersion: '7.0.0' }, 'h:1')?.reason).toMatch(
      /^Received handshake message from unsupported version: \[7\.0\.0\] minimal compatible version is: \[6\.8\.13\]/,
    );
    expect(checkIdentity(me, me, 'h:1', 'Z')?.type).toBe('connect_transport_exception');
  });

  it('binds proofs to the role, both nonces and both nodes', () => {
    const s = Buffer.from('secret');
    const p = computeProof(s, 'client', 'a', 'n1', 'n2', 'A', 'B');
    expect(proofMatches(p, computeProof(s, 'client', 'a', 'n1', 'n2', 'A', 'B'))).toBe(true);
    for (const other of [
      computeProof(s, 'server', 'a', 'n1', 'n2', 'A', 'B'),
      computeProof(s, 'client', 'a', 'n1', 'n3', 'A', 'B'),
      computeProof(s, 'client', 'a', 'n1', 'n2', 'A', 'C'),
      computeProof(s, 'client', 'b', 'n1', 'n2', 'A', 'B'),
      computeProof(Buffer.from('other'), 'client', 'a', 'n1', 'n2', 'A', 'B'),
    ])
      expect(proofMatches(p, other)).toBe(false);
    expect(proofMatches(p, undefined)).toBe(false);
    expect(proofMatches(p, 'short')).toBe(false);
  });
});

describe('transport stats', () => {
  it('counts globally and per peer, and renders ES TransportStats in its field order', () => {
    const r = createStatsRecorder();
    r.serverOpened();
    r.serverOpened();
    r.serverClosed();
    r.rx(100, null);
    r.rx(2048, 'B');
    r.tx(10, 'B');
    const s = r.snapshot();
    expect(s).toEqual({
      server_open: 1,
      rx_count: 2,
      rx_size_in_bytes: 2148,
      tx_count: 1,
      tx_size_in_bytes: 10,
      peers: { B: { rx_count: 1, rx_size_in_bytes: 2048, tx_count: 1, tx_size_in_bytes: 10 } },
    });
    expect(Object.entries(nodeStatsTransport(s, true))).toEqual([
      ['server_open', 1],
      ['rx_count', 2],
      ['rx_size', '2kb'],
      ['rx_size_in_bytes', 2148],
      ['tx_count', 1],
      ['tx_size', '10b'],
      ['tx_size_in_bytes', 10],
    ]);
    expect(Object.keys(nodeStatsTransport(s, false))).toEqual([
      'server_open',
      'rx_count',
      'rx_size_in_bytes',
      'tx_count',
      'tx_size_in_bytes',
    ]);
  });
});
