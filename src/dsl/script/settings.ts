/**
 * Node settings of Painless (ES PainlessPlugin/CompilerSettings). Regex literals stay disabled
 * (6.8's default): Quarry has no regex engine guarded against runaway backtracking.
 */

export const REGEX_ENABLED_SETTING = 'script.painless.regex.enabled';

export const REGEXES_DISABLED =
  "Regexes are disabled. Set [script.painless.regex.enabled] to [true] in elasticsearch.yaml to allow them. Be careful though, regexes break out of Painless's protection against deep recursion and long loops.";

/** Node-level (not dynamic) settings: a cluster settings update may not change them. */
export const STATIC_SCRIPT_SETTINGS: ReadonlySet<string> = new Set([REGEX_ENABLED_SETTING]);
