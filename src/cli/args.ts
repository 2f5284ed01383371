/**
 * Command-line and config-file settings for `bin/quarry`: `--port`, `--host`, `--data`,
 * `--cluster-name`, `--node-name`, `--config`, and Elasticsearch-style `-E key=value`, on top of
 * an optional YAML config file (`config/quarry.yml`). Pure: returns NodeSettings or an error text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseByteSizeSimple } from './byte-size.js';
import type { NodeSettings } from '../node-context.js';

export interface ParsedArgs {
  settings: NodeSettings;
  help: boolean;
}

export const USAGE = `Usage: quarry [options]          (start a node)
       quarry import FILE --index NAME [options]   (quarry import --help)
       quarry export --index NAME [options]        (quarry export --help)
  --port N            HTTP port (default 9200; 0 picks a free port)
  --host ADDR         address to bind (default 127.0.0.1)
  --data DIR          data path (default ./data)
  --cluster-name NAME cluster name (default "elasticsearch")
  --node-name NAME    node name (default: first 7 characters of the node id)
  --config FILE       YAML settings file (default config/quarry.yml if present)
  --etcd URL,...      join a cluster coordinated by these etcd endpoints
                      (discovery.etcd.endpoints; without it the node runs alone)
  --transport-port N  node-to-node port (transport.port, default 9300); with security
                      on, nodes prove -E transport.auth.secret=... (or
                      transport.auth.secret_file) to each other
  --auth              require HTTP basic authentication (xpack.security.enabled=true);
                      manage users with bin/quarry-users
  -E key=value        any setting: http.port, network.host, path.data, cluster.name,
                      node.name, http.max_content_length, xpack.security.enabled,
                      xpack.security.users_file, store.lmdb.map_size, ...
  -h, --help          this help`;

function flatten(obj: unknown, prefix: string, out: Record<string, string>): void {
  if (obj === null || obj === undefined) return;
  if (typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
      flatten(v, prefix ? `${prefix}.${k}` : k, out);
    }
  } else {
    out[prefix] = Array.isArray(obj) ? obj.join(',') : String(obj);
  }
}

export function parseArgs(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}): ParsedArgs {
  const raw: Record<string, string> = {};
  let configFile: string | undefined;
  let help = false;
  const cli: Record<string, string> = {};
  const need = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`missing value for ${flag}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] =
      a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const val = (): string => {
      if (inline !== undefined) return inline;
      const v = need(i, flag);
      i++;
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        help = true;
        break;
      case '--port':
        cli['http.port'] = val();
        break;
      case '--host':
        cli['network.host'] = val();
        break;
      case '--data':
        cli['path.data'] = val();
        break;
      case '--cluster-name':
        cli['cluster.name'] = val();
        break;
      case '--node-name':
        cli['node.name'] = val();
        break;
      case '--config':
        configFile = val();
        break;
      case '--auth':
        cli['xpack.security.enabled'] = 'true';
        break;
      case '--etcd':
        cli['discovery.etcd.endpoints'] = val();
        break;
      case '--transport-port':
        cli['transport.port'] = val();
        break;
      case '-E': {
        const kv = val();
        const k = kv.indexOf('=');
        if (k <= 0) throw new Error(`setting [${kv}] must be of the form key=value`);
        cli[kv.slice(0, k)] = kv.slice(k + 1);
        break;
      }
      default:
        if (a.startsWith('-E') && a.length > 2) {
          const kv = a.slice(2);
          const k = kv.indexOf('=');
          if (k <= 0) throw new Error(`setting [${kv}] must be of the form key=value`);
          cli[kv.slice(0, k)] = kv.slice(k + 1);
        } else throw new Error(`unknown option [${a}]`);
    }
  }
  const cfgPath = configFile ? resolve(cwd, configFile) : resolve(cwd, 'config/quarry.yml');
  if (existsSync(cfgPath)) {
    flatten(parseYaml(readFileSync(cfgPath, 'utf8')), '', raw);
  } else if (configFile) {
    throw new Error(`config file [${cfgPath}] does not exist`);
  }
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith('QUARRY_') && v !== undefined)
      raw[k.slice(7).toLowerCase().replace(/__/g, '.')] = v;
  }
  Object.assign(raw, cli);
  // Like path.data, a relative users file is relative to where quarry was started.
  const usersFile = raw['xpack.security.users_file'];
  if (usersFile) raw['xpack.security.users_file'] = resolve(cwd, usersFile);
  const port = Number(raw['http.port'] ?? '9200');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid http.port [${raw['http.port']}]`);
  const maxContent = raw['http.max_content_length'] ?? '100mb';
  return {
    help,
    settings: {
      clusterName: raw['cluster.name'] ?? 'elasticsearch',
      nodeName: raw['node.name'] ?? null,
      host: raw['network.host'] ?? '127.0.0.1',
      port,
      dataPath: resolve(cwd, raw['path.data'] ?? 'data'),
      maxContentLength: parseByteSizeSimple(maxContent, 'http.max_content_length'),
      raw,
    },
  };
}
