import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args.js';
import { parseClusterArgs, planCluster } from '../../../src/cli/cluster-main.js';

describe('bin/quarry cluster flags', () => {
  it('--etcd and --transport-port set discovery.etcd.endpoints and transport.port', () => {
    const p = parseArgs(
      ['--etcd', 'http://127.0.0.1:2379,http://127.0.0.2:2379', '--transport-port=9301'],
      '/tmp',
    );
    expect(p.settings.raw['discovery.etcd.endpoints']).toBe(
      'http://127.0.0.1:2379,http://127.0.0.2:2379',
    );
    expect(p.settings.raw['transport.port']).toBe('9301');
  });

  it('a node without them has no etcd setting (it runs alone)', () => {
    expect(parseArgs([], '/tmp').settings.raw['discovery.etcd.endpoints']).toBeUndefined();
  });
});

describe('npm run cluster', () => {
  it('defaults to three nodes under ./data/cluster', () => {
    const o = parseClusterArgs([], '/work');
    expect(o).toMatchObject({ nodes: 3, dataDir: '/work/data/cluster', httpPort: 9200 });
  });

  it('puts node k on 127.0.0.k with its own data folder and the etcd endpoint', () => {
    const o = parseClusterArgs(['--nodes', '2', '--etcd-port', '12379', '-E', 'a=b'], '/w');
    const plan = planCluster(o);
    expect(plan.nodes.map((n) => n.host)).toEqual(['127.0.0.1', '127.0.0.2']);
    expect(plan.nodes[1]!.dataDir).toBe('/w/data/cluster/node-2');
    expect(plan.nodes[1]!.args).toEqual([
      '--host',
      '127.0.0.2',
      '--port',
      '9200',
      '--transport-port',
      '9300',
      '--data',
      '/w/data/cluster/node-2',
      '--node-name',
      'node-2',
      '--cluster-name',
      'elasticsearch',
      '--etcd',
      'http://127.0.0.1:12379',
      '-E',
      'a=b',
    ]);
    expect(plan.etcd).toContain('http://127.0.0.1:12380');
  });

  it('refuses bad options', () => {
    expect(() => parseClusterArgs(['--nodes', '0'], '/')).toThrow('invalid --nodes [0]: 1 to 9');
    expect(() => parseClusterArgs(['--nodes', '10'], '/')).toThrow('1 to 9');
    expect(() => parseClusterArgs(['--http-port', 'x'], '/')).toThrow('invalid --http-port [x]');
    expect(() => parseClusterArgs(['--bogus'], '/')).toThrow('unknown option [--bogus]');
  });
});
