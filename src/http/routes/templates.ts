/** Index template APIs: PUT/GET/HEAD/DELETE `_template/{name}`. */
import { EsError } from '../../common/errors.js';
import { parseAliases } from '../../engine/alias-defs.js';
import { aliasJson } from '../../engine/alias-listing.js';
import { simpleMatch } from '../../engine/index-names.js';
import { nestSettings } from '../../engine/index-settings.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyObject, boolParam, type Handler } from '../rest.js';
import type { Router } from '../router.js';

const TYPES_WARNING =
  "[types removal] The parameter include_type_name should be explicitly specified in put template requests to prepare for 7.0. In 7.0 include_type_name will default to 'false', and requests are expected to omit the type name in mapping definitions.";

export function registerTemplateRoutes(router: Router<Handler>, node: NodeContext): void {
  const t = node.indices.templates;
  router.add(['PUT', 'POST'], '/_template/{name}', async (req) => {
    checkParams(req, [
      'create',
      'order',
      'timeout',
      'master_timeout',
      'flat_settings',
      'include_type_name',
    ]);
    const body = bodyObject(req);
    if (!body) throw new EsError('parse_exception', 'request body is required', 400);
    if (!req.query.has('include_type_name') && 'mappings' in body) req.warnings.push(TYPES_WARNING);
    await t.put(
      req.params.name!,
      body,
      boolParam(req, 'create', false),
      boolParam(req, 'include_type_name', true),
    );
    return { status: 200, body: { acknowledged: true } };
  });
  const get: Handler = (req) => {
    checkParams(req, ['flat_settings', 'local', 'master_timeout', 'include_type_name']);
    const names = req.params.name ? req.params.name.split(',') : null;
    const withType = boolParam(req, 'include_type_name', true);
    const flat = boolParam(req, 'flat_settings', false);
    const out: Record<string, unknown> = {};
    for (const tpl of t.all()) {
      if (names && !names.some((n) => simpleMatch(n, tpl.name))) continue;
      const mappings = withType ? tpl.mappings : (Object.values(tpl.mappings)[0] ?? {});
      out[tpl.name] = {
        order: tpl.order,
        ...(tpl.version !== undefined ? { version: tpl.version } : {}),
        index_patterns: tpl.indexPatterns,
        settings: flat ? tpl.settings : nestSettings(tpl.settings),
        mappings,
        aliases: Object.fromEntries(
          Object.entries(parseAliases(tpl.aliases)).map(([a, meta]) => [a, aliasJson(meta)]),
        ),
      };
    }
    if (names && Object.keys(out).length === 0) return { status: 404, body: {} };
    return { status: 200, body: out };
  };
  router.add('GET', '/_template', get);
  router.add('GET', '/_template/{name}', get);
  router.add('HEAD', '/_template/{name}', (req) => {
    const names = req.params.name!.split(',');
    const ok = t.all().some((tpl) => names.some((n) => simpleMatch(n, tpl.name)));
    return { status: ok ? 200 : 404 };
  });
  router.add('DELETE', '/_template/{name}', async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    const n = await t.delete(req.params.name!);
    if (n === 0) {
      throw new EsError(
        'index_template_missing_exception',
        `index_template [${req.params.name}] missing`,
        404,
      );
    }
    return { status: 200, body: { acknowledged: true } };
  });
}
