/** Search templates: mustache compile and render (ES 6.8 lang-mustache). */
import { EsError } from '../../common/errors.js';
import { MustacheSyntaxError, parseTemplate, type TemplateNode } from './parse.js';
import { renderTemplate, type TemplateEncoding } from './render.js';

export { parseTemplate, MustacheSyntaxError, type TemplateNode } from './parse.js';
export { renderTemplate, type TemplateEncoding } from './render.js';

/**
 * Compiles `source` as MustacheScriptEngine.compile does: a template that does not parse is a
 * script_exception carrying mustache.java's message.
 */
export function compileTemplate(source: string): TemplateNode[] {
  try {
    return parseTemplate(source);
  } catch (e) {
    if (!(e instanceof MustacheSyntaxError)) throw e;
    throw new EsError('script_exception', e.message, 400, {
      meta: { script_stack: [], script: source, lang: 'mustache' },
      causedBy: new EsError('mustache_exception', e.message, 500),
    });
  }
}

/** Compiles and renders `source` with `params`. */
export function renderSource(
  source: string,
  params: unknown,
  encoding: TemplateEncoding = 'json',
): string {
  return renderTemplate(compileTemplate(source), params ?? {}, encoding);
}
