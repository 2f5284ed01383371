/**
 * `npm start` and `bin/quarry`'s shebang start a node with the same V8 flags and glibc tunables
 * as the launchers that import src/cli/node-launch.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GLIBC_TUNABLES, NODE_FLAGS, nodeLaunchEnv } from '../../../src/cli/node-launch.js';

const root = new URL('../../../', import.meta.url);
const expected = `GLIBC_TUNABLES=${GLIBC_TUNABLES} node ${NODE_FLAGS.join(' ')}`;

describe('node launch settings', () => {
  it('npm start uses them', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(pkg.scripts.start).toBe(`${expected} bin/quarry`);
  });

  it("bin/quarry's shebang uses them", () => {
    const first = readFileSync(new URL('bin/quarry', root), 'utf8').split('\n')[0];
    expect(first).toBe(`#!/usr/bin/env -S ${expected}`);
  });

  it('the launch environment keeps the caller environment and sets the tunables', () => {
    const env = nodeLaunchEnv({ PATH: '/bin', GLIBC_TUNABLES: 'x' });
    expect(env).toEqual({ PATH: '/bin', GLIBC_TUNABLES });
  });
});
