/**
 * Stored scripts as script parsing sees them (ES ScriptService.getScriptFromClusterState): a
 * `{"id": ...}` script resolves to the lang and source stored under that id. The node installs
 * the lookup over its stored scripts at start.
 */
import { EsError } from '../../common/errors.js';
import type { StoredScriptSource } from '../../engine/stored-scripts.js';

let lookup: (id: string) => StoredScriptSource | undefined = () => undefined;

export function setStoredScriptLookup(f: (id: string) => StoredScriptSource | undefined): void {
  lookup = f;
}

/** The stored script `id`; ES's 404 when there is none. */
export function storedScript(id: string): StoredScriptSource {
  const s = lookup(id);
  if (!s)
    throw new EsError(
      'resource_not_found_exception',
      `unable to find script [${id}] in cluster state`,
      404,
    );
  return s;
}
