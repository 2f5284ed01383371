/**
 * `GET|POST /_scripts/painless/_execute` (ES PainlessExecuteAction.RestAction). Node-local: with
 * `context_setup.index` only that index's mapping and analyzers are read, which every node holds.
 */
import { illegalArgument } from '../../common/errors.js';
import type { IndicesOptions } from '../../engine/index-names.js';
import { executePainless, parsePainlessExecuteRequest } from '../../dsl/script/painless-execute.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, requireBodyOrSource, type Handler } from '../rest.js';
import type { Router } from '../router.js';

/** IndicesOptions.strictSingleIndexNoExpandForbidClosed. */
const SINGLE_INDEX: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: false,
  expandOpen: false,
  expandClosed: false,
  forbidClosed: true,
};

export function registerPainlessExecuteRoutes(router: Router<Handler>, node: NodeContext): void {
  router.add(['GET', 'POST'], '/_scripts/painless/_execute', (req) => {
    checkParams(req, []);
    requireBodyOrSource(req);
    const request = parsePainlessExecuteRequest(bodyJson(req));
    const name = request.setup?.index ?? null;
    let idx = null;
    if (name !== null) {
      const found = node.indices.resolve(name, SINGLE_INDEX);
      if (found.length !== 1) throw illegalArgument(`[${name}] does not resolve to a single index`);
      idx = found[0]!;
    }
    const result = executePainless(request, idx, (m) => req.warnings.push(m));
    return { status: 200, body: { result } };
  });
}
