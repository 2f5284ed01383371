/**
 * The connection handshake, as pure checks. Three messages on every new connection:
 *
 *   1. client → server  hello: identity + client nonce
 *   2. server → client  hello: identity + server nonce + server proof
 *   3. client → server  client proof (or the error that made the client give up)
 *
 * then the server acknowledges and the connection carries requests. Each side checks the other's
 * identity (cluster name, Quarry major.minor, ES version), so a mismatch reads clearly on both.
 * With security on, each proves it holds the shared secret with an HMAC over both nonces, its role
 * and both node ids: the secret never travels, and a proof cannot be replayed or reflected.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EsError, securityException } from '../../common/errors.js';
import { connectFailed } from './errors.js';

export const HANDSHAKE_ACTION = 'internal:tcp/handshake';
export const ES_VERSION = '6.8.13';

/** Who a node is, as its handshake states it. */
export interface NodeIdentity {
  readonly clusterName: string;
  readonly nodeId: string;
  readonly nodeName: string;
  /** Quarry's version. */
  readonly version: string;
  readonly esVersion: string;
}

export interface Hello extends NodeIdentity {
  readonly nonce: string;
  readonly security: boolean;
  /** Only in the server's hello, with security on. */
  readonly proof?: string;
}

export const newNonce = (): string => randomBytes(32).toString('base64');

export const helloBody = (me: NodeIdentity, nonce: string, security: boolean, proof?: string) => ({
  cluster_name: me.clusterName,
  node_id: me.nodeId,
  node_name: me.nodeName,
  version: me.version,
  es_version: me.esVersion,
  nonce,
  security,
  ...(proof !== undefined ? { proof } : {}),
});

const malformed = () =>
  new EsError('illegal_state_exception', 'handshake failed: malformed handshake message', 500);

export function parseHello(v: unknown): Hello {
  if (typeof v !== 'object' || v === null) throw malformed();
  const o = v as Record<string, unknown>;
  const str = (k: string) => {
    const x = o[k];
    if (typeof x !== 'string' || x.length > 4096) throw malformed();
    return x;
  };
  const proof = o.proof;
  if (proof !== undefined && typeof proof !== 'string') throw malformed();
  return {
    clusterName: str('cluster_name'),
    nodeId: str('node_id'),
    nodeName: str('node_name'),
    version: str('version'),
    esVersion: str('es_version'),
    nonce: str('nonce'),
    security: o.security === true,
    ...(proof !== undefined ? { proof } : {}),
  };
}

/** ES DiscoveryNode.toString, reduced to what a handshake knows. */
export const describeNode = (n: NodeIdentity, address: string) =>
  `{${n.nodeName}}{${n.nodeId}}{${address}}`;

const majorMinor = (v: string) => /^(\d+)\.(\d+)/.exec(v)?.slice(1, 3).join('.') ?? v;

/**
 * The remote identity's problem, from this node's point of view, or null. ES 6.8 words the
 * cluster name and version failures (TransportService.handshake, TcpTransport
 * ensureVersionCompatibility); the local side of each is added so one log line explains it.
 */
export function checkIdentity(
  local: NodeIdentity,
  remote: NodeIdentity,
  remoteAddress: string,
  expectedNodeId?: string,
): EsError | null {
  const who = describeNode(remote, remoteAddress);
  if (remote.clusterName !== local.clusterName)
    return new EsError(
      'illegal_state_exception',
      `handshake failed, mismatched cluster name [Cluster [${remote.clusterName}]] - ${who}: remote cluster name [${remote.clusterName}] does not match local cluster name [${local.clusterName}]`,
      500,
    );
  if (
    majorMinor(remote.version) !== majorMinor(local.version) ||
    remote.esVersion !== local.esVersion
  ) {
    const [remoteV, localV] =
      remote.esVersion !== local.esVersion
        ? [`${remote.esVersion}`, `${local.esVersion}`]
        : [remote.version, local.version];
    const minimal =
      remote.esVersion !== local.esVersion ? local.esVersion : `${majorMinor(local.version)}.0`;
    return new EsError(
      'illegal_state_exception',
      `Received handshake message from unsupported version: [${remoteV}] minimal compatible version is: [${minimal}] (local version [${localV}], remote node ${who})`,
      500,
    );
  }
  if (expectedNodeId !== undefined && remote.nodeId !== expectedNodeId)
    return connectFailed(
      { name: expectedNodeId, address: remoteAddress },
      `handshake failed. unexpected remote node ${who}`,
    );
  return null;
}

export type Role = 'client' | 'server';

/** HMAC-SHA256 of everything the proof must be bound to; the role keeps the two proofs apart. */
export function computeProof(
  secret: Buffer,
  role: Role,
  clusterName: string,
  clientNonce: string,
  serverNonce: string,
  clientNodeId: string,
  serverNodeId: string,
): string {
  return createHmac('sha256', secret)
    .update(
      JSON.stringify([
        'quarry-transport-v1',
        role,
        clusterName,
        clientNonce,
        serverNonce,
        clientNodeId,
        serverNodeId,
      ]),
    )
    .digest('base64');
}

export function proofMatches(expected: string, got: string | undefined | null): boolean {
  if (typeof got !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(got, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const authFailed = (direction: 'from' | 'to', address: string, why: string) =>
  securityException(
    `authentication failed for transport connection ${direction} [${address}]: ${why}`,
    401,
  );

/** Security must be on for both or neither: a secured node never talks to an open one. */
export function checkSecurityMode(
  localSecurity: boolean,
  remoteSecurity: boolean,
  direction: 'from' | 'to',
  address: string,
): EsError | null {
  if (localSecurity === remoteSecurity) return null;
  return authFailed(
    direction,
    address,
    localSecurity
      ? 'the remote node does not have security enabled'
      : 'the remote node requires authentication but security is disabled on this node',
  );
}
