/**
 * The three built-in roles and what they may do, as ES action-name patterns (ES: a role's
 * cluster and index privileges resolve to action patterns; `*` ends a prefix). Roles apply to
 * every index: there are no per-index grants.
 */

export type RoleName = 'superuser' | 'read' | 'write';

export const ROLE_NAMES: readonly RoleName[] = ['superuser', 'read', 'write'];

/** `read`: search and fetch documents, look at mappings, settings, health and the node. */
const READ: readonly string[] = [
  'cluster:monitor/main',
  'cluster:monitor/health',
  'cluster:monitor/state',
  'cluster:monitor/nodes/*',
  'cluster:monitor/xpack/info',
  'cluster:monitor/xpack/license/get',
  'indices:data/read/*',
  'indices:admin/get',
  'indices:admin/exists',
  'indices:admin/types/exists',
  'indices:admin/mappings/get',
  'indices:admin/mappings/fields/get',
  'indices:admin/aliases/get',
  'indices:admin/aliases/exists',
  'indices:admin/analyze',
  'indices:admin/validate/query',
  'indices:monitor/settings/get',
  'indices:monitor/stats',
];

/** `write`: read, plus document writes, by-query jobs and their tasks, index management. */
const WRITE: readonly string[] = [
  ...READ,
  'indices:data/write/*',
  'indices:admin/*',
  'cluster:monitor/task/get',
  'cluster:monitor/tasks/lists',
  'cluster:admin/reindex/rethrottle',
];

const GRANTS: Record<RoleName, readonly string[]> = {
  superuser: ['*'],
  read: READ,
  write: WRITE,
};

export function isRoleName(s: string): s is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(s);
}

function matches(pattern: string, action: string): boolean {
  return pattern.endsWith('*') ? action.startsWith(pattern.slice(0, -1)) : pattern === action;
}

/** Whether any of `roles` grants `action` (unknown role names grant nothing, as in ES). */
export function rolesAllow(roles: readonly string[], action: string): boolean {
  for (const r of roles) {
    if (!isRoleName(r)) continue;
    for (const p of GRANTS[r]) if (matches(p, action)) return true;
  }
  return false;
}

/** The patterns a role grants (for documentation and tests). */
export function roleGrants(role: RoleName): readonly string[] {
  return GRANTS[role];
}
