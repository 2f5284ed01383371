/**
 * Stored scripts (ES ScriptMetaData / StoredScriptSource): put, get and delete by id, kept in the
 * meta database so they survive restarts. Painless scripts and mustache search templates.
 */
import { EsError, illegalArgument } from '../common/errors.js';
import type { Store } from '../store/store.js';
import { tokenOf } from '../common/xcontent-token.js';

/** One stored script: its lang, source and compiler options. */
export interface StoredScriptSource {
  lang: string;
  source: string;
  options?: Record<string, string>;
}

/** The content type ES records for a source given as an object (XContentType.JSON). */
const JSON_TYPE = 'application/json; charset=UTF-8';

const key = (id: string) => `script:${id}`;

/** ES `script.max_size_in_bytes`. */
export const MAX_SCRIPT_SIZE_BYTES = 65535;

/** StoredScriptSource.parse of a PUT body: `{"script": {"lang", "source" | "code", "options"}}`. */
export function parseStoredScript(body: unknown): StoredScriptSource {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw parsing(`unexpected token [${tokenOf(body)}], expected [{]`);
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > 0 && entries[0]![0] === 'template') {
    // the 5.x form `{"template": <source>}`, a mustache template (deprecated in 6.x)
    const t = entries[0]![1];
    if (typeof t === 'string') {
      if (t === '') throw illegalArgument('source cannot be empty');
      return { lang: 'mustache', source: t };
    }
    if (t === null || typeof t !== 'object') throw parsing(`unexpected token [${tokenOf(t)}], expected [{, <source>]`); // prettier-ignore
    return { lang: 'mustache', source: JSON.stringify(t), options: { content_type: JSON_TYPE } };
  }
  if (entries.length === 0 || entries[0]![0] !== 'script')
    throw illegalArgument('must specify lang for stored script');
  const script = entries[0]![1];
  if (script === null || typeof script !== 'object' || Array.isArray(script))
    throw parsing(`unexpected token [${tokenOf(script)}], expected [{, <source>]`);
  let lang: string | null = null;
  let source: string | null = null;
  const options: Record<string, string> = {};
  for (const [k, v] of Object.entries(script as Record<string, unknown>)) {
    if (k === 'lang') {
      if (typeof v !== 'string') throw parsing(`[stored script source] lang doesn't support values of type: ${tokenOf(v)}`); // prettier-ignore
      lang = v;
    } else if (k === 'source' || k === 'code') {
      // an object source is a mustache template, kept as its JSON text with its content type
      source = typeof v === 'string' ? v : JSON.stringify(v);
      if (typeof v !== 'string') options['content_type'] ??= JSON_TYPE;
    } else if (k === 'options') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw parsing(`[stored script source] options doesn't support values of type: ${tokenOf(v)}`); // prettier-ignore
      for (const [ok, ov] of Object.entries(v)) options[ok] = String(ov);
    }
    // ObjectParser with ignoreUnknownFields: other keys are skipped
  }
  if (lang === null) throw illegalArgument('must specify lang for stored script');
  if (lang === '') throw illegalArgument('lang cannot be empty');
  if (source === null) throw illegalArgument('must specify source for stored script');
  if (source === '') throw illegalArgument('source cannot be empty');
  const keys = Object.keys(options);
  if (keys.length > 1 || (keys.length === 1 && options['content_type'] === undefined)) {
    const shown = keys.map((k) => `${k}=${options[k]}`).join(', ');
    throw illegalArgument(`illegal compiler options [{${shown}}] specified`);
  }
  return { lang, source, ...(keys.length ? { options } : {}) };
}

export class StoredScripts {
  /** Called after every put or delete (a cluster's master publishes the scripts then). */
  onChange: (() => Promise<void>) | null = null;

  constructor(private readonly store: Store) {}

  /** Makes this node's stored scripts exactly `scripts` (what the cluster's master published). */
  async replaceAll(scripts: Readonly<Record<string, StoredScriptSource>>): Promise<void> {
    for (const id of Object.keys(this.all()))
      if (!(id in scripts)) await this.store.removeMeta(key(id));
    for (const [id, src] of Object.entries(scripts))
      if (JSON.stringify(this.get(id)) !== JSON.stringify(src))
        await this.store.putMeta(key(id), src);
  }

  get(id: string): StoredScriptSource | undefined {
    return this.store.getMeta<StoredScriptSource>(key(id));
  }

  /** Every stored script by id (cluster state `metadata.stored_scripts`). */
  all(): Record<string, StoredScriptSource> {
    const out: Record<string, StoredScriptSource> = {};
    for (const k of this.store.metaKeys('script:')) {
      const s = this.store.getMeta<StoredScriptSource>(k);
      if (s) out[k.slice('script:'.length)] = s;
    }
    return out;
  }

  async put(id: string, script: StoredScriptSource): Promise<void> {
    await this.store.putMeta(key(id), script);
    await this.store.durable();
    await this.onChange?.();
  }

  /** ScriptMetaData.deleteStoredScript. */
  async delete(id: string): Promise<void> {
    if (!this.get(id))
      throw new EsError(
        'resource_not_found_exception',
        `stored script [${id}] does not exist and cannot be deleted`,
        404,
      );
    await this.store.removeMeta(key(id));
    await this.store.durable();
    await this.onChange?.();
  }
}

const parsing = (reason: string) => new EsError('parsing_exception', reason, 400);
