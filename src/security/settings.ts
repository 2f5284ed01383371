/**
 * Security settings: `xpack.security.enabled` (default false; `--auth` sets it) and
 * `xpack.security.users_file` (default `<path.data>/users.json`, relative paths against the
 * working directory). Pure: reads the flat settings map.
 */
import { isAbsolute, join, resolve } from 'node:path';

export interface SecuritySettings {
  enabled: boolean;
  usersFile: string;
}

export const USERS_FILE_NAME = 'users.json';

/** ES Booleans.parseBoolean for settings: only `true` and `false`. */
function parseBool(key: string, value: string | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(
    `Failed to parse value [${value}] for setting [${key}]: only [true] or [false] are allowed.`,
  );
}

export function securitySettings(
  raw: Record<string, string>,
  dataPath: string,
  cwd: string = process.cwd(),
): SecuritySettings {
  const file = raw['xpack.security.users_file'];
  return {
    enabled: parseBool('xpack.security.enabled', raw['xpack.security.enabled'], false),
    usersFile:
      file === undefined || file === ''
        ? join(dataPath, USERS_FILE_NAME)
        : isAbsolute(file)
          ? file
          : resolve(cwd, file),
  };
}

/** Whether a bind address only accepts local connections. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1'
  );
}
