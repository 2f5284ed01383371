/**
 * Index templates (ES MetaDataIndexTemplateService): stored in the meta database, matched by
 * `index_patterns` at index creation, merged in `order` (higher wins) under the request's own
 * settings, mappings and aliases.
 */
import { illegalArgument, EsError } from '../common/errors.js';
import type { Store } from '../store/store.js';
import { parseAliases } from './alias-defs.js';
import { simpleMatch } from './index-names.js';
import { flattenSettings, validateSettings, type FlatSettings } from './index-settings.js';

export interface IndexTemplate {
  name: string;
  order: number;
  version?: number;
  indexPatterns: string[];
  settings: FlatSettings;
  /** `{type: mapping}` as given. */
  mappings: Record<string, unknown>;
  aliases: Record<string, unknown>;
}

const key = (name: string) => `template:${name}`;

export class TemplateService {
  /** Called after every put or delete (a cluster's master publishes the templates then). */
  onChange: (() => Promise<void>) | null = null;

  constructor(private readonly store: Store) {}

  /** Makes this node's templates exactly `list` (what the cluster's master published). */
  async replaceAll(list: readonly IndexTemplate[]): Promise<void> {
    const want = new Map(list.map((t) => [t.name, t]));
    for (const t of this.all()) if (!want.has(t.name)) await this.store.removeMeta(key(t.name));
    for (const t of list)
      if (JSON.stringify(this.get(t.name)) !== JSON.stringify(t))
        await this.store.putMeta(key(t.name), t);
  }

  all(): IndexTemplate[] {
    return this.store
      .metaKeys('template:')
      .map((k) => this.store.getMeta<IndexTemplate>(k))
      .filter((t): t is IndexTemplate => !!t)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  get(name: string): IndexTemplate | undefined {
    return this.store.getMeta<IndexTemplate>(key(name));
  }

  async put(
    name: string,
    body: Record<string, unknown>,
    create: boolean,
    includeTypeName: boolean,
  ): Promise<void> {
    // ES RestCreateIndexAction.prepareMappings, before the body is parsed: typeless mappings
    // cannot be wrapped in `_doc`
    const m = body.mappings;
    if (
      !includeTypeName &&
      m !== null &&
      typeof m === 'object' &&
      !Array.isArray(m) &&
      Object.keys(m).length === 1 &&
      Object.keys(m)[0] === '_doc'
    ) {
      throw illegalArgument(
        'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.',
      );
    }
    // ES order: the body parses (PutIndexTemplateRequest.source), validates, then is applied
    for (const k of Object.keys(body)) {
      if (
        ![
          'index_patterns',
          'template',
          'order',
          'version',
          'settings',
          'mappings',
          'aliases',
        ].includes(k)
      )
        // PutIndexTemplateRequest.source (the trailing space is ES's)
        throw new EsError('parse_exception', `unknown key [${k}] in the template `, 400);
    }
    let patterns = body.index_patterns ?? body.template;
    if (typeof patterns === 'string') patterns = [patterns];
    if (!Array.isArray(patterns) || patterns.length === 0) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: index patterns are missing;',
        400,
      );
    }
    if (create && this.get(name)) {
      throw illegalArgument(`index_template [${name}] already exists`);
    }
    const settings = flattenSettings(body.settings ?? {});
    validateSettings(settings, true);
    let mappings = (body.mappings ?? {}) as Record<string, unknown>;
    if (!includeTypeName && Object.keys(mappings).length) mappings = { _doc: mappings };
    const t: IndexTemplate = {
      name,
      order: Number(body.order ?? 0),
      indexPatterns: patterns.map(String),
      settings,
      mappings,
      aliases: parseAliases(body.aliases) as Record<string, unknown>,
    };
    if (body.version !== undefined && body.version !== null) t.version = Number(body.version);
    await this.store.putMeta(key(name), t);
    await this.store.durable();
    await this.onChange?.();
  }

  async delete(pattern: string): Promise<number> {
    let n = 0;
    for (const t of this.all()) {
      if (simpleMatch(pattern, t.name) || pattern === '_all') {
        await this.store.removeMeta(key(t.name));
        n++;
      }
    }
    await this.store.durable();
    if (n > 0) await this.onChange?.();
    return n;
  }

  /** Templates applying to `index`, lowest order first (later ones override). */
  matching(index: string): IndexTemplate[] {
    return this.all()
      .filter((t) => t.indexPatterns.some((p) => simpleMatch(p, index)))
      .sort((a, b) => a.order - b.order);
  }
}

function deepMerge(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const old = out[k];
    if (
      old &&
      v &&
      typeof old === 'object' &&
      typeof v === 'object' &&
      !Array.isArray(old) &&
      !Array.isArray(v)
    ) {
      out[k] = deepMerge(old as Record<string, unknown>, v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}

/** The create-index body after applying templates (request values win). */
export function applyTemplates(
  templates: IndexTemplate[],
  body: Record<string, unknown> | undefined,
  includeTypeName: boolean,
): Record<string, unknown> | undefined {
  if (!templates.length) return body;
  let settings: FlatSettings = {};
  let mappings: Record<string, unknown> = {};
  let aliases: Record<string, unknown> = {};
  for (const t of templates) {
    settings = { ...settings, ...t.settings };
    mappings = deepMerge(mappings, t.mappings);
    aliases = { ...aliases, ...t.aliases };
  }
  const b = body ?? {};
  settings = { ...settings, ...flattenSettings(b.settings ?? {}) };
  if (b.mappings !== undefined) {
    const reqMappings = (includeTypeName ? b.mappings : { _doc: b.mappings }) as Record<
      string,
      unknown
    >;
    // A typed template mapping and the request's type merge when they name the same type.
    const tplType = Object.keys(mappings)[0];
    const reqType = Object.keys(reqMappings)[0];
    if (tplType && reqType && tplType !== reqType && reqType === '_doc') {
      mappings = deepMerge(mappings, { [tplType]: reqMappings[reqType] });
    } else if (tplType === '_doc' && reqType && reqType !== '_doc') {
      // A typeless template applies to whatever type the request names.
      mappings = deepMerge({ [reqType]: mappings._doc }, reqMappings);
    } else mappings = deepMerge(mappings, reqMappings);
  }
  aliases = { ...aliases, ...((b.aliases ?? {}) as Record<string, unknown>) };
  const out: Record<string, unknown> = { settings };
  if (Object.keys(mappings).length)
    out.mappings = includeTypeName ? mappings : Object.values(mappings)[0];
  if (Object.keys(aliases).length) out.aliases = aliases;
  return out;
}
