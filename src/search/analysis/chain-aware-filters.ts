/**
 * Token filters that refer to other filters by name (ES getChainAwareTokenFilterFactory): the
 * multiplexer, and the scripted `condition` filter; plus `predicate_token_filter`. The registry
 * resolves the names in the analyzer's context once the chain is known (registry.ts).
 */
import { illegalArgument } from '../../common/errors.js';
import type { TokenFilterFactory } from './analyzer.js';
import { MultiplexFilter } from './filters/expanding-filters.js';
import {
  ConditionFilter,
  PredicateFilter,
  tokenPredicateCompiler,
  type ScriptToken,
} from './filters/script-filters.js';
import { boolParam, listParam, type Params } from './settings-params.js';
import type { TokenStream } from './token-stream.js';

const filter = (name: string, create: (input: TokenStream) => TokenStream): TokenFilterFactory => ({
  name,
  create,
});

/** Resolves filter names in the analyzer's context (the index's filters, then built-ins). */
export type FilterResolver = (name: string) => TokenFilterFactory | undefined;

/**
 * A filter that refers to other filters by name: the registry builds it once the names can be
 * resolved in the analyzer's context (ES getChainAwareTokenFilterFactory; see registry.ts).
 */
export interface ChainAwareFilter extends TokenFilterFactory {
  readonly withFilters: (resolve: FilterResolver) => TokenFilterFactory;
}

function chainAwareFilter(
  name: string,
  withFilters: (resolve: FilterResolver) => TokenFilterFactory,
): ChainAwareFilter {
  return {
    ...filter(name, () => {
      throw new Error(`[${name}] used before its filters were resolved`);
    }),
    withFilters,
  };
}

/** A chain of named filters as one stream transformation; `undefinedMessage` names a missing one. */
function resolveChain(
  names: readonly string[],
  resolve: FilterResolver,
  undefinedMessage: (missing: string) => string,
): (input: TokenStream) => TokenStream {
  const parts = names.map((n) => {
    const c = resolve(n);
    if (c === undefined) throw illegalArgument(undefinedMessage(n));
    return c;
  });
  return (input) => parts.reduce((s, c) => c.create(s), input);
}

/** ES MultiplexerTokenFilterFactory: each `filters` entry is a comma-separated chain of names. */
export function multiplexer(name: string, p: Params): TokenFilterFactory {
  const entries = Array.isArray(p['filters'])
    ? (p['filters'] as unknown[]).map(String)
    : (listParam(p, 'filters') ?? []);
  const preserveOriginal = boolParam(p, 'preserve_original', true);
  return chainAwareFilter(name, (resolve) => {
    const chains = entries.map((e) =>
      resolveChain(
        e.split(',').map((s) => s.trim()),
        resolve,
        (n) => `Multiplexing filter [${name}] refers to undefined tokenfilter [${n}]`,
      ),
    );
    return filter(name, (i) => new MultiplexFilter(i, chains, preserveOriginal));
  });
}

/** The script of a scripted filter, compiled by the registered script engine. */
function tokenPredicate(name: string, p: Params): (t: ScriptToken) => boolean {
  const compile = tokenPredicateCompiler();
  if (compile === null) throw illegalArgument(`scripts are not available to tokenfilter [${name}]`);
  const script = p['script'];
  if (script === undefined || script === null) {
    throw illegalArgument(`[script] is required for tokenfilter [${name}]`);
  }
  if (typeof script === 'object' && 'id' in (script as object)) {
    throw illegalArgument(`Cannot use stored scripts in tokenfilter [${name}]`);
  }
  return compile(script, name);
}

/** ES PredicateTokenFilterScriptFactory. */
export function predicateFilter(name: string, p: Params): TokenFilterFactory {
  const accepts = tokenPredicate(name, p);
  return filter(name, (i) => new PredicateFilter(i, accepts));
}

/** ES ScriptedConditionTokenFilterFactory. */
export function conditionFilter(name: string, p: Params): TokenFilterFactory {
  const names = listParam(p, 'filter') ?? [];
  if (names.length === 0) {
    throw illegalArgument(`Empty list of filters provided to tokenfilter [${name}]`);
  }
  const accepts = tokenPredicate(name, p);
  return chainAwareFilter(name, (resolve) => {
    const chain = resolveChain(
      names,
      resolve,
      (n) => `ScriptedConditionTokenFilter [${name}] refers to undefined token filter [${n}]`,
    );
    return filter(name, (i) => new ConditionFilter(i, accepts, chain));
  });
}
