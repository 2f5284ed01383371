/**
 * The cluster state's `version` and `state_uuid`. ES bumps the version with every published change
 * (an index created, a mapping or setting updated, an index closed); Quarry has no published
 * states, so it compares a fingerprint of the state at each read and bumps on any difference.
 * Changes between two reads count once; the version is not kept across restarts (nor is ES's).
 */
import { createHash } from 'node:crypto';
import { randomBase64Uuid } from '../common/ids.js';

export interface StateVersion {
  version: number;
  stateUuid: string;
}

export class StateVersions {
  private current: StateVersion = { version: 0, stateUuid: '' };
  private fingerprint: string | null = null;

  /** The version of a state whose full content is `state` (any JSON value). */
  observe(state: unknown): StateVersion {
    const fp = createHash('sha256').update(JSON.stringify(state)).digest('base64');
    if (fp !== this.fingerprint) {
      this.fingerprint = fp;
      this.current = { version: this.current.version + 1, stateUuid: randomBase64Uuid() };
    }
    return this.current;
  }
}
