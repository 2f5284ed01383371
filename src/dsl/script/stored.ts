/**
 * Stored scripts as script parsing sees them (ES ScriptService.getScriptFromClusterState): a
 * `{"id": ...}` script resolves to the lang and source stored under that id. The node installs
 * the lookup over its stored scripts at start.
 */
import { EsError } from '../../common/errors.js';
import type { StoredScriptSource } from '../../engine/stored-scripts.js';

let lookup: (id: string) => StoredScriptSource | undefined = () => undefined;

/**
 * Installs a node's lookup; the returned function removes it again if it is still the one
 * installed (a closed node's store must not be read).
 */
export function setStoredScriptLookup(
  f: (id: string) => StoredScriptSource | undefined,
): () => void {
  lookup = f;
  return () => {
    if (lookup === f) lookup = () => undefined;
  };
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
