/** `_analyze` (ES RestAnalyzeAction): analysis of text with an index's or the built-in analyzers. */
import { EsError } from '../../common/errors.js';
import { STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import { lookupField } from '../../mapping/index.js';
import {
  AnalysisRegistry,
  analyzeApi,
  collectDeprecations,
  DEFAULT_MAX_TOKEN_COUNT,
} from '../../search/analysis/index.js';
import { getInt } from '../../engine/index-settings.js';
import { indexAnalyzer } from '../../engine/analyzers.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, param, requireBodyOrSource, type Handler } from '../rest.js';
import type { Router } from '../router.js';

export function registerAnalyzeRoutes(router: Router<Handler>, node: NodeContext): void {
  const analyze: Handler = (req) => {
    checkParams(req, [
      'analyzer',
      'field',
      'text',
      'tokenizer',
      'filter',
      'char_filter',
      'explain',
      'attributes',
      'normalizer',
      'index',
    ]);
    requireBodyOrSource(req); // ES RestAnalyzeAction: request.contentOrSourceParamParser()
    let body = (bodyJson(req) ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || body === null)
      throw new EsError('parse_exception', 'request body or source parameter is required', 400);
    body = { ...body };
    for (const k of ['analyzer', 'field', 'tokenizer', 'normalizer']) {
      const v = param(req, k);
      if (v !== undefined && body[k] === undefined) body[k] = v;
    }
    const t = param(req, 'text');
    if (t !== undefined && body.text === undefined) body.text = t;
    for (const k of ['filter', 'char_filter']) {
      const v = param(req, k);
      if (v !== undefined && body[k] === undefined) body[k] = v.split(',');
    }
    const indexName = req.params.index ?? param(req, 'index');
    if (!indexName) {
      const out = collectDeprecations(req.warnings, () =>
        analyzeApi(body, AnalysisRegistry.builtin),
      );
      return { status: 200, body: out };
    }
    const idx = node.indices.resolve(indexName, STRICT_EXPAND_OPEN)[0];
    if (!idx) throw new EsError('index_not_found_exception', 'no such index', 404);
    const maxTokens = getInt(idx.meta.settings, 'index.analyze.max_token_count', DEFAULT_MAX_TOKEN_COUNT); // prettier-ignore
    return {
      status: 200,
      body: collectDeprecations(req.warnings, () =>
        analyzeApi(
          body,
          idx.analysis,
          (field) => {
            const f = idx.mapping ? lookupField(idx.mapping, field) : undefined;
            if (!f) return undefined;
            if (f.type === 'keyword') return idx.analysis.analyzer('keyword');
            return indexAnalyzer(idx, f);
          },
          maxTokens,
        ),
      ),
    };
  };
  router.add(['GET', 'POST'], '/_analyze', analyze);
  router.add(['GET', 'POST'], '/{index}/_analyze', analyze);
}
