/**
 * The body of a search template request (ES SearchTemplateRequest.fromXContent): an inline
 * template under `source` (or the older `inline` and `template`) as a string or an object, or a
 * stored template's `id`, with `params`, `explain` and `profile`.
 */
import { EsError } from '../../common/errors.js';
import { tokenOf } from '../../common/xcontent-token.js';

export interface SearchTemplateRequest {
  /** The inline template's text (an object template as its JSON). */
  readonly source?: string;
  /** A stored template's id. */
  readonly id?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly explain: boolean;
  readonly profile: boolean;
}

/** Parses a search template body; `pathId` (the `_render/template/{id}` form) names a stored one. */
export function parseSearchTemplateRequest(body: unknown, pathId?: string): SearchTemplateRequest {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw xcontent(`[search_template] unexpected token [${tokenOf(body)}], expected [{]`);
  let source: string | undefined;
  let id: string | undefined;
  let params: Record<string, unknown> = {};
  let explain = false;
  let profile = false;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    switch (k) {
      case 'source':
      case 'inline':
      case 'template':
        source = typeof v === 'string' ? v : JSON.stringify(v);
        break;
      case 'id':
        id = String(v);
        break;
      case 'params':
        if (v === null || typeof v !== 'object' || Array.isArray(v))
          throw xcontent(`[search_template] params doesn't support values of type: ${tokenOf(v)}`);
        params = v as Record<string, unknown>;
        break;
      case 'explain':
        explain = bool(k, v);
        break;
      case 'profile':
        profile = bool(k, v);
        break;
      default:
        throw xcontent(`[search_template] unknown field [${k}], parser not found`);
    }
  }
  if (pathId !== undefined) {
    id = pathId;
    source = undefined;
  }
  return {
    ...(id !== undefined ? { id } : source !== undefined ? { source } : {}),
    params,
    explain,
    profile,
  };
}

/** SearchTemplateRequest.validate: the problems that make the request invalid. */
export function searchTemplateProblems(r: SearchTemplateRequest): string[] {
  return r.id === undefined && (r.source === undefined || r.source === '')
    ? ['template is missing']
    : [];
}

function bool(field: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw xcontent(`[search_template] failed to parse field [${field}]`);
}

const xcontent = (reason: string) => new EsError('x_content_parse_exception', reason, 400);
