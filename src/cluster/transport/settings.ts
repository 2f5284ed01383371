/**
 * The transport's settings, read from the node's flat settings: where to bind
 * (`transport.host`, else `network.host`; `transport.port` a port, a range `9300-9400` or 0),
 * the frame limit (`transport.max_content_length`, 100mb) and, with `xpack.security.enabled`, the
 * shared secret nodes prove to each other (`transport.auth.secret` or `transport.auth.secret_file`).
 */
import { readFileSync } from 'node:fs';
import { EsError, illegalArgument } from '../../common/errors.js';
import { parseByteSize, parseTimeValue } from '../../common/units.js';

export interface TransportSettings {
  readonly host: string;
  /** Ports to try in order; [0] binds an ephemeral port. */
  readonly ports: readonly number[];
  readonly maxContentLength: number;
  /** Also the handshake deadline, as ES's connect timeout bounds its handshake. */
  readonly connectTimeoutMs: number;
  /** Null when security is off. */
  readonly secret: Buffer | null;
}

export const DEFAULT_TRANSPORT_PORT = 9300;

/** ES PortsRange: `9300`, `9300-9400`, or a comma list of either. */
export function parsePortRange(value: string): number[] {
  const ports: number[] = [];
  const bad = () =>
    illegalArgument(
      `Failed to parse setting [transport.port] with value [${value}] as a port range`,
    );
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw bad();
    const from = Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : from;
    if (from > 65535 || to > 65535 || to < from) throw bad();
    for (let p = from; p <= to; p++) ports.push(p);
  }
  return ports;
}

const missingSecret = () =>
  new EsError(
    'settings_exception',
    '[xpack.security.enabled] is true but neither [transport.auth.secret] nor [transport.auth.secret_file] is set: nodes could not authenticate each other',
    500,
  );

function readSecret(raw: Readonly<Record<string, string>>): Buffer | null {
  const inline = raw['transport.auth.secret'];
  const file = raw['transport.auth.secret_file'];
  if (inline !== undefined && file !== undefined)
    throw new EsError(
      'settings_exception',
      'only one of [transport.auth.secret] and [transport.auth.secret_file] may be set',
      500,
    );
  let secret: string | undefined = inline;
  if (file !== undefined) {
    try {
      // A trailing newline is the editor's, not the secret's.
      secret = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new EsError(
        'settings_exception',
        `cannot read [transport.auth.secret_file] [${file}]: ${(e as Error).message}`,
        500,
      );
    }
  }
  if (secret === undefined || secret.length === 0) return null;
  return Buffer.from(secret, 'utf8');
}

export function readTransportSettings(raw: Readonly<Record<string, string>>): TransportSettings {
  const host = raw['transport.host'] ?? raw['network.host'] ?? '127.0.0.1';
  const ports = parsePortRange(raw['transport.port'] ?? String(DEFAULT_TRANSPORT_PORT));
  const maxContentLength = parseByteSize(
    raw['transport.max_content_length'] ?? '100mb',
    'transport.max_content_length',
  );
  if (maxContentLength <= 0 || maxContentLength > 0xffffffff)
    throw illegalArgument(
      `failed to parse setting [transport.max_content_length]: must be between [1b] and [4gb]`,
    );
  const connectTimeoutMs = parseTimeValue(
    raw['transport.connect_timeout'] ?? '30s',
    'transport.connect_timeout',
  );
  const security = raw['xpack.security.enabled'] === 'true';
  let secret: Buffer | null = null;
  if (security) {
    secret = readSecret(raw);
    if (!secret) throw missingSecret();
  }
  return { host, ports, maxContentLength, connectTimeoutMs, secret };
}
