/**
 * All indices of the node: create (explicitly or on first write), delete, restore at start, and
 * resolve index expressions. Index metadata is persisted in the store's `meta` database.
 */
import { resolveDateMathExpression } from './date-math-index.js';
import { EsError, invalidIndexName, resourceAlreadyExists } from '../common/errors.js';
import { randomBase64Uuid } from '../common/ids.js';
import { parseIndexMappings } from '../mapping/index.js';
import { checkIndexSortFields, indexSortSpecs } from './index-sort-settings.js';
import type { Store } from '../store/store.js';
import {
  aliasFilterFor,
  resolveExpressions,
  resolveSearchRouting,
  type AliasedIndex,
  type AliasFilter,
} from './alias-resolution.js';
import { metaKey, type AliasMeta, type IndexMeta } from './index-meta.js';
import { resolveIndexExpression, validateIndexName, type IndicesOptions } from './index-names.js';
import {
  flattenSettings,
  validateSettings,
  VERSION_CREATED,
  type FlatSettings,
} from './index-settings.js';
import { IndexService, SINGLE_MAPPING_NAME } from './index-service.js';
import { applyTemplates, TemplateService } from './templates.js';
import { parseAliases } from './alias-defs.js';
import { StoredScripts } from './stored-scripts.js';
import { dropCommits, dropUnownedBlobs } from './segment-commits.js';

export interface CreateIndexOptions {
  /** ES 6.8 `include_type_name` (default true: `mappings` is keyed by type name). */
  includeTypeName?: boolean;
  /** Checks an alias of the new index once its mapping is in place (its filter is a query). */
  checkAlias?: (index: IndexService, alias: string, def: AliasMeta) => void;
  /** The uuid and creation date the cluster gave the index (a node creating its copies). */
  uuid?: string;
  creationDate?: number;
  /**
   * The body is an index's metadata as the cluster published it, templates already applied on
   * the master: applied again here they could change it (a typed template over a typeless index).
   */
  published?: boolean;
}

export class IndicesService {
  private readonly indices = new Map<string, IndexService>();
  /** Serialises metadata changes (create/delete) like the ES master's cluster-state queue. */
  private metaQueue: Promise<unknown> = Promise.resolve();

  readonly templates: TemplateService;
  readonly scripts: StoredScripts;

  constructor(private readonly store: Store) {
    this.templates = new TemplateService(store);
    this.scripts = new StoredScripts(store);
  }

  /**
   * Restores every index from the store (ES: gateway recovery). An index that cannot be opened
   * (unreadable metadata, a mapping that no longer parses, a failing recovery) does not stop the
   * node: it stays listed, red, and serves nothing. Returns those failures for the start log.
   */
  load(): Array<{ index: string; reason: string }> {
    const failures: Array<{ index: string; reason: string }> = [];
    for (const key of this.store.metaKeys('index:')) {
      const name = key.slice('index:'.length);
      let raw: unknown;
      let svc: IndexService | undefined;
      try {
        raw = this.store.getMeta<unknown>(key);
        if (raw === undefined || raw === null) continue;
        svc = new IndexService(checkedMeta(raw, name), this.store);
        svc.recover();
        svc.scheduleRefresh();
        this.indices.set(name, svc);
      } catch (e) {
        const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        svc?.stop();
        if (svc) {
          svc.failed = true;
          svc.failure = reason;
        } else svc = IndexService.unavailable(name, raw, this.store, reason);
        this.indices.set(name, svc);
        failures.push({ index: name, reason });
      }
    }
    // Document databases no index owns (left by creations refused before the fix above) are
    // dropped; not when an index failed to load, as its database may be one its metadata lost.
    if (failures.length === 0) {
      const owned = new Set([...this.indices.values()].map((i) => i.uuid));
      for (const uuid of this.store.docDatabases())
        if (!owned.has(uuid)) void this.store.dropDocs(uuid).catch(() => {});
      dropUnownedBlobs(this.store, owned);
    }
    return failures;
  }

  /** Stops background work and writes commit points so the next start loads segments. */
  async close(): Promise<void> {
    for (const i of this.indices.values()) i.stop();
    await Promise.all([...this.indices.values()].map((i) => i.flush()));
  }

  get(name: string): IndexService | undefined {
    return this.indices.get(name);
  }

  all(): IndexService[] {
    return [...this.indices.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }

  /** Concrete indices for an expression like `logs-*,-logs-old,alias1`. */
  resolve(expression: string | string[] | undefined, opts: IndicesOptions): IndexService[] {
    const names = resolveIndexExpression(
      splitExpression(expression),
      this.all().map((i) => ({
        name: i.name,
        closed: i.closed,
        aliases: Object.keys(i.meta.aliases),
        throttled: i.searchThrottled,
      })),
      opts,
    );
    return names.map((n) => this.indices.get(n)!);
  }

  /**
   * ES TransportSearchAction.buildPerIndexAliasFilter: the alias filter of each of `targets` (the
   * concrete indices of `expression`) that has one (see alias-resolution.ts).
   */
  aliasFilters(
    expression: string | string[] | undefined,
    targets: readonly IndexService[],
  ): Map<IndexService, AliasFilter> {
    const out = new Map<IndexService, AliasFilter>();
    if (!targets.some((t) => hasFilteringAlias(t))) return out;
    const resolved = resolveExpressions(splitExpression(expression), this.aliasedIndices(), true);
    for (const t of targets) {
      const f = aliasFilterFor(aliasedIndex(t), resolved);
      if (f) out.set(t, f);
    }
    return out;
  }

  /** ES resolveSearchRouting: routing values per concrete index name, null for none. */
  searchRouting(
    expression: string | string[] | undefined,
    routing: string | undefined,
  ): Map<string, Set<string>> | null {
    // most searches name no routing and no alias has any: answered without sorting every index
    if (routing === undefined) {
      let any = false;
      for (const i of this.indices.values()) if ((any = hasSearchRouting(i.meta))) break;
      if (!any) return null;
    }
    return resolveSearchRouting(splitExpression(expression), this.aliasedIndices(), routing);
  }

  private aliasedIndices(): AliasedIndex[] {
    return this.all().map(aliasedIndex);
  }

  /** The index a write through alias `name` goes to (ES: the alias's single or write index). */
  resolveWriteAlias(name: string): IndexService | undefined {
    const targets = this.all().filter((i) => name in i.meta.aliases);
    if (targets.length === 0) return undefined;
    if (targets.length === 1 && targets[0]!.meta.aliases[name]!.is_write_index !== false)
      return targets[0];
    const w = targets.filter((i) => i.meta.aliases[name]!.is_write_index === true);
    if (w.length === 1) return w[0];
    throw new EsError(
      'illegal_argument_exception',
      `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
      400,
    );
  }

  /**
   * ES MetaData.resolveWriteIndexRouting: a write through an alias takes the `index_routing` of
   * the alias on its write index (a request routing must then be the same).
   */
  resolveWriteIndexRouting(name: string, routing: string | null): string | null {
    if (this.indices.has(name) || !this.aliasExists(name)) return routing;
    const idx = this.resolveWriteAlias(name)!;
    return aliasIndexRouting(name, idx.meta.aliases[name]!, routing);
  }

  /**
   * ES MetaData.resolveIndexRouting: a get through an alias takes its `index_routing`; the alias
   * must point to one index.
   */
  resolveIndexRouting(name: string, routing: string | null): string | null {
    if (this.indices.has(name)) return routing;
    const targets = this.all().filter((i) => name in i.meta.aliases);
    if (targets.length === 0) return routing;
    if (targets.length > 1)
      throw new EsError(
        'illegal_argument_exception',
        `Alias [${name}] has more than one index associated with it [[${targets.map((i) => i.name).join(', ')}]], can't execute a single index op`,
        400,
      );
    return aliasIndexRouting(name, targets[0]!.meta.aliases[name]!, routing);
  }

  aliasExists(name: string): boolean {
    for (const i of this.indices.values()) if (name in i.meta.aliases) return true;
    return false;
  }

  /** Runs metadata changes one at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.metaQueue.then(fn, fn);
    this.metaQueue = run.catch(() => undefined);
    return run;
  }

  create(
    name: string,
    body: Record<string, unknown> | undefined,
    opts: CreateIndexOptions = {},
  ): Promise<IndexService> {
    return this.serial(async () => {
      const svc = this.createNow(name, body, opts);
      await this.store.durable();
      return svc;
    });
  }

  /** Synchronous part of index creation (also used by auto-create inside a bulk). */
  createNow(
    name: string,
    body: Record<string, unknown> | undefined,
    opts: CreateIndexOptions = {},
  ): IndexService {
    // ES TransportCreateIndexAction: `<logs-{now/d}>` names the index of the day; the name as
    // given stays in `index.provided_name`
    const provided = name;
    name = resolveDateMathExpression(name, Date.now());
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) throw resourceAlreadyExists(name, existing.uuid);
    if (this.aliasExists(name)) throw invalidIndexName(name, 'already exists as alias');
    const b =
      (opts.published
        ? body
        : applyTemplates(
            this.templates.matching(name),
            settingsAtTopLevel(body),
            opts.includeTypeName !== false,
          )) ?? {};
    for (const k of Object.keys(b)) {
      if (!['settings', 'mappings', 'aliases'].includes(k)) {
        // ES 6.8 treats unknown top-level keys as settings only for legacy bodies; modern ones fail.
        throw new EsError('parse_exception', `unknown key [${k}] for create index`, 400);
      }
    }
    const userSettings: FlatSettings = flattenSettings(b.settings ?? {});
    validateSettings(userSettings, true);
    const settings: FlatSettings = {};
    for (const [k, v] of Object.entries(userSettings)) if (v !== null) settings[k] = v;
    settings['index.number_of_shards'] ??= '5';
    settings['index.number_of_replicas'] ??= '1';
    const uuid = opts.uuid ?? randomBase64Uuid();
    const now = opts.creationDate ?? Date.now();
    settings['index.creation_date'] = String(now);
    settings['index.uuid'] = uuid;
    settings['index.version.created'] = VERSION_CREATED;
    settings['index.provided_name'] = provided;
    const meta: IndexMeta = {
      name,
      uuid,
      creationDate: now,
      settings,
      mapping: null,
      aliases: parseAliases(b.aliases),
      state: 'open',
      primaryTerm: 1,
      version: 1,
    };
    for (const a of Object.keys(meta.aliases)) {
      if (this.indices.has(a))
        throw invalidIndexName(a, 'an index exists with the same name as the alias');
    }
    const svc = new IndexService(meta, this.store);
    try {
      if (b.mappings !== undefined) {
        const mappings =
          opts.includeTypeName === false ? { [SINGLE_MAPPING_NAME]: b.mappings } : b.mappings;
        const root = parseIndexMappings(mappings, svc.mappingContext());
        if (root) svc.applyDynamicUpdate(root);
      }
      // ES validates the index sort once the mapping is merged (not when resizing: the mapping
      // comes with the shards)
      if (!opts.published && settings['index.resize.source.name'] === undefined) {
        if (svc.mapping) svc.checkIndexSort(svc.mapping);
        else checkIndexSortFields(indexSortSpecs(settings), () => undefined, false);
      }
      for (const [alias, def] of Object.entries(meta.aliases)) opts.checkAlias?.(svc, alias, def);
    } catch (e) {
      // the service opened the index's document database: a refused creation must not keep it
      // (LMDB has a fixed number of them; leaked ones made every later creation fail)
      svc.stop();
      void this.store.dropDocs(uuid).catch(() => {});
      throw e;
    }
    this.indices.set(name, svc);
    svc.scheduleRefresh();
    void svc.persist();
    return svc;
  }

  delete(targets: IndexService[]): Promise<void> {
    return this.serial(async () => {
      for (const idx of targets) {
        if (this.indices.get(idx.name) !== idx) continue;
        this.indices.delete(idx.name);
        idx.stop();
        await this.store.removeMeta(metaKey(idx.name));
        await this.store.dropDocs(idx.uuid);
        await dropCommits(this.store, idx.uuid, idx.numberOfShards);
      }
    });
  }
}

/** The routing of a single-document operation through `alias` (ES MetaData, both resolvers). */
function aliasIndexRouting(alias: string, meta: AliasMeta, routing: string | null): string | null {
  const r = meta.index_routing;
  if (r === undefined) return routing;
  if (r.includes(','))
    throw new EsError(
      'illegal_argument_exception',
      `index/alias [${alias}] provided with routing value [${r}] that resolved to several routing values, rejecting operation`,
      400,
    );
  if (routing !== null && routing !== r)
    throw new EsError(
      'illegal_argument_exception',
      `Alias [${alias}] has index routing associated with it [${r}], and was provided with routing value [${routing}], rejecting operation`,
      400,
    );
  return r;
}

/** ES Strings.splitStringByCommaToArray: names are not trimmed ("fz " is not fz). */
function splitExpression(expression: string | string[] | undefined): string[] {
  if (expression === undefined) return [];
  return (Array.isArray(expression) ? expression : expression.split(',')).filter(
    (s) => s.length > 0,
  );
}

const aliasedIndex = (i: IndexService): AliasedIndex => ({
  name: i.name,
  closed: i.closed,
  aliases: i.meta.aliases,
});

const hasFilteringAlias = (i: IndexService): boolean =>
  Object.values(i.meta.aliases).some((a) => a.filter !== undefined && a.filter !== null);

const hasSearchRouting = (i: Pick<AliasedIndex, 'aliases'>): boolean =>
  Object.values(i.aliases).some((a) => a.search_routing !== undefined);

/** The stored record's shape, checked before anything is built from it. */
function checkedMeta(raw: unknown, name: string): IndexMeta {
  const m = raw as Partial<IndexMeta>;
  const problem =
    typeof raw !== 'object' || Array.isArray(raw)
      ? 'is not an object'
      : m.name !== name
        ? `names index [${String(m.name)}]`
        : typeof m.uuid !== 'string' || m.uuid.length === 0
          ? 'has no uuid'
          : typeof m.settings !== 'object' || m.settings === null
            ? 'has no settings'
            : typeof m.aliases !== 'object' || m.aliases === null
              ? 'has no aliases'
              : m.mapping !== null &&
                  (typeof m.mapping !== 'object' ||
                    typeof m.mapping.type !== 'string' ||
                    typeof m.mapping.json !== 'object')
                ? 'has a malformed mapping'
                : null;
  if (problem) throw new Error(`metadata of index [${name}] ${problem}`);
  return m as IndexMeta;
}

/**
 * ES 6.8 CreateIndexRequest.source: a body with none of `settings`, `mappings` and `aliases` is
 * the settings themselves (`{"number_of_shards": 2}`, `{"index": {...}}`).
 */
export function settingsAtTopLevel(
  body: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!body || Object.keys(body).length === 0) return body;
  const known = ['settings', 'mappings', 'aliases'].some((k) => k in body);
  return known ? body : { settings: body };
}
