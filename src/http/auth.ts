/**
 * HTTP basic authentication and role checks in front of every route (ES: SecurityRestFilter,
 * then AuthorizationService on the action the route runs). With security on, the router given
 * to the routes wraps each handler: authenticate from `Authorization`, map the route to its ES
 * action, check the user's roles, then run it. Paths without a route and OPTIONS stay
 * unauthenticated, as in ES. Also serves `_xpack/security/_authenticate`.
 */
import { actionFor } from '../security/actions.js';
import { unauthorized } from '../security/errors.js';
import { REALM, type AuthenticatedUser, type FileRealm } from '../security/file-realm.js';
import { rolesAllow } from '../security/roles.js';
import type { Handler, RestRequest } from './rest.js';
import { Router, type HttpMethod } from './router.js';

export type { FileRealm } from '../security/file-realm.js';

/** The user each authenticated request ran as (for `_authenticate`). */
const requestUser = new WeakMap<RestRequest, AuthenticatedUser>();

class SecuredRouter extends Router<Handler> {
  constructor(private readonly realm: FileRealm) {
    super();
  }

  override add(methods: HttpMethod | HttpMethod[], pattern: string, handler: Handler): void {
    const list = Array.isArray(methods) ? methods : [methods];
    const actions = new Map(list.map((m) => [m, actionFor(m, pattern)]));
    super.add(methods, pattern, async (req) => {
      const header = req.headers['authorization'];
      const user = await this.realm.authenticate(
        Array.isArray(header) ? header[0] : header,
        req.uri,
      );
      const action = actions.get(req.method) ?? actionFor(req.method, pattern);
      if (action !== null && !rolesAllow(user.roles, action))
        throw unauthorized(action, user.username);
      requestUser.set(req, user);
      return handler(req);
    });
  }
}

/** ES: Authentication.toXContent (6.8, as `GET _xpack/security/_authenticate` renders it). */
function authenticateBody(u: AuthenticatedUser): Record<string, unknown> {
  return {
    username: u.username,
    roles: u.roles,
    full_name: u.full_name,
    email: u.email,
    metadata: u.metadata,
    enabled: u.enabled,
    authentication_realm: { ...REALM },
    lookup_realm: { ...REALM },
  };
}

/** The router routes register on: plain without a realm, authenticating with one. */
export function securedRouter(realm: FileRealm | undefined): Router<Handler> {
  if (!realm) return new Router<Handler>();
  const router = new SecuredRouter(realm);
  const authenticate: Handler = (req) => ({
    status: 200,
    body: authenticateBody(requestUser.get(req)!),
  });
  router.add('GET', '/_xpack/security/_authenticate', authenticate);
  router.add('GET', '/_security/_authenticate', authenticate);
  return router;
}
