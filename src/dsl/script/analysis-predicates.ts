/**
 * Gives the analysis layer's scripted token filters (`condition`, `predicate_token_filter`) this
 * script engine: a script sees the current token as `token` (ES AnalysisPredicateScript).
 */
import { registerTokenPredicateCompiler } from '../../search/analysis/index.js';
import { compileScript, parseScriptSpec } from './index.js';

registerTokenPredicateCompiler((json, where) => {
  const spec = parseScriptSpec(json, `${where}.script`);
  const script = compileScript(spec.source, {
    lang: spec.lang,
    params: spec.params,
    variables: ['token'],
  });
  return (token) => script.evaluate({ token }) === true;
});
